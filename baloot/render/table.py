"""The channel message of a table: one per hand, edited as the hand goes on.

Built from the hand's :class:`~baloot.engine.view.PublicView` only (see
:mod:`baloot.render.sections`), so it cannot show a hidden card, with the
R7 breakdown when the hand ends and the winner and score sheet when the match
ends. It carries the "My hand" button while the match runs.
"""

from __future__ import annotations

from typing import Any, Final

from ..engine.bidding import Outcome
from ..engine.hand import Phase
from ..engine.rules import Rules
from ..engine.summary import MatchSummary
from ..engine.view import PublicView
from ..i18n import resolve_locale, t
from ..i18n.direction import orient_payload
from ..i18n.plural import count
from .components import PRIMARY, SECONDARY, SUCCESS, button, rows
from .custom_ids import BOT_LEVEL_NAMES, LobbyId, ReviewId, encode_quick_id, encode_result_id, encode_table_id
from .limits import DESCRIPTION, EMBED_TOTAL, FIELD_VALUE, clip
from .model import Payload, RenderInfo
from .result import breakdown_embed, compact_result_embed, goal_line, pair_lines, sheet_embed, team_label
from .sections import (
    baloot_line,
    bid_lines,
    contract_line,
    doubling_line,
    last_trick,
    notice_text,
    project_lines,
    trick_lines,
    turn_line,
    up_card_text,
    winning_line,
)
from .text import seat_name

PHASE_COLORS: Final = {Phase.BIDDING: 0x3498DB, Phase.DOUBLING: 0xE67E22, Phase.PLAYING: 0x2ECC71,
                       Phase.FINISHED: 0x95A5A6}
NO_MENTIONS: Final[dict[str, Any]] = {"parse": []}


def _field(name: str, value: str | None, inline: bool = False) -> dict[str, Any] | None:
    if value is None:
        return None
    return {"name": name, "value": clip(value, FIELD_VALUE), "inline": inline}


def teams_text(info: RenderInfo, locale: str) -> str:
    """``**Team 1**: Ali & Omar`` per team (seats 0/2 and 1/3, R1)."""
    return "\n".join(
        t("table.team_line", locale, team=t("team.number", locale, n=team + 1),
          a=seat_name(info, team, locale), b=seat_name(info, team + 2, locale))
        for team in (0, 1)
    )


def review_components(info: RenderInfo, locale: str, result: int) -> list[dict[str, Any]]:
    """The match's last message: its hand's breakdown is shown in full, so only "Review" (the hand's game
    review, :mod:`.review`) is offered, as on every finished hand's message."""
    return rows([button(t("button.review", locale), ReviewId(info.table_id, result).encode(), SECONDARY)])


def my_hand_components(info: RenderInfo, locale: str, result: int | None = None, *,
                       live: bool = True) -> list[dict[str, Any]]:
    """The table message's "My hand" button row, with "Details" (hand ``result``'s R7 breakdown) and "Review"
    (its game review, :mod:`.review`) once it ended, and "Open table" (the Discord Activity) when the bot
    serves it.

    ``live``: the table still runs. Once it is closed only "Details" stays, answered from the stored
    hands for as long as the message lives."""
    buttons = [button(t("button.my_hand", locale), encode_table_id(info.table_id, "mine"), PRIMARY)] if live else []
    if live and info.activity:
        buttons.append(button(t("button.open_table", locale), encode_table_id(info.table_id, "open"), SECONDARY))
    if result is not None:
        buttons.append(button(t("button.details", locale), encode_result_id(info.table_id, result), SECONDARY))
        buttons.append(button(t("button.review", locale), ReviewId(info.table_id, result).encode(), SECONDARY))
    return rows(buttons)


def thrown_in_before(sheet: MatchSummary, index: int) -> int:
    """How many deals right before hand ``index`` were thrown in (R4: everyone passed twice, the deal
    passes on). Their channel message is folded into this hand's."""
    count = 0
    while 0 <= index - 1 - count < len(sheet.hands) and sheet.hands[index - 1 - count].outcome == Outcome.THROWN_IN:
        count += 1
    return count


def _one_line(text: str | None, locale: str) -> str | None:
    """A field's lines joined on one line (``Ali: Pass · Omar: Hokum ♥``): a compact field beside the picture."""
    return None if text is None else " · ".join(line for line in text.split("\n") if line)


