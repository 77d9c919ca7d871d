"""A seat's private view: its cards sorted by suit and buttons for exactly its legal actions.

Built from a :class:`~baloot.engine.view.SeatView` only, so it cannot show another
seat's cards. Layout (≤ 3 of Discord's 5 rows): one row of action buttons
(bids, confirm/switch, round-two suits, the doubling chain, declare), then the
cards in one or two rows — legal plays enabled, every other card disabled.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from ..engine.actions import Action, ActionType
from ..engine.cards import Card, mask_of
from ..engine.hand import Phase
from ..engine.projects import Project, best_projects
from ..engine.quick_init import quick_init
from ..engine.view import PublicView, SeatView
from ..i18n import resolve_locale, t
from ..i18n.direction import orient_payload
from ..i18n.plural import count
from .components import DANGER, PRIMARY, SECONDARY, SUCCESS, balanced_rows, button, rows
from .custom_ids import CustomIdError, action_code, action_id_prefix, play_code
from .limits import DESCRIPTION, FIELD_VALUE, clip
from .model import Payload, RenderInfo
from .sections import (
    bid_lines,
    contract_line,
    doubling_line,
    is_confirmation,
    last_trick,
    notice_text,
    project_lines,
    trick_lines,
    up_card_text,
)
from .table import NO_MENTIONS, PHASE_COLORS
from .text import action_text, card_text, cards_text, projects_text, seat_name, sort_cards, team_name, timestamp

_STYLES: Final = {
    ActionType.PASS: SECONDARY,
    ActionType.HOKUM: PRIMARY,
    ActionType.SUN: PRIMARY,
    ActionType.ASHKAL: PRIMARY,
    ActionType.KAWESH: SECONDARY,
    ActionType.DOUBLE: DANGER,
    ActionType.TRIPLE: DANGER,
    ActionType.FOUR: DANGER,
    ActionType.GAHWA: DANGER,
    ActionType.DECLARE: SUCCESS,
    ActionType.SAWA: SUCCESS,  # R12: offered only when the claim holds
}
_RED_SUITS: Final = (1, 2)  # hearts, diamonds


def start_hand(view: SeatView) -> tuple[Card, ...]:
    """The seat's cards when play began: held now plus those it has played (R6.2)."""
    played = [c for trick in view.tricks for s, c in trick.cards if s == view.seat]
    if view.current_trick is not None:
        played += [c for s, c in view.current_trick.cards if s == view.seat]
    return (*view.hand, *played)


def own_projects(view: SeatView) -> tuple[Project, ...]:
    """What a ``declare`` would announce for this seat (R6.1, judged on the starting hand)."""
    sun = view.contract == "sun"
    return best_projects(
        mask_of(start_hand(view)), sun, None if sun else view.trump, view.rules.trump_sequence_priority
    )


def action_label(view: SeatView, action: Action, locale: str) -> str:
    """A button's words: ``Hokum (confirm)``, ``Double (locked)``, ``Declare: Sira A-K-Q ♥``."""
    if action.type is ActionType.DECLARE:
        return t("project.declare_button", locale, projects=projects_text(own_projects(view), locale))
    confirming = (
        view.phase == Phase.BIDDING
        and action.type in (ActionType.HOKUM, ActionType.SUN)
        and is_confirmation((*view.bids, action), len(view.bids))
    )
    return action_text(action, locale, confirming=confirming)


