"""SQL that reads statistics, ratings, history and records, each an indexed lookup.

No query replays a record or scans a server's matches: leaderboards read
``player_period_stats`` through the index of their order, a stats card reads
a handful of rows by primary key, a history walks ``result_seats_by_player``.
"""

from __future__ import annotations

from typing import Final

from .database import Database, Row
from .stats_rows import (
    BoardSort,
    HistoryEntry,
    LeaderboardEntry,
    LeaderboardPage,
    Partner,
    Period,
    PlayerTotals,
    RatingRow,
    ServerTally,
    Tally,
)

_BOARD: Final = {
    BoardSort.RATING: ("rating IS NOT NULL", "rating DESC, user_id"),
    BoardSort.WINS: ("1 = 1", "wins DESC, matches, user_id"),
    BoardSort.WIN_RATE: ("matches >= ?", "win_rate DESC, matches DESC, user_id"),
}
_PERIOD_ROW: Final = "guild_id = ? AND period = ? AND period_key = ? AND matches > 0"


def _rating(row: Row) -> RatingRow:
    return RatingRow(int(row["user_id"]), row["mu"], row["sigma"], row["rating"], row["rated_matches"])


class StatsQueries:
    """Read access to the derived statistics of one database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def leaderboard(
        self,
        guild_id: int,
        sort: BoardSort,
        period: Period,
        period_key: int,
        *,
        page: int = 0,
        page_size: int = 10,
        min_matches: int = 5,
    ) -> LeaderboardPage:
        """One page (0-based) of a server's players in ``period``, best first.

        By rating: players with a rating; by wins: players with a win; by win
        rate: players with at least ``min_matches`` matches in the period.
        """
        if page < 0 or page_size < 1:
            raise ValueError("page must be >= 0 and page_size >= 1")
        condition, order = _BOARD[sort]
        params: tuple[object, ...] = (guild_id, period.value, period_key)
        if sort is BoardSort.WIN_RATE:
            params += (min_matches,)
        where = f"{_PERIOD_ROW} AND {condition}"
        count = await self.db.fetch_one(f"SELECT COUNT(*) FROM player_period_stats WHERE {where}", params)
        rows = await self.db.fetch_all(
            f"SELECT user_id, matches, wins, win_rate, rating FROM player_period_stats WHERE {where} "
            f"ORDER BY {order} LIMIT ? OFFSET ?",
            (*params, page_size, page * page_size),
        )
        entries = tuple(
            LeaderboardEntry(page * page_size + i + 1, int(r["user_id"]), r["matches"], r["wins"], r["win_rate"],
                             r["rating"])
            for i, r in enumerate(rows)
        )
        total = 0 if count is None else int(count[0])
        return LeaderboardPage(guild_id, sort, period, page, page_size, total, entries, min_matches)

    async def server_tally(self, guild_id: int, period: Period, period_key: int) -> ServerTally:
        row = await self.db.fetch_one(
            "SELECT * FROM guild_period_stats WHERE guild_id = ? AND period = ? AND period_key = ?",
            (guild_id, period.value, period_key),
        )
        if row is None:
            return ServerTally()
        return ServerTally(*(row[c] for c in ServerTally.columns()))

    async def player(self, guild_id: int, user_id: int) -> PlayerTotals | None:
        """A player's stats card figures in a server; None if they finished no match there."""
        row = await self.db.fetch_one(
            f"SELECT * FROM player_period_stats WHERE {_PERIOD_ROW} AND user_id = ?",
            (guild_id, Period.ALL.value, 0, user_id),
        )
        if row is None:
            return None
        tally = Tally(*(row[c] for c in Tally.columns()))
        rating_row = await self.db.fetch_one(
            "SELECT * FROM player_ratings WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        rating = None if rating_row is None else _rating(rating_row)
        place = None
        if rating is not None:
            above = await self.db.fetch_one(
                "SELECT COUNT(*) FROM player_ratings WHERE guild_id = ? AND rating > ?", (guild_id, rating.rating)
            )
            place = 1 + (0 if above is None else int(above[0]))
        rated = await self.db.fetch_one("SELECT COUNT(*) FROM player_ratings WHERE guild_id = ?", (guild_id,))
        change = await self.db.fetch_one(
            """SELECT rating_after - rating_before FROM rating_history WHERE guild_id = ? AND user_id = ?
               ORDER BY finished_at DESC LIMIT 1""",
            (guild_id, user_id),
        )
        partner = await self.db.fetch_one(
            """SELECT partner_id, matches, wins FROM partner_stats
               WHERE guild_id = ? AND user_id = ? AND wins > 0
               ORDER BY wins DESC, matches, partner_id LIMIT 1""",
            (guild_id, user_id),
        )
        return PlayerTotals(
            guild_id=guild_id,
            user_id=user_id,
            tally=tally,
            rating=rating,
            rating_place=place,
            rated_players=0 if rated is None else int(rated[0]),
            last_change=None if change is None else float(change[0]),
            best_partner=None if partner is None else Partner(int(partner[0]), partner[1], partner[2]),
            last_played=row["last_played"],
        )

    async def history(self, guild_id: int, user_id: int, *, limit: int = 10, offset: int = 0) -> list[HistoryEntry]:
        """A player's matches in a server (finished and abandoned), newest first."""
        rows = await self.db.fetch_all(
            """SELECT r.table_id, r.finished_at, r.score0, r.score1, r.winner_team, r.abandoned,
                      r.seat0_user_id, r.seat1_user_id, r.seat2_user_id, r.seat3_user_id,
                      s.seat, s.left_early, h.rating_after - h.rating_before AS change
               FROM result_seats s
               JOIN match_results r ON r.table_id = s.table_id
               LEFT JOIN rating_history h ON h.table_id = s.table_id AND h.user_id = s.user_id
               WHERE s.guild_id = ? AND s.user_id = ?
               ORDER BY s.finished_at DESC, s.table_id DESC LIMIT ? OFFSET ?""",
            (guild_id, user_id, limit, offset),
        )
        return [
            HistoryEntry(
                table_id=r["table_id"],
                finished_at=r["finished_at"],
                score=(r["score0"], r["score1"]),
                winner_team=r["winner_team"],
                seat=r["seat"],
                users=(r["seat0_user_id"], r["seat1_user_id"], r["seat2_user_id"], r["seat3_user_id"]),
                abandoned=bool(r["abandoned"]),
                left_early=bool(r["left_early"]),
                rating_change=r["change"],
            )
            for r in rows
        ]

    async def record_text(self, guild_id: int, table_id: int) -> str | None:
        """The stored R10 record (JSON text) of a match of this server, or None."""
        row = await self.db.fetch_one(
            "SELECT record FROM match_results WHERE table_id = ? AND guild_id = ?", (table_id, guild_id)
        )
        return None if row is None else str(row[0])

    async def unrecorded(self) -> list[int]:
        """Results whose statistics are not written yet, in the order they finished."""
        rows = await self.db.fetch_all(
            """SELECT table_id FROM match_results r
               WHERE NOT EXISTS (SELECT 1 FROM stats_matches s WHERE s.table_id = r.table_id)
               ORDER BY finished_at, table_id"""
        )
        return [int(r[0]) for r in rows]