def table_embed(info: RenderInfo, view: PublicView, sheet: MatchSummary, index: int, locale: str,
                pictured: bool = False) -> dict[str, Any]:
    """The state of hand ``index`` from its public view: seats, bids, contract, doubling, projects, tricks, turn.

    ``pictured``: the table's picture is shown with it, so the text keeps only what the
    picture cannot carry (the turn's deadline, who holds the trick, the bids in order, the doubling chain,
    projects and Baloot, tricks and card points, the target) and, for a screen reader, the contract, the trick
    and the score, each on one line; the teams, the dealer, the up card, the phase and the last trick, which
    the picture shows, are left to it."""
    if pictured:
        return _pictured_embed(info, view, sheet, index, locale)
    description = _description(info, view, sheet, index, locale, phase=True)
    last = last_trick(view)
    fields = [
        _field(t("table.teams", locale), teams_text(info, locale)),
        _field(t("table.dealer", locale), seat_name(info, view.dealer, locale), True),
        _field(t("table.up_card", locale), up_card_text(view, locale), True),
        _field(t("table.contract", locale), contract_line(view, info, locale), True),
        _field(t("table.doubling", locale), doubling_line(view, info, locale), True),
        _field(t("table.bids", locale), bid_lines(view, info, locale)),
        _field(t("table.projects", locale), project_lines(view, info, locale), True),
        _field(t("baloot", locale), baloot_line(view, info, locale), True),
        _field(t("table.current_trick", locale),
               None if view.current_trick is None else trick_lines(view.current_trick, info, locale), True),
        None if last is None else _field(
            t("table.last_trick", locale, name=seat_name(info, last.winner or 0, locale)),
            trick_lines(last, info, locale), True),
        _field(t("table.tricks", locale), None if view.phase < Phase.PLAYING else "\n".join(
            t("table.tricks_line", locale, team=team_label(info, team, locale),
              tricks=count("tricks", view.tricks_won[team], locale),
              points=count("points", view.card_points[team], locale)) for team in (0, 1))),
        _field(t("table.match_score", locale), pair_lines(info, sheet.score_after(index), locale) + "\n"
               + goal_line(sheet, index, locale), True),
    ]
    return {
        "title": t("table.title", locale, n=index + 1),
        "description": clip("\n".join(description), DESCRIPTION),
        "color": PHASE_COLORS[view.phase],
        "fields": [f for f in fields if f is not None],
        "footer": {"text": t("table.footer", locale, table=info.table_id)},
    }


def _description(info: RenderInfo, view: PublicView, sheet: MatchSummary, index: int, locale: str,
                 phase: bool) -> list[str]:
    """The turn and who holds the trick first, the deals folded in, how the hand ended, the notice."""
    description = [line for line in (turn_line(view, info, locale), winning_line(view, info, locale)) if line]
    folded = thrown_in_before(sheet, index)
    if folded:
        description.append(t("table.folded", locale, hands=count("hands", folded, locale)))
    if phase:
        description.append(t(f"table.phase.{int(view.phase)}", locale))
    if view.outcome == Outcome.THROWN_IN:
        description.append(t("table.thrown_in", locale))
    elif view.outcome == Outcome.ANNULLED:
        description.append(t("table.annulled", locale, name=seat_name(info, view.bids[-1].seat, locale)))
    notice = notice_text(info.notice, info, locale)
    if notice is not None:
        description.append(notice)
    return description


def _pictured_embed(info: RenderInfo, view: PublicView, sheet: MatchSummary, index: int,
                    locale: str) -> dict[str, Any]:
    """:func:`table_embed` beside the picture: about ten lines instead of forty."""
    trick = view.current_trick if view.current_trick is not None and view.current_trick.cards else None
    score = _one_line(pair_lines(info, sheet.score_after(index), locale), locale)
    fields = [
        _field(t("table.contract", locale), contract_line(view, info, locale), True),
        _field(t("table.doubling", locale), _one_line(doubling_line(view, info, locale), locale), True),
        _field(t("table.bids", locale), _one_line(bid_lines(view, info, locale), locale)
               if view.phase <= Phase.DOUBLING else None),
        _field(t("table.projects", locale), project_lines(view, info, locale), True),
        _field(t("baloot", locale), baloot_line(view, info, locale), True),
        _field(t("table.current_trick", locale),
               None if trick is None else _one_line(trick_lines(trick, info, locale), locale)),
        _field(t("table.tricks", locale), None if view.phase < Phase.PLAYING else _one_line("\n".join(
            t("table.tricks_line", locale, team=team_label(info, team, locale),
              tricks=count("tricks", view.tricks_won[team], locale),
              points=count("points", view.card_points[team], locale)) for team in (0, 1)), locale)),
        _field(t("table.match_score", locale), f"{score}\n{goal_line(sheet, index, locale)}"),
    ]
    return {
        "title": t("table.title", locale, n=index + 1),
        "description": clip("\n".join(_description(info, view, sheet, index, locale, phase=False)), DESCRIPTION),
        "color": PHASE_COLORS[view.phase],
        "fields": [f for f in fields if f is not None],
        "footer": {"text": t("table.footer", locale, table=info.table_id)},
    }


def _embed_size(embed: dict[str, Any]) -> int:
    size = len(embed.get("title", "")) + len(embed.get("description", ""))
    size += len(embed.get("footer", {}).get("text", ""))
    return size + sum(len(f["name"]) + len(f["value"]) for f in embed.get("fields", []))