def hand_components(info: RenderInfo, view: SeatView, hand_no: int, locale: str,
                    held: list[Card] | None = None,
                    card_emojis: Mapping[int, Mapping[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Action buttons for every legal non-card action, then every held card (legal ones enabled).

    ``held``: the seat's cards already sorted (:func:`~.text.sort_cards`), when the caller has them.
    ``card_emojis``: Discord's JSON of the emoji shown beside a card's text, by card index
    (the application's card emojis, as far as the bot has them).
    """
    seat = view.seat
    prefix = action_id_prefix(info.table_id, seat, (hand_no, len(view.history)))
    actions = []
    playable = set()
    for action in view.legal:
        if action.seat != seat:
            raise CustomIdError(f"action {action} is not seat {seat}'s")
        if action.type is ActionType.PLAY:
            playable.add(action.card)
        else:
            actions.append(button(action_label(view, action, locale), prefix + action_code(action),
                                  _STYLES[action.type]))
    cards: list[dict[str, Any]] = []
    for card in held if held is not None else sort_cards(view.hand, view.trump, view.contract == "sun"):
        button_json: dict[str, Any] = {
            "type": 2, "style": DANGER if card.suit in _RED_SUITS else PRIMARY,
            "label": card_text(card, locale),  # a card's label: ≤ 10 characters
            "custom_id": prefix + play_code(card), "disabled": card not in playable,
        }
        emoji = None if card_emojis is None else card_emojis.get(card.index)
        if emoji is not None:
            button_json["emoji"] = emoji
        cards.append(button_json)
    return rows(actions) + balanced_rows(cards)


def _status(info: RenderInfo, view: SeatView, locale: str) -> str:
    if info.closed is not None:  # closed: nobody's turn any more, whatever the hand was at
        return notice_text(info.closed, info, locale) or t("hand.over", locale)
    if view.phase == Phase.FINISHED:
        return t("hand.over", locale)
    if view.to_move == view.seat:
        if info.turn_deadline is None:
            return t("hand.your_turn_no_deadline", locale)
        return t("hand.your_turn", locale, deadline=timestamp(info.turn_deadline))
    if view.to_move is None:
        return t("hand.over", locale)
    return t("hand.waiting_for", locale, name=seat_name(info, view.to_move, locale))


@quick_init
@dataclass(frozen=True, slots=True)
class SharedFields:
    """The embed fields every seat's view of one hand state shows alike, in one locale.

    Drawn from the public fields only (the same in each seat's view), so one
    drawing serves the four private views refreshed after an action. The
    tricks and score lines depend on the viewer's team ("us"/"them"): they are
    kept per team.
    """

    up_card: str | None
    contract: str | None
    doubling: str | None
    bids: str | None
    current: str | None
    last_name: str
    last: str | None
    teams: tuple[tuple[str | None, str], tuple[str | None, str]]  # (tricks, score) for a viewer of team 0, 1


def shared_fields(info: RenderInfo, view: SeatView, locale: str) -> SharedFields:
    """:class:`SharedFields` of ``view``'s hand state, drawn once per public view and locale.

    The four seat views of one snapshot share one :class:`~baloot.engine.view.PublicView`
    object; the last few drawings are kept by its identity (the cache holds the
    object, so the identity cannot be reused) with the names they were drawn with.
    """
    public = view.public
    if public is None:
        return _draw_shared(info, view, locale)
    key = (id(public), locale)
    names = (info.names, info.is_bot, info.away)
    entry = _SHARED.get(key)
    if entry is not None and entry[0] is public and entry[1] == names:
        return entry[2]
    fields = _draw_shared(info, view, locale)
    if len(_SHARED) >= _SHARED_LIMIT:
        del _SHARED[next(iter(_SHARED))]
    _SHARED[key] = (public, names, fields)
    return fields


_SHARED_LIMIT: Final = 16
_SHARED: dict[tuple[int, str], tuple[PublicView, tuple[object, ...], SharedFields]] = {}


def _team_lines(info: RenderInfo, view: SeatView, locale: str, viewer_team: int) -> tuple[str | None, str]:
    us, them = viewer_team, 1 - viewer_team
    tricks = None if view.phase < Phase.PLAYING else "\n".join(
        t("table.tricks_line", locale, team=team_name(info, team, locale, viewer=viewer_team),
          tricks=count("tricks", view.tricks_won[team], locale),
          points=count("points", view.card_points[team], locale)) for team in (us, them))
    score = "\n".join(
        t("table.score_line", locale, team=team_name(info, team, locale, viewer=viewer_team),
          points=view.match_score[team] + (view.hand_score or (0, 0))[team]) for team in (us, them))
    return tricks, score


def _draw_shared(info: RenderInfo, view: SeatView, locale: str) -> SharedFields:
    last = last_trick(view)
    return SharedFields(
        up_card=up_card_text(view, locale),
        contract=contract_line(view, info, locale),
        doubling=doubling_line(view, info, locale),
        bids=bid_lines(view, info, locale) if view.phase == Phase.BIDDING else None,
        current=None if view.current_trick is None else trick_lines(view.current_trick, info, locale),
        last_name=t("table.last_trick", locale, name=seat_name(info, last.winner or 0, locale)) if last else "",
        last=None if last is None else trick_lines(last, info, locale),
        teams=(_team_lines(info, view, locale, 0), _team_lines(info, view, locale, 1)),
    )


@lru_cache(maxsize=8)
def _labels(locale: str) -> tuple[str, ...]:
    """The private embed's field names that do not change, in ``locale`` (looked up once)."""
    return tuple(t(key, locale) for key in (
        "hand.cards", "hand.no_cards", "table.up_card", "table.contract", "table.doubling", "table.bids",
        "table.projects", "table.current_trick", "table.tricks", "table.match_score"))


def hand_embed(info: RenderInfo, view: SeatView, hand_no: int, locale: str,
               held: list[Card] | None = None) -> dict[str, Any]:
    """The private embed: status, the public state needed to play, the cards, us/them counts."""
    seat = view.seat
    description = [_status(info, view, locale), t("hand.partner", locale, name=seat_name(info, (seat + 2) % 4, locale))]
    notice = notice_text(info.notice, info, locale)
    if notice is not None:
        description.append(notice)
    shared = shared_fields(info, view, locale)
    tricks, score = shared.teams[seat & 1]
    if held is None:
        held = sort_cards(view.hand, view.trump, view.contract == "sun")
    cards_label, no_cards, up_card, contract, doubling, bids, projects, current, tricks_label, match_score = (
        _labels(locale))
    candidates: list[tuple[str, str | None, bool]] = [
        (cards_label, cards_text(held, locale) or no_cards, False),
        (up_card, shared.up_card, True),
        (contract, shared.contract, True),
        (doubling, shared.doubling, True),
        (bids, shared.bids, False),
        (projects, project_lines(view, info, locale), True),
        (current, shared.current, True),
        (shared.last_name, shared.last, True),
        (tricks_label, tricks, False),
        (match_score, score, True),
    ]
    fields = [
        {"name": name, "value": value if len(value) <= FIELD_VALUE else clip(value, FIELD_VALUE), "inline": inline}
        for name, value, inline in candidates
        if value is not None
    ]
    return {
        "title": t("table.title", locale, n=hand_no + 1) + " · " + t("hand.title", locale, name=seat_name(
            info, seat, locale, marks=False)),
        "description": clip("\n".join(description), DESCRIPTION),
        "color": PHASE_COLORS[view.phase],
        "fields": fields,
        "footer": {"text": t("table.footer", locale, table=info.table_id)},
    }


def render_hand(info: RenderInfo, view: SeatView, hand_no: int, locale: str,
                card_emojis: Mapping[int, Mapping[str, Any]] | None = None) -> Payload:
    """The private message (DM or ephemeral reply) of ``view.seat`` for hand ``hand_no`` (0-based).

    ``locale`` is the viewer's (their Discord locale). Button custom_ids carry
    the version ``(hand_no, len(view.history))`` (see :mod:`.custom_ids`).
    ``card_emojis``: see :func:`hand_components`.
    """
    loc = resolve_locale(locale)
    held = sort_cards(view.hand, view.trump, view.contract == "sun")
    return orient_payload({
        "content": "",
        "embeds": [hand_embed(info, view, hand_no, loc, held)],
        "components": hand_components(info, view, hand_no, loc, held, card_emojis)
        if view.phase != Phase.FINISHED and info.closed is None else [],
        "allowed_mentions": NO_MENTIONS,
    }, loc)


def render_plays_elsewhere(info: RenderInfo, seat: int, hand_no: int, channel: str, locale: str) -> Payload:
    """The DM of a player who plays in an ephemeral "My hand" view.

    It says plainly where play continues and shows no cards and no buttons, so it
    never goes stale: it is redrawn once, not at every trick (each DM edit spends
    the bot token's global limit), and becomes the live view again when that
    ephemeral view's token runs out.
    """
    loc = resolve_locale(locale)
    return orient_payload({
        "content": "",
        "embeds": [{
            "title": t("table.title", loc, n=hand_no + 1) + " · " + t("hand.title", loc, name=seat_name(
                info, seat, loc, marks=False)),
            "description": t("hand.plays_elsewhere", loc, channel=channel),
            "color": PHASE_COLORS[Phase.PLAYING],
            "footer": {"text": t("table.footer", loc, table=info.table_id)},
        }],
        "components": [],
        "allowed_mentions": NO_MENTIONS,
    }, loc)
