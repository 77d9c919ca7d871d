"""Pieces of the public state shared by the table message and the private view.

The table message passes a :class:`~baloot.engine.view.PublicView` (it holds no hidden
card); the private view passes the seat's :class:`~baloot.engine.view.SeatView`, whose
public fields are the same. Every function reads only those public fields
(bids, contract, doubling, declared projects, played cards, counts) plus, for a
seat's view, the seat's own declared projects.
"""

from __future__ import annotations

from ..engine.actions import Action, ActionType
from ..engine.cards import Card
from ..engine.hand import Phase
from ..engine.projects import Project
from ..engine.view import PublicView, SeatView, TrickView
from ..i18n import t
from ..i18n.plural import count
from .model import Notice, RenderInfo
from .text import (
    PLAIN_RANKING,
    TRUMP_RANKING,
    action_text,
    card_text,
    contract_text,
    escape,
    level_text,
    project_name,
    projects_text,
    seat_name,
    timestamp,
)

PLURAL_PARAMS = ("seconds",)
"""Notice parameters that are counts, said in the locale's plural form (:func:`~baloot.i18n.plural.count`)."""

View = PublicView | SeatView
"""What a section may be drawn from: the public view, or a seat's view for its own private message."""


def shown_of(view: View) -> tuple[tuple[int, tuple[Project, ...]], ...]:
    """Projects whose cards the viewer sees (R6.2): the public ones, plus a seat's own."""
    return view.declared if isinstance(view, SeatView) else view.shown


def is_confirmation(bids: tuple[Action, ...], index: int) -> bool:
    """R3.1 C / R3.2: a Hokum or Sun by a seat that already bid Hokum confirms or switches."""
    action = bids[index]
    if action.type not in (ActionType.HOKUM, ActionType.SUN) or action.suit is not None:
        return False
    return any(b.seat == action.seat and b.type is ActionType.HOKUM for b in bids[:index])


def bid_lines(view: View, info: RenderInfo, locale: str) -> str:
    """Every bid in order, one per line: ``Ali: Pass``; the start of round two marked (R3.2:
    it comes after four passes in round one, R3.1 step A)."""
    if not view.bids:
        return t("table.no_bids", locale)
    lines = []
    for i, a in enumerate(view.bids):
        if i == 4 and all(b.type is ActionType.PASS for b in view.bids[:4]):
            lines.append(t("table.round_two", locale))
        lines.append(t(
            "action.by",
            locale,
            name=seat_name(info, a.seat, locale),
            action=action_text(a, locale, confirming=is_confirmation(view.bids, i)),
        ))
    return "\n".join(lines)


def contract_line(view: View, info: RenderInfo, locale: str) -> str | None:
    """``Hokum Hearts ♥ — Ali`` (or the Ashkal bidder for the taker); None while bidding."""
    if view.taker is None or view.contract is None:
        return None
    text = contract_text(view.contract, view.trump, locale)
    bids = [b for b in view.bids if b.type is not ActionType.PASS]
    if bids and bids[-1].type is ActionType.ASHKAL:
        return t(
            "table.ashkal_by",
            locale,
            contract=t("contract.ashkal", locale),
            bidder=seat_name(info, bids[-1].seat, locale),
            name=seat_name(info, view.taker, locale),
        )
    return t("table.contract_by", locale, contract=text, name=seat_name(info, view.taker, locale))


def doubling_line(view: View, info: RenderInfo, locale: str) -> str | None:
    """The level, locked/open, and the chain (R4); None before doubling or with no double."""
    if view.level <= 1 and not any(a.type is not ActionType.PASS for a in view.doubling):
        return None
    lock = t("play.locked" if view.locked else "play.open", locale)
    head = t("table.doubling_value", locale, level=level_text(view.level, locale), lock=lock)
    chain = t("list.sep", locale).join(
        t("action.by", locale, name=seat_name(info, a.seat, locale), action=action_text(a, locale))
        for a in view.doubling
        if a.type is not ActionType.PASS
    )
    return f"{head}\n{chain}" if chain else head


