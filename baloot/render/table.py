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
from .custom_ids import BOT_LEVEL_NAMES, LobbyId, encode_result_id, encode_table_id
from .limits import DESCRIPTION, EMBED_TOTAL, FIELD_VALUE, clip
from .model import Payload, TableInfo
from .result import breakdown_embed, compact_result_embed, pair_lines, sheet_embed, team_label
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


def teams_text(info: TableInfo, locale: str) -> str:
    """``**Team 1**: Ali & Omar`` per team (seats 0/2 and 1/3, R1)."""
    return "\n".join(
        t("table.team_line", locale, team=t("team.number", locale, n=team + 1),
          a=seat_name(info, team, locale), b=seat_name(info, team + 2, locale))
        for team in (0, 1)
    )


def my_hand_components(info: TableInfo, locale: str, result: int | None = None) -> list[dict[str, Any]]:
    """The table message's "My hand" button row, with "Details" (hand ``result``'s R7 breakdown) once it ended,
    and "Open table" (the Discord Activity, issue 32) when the bot serves it."""
    buttons = [button(t("button.my_hand", locale), encode_table_id(info.table_id, "mine"), PRIMARY)]
    if info.activity:
        buttons.append(button(t("button.open_table", locale), encode_table_id(info.table_id, "open"), SECONDARY))
    if result is not None:
        buttons.append(button(t("button.details", locale), encode_result_id(info.table_id, result), SECONDARY))
    return rows(buttons)


def thrown_in_before(sheet: MatchSummary, index: int) -> int:
    """How many deals right before hand ``index`` were thrown in (R4: everyone passed twice, the deal
    passes on). Their channel message is folded into this hand's (issue 10 item 6)."""
    count = 0
    while 0 <= index - 1 - count < len(sheet.hands) and sheet.hands[index - 1 - count].outcome == Outcome.THROWN_IN:
        count += 1
    return count


def table_embed(info: TableInfo, view: PublicView, sheet: MatchSummary, index: int, locale: str) -> dict[str, Any]:
    """The state of hand ``index`` from its public view: seats, bids, contract, doubling, projects, tricks, turn."""
    # issue 10: whose turn it is and who holds the trick come first, where the eye lands.
    description = [line for line in (turn_line(view, info, locale), winning_line(view, info, locale)) if line]
    folded = thrown_in_before(sheet, index)
    if folded:
        description.append(t("table.folded", locale, hands=count("hands", folded, locale)))
    description.append(t(f"table.phase.{int(view.phase)}", locale))
    if view.outcome == Outcome.THROWN_IN:
        description.append(t("table.thrown_in", locale))
    elif view.outcome == Outcome.ANNULLED:
        description.append(t("table.annulled", locale, name=seat_name(info, view.bids[-1].seat, locale)))
    notice = notice_text(info.notice, info, locale)
    if notice is not None:
        description.append(notice)
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
               + t("table.target", locale, target=sheet.target), True),
    ]
    return {
        "title": t("table.title", locale, n=index + 1),
        "description": clip("\n".join(description), DESCRIPTION),
        "color": PHASE_COLORS[view.phase],
        "fields": [f for f in fields if f is not None],
        "footer": {"text": t("table.footer", locale, table=info.table_id)},
    }


def _embed_size(embed: dict[str, Any]) -> int:
    size = len(embed.get("title", "")) + len(embed.get("description", ""))
    size += len(embed.get("footer", {}).get("text", ""))
    return size + sum(len(f["name"]) + len(f["value"]) for f in embed.get("fields", []))


def render_table(
    info: TableInfo, view: PublicView, sheet: MatchSummary, locale: str | None = None, index: int | None = None
) -> Payload:
    """The table message of hand ``index`` (default: the match's latest hand), drawn from its public view.

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
        # Issue 10 item 6: a finished hand shrinks to who won and the scores; "Details" shows the rest.
        return orient_payload({
            "content": "",
            "embeds": [compact | {"footer": {"text": t("table.footer", loc, table=info.table_id)}}],
            "components": my_hand_components(info, loc, result=i),
            "allowed_mentions": NO_MENTIONS,
        }, loc)
    embeds = [table_embed(info, view, sheet, i, loc)]
    result = breakdown_embed(info, sheet, i, loc, view)
    if result is not None:
        embeds.append(result)
    if over:
        used = sum(_embed_size(e) for e in embeds)
        embeds.append(sheet_embed(info, sheet, loc, budget=min(DESCRIPTION, EMBED_TOTAL - used - 400)))
    return orient_payload({
        "content": "",
        "embeds": embeds,
        "components": [] if over else my_hand_components(info, loc),
        "allowed_mentions": NO_MENTIONS,
    }, loc)


def render_result(
    info: TableInfo, view: PublicView | None, sheet: MatchSummary, index: int, locale: str
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


def render_lobby(info: TableInfo, rules: Rules, locale: str | None = None, *, started: bool = False) -> Payload:
    """The table before the match starts: who sits where, the target, the options.

    ``started``: the match has begun; the lobby message stays, saying so instead of "waiting for
    players" and without its buttons (issue 27)."""
    loc = resolve_locale(locale if locale is not None else info.language)
    seats = "\n".join(
        f"{t('seat.number', loc, n=s + 1)}: "
        + (t("seat.empty", loc) if info.names[s] is None else seat_name(info, s, loc))
        for s in range(4)
    )
    waiting = t("table.lobby_started", loc) if started else t("table.waiting", loc, seated=info.seated)
    description = [waiting, t("table.target", loc, target=rules.target)]
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
    components = [] if started else lobby_components(info, loc)
    return orient_payload({"content": "", "embeds": [embed], "components": components,
                           "allowed_mentions": NO_MENTIONS}, loc)


def lobby_components(info: TableInfo, locale: str) -> list[dict[str, Any]]:
    """The lobby's buttons (issue 10): join team 1 / team 2, leave; add bots of a level; start."""
    table = info.table_id
    first = [
        button(t("lobby.join_team", locale, n=1), LobbyId(table, "join", team=0).encode(), PRIMARY),
        button(t("lobby.join_team", locale, n=2), LobbyId(table, "join", team=1).encode(), PRIMARY),
        button(t("lobby.leave", locale), LobbyId(table, "leave").encode(), SECONDARY),
    ]
    second = [
        button(t("lobby.bots", locale, level=t(f"choice.level.{level}", locale)),
               LobbyId(table, "bots", level=level).encode(), SECONDARY)
        for level in BOT_LEVEL_NAMES
    ]
    second.append(button(t("lobby.start", locale), LobbyId(table, "start").encode(), SUCCESS,
                         disabled=info.seated < 4))
    return rows(first) + rows(second)

