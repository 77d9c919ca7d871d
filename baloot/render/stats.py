"""What the statistics commands show: leaderboard pages, stats cards, histories.

Payloads are plain dicts like the rest of :mod:`baloot.render`. Players are
named by mention (``<@id>``; no one is pinged) so Discord shows each
viewer the names they know; dates are Discord timestamps (``<t:…:d>``),
shown in the viewer's own time zone and language.

A leaderboard's Previous/Next buttons carry everything needed to draw the
page they lead to — ``blst:lb:{guild}:{sort}:{period}:{page}:{p|n}`` — so
they keep working after a restart (:data:`BOARD_ID_TEMPLATE` is the
DynamicItem template).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from ..i18n import resolve_locale, t
from ..i18n.direction import orient_payload
from ..i18n.plural import count
from ..storage.reviews import AverageAccuracy
from ..storage.stats_rows import (
    BoardSort,
    HistoryEntry,
    LeaderboardPage,
    Period,
    PlayerTotals,
    ServerTally,
)
from .components import button, rows
from .limits import CONTENT, DESCRIPTION, clip
from .model import Payload
from .table import NO_MENTIONS
from .text import bot_name, display_name, timestamp

GOLD: Final = 0xF1C40F
_SORTS: Final = "|".join(s.value for s in BoardSort)
_PERIODS: Final = "|".join(p.value for p in Period)
BOARD_ID_TEMPLATE: Final = (
    rf"blst:lb:(?P<guild>[0-9]{{1,20}}):(?P<sort>{_SORTS}):(?P<period>{_PERIODS}):(?P<page>[0-9]{{1,6}}):(?P<dir>[pn])"
)
"""The DynamicItem template of a leaderboard page button."""
_BOARD_RE: Final = re.compile(BOARD_ID_TEMPLATE)


@dataclass(frozen=True, slots=True)
class BoardId:
    """What a leaderboard button asks for: a server's board in an order and period, at a page."""

    guild_id: int
    sort: BoardSort
    period: Period
    page: int
    direction: str  # "p" (previous) or "n" (next): keeps the two ids of a message distinct

    def encode(self) -> str:
        return f"blst:lb:{self.guild_id}:{self.sort.value}:{self.period.value}:{self.page}:{self.direction}"

    @classmethod
    def decode(cls, custom_id: str) -> BoardId:
        """Parse an id made by :meth:`encode`; raises ValueError for anything else."""
        found = _BOARD_RE.fullmatch(custom_id)
        if found is None:
            raise ValueError(f"not a leaderboard button: {custom_id!r}")
        return cls(int(found["guild"]), BoardSort(found["sort"]), Period(found["period"]), int(found["page"]),
                   found["dir"])


Names = Mapping[int, str]
"""Stored display names by user id (``Storage.player_names``)."""


def mention(user_id: int | None, loc: str, names: Names | None = None, seat: int | None = None) -> str:
    """A player by their stored display name (isolated), else a mention; a bot by its seat's
    name as at the table (``Bot 2``), or the word for a bot where no seat is known."""
    if user_id is None:
        return t("stats.history.bot", loc) if seat is None else bot_name(seat, loc)
    if names and user_id in names:
        return display_name(names[user_id], loc)
    return f"<@{user_id}>"


def percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "–"


def date(when: float) -> str:
    """A Discord timestamp: the date in the viewer's locale and time zone."""
    return timestamp(when, "d")


def signed(change: float) -> str:
    value = round(change)
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "±0"


def _board_line(page: LeaderboardPage, index: int, loc: str, names: Names | None = None) -> str:
    entry = page.entries[index]
    return t(
        f"stats.board.line.{page.sort.value}",
        loc,
        place=entry.place,
        player=mention(entry.user_id, loc, names),
        rating=round(entry.rating) if entry.rating is not None else "–",
        wins=entry.wins,
        matches=entry.matches,
        rate=percent(entry.wins, entry.matches),
    )


