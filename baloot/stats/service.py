"""What the Discord layer asks about statistics: leaderboards, stats cards, history, records.

:class:`StatsService` turns a request into one indexed query and raises a
:class:`StatsError` (a :class:`~baloot.engine.errors.BalootError`, answered
privately) for bad input: an unknown match, a player with nothing played,
a page or option that does not exist. Periods are taken at ``clock()``
(UTC weeks from Monday, calendar months; :mod:`.periods`).

The tournaments board and a card's tournaments read the stored tournaments themselves
(:class:`~baloot.storage.tournaments.TournamentStore`: played and won, docs/tournaments.md).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ..engine.errors import BalootError
from ..storage import Storage
from ..storage.stats_queries import StatsQueries
from ..storage.stats_rows import (
    BoardSort,
    HistoryEntry,
    LeaderboardEntry,
    LeaderboardPage,
    Period,
    PlayerTotals,
    ServerTally,
)
from ..storage.tournaments import TournamentStore
from .periods import period_key, period_start

PAGE_SIZE: Final = 10
"""Players per leaderboard page."""
MIN_MATCHES: Final = 5
"""Matches a player needs in the period to be listed by win rate."""
HISTORY_LENGTH: Final = 10
"""Matches a history shows."""


class StatsError(BalootError):
    """A statistics request that cannot be answered.

    ``catalog_key`` and ``catalog_params`` are what the Discord layer's error
    reply shows (:func:`baloot.i18n.error_key` reads them).
    """

    catalog_key = "stats.error.generic"

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message)
        self.catalog_params = {k: str(v) for k, v in params.items()}


class NothingPlayed(StatsError):
    """The player has finished no match in this server (``player``: how to name them)."""

    catalog_key = "stats.error.nothing_played"


class UnknownMatch(StatsError):
    """No stored match of this server has that number."""

    catalog_key = "stats.error.unknown_match"


class BadPage(StatsError):
    """A leaderboard option or page that does not exist."""

    catalog_key = "stats.error.bad_page"


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """A leaderboard page and the server's totals of the same period (``tournaments``: how many tournaments
    the server played to their end in it, for the tournaments board)."""

    page: LeaderboardPage
    server: ServerTally
    tournaments: int = 0


class StatsService:
    """Answers statistics requests from the derived tables of ``storage``."""

    def __init__(
        self,
        storage: Storage,
        *,
        clock: Callable[[], float] = time.time,
        page_size: int = PAGE_SIZE,
        min_matches: int = MIN_MATCHES,
    ) -> None:
        self.queries = StatsQueries(storage.db)
        self.tournaments = TournamentStore(storage.db, storage.clock)
        self.clock = clock
        self.page_size = page_size
        self.min_matches = min_matches

    async def leaderboard(self, guild_id: int, sort: str, period: str, page: int = 0) -> Leaderboard:
        """Page ``page`` (0-based) of ``sort`` in ``period``; a page past the end shows the last one."""
        try:
            board_sort, board_period = BoardSort(sort), Period(period)
        except ValueError:
            raise BadPage(f"no leaderboard {sort!r} / {period!r}") from None
        if page < 0:
            raise BadPage(f"no page {page}")
        if board_sort is BoardSort.TOURNAMENTS:
            return await self.tournament_board(guild_id, board_period, page)
        key = period_key(board_period, self.clock())
        found = await self.queries.leaderboard(
            guild_id, board_sort, board_period, key, page=page, page_size=self.page_size,
            min_matches=self.min_matches,
        )
        if page > 0 and page >= found.pages:
            found = await self.queries.leaderboard(
                guild_id, board_sort, board_period, key, page=found.pages - 1, page_size=self.page_size,
                min_matches=self.min_matches,
            )
        return Leaderboard(found, await self.queries.server_tally(guild_id, board_period, key))

    async def tournament_board(self, guild_id: int, period: Period, page: int = 0) -> Leaderboard:
        """The tournaments board: the server's players by tournaments won, then played, among the tournaments over
        in ``period``; a page past the end shows the last one."""
        since = period_start(period, self.clock())
        total, rows = await self.tournaments.board(guild_id, since, page=page, page_size=self.page_size)
        pages = max(1, -(-total // self.page_size))
        if page >= pages:
            page = pages - 1
            total, rows = await self.tournaments.board(guild_id, since, page=page, page_size=self.page_size)
        entries = tuple(LeaderboardEntry(page * self.page_size + i + 1, user, played, won, won / played, None)
                        for i, (user, won, played) in enumerate(rows))
        found = LeaderboardPage(guild_id, BoardSort.TOURNAMENTS, period, page, self.page_size, total, entries,
                                self.min_matches)
        return Leaderboard(found, ServerTally(), await self.tournaments.over_count(guild_id, since))

    async def player(self, guild_id: int, user_id: int) -> PlayerTotals:
        """A player's stats card, with the tournaments they played and won; raises :class:`NothingPlayed`."""
        totals = await self.queries.player(guild_id, user_id)
        if totals is None:
            raise NothingPlayed(f"user {user_id} has finished no match here", player=f"<@{user_id}>")
        played, won = await self.tournaments.player_tally(guild_id, user_id)
        return dataclasses.replace(totals, tournaments=played, tournaments_won=won)

    async def history(self, guild_id: int, user_id: int, limit: int = HISTORY_LENGTH) -> list[HistoryEntry]:
        """A player's latest matches (finished or abandoned); raises :class:`NothingPlayed`."""
        entries = await self.queries.history(guild_id, user_id, limit=limit)
        if not entries:
            raise NothingPlayed(f"user {user_id} has no match here", player=f"<@{user_id}>")
        return entries

    async def record(self, guild_id: int, table_id: int) -> str:
        """The stored R10 record (JSON text) of a match of this server; raises :class:`UnknownMatch`."""
        text = await self.queries.record_text(guild_id, table_id)
        if text is None:
            raise UnknownMatch(f"no match {table_id} in this server", match=table_id)
        return text
