"""SQL that writes the derived statistics and ratings (migration 4).

Every function runs inside a transaction the caller holds
(:meth:`Database.transaction`); :mod:`baloot.stats.recorder` decides what to
write. Counters are added with upserts, so a player's period row is one
indexed row however many matches it sums.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from .database import Connection
from .dialect import DIALECTS, Dialect
from .stats_rows import HandFactRow, Period, RatingChange, RatingRow, ServerTally, Tally

DERIVED_TABLES: Final = (
    "rating_history",
    "player_ratings",
    "partner_stats",
    "guild_period_stats",
    "player_period_stats",
    "hand_facts",
    "stats_matches",
)
"""Every table of migration 4, emptied by a rebuild."""

_COUNTERS: Final = Tally.columns()
_SERVER_COUNTERS: Final = ServerTally.columns()


def _player_upsert(dialect: Dialect) -> str:
    """Add a tally to a player's period row; the alias ``p`` names the stored row (PostgreSQL needs it)."""
    return (
        f"INSERT INTO player_period_stats AS p (guild_id, user_id, period, period_key, {', '.join(_COUNTERS)}, "
        "win_rate, rating, last_played) "
        f"VALUES (?, ?, ?, ?, {', '.join('?' for _ in _COUNTERS)}, ?, ?, ?) "
        "ON CONFLICT (guild_id, period, period_key, user_id) DO UPDATE SET "
        + ", ".join(f"{c} = p.{c} + excluded.{c}" for c in _COUNTERS)
        + ", win_rate = CAST(p.wins + excluded.wins AS DOUBLE PRECISION)"
        f" / {dialect.greatest}(p.matches + excluded.matches, 1)"
        ", rating = COALESCE(excluded.rating, p.rating)"
        f", last_played = {dialect.greatest}(p.last_played, excluded.last_played)"
    )


_PLAYER_UPSERT: Final = {d.name: _player_upsert(d) for d in DIALECTS}
_SERVER_UPSERT: Final = (
    f"INSERT INTO guild_period_stats AS g (guild_id, period, period_key, {', '.join(_SERVER_COUNTERS)}) "
    f"VALUES (?, ?, ?, {', '.join('?' for _ in _SERVER_COUNTERS)}) "
    "ON CONFLICT (guild_id, period, period_key) DO UPDATE SET "
    + ", ".join(f"{c} = g.{c} + excluded.{c}" for c in _SERVER_COUNTERS)
)


async def is_recorded(db: Connection, table_id: int) -> bool:
    """Whether this match's statistics are already written."""
    return await db.fetch_one("SELECT 1 FROM stats_matches WHERE table_id = ?", (table_id,)) is not None


async def mark_recorded(
    db: Connection, table_id: int, guild_id: int, finished_at: float, *, counted: bool, rated: bool
) -> None:
    await db.execute(
        "INSERT INTO stats_matches (table_id, guild_id, finished_at, counted, rated) VALUES (?, ?, ?, ?, ?)",
        (table_id, guild_id, finished_at, int(counted), int(rated)),
    )


async def insert_hand_facts(
    db: Connection, table_id: int, guild_id: int, finished_at: float, hands: Sequence[HandFactRow]
) -> None:
    await db.executemany(
        """INSERT INTO hand_facts (table_id, hand_no, guild_id, finished_at, contract, trump, declarer, level,
               winner_team, kaboot_team, baloot_team, score0, score1, double_seat, triple_seat, four_seat,
               gahwa_seat, sawa_seat) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        [
            (
                table_id, h.hand_no, guild_id, finished_at, h.contract, h.trump, h.declarer, h.level,
                h.winner_team, h.kaboot_team, h.baloot_team, h.score[0], h.score[1], h.double_seat,
                h.triple_seat, h.four_seat, h.gahwa_seat, h.sawa_seat,
            )
            for h in hands
        ],
    )


async def add_player_tallies(
    db: Connection,
    guild_id: int,
    periods: Iterable[tuple[Period, int]],
    tallies: Iterable[tuple[int, Tally, float | None]],
    finished_at: float,
) -> None:
    """Add each (user, tally, current rating or None) to the user's row of every period."""
    keys = list(periods)
    rows = []
    for user_id, tally, rating in tallies:
        rate = tally.wins / tally.matches if tally.matches else 0.0
        for period, key in keys:
            rows.append((guild_id, user_id, period.value, key, *tally.values(), rate, rating, finished_at))
    await db.executemany(_PLAYER_UPSERT[db.dialect.name], rows)


async def add_server_tally(
    db: Connection, guild_id: int, periods: Iterable[tuple[Period, int]], tally: ServerTally
) -> None:
    counts = tuple(getattr(tally, c) for c in _SERVER_COUNTERS)
    await db.executemany(_SERVER_UPSERT, [(guild_id, p.value, key, *counts) for p, key in periods])


async def add_partnerships(
    db: Connection, guild_id: int, pairs: Iterable[tuple[int, int, bool]]
) -> None:
    """Count a match played together for each (user, partner, won) — both directions are passed."""
    await db.executemany(
        """INSERT INTO partner_stats AS s (guild_id, user_id, partner_id, matches, wins) VALUES (?, ?, ?, 1, ?)
           ON CONFLICT (guild_id, user_id, partner_id) DO UPDATE SET
               matches = s.matches + 1, wins = s.wins + excluded.wins""",
        [(guild_id, user, partner, int(won)) for user, partner, won in pairs],
    )


async def ratings_of(db: Connection, guild_id: int, user_ids: Sequence[int]) -> dict[int, RatingRow]:
    """The stored ratings of these players in a server (players never rated are missing)."""
    if not user_ids:
        return {}
    marks = ", ".join("?" for _ in user_ids)
    rows = await db.fetch_all(
        f"SELECT user_id, mu, sigma, rating, rated_matches FROM player_ratings "
        f"WHERE guild_id = ? AND user_id IN ({marks})",
        (guild_id, *user_ids),
    )
    return {int(r[0]): RatingRow(int(r[0]), float(r[1]), float(r[2]), float(r[3]), int(r[4])) for r in rows}


async def save_ratings(
    db: Connection, table_id: int, guild_id: int, finished_at: float, changes: Sequence[RatingChange]
) -> None:
    """Store new ratings and their history rows."""
    await db.executemany(
        """INSERT INTO player_ratings (guild_id, user_id, mu, sigma, rating, rated_matches, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (guild_id, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,
               rating = excluded.rating, rated_matches = excluded.rated_matches,
               updated_at = excluded.updated_at""",
        [
            (guild_id, c.user_id, c.after.mu, c.after.sigma, c.after.rating, c.after.rated_matches, finished_at)
            for c in changes
        ],
    )
    await db.executemany(
        """INSERT INTO rating_history (table_id, user_id, guild_id, finished_at, mu_before, sigma_before,
               mu_after, sigma_after, rating_before, rating_after, left_early)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        [
            (
                table_id, c.user_id, guild_id, finished_at, c.before.mu, c.before.sigma, c.after.mu,
                c.after.sigma, c.before.rating, c.after.rating, int(c.left_early),
            )
            for c in changes
        ],
    )


async def clear_derived(db: Connection) -> None:
    """Empty every derived table (a rebuild starts here)."""
    for table in DERIVED_TABLES:
        await db.execute(f"DELETE FROM {table}")