def render_leaderboard(page: LeaderboardPage, server: ServerTally, locale: str,
                       names: Names | None = None, tournaments: int = 0) -> Payload:
    """A leaderboard page with the server's totals of the period; Previous/Next when there are more pages.
    The tournaments board heads with ``tournaments``, how many the server played to their end in the period."""
    loc = resolve_locale(locale)
    # A rating board with matches played but nobody on it: those matches had bots, which rate nobody
    empty = "stats.board.empty_rated" if page.sort is BoardSort.RATING and server.matches else "stats.board.empty"
    if page.sort is BoardSort.TOURNAMENTS:
        empty = "stats.board.empty_tournaments"
    lines = [_board_line(page, i, loc, names) for i in range(len(page.entries))] or [t(empty, loc)]
    if page.sort is BoardSort.TOURNAMENTS:
        head = t("stats.board.tournaments", loc, tournaments=count("tournaments", tournaments, loc))
    else:
        head = t("stats.board.server", loc, matches=count("matches", server.matches, loc),
                 hands=count("hands", server.hands, loc), sun=percent(server.sun_hands, server.hands),
                 hokum=percent(server.hokum_hands, server.hands), kaboots=server.kaboots)
    parts = [head, "", *lines]
    if page.sort is BoardSort.WIN_RATE:
        parts += ["", t("stats.board.min_matches", loc, matches=count("matches", page.min_matches, loc))]
    embed: dict[str, Any] = {
        "title": t("stats.board.title", loc, sort=t(f"stats.sort.{page.sort.value}", loc),
                   period=t(f"stats.period.{page.period.value}", loc)),
        "description": clip("\n".join(parts), DESCRIPTION),
        "color": GOLD,
        "footer": {"text": t("stats.board.page", loc, page=page.page + 1, pages=page.pages,
                             players=count("players", page.total, loc))},
    }
    components: list[dict[str, Any]] = []
    if page.pages > 1:
        ids = (BoardId(page.guild_id, page.sort, page.period, max(page.page - 1, 0), "p"),
               BoardId(page.guild_id, page.sort, page.period, min(page.page + 1, page.pages - 1), "n"))
        components = rows([
            button(t("stats.button.previous", loc), ids[0].encode(), disabled=page.page == 0),
            button(t("stats.button.next", loc), ids[1].encode(), disabled=page.page >= page.pages - 1),
        ])
    return orient_payload({"content": "", "embeds": [embed], "components": components,
                           "allowed_mentions": NO_MENTIONS}, loc)


def _field(name_key: str, value: str, loc: str) -> dict[str, Any]:
    return {"name": t(name_key, loc), "value": value, "inline": False}


def accuracy_line(accuracy: AverageAccuracy, loc: str) -> str:
    """``Average accuracy: 87.4 over the last 20 matches reviewed`` (the game review)."""
    return t("stats.accuracy", loc, accuracy=f"{accuracy.accuracy:.1f}",
             matches=count("matches", accuracy.matches, loc))


