"""Simulate quick-match arrivals through the real matcher and database; print the waits and the balance.

Players arrive as a Poisson process (one every ``--every`` seconds on
average) and press Quick match: ``TableService.queue_quick`` writes them to
the stored queue, and every ``match_every`` seconds (2 s, the bot's) the
matcher round ``TableService.match_quick`` runs its one transaction, seats
the groups :func:`baloot.tables.matching.find_matches` picks and starts their
matches. Time is simulated (the service's and the storage's clock); the
database is real: an SQLite file, or PostgreSQL with ``--database URL``.

Ratings: by default each player's ``mu`` is drawn from N(25, 3.5) (clipped
to 10..40: a spread of about ±280 rating points around a new player) and
their ``sigma`` uniformly from 2.5..8.33 (a regular to a new player); with
``--ratings-from DB`` they are drawn from that database's ``player_ratings``.

Reported: the median and 95th percentile of the wait from pressing to being
seated, and the share of tables whose predicted win chance (openskill,
team 0) lies within 40–60 %. The goal at one arrival per 5 s: median ≤ 30 s,
p95 ≤ 90 s, ≥ 90 % balanced.

    python scripts/sim_quick_match.py                    # 1 per 5 s and 1 per 30 s, SQLite
    python scripts/sim_quick_match.py --every 5 --hours 2 --database postgresql://...
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from baloot.storage import Storage
from baloot.tables import TableService
from baloot.tables.matching import (
    Player,
    win_chance,
)


class SimClock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def draw_skills(source: str | None, rng: random.Random) -> list[tuple[float, float]] | None:
    if source is None:
        return None
    store = await Storage.open(source)
    try:
        rows = await store.db.fetch_all("SELECT mu, sigma FROM player_ratings")
    finally:
        await store.close()
    return [(float(r[0]), float(r[1])) for r in rows] or None


async def simulate(every: float, hours: float, database: str | None, seed: int,
                   ratings_from: str | None) -> dict[str, float]:
    rng = random.Random(seed)
    pool = await draw_skills(ratings_from, rng)
    clock = SimClock()
    with tempfile.TemporaryDirectory() as tmp:
        where: str | Path = database or Path(tmp) / "sim.db"
        storage = await Storage.open(where, synchronous="NORMAL", clock=clock)
        async with storage.db.transaction() as tx:  # a database used before (PostgreSQL): start from no one waiting
            await tx.execute("DELETE FROM quick_queue")
            await tx.execute("DELETE FROM seated_users")
            await tx.execute("UPDATE tables SET status = 'ended' WHERE status IN ('open', 'playing')")
        service = TableService(storage, clock=clock, rng_factory=lambda t: random.Random(t))
        skills: dict[int, Player] = {}
        queued_at: dict[int, float] = {}
        waits: list[float] = []
        chances: list[float] = []
        start = clock.now
        end = start + hours * 3600.0
        next_arrival = start + rng.expovariate(1.0 / every)
        next_round = start + service.match_every
        user = 10_000_000 + seed * 1_000_000 + int(every * 10_000)
        try:
            while clock.now < end:
                if next_arrival <= next_round:
                    clock.now = next_arrival
                    user += 1
                    mu, sigma = rng.choice(pool) if pool else (min(40.0, max(10.0, rng.gauss(25.0, 3.5))),
                                                                rng.uniform(2.5, 25.0 / 3.0))
                    await storage.db.execute(  # the player's rating, where queue_quick reads it
                        """INSERT INTO player_ratings (guild_id, user_id, mu, sigma, rating, rated_matches, updated_at)
                           VALUES (?, ?, ?, ?, 1000, 1, ?)""", (1 + user % 50, user, mu, sigma, clock.now))
                    skills[user] = Player(user, mu, sigma)
                    queued_at[user] = clock.now
                    await service.queue_quick(1 + user % 50, user, f"p{user}")
                    next_arrival = clock.now + rng.expovariate(1.0 / every)
                else:
                    clock.now = next_round
                    for info in await service.match_quick():
                        seated = [s.user_id for s in info.seats if s is not None and s.user_id is not None]
                        waits += [clock.now - queued_at[u] for u in seated]
                        team0 = [skills[s.user_id] for s in info.seats if s is not None and s.user_id is not None
                                 and s.seat % 2 == 0]
                        team1 = [skills[s.user_id] for s in info.seats if s is not None and s.user_id is not None
                                 and s.seat % 2 == 1]
                        chances.append(win_chance(team0, team1))
                    next_round = clock.now + service.match_every
        finally:
            await service.close()
            await storage.close()
    waits.sort()
    balanced = sum(1 for c in chances if 0.4 <= c <= 0.6)
    return {
        "players": float(len(waits)),
        "tables": float(len(chances)),
        "median": statistics.median(waits) if waits else float("nan"),
        "p95": waits[min(len(waits) - 1, int(0.95 * len(waits)))] if waits else float("nan"),
        "balanced": balanced / len(chances) if chances else float("nan"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--every", type=float, action="append", help="mean seconds between arrivals (repeatable)")
    parser.add_argument("--hours", type=float, default=1.0, help="simulated hours of arrivals (default 1)")
    parser.add_argument("--database", help="a postgresql:// URL (default: a fresh SQLite file)")
    parser.add_argument("--ratings-from", help="draw ratings from this database's player_ratings")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for every in args.every or [5.0, 30.0]:
        figures = asyncio.run(simulate(every, args.hours, args.database, args.seed, args.ratings_from))
        goal = ""
        if every == 5.0:
            ok = figures["median"] <= 30 and figures["p95"] <= 90 and figures["balanced"] >= 0.9
            goal = "  goal (median ≤ 30 s, p95 ≤ 90 s, ≥ 90 % balanced): " + ("met" if ok else "NOT met")
        print(f"one arrival per {every:g} s, {args.hours:g} h on {'PostgreSQL' if args.database else 'SQLite'}: "
              f"{figures['players']:.0f} players seated at {figures['tables']:.0f} tables; wait median "
              f"{figures['median']:.1f} s, p95 {figures['p95']:.1f} s; win chance within 40–60 %: "
              f"{100 * figures['balanced']:.1f} %{goal}")


if __name__ == "__main__":
    main()