def project_lines(view: View, info: RenderInfo, locale: str) -> str | None:
    """Declared projects: their kind when declared; after the first trick, which
    team won and the cards of the projects shown (R6.2: the losing team's are never shown)."""
    announced = [(seat, kinds) for seat, kinds in view.announced if kinds]
    if not announced:
        return None
    shown = dict(shown_of(view))
    compared = bool(view.tricks)
    lines = []
    for seat, kinds in announced:
        if compared and seat in shown:
            text = projects_text(shown[seat], locale, cards=True)
        else:
            text = t("project.and", locale).join(project_name(k.value, locale) for k in kinds)
        key = "table.project_declared"
        if compared and view.project_team is not None:
            key = "table.project_won" if seat & 1 == view.project_team else "table.project_lost"
        lines.append(t(key, locale, name=seat_name(info, seat, locale), projects=text))
    return "\n".join(lines)


def baloot_line(view: View, info: RenderInfo, locale: str) -> str | None:
    """``Baloot: Ali`` once the holder has played both K and Q of trumps (R6.3)."""
    if view.baloot_announced is None:
        return None
    return t("table.baloot_by", locale, baloot=t("baloot", locale), name=seat_name(info, view.baloot_announced, locale))


def trick_lines(trick: TrickView, info: RenderInfo, locale: str) -> str:
    """The cards of a trick in play order, ``Ali: Q♥`` per line."""
    if not trick.cards:
        return t("table.trick_empty", locale, name=seat_name(info, trick.leader, locale))
    return "\n".join(
        t("action.by", locale, name=seat_name(info, seat, locale), action=card_text(card, locale))
        for seat, card in trick.cards
    )


def winning_seat(trick: TrickView, trump: int | None) -> int | None:
    """Who holds the trick so far (R5): the highest trump, else the highest card of the suit led (R1.1)."""
    if not trick.cards:
        return None
    led = trick.cards[0][1].suit

    def strength(card: Card) -> tuple[int, int]:
        if trump is not None and card.suit == trump:
            return (2, -TRUMP_RANKING.index(card.rank))
        if card.suit == led:
            return (1, -PLAIN_RANKING.index(card.rank))
        return (0, 0)

    return max(trick.cards, key=lambda played: strength(played[1]))[0]


def winning_line(view: View, info: RenderInfo, locale: str) -> str | None:
    """``Winning the trick: Ali`` while a trick is being played."""
    trick = view.current_trick
    if trick is None:
        return None
    seat = winning_seat(trick, view.trump if view.contract == "hokum" else None)
    return None if seat is None else t("table.winning", locale, name=seat_name(info, seat, locale))


def last_trick(view: View) -> TrickView | None:
    return view.tricks[-1] if view.tricks else None


def up_card_text(view: View, locale: str) -> str | None:
    """The up card while it lies on the table (R2.2); afterwards the contract names its taker."""
    return card_text(view.up_card, locale) if view.phase == Phase.BIDDING else None


def turn_line(view: View, info: RenderInfo, locale: str) -> str | None:
    """``**Ali** to act — in 42 seconds`` with a Discord relative timestamp; once the table is closed, the
    line saying so (and by whom) instead: nobody is to act any more."""
    if info.closed is not None:
        return notice_text(info.closed, info, locale)
    if view.to_move is None:
        return None
    name = seat_name(info, view.to_move, locale)
    if info.turn_deadline is None:
        return t("table.turn_no_deadline", locale, name=name)
    return t("table.turn_line", locale, name=name, deadline=timestamp(info.turn_deadline))


def notice_text(notice: Notice | None, info: RenderInfo, locale: str) -> str | None:
    """The table service's latest event in words."""
    if notice is None:
        return None
    params: dict[str, object] = {k: (escape(v) if isinstance(v, str) and not v.startswith("<") else v)
                                 for k, v in notice.params}
    for word in PLURAL_PARAMS:
        value = params.get(word)
        if isinstance(value, int):
            params[word] = count(word, value, locale)
    if notice.seat is not None:
        params["name"] = seat_name(info, notice.seat, locale)
        if notice.key == "notice.joined_with":  # the partner by name, not "Team n"
            params["partner"] = seat_name(info, (notice.seat + 2) % 4, locale)
    if notice.action is not None:
        params["action"] = action_text(notice.action, locale)
    return t(notice.key, locale, **params)