def render_stats_card(totals: PlayerTotals, locale: str, names: Names | None = None,
                      accuracy: AverageAccuracy | None = None) -> Payload:
    """A player's figures: rating, matches, hands, buying, Sun/Hokum, kaboots, Sawa, doubles, best partner,
    and their average accuracy over their latest reviewed matches (``accuracy``; None: none reviewed, no line)."""
    loc = resolve_locale(locale)
    s = totals.tally
    if totals.rating is not None:
        rating = t("stats.card.rating.value", loc, rating=round(totals.rating.rating), place=totals.rating_place,
                   players=totals.rated_players,
                   change=signed(totals.last_change) if totals.last_change is not None else "–")
    else:
        rating = t("stats.card.rating.none", loc)
    average = f"{s.points / s.hands:.1f}" if s.hands else "–"
    partner = totals.best_partner
    fields = [
        _field("stats.card.rating.name", rating, loc),
        _field("stats.card.matches.name", t("stats.card.matches.value", loc, wins=s.wins, matches=s.matches,
                                            rate=percent(s.wins, s.matches), abandons=s.abandons), loc),
        _field("stats.card.tournaments.name",
               t("stats.card.tournaments.value", loc, won=totals.tournaments_won, played=totals.tournaments)
               if totals.tournaments else t("stats.card.tournaments.none", loc), loc),
        _field("stats.card.hands.name", t("stats.card.hands.value", loc, won=s.hands_won, hands=s.hands,
                                          rate=percent(s.hands_won, s.hands), average=average), loc),
        _field("stats.card.bought.name", t("stats.card.bought.value", loc, made=s.bought_made, bought=s.bought,
                                           rate=percent(s.bought_made, s.bought)), loc),
        _field("stats.card.contracts.name", t("stats.card.contracts.value", loc, sun_won=s.sun_won,
                                              sun=s.sun_hands, hokum_won=s.hokum_won, hokum=s.hokum_hands), loc),
        _field("stats.card.kaboots.name", t("stats.card.kaboots.value", loc, won=s.kaboots_for,
                                            lost=s.kaboots_against), loc),
        _field("stats.card.sawa.name", t("stats.card.sawa.value", loc, sawas=s.sawas), loc),  # R12
        _field("stats.card.doubles.name", t("stats.card.doubles.value", loc, won=s.doubles_won, doubles=s.doubles,
                                            gahwa_won=s.gahwas_won, gahwa=s.gahwas), loc),
        _field("stats.card.partner.name",
               t("stats.card.partner.value", loc, player=mention(partner.user_id, loc, names), wins=partner.wins,
                 matches=partner.matches) if partner is not None else t("stats.card.partner.none", loc), loc),
    ]
    embed = {
        "title": t("stats.card.title", loc),
        "description": "\n".join(
            (mention(totals.user_id, loc, names), t("stats.card.last_played", loc, date=date(totals.last_played)),
             *((accuracy_line(accuracy, loc),) if accuracy is not None else ()))
        ),
        "color": GOLD,
        "fields": fields,
    }
    return orient_payload({"content": "", "embeds": [embed], "components": [], "allowed_mentions": NO_MENTIONS}, loc)


def _history_line(entry: HistoryEntry, loc: str, names: Names | None = None) -> str:
    team = entry.team
    partner_seat = (entry.seat + 2) % 4
    partner = entry.users[partner_seat]
    opponents = t("stats.history.and", loc).join(
        mention(entry.users[s], loc, names, s) for s in (1 - team, 3 - team))
    if entry.abandoned:
        result = t("stats.history.abandoned", loc)
    elif entry.left_early:
        result = t("stats.history.left", loc)
    else:
        result = t("stats.history.won" if entry.won else "stats.history.lost", loc)
    change = f" · {signed(entry.rating_change)}" if entry.rating_change is not None else ""
    return t("stats.history.line", loc, match=entry.table_id, date=date(entry.finished_at), result=result,
             us=entry.score[team], them=entry.score[1 - team], partner=mention(partner, loc, names, partner_seat),
             opponents=opponents, change=change)


def render_history(user_id: int, entries: list[HistoryEntry], locale: str, record_command: str,
                   names: Names | None = None) -> Payload:
    """A player's latest matches, newest first, and how to get a match's record."""
    loc = resolve_locale(locale)
    lines = [mention(user_id, loc, names), "", *(_history_line(e, loc, names) for e in entries), "",
             t("stats.history.hint", loc, command=record_command)]
    embed = {"title": t("stats.history.title", loc), "description": clip("\n".join(lines), DESCRIPTION),
             "color": GOLD}
    return orient_payload({"content": "", "embeds": [embed], "components": [], "allowed_mentions": NO_MENTIONS}, loc)


def record_filename(table_id: int) -> str:
    return f"baloot-match-{table_id}.json"


def render_record(table_id: int, locale: str) -> Payload:
    """The message that carries a match's R10 record as a file (the cog attaches it)."""
    loc = resolve_locale(locale)
    text = t("stats.record.content", loc, match=table_id, file=record_filename(table_id))
    return orient_payload({"content": clip(text, CONTENT), "embeds": [], "components": [],
                           "allowed_mentions": NO_MENTIONS}, loc)
