"""SQL for match results (R8 outcome + R10 record), shaped for the leaderboards.

``match_results`` holds one row per match that ended (finished or abandoned)
with the final score, the winner, the record and the user at each seat;
``result_seats`` repeats the per-seat facts (team, won, left early) with
the guild and time, indexed for per-player queries.
"""

from __future__ import annotations

from .database import Connection, Row, dumps, loads
from .rows import MatchResult, ResultSeat


async def insert_result(db: Connection, result: MatchResult) -> None:
    """Inside a transaction: write the result row and its seats."""
    users = result.user_ids()
    await db.execute(
        """INSERT INTO match_results (table_id, guild_id, finished_at, score0, score1, winner_team,
               hands_played, record, seat0_user_id, seat1_user_id, seat2_user_id, seat3_user_id,
               has_bots, abandoned)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        (
            result.table_id,
            result.guild_id,
            result.finished_at,
            result.score[0],
            result.score[1],
            result.winner_team,
            result.hands_played,
            dumps(result.record),
            *users,
            int(result.has_bots),
            int(result.abandoned),
        ),
    )
    await db.executemany(
        """INSERT INTO result_seats (table_id, seat, team, guild_id, finished_at, user_id, is_bot,
               won, left_early)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        [
            (
                result.table_id,
                s.seat,
                s.team,
                result.guild_id,
                result.finished_at,
                s.user_id,
                int(s.is_bot),
                int(result.winner_team is not None and s.team == result.winner_team),
                int(s.left_early),
            )
            for s in result.seats
        ],
    )


def result_from_rows(row: Row, seats: list[Row]) -> MatchResult:
    """Rebuild a :class:`MatchResult` from its row and its seat rows."""
    return MatchResult(
        table_id=row["table_id"],
        guild_id=row["guild_id"],
        finished_at=row["finished_at"],
        score=(row["score0"], row["score1"]),
        winner_team=row["winner_team"],
        hands_played=row["hands_played"],
        record=loads(row["record"]),
        seats=tuple(
            ResultSeat(
                seat=s["seat"],
                user_id=s["user_id"],
                is_bot=bool(s["is_bot"]),
                left_early=bool(s["left_early"]),
            )
            for s in sorted(seats, key=lambda s: int(s["seat"]))
        ),
        abandoned=bool(row["abandoned"]),
    )