def render_table(
    info: RenderInfo, view: PublicView, sheet: MatchSummary, locale: str | None = None, index: int | None = None,
    pictured: bool = False,
) -> Payload:
    """The table message of hand ``index`` (default: the match's latest hand), drawn from its public view.

    ``pictured``: the table's picture goes with it, so the running hand's text is the compact one
    (:func:`table_embed`).

    ``view`` is the :class:`~baloot.engine.view.PublicView` of that hand (never a
    seat's view: the channel shows only what everyone may know) and ``sheet``
    the match so far. At the end of the hand it adds the R7 breakdown; at the
    end of the match the winner and the score sheet (R8). ``locale`` defaults
    to the table's language.
    """
    loc = resolve_locale(locale if locale is not None else info.language)
    i = len(sheet.hands) - 1 if index is None else index
    over = sheet.winner is not None and i == len(sheet.hands) - 1
    compact = None if over else compact_result_embed(info, sheet, i, loc, view)
    if compact is not None:
        # A finished hand shrinks to who won and the scores; "Details" shows the rest.
        closed = notice_text(info.closed, info, loc)
        if closed is not None:  # the table closed after this hand: say so; "Details" stays
            compact = compact | {"description": compact["description"] + "\n" + closed}
        return orient_payload({
            "content": "",
            "embeds": [compact | {"footer": {"text": t("table.footer", loc, table=info.table_id)}}],
            "components": my_hand_components(info, loc, result=i, live=info.closed is None),
            "allowed_mentions": NO_MENTIONS,
        }, loc)
    embeds = [table_embed(info, view, sheet, i, loc, pictured)]
    result = breakdown_embed(info, sheet, i, loc, view)
    if result is not None:
        embeds.append(result)
    if over:
        used = sum(_embed_size(e) for e in embeds)
        embeds.append(sheet_embed(info, sheet, loc, budget=min(DESCRIPTION, EMBED_TOTAL - used - 400)))
    return orient_payload({
        "content": "",
        "embeds": embeds,
        "components": (review_components(info, loc, i) if over
                       else [] if info.closed is not None else my_hand_components(info, loc)),
        "allowed_mentions": NO_MENTIONS,
    }, loc)


def render_result(
    info: RenderInfo, view: PublicView | None, sheet: MatchSummary, index: int, locale: str
) -> Payload | None:
    """The full end of hand ``index``: the R7 breakdown (card points → game points → projects and Baloot →
    winner → multiplier → score), answered privately to "Details"; None if that hand was not scored."""
    loc = resolve_locale(locale)
    if not 0 <= index < len(sheet.hands):
        return None
    result = breakdown_embed(info, sheet, index, loc, view)
    if result is None:
        return None
    return orient_payload({"content": "", "embeds": [result], "components": [], "allowed_mentions": NO_MENTIONS},
                          loc)


def render_lobby(info: RenderInfo, rules: Rules, locale: str | None = None, *, started: bool = False) -> Payload:
    """The table before the match starts: who sits where, the target, the options.

    ``started``: the match has begun; the lobby message stays, saying so instead of "waiting for
    players" and without its buttons."""
    loc = resolve_locale(locale if locale is not None else info.language)
    seats = "\n".join(
        f"{t('seat.number', loc, n=s + 1)}: "
        + (t("seat.empty", loc) if info.names[s] is None else seat_name(info, s, loc))
        for s in range(4)
    )
    closed = notice_text(info.closed, info, loc)
    if closed is not None:  # closed before the match began: no seats to wait for, no buttons
        description = [closed]
    else:
        waiting = t("table.lobby_started", loc) if started else t("table.waiting", loc, seated=info.seated)
        goal = (t("table.deals_match", loc, deals=rules.deals) if rules.deals
                else t("table.target", loc, target=rules.target))
        description = [waiting, goal]
    notice = notice_text(info.notice, info, loc)
    if notice is not None:
        description.append(notice)
    embed = {
        "title": t("table.title_waiting", loc),
        "description": "\n".join(description),
        "color": PHASE_COLORS[Phase.BIDDING],
        "fields": [
            {"name": t("table.teams", loc), "value": teams_text(info, loc), "inline": False},
            {"name": t("table.seats", loc), "value": seats, "inline": False},
        ],
        "footer": {"text": t("table.footer", loc, table=info.table_id)},
    }
    components = [] if started or closed is not None else lobby_components(info, loc)
    return orient_payload({"content": "", "embeds": [embed], "components": components,
                           "allowed_mentions": NO_MENTIONS}, loc)


def lobby_components(info: RenderInfo, locale: str) -> list[dict[str, Any]]:
    """The lobby's buttons: join team 1 / team 2, leave, or a quick match with players of every server
    instead (README "Quick match"); add bots of a level; start."""
    table = info.table_id
    first = [
        button(t("lobby.join_team", locale, n=1), LobbyId(table, "join", team=0).encode(), PRIMARY),
        button(t("lobby.join_team", locale, n=2), LobbyId(table, "join", team=1).encode(), PRIMARY),
        button(t("lobby.leave", locale), LobbyId(table, "leave").encode(), SECONDARY),
        button(t("button.quick", locale), encode_quick_id("join"), SECONDARY),
    ]
    second = [
        button(t("lobby.bots", locale, level=t(f"choice.level.{level}", locale)),
               LobbyId(table, "bots", level=level).encode(), SECONDARY)
        for level in BOT_LEVEL_NAMES
    ]
    second.append(button(t("lobby.start", locale), LobbyId(table, "start").encode(), SUCCESS,
                         disabled=info.seated < 4))
    return rows(first) + rows(second)

