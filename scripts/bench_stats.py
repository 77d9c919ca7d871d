"""Benchmark of the statistics queries on a large server.

    .venv/bin/python scripts/bench_stats.py                 # 100,000 matches, 5,000 players
    .venv/bin/python scripts/bench_stats.py --reuse         # time again on the database already built

Generation goes through the bot's own code paths: a few thousand distinct
random matches are played with the engine (``Match``; random legal actions),
then each stored match reuses one of those records with four random players
and its own date (spread over the past year): ``Storage.create_table`` and
``Storage.close_table`` with its ``MatchResult`` (as the table service closes a
table), then ``StatsRecorder.record_result`` (as the bot's listener does),
given the record's facts replayed once per distinct record. Some matches have
bot seats, some players leave early, some matches are abandoned.

Then every leaderboard (rating / wins / win rate × week / month / all time;
first, middle and last page), stats cards, histories and records are timed
through ``StatsService`` — what the cog calls — and the figures printed, in
milliseconds of wall time around each awaited call (SQLite work plus the
aiosqlite thread hop; no Discord). The database goes to /tmp.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from baloot.engine.actions import ActionType
from baloot.engine.match import Match
from baloot.stats import StatsRecorder, StatsService
from baloot.stats.facts import MatchFacts, match_facts
from baloot.storage import GuildSettings, MatchResult, ResultSeat, Storage, TableStatus

GUILD = 1
YEAR = 365 * 86_400.0
LIMIT_MS = 50.0


def random_record(rng: random.Random) -> dict[str, Any]:
    """A whole match (R8, target 152) of random legal actions, as its R10 record."""
    match = Match(None, rng.randrange(4))
    while not match.finished:
        if match.needs_deal:
            match.deal(rng)
        legal = match.legal_actions()
        match.apply(rng.choice([a for a in legal if a.type is not ActionType.KAWESH] or legal))
    return match.to_record()


async def generate(storage: Storage, args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    started = time.perf_counter()
    records = [random_record(rng) for _ in range(args.distinct)]
    facts: list[MatchFacts] = [match_facts(r) for r in records]
    print(f"played {args.distinct} distinct matches in {time.perf_counter() - started:.1f} s", flush=True)
    await storage.save_guild_settings(GuildSettings(GUILD, ai_rated=False))
    recorder = StatsRecorder(storage)
    end = args.now
    times = sorted(end - rng.random() * YEAR for _ in range(args.matches))
    started = time.perf_counter()
    for n, finished_at in enumerate(times):
        pick = rng.randrange(args.distinct)
        record, fact = records[pick], facts[pick]
        users: list[int | None] = [1000 + u for u in rng.sample(range(args.players), 4)]
        if rng.random() < 0.1:
            users[rng.choice((1, 3))] = None  # a bot seat
        abandoned = rng.random() < 0.03
        left = {s for s in range(4) if users[s] is not None and rng.random() < (0.5 if abandoned else 0.01)}
        table = await storage.create_table(guild_id=GUILD, channel_id=10 + n % 50, creator_id=users[0] or 1,
                                           rules={}, turn_seconds=60.0, language=None)
        result = MatchResult(
            table_id=table.id,
            guild_id=GUILD,
            finished_at=finished_at,
            score=fact.score,
            winner_team=None if abandoned else fact.winner,
            hands_played=len(fact.hands),
            record=record,
            seats=tuple(ResultSeat(s, u, u is None, s in left) for s, u in enumerate(users)),
            abandoned=abandoned,
        )
        status = TableStatus.ABANDONED if abandoned else TableStatus.FINISHED
        await storage.close_table(table.id, status, "empty" if abandoned else "finished", result)
        await recorder.record_result(result, None if abandoned else fact)
        if (n + 1) % 10_000 == 0:
            rate = (n + 1) / (time.perf_counter() - started)
            print(f"  stored {n + 1} matches ({rate:.0f}/s)", flush=True)
    print(f"stored {args.matches} matches in {time.perf_counter() - started:.1f} s", flush=True)


async def timed(label: str, calls: list[Callable[[], Awaitable[object]]]) -> float:
    """Run each call once (after one warm-up); print median and worst in ms; return the worst."""
    await calls[0]()
    spent = []
    for call in calls:
        start = time.perf_counter()
        await call()
        spent.append((time.perf_counter() - start) * 1000)
    worst = max(spent)
    print(f"  {label:<34} n={len(spent):<4} median {statistics.median(spent):6.2f} ms   worst {worst:6.2f} ms")
    return worst


async def measure(storage: Storage, args: argparse.Namespace) -> float:
    service = StatsService(storage, clock=lambda: args.now)
    rng = random.Random(args.seed + 1)
    worst = 0.0
    print("leaderboards (first, middle and last page, 10 per page):")
    for sort in ("rating", "wins", "winrate"):
        for period in ("week", "month", "all"):
            first = await service.leaderboard(GUILD, sort, period)
            pages = first.page.pages
            calls: list[Callable[[], Awaitable[object]]] = []
            for p in (0, pages // 2, pages - 1) * 5:
                calls.append(partial(service.leaderboard, GUILD, sort, period, p))
            worst = max(worst, await timed(f"{sort}/{period} ({first.page.total} players)", calls))
    players = [1000 + u for u in rng.sample(range(args.players), 200)]
    print("per player (200 random players):")
    card: list[Callable[[], Awaitable[object]]] = [partial(service.player, GUILD, u) for u in players]
    worst = max(worst, await timed("stats card", card))
    history: list[Callable[[], Awaitable[object]]] = [partial(service.history, GUILD, u) for u in players]
    worst = max(worst, await timed("history (10 latest)", history))
    ids = [int(r[0]) for r in await storage.db.fetch_all(
        "SELECT table_id FROM match_results ORDER BY random() LIMIT 200")]
    record: list[Callable[[], Awaitable[object]]] = [partial(service.record, GUILD, i) for i in ids]
    worst = max(worst, await timed("record by id", record))
    return worst


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", default="/tmp/baloot-bench-stats.db")
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=5_000)
    parser.add_argument("--distinct", type=int, default=3_000, help="distinct random matches to reuse")
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--now", type=float, default=1_735_000_000.0, help="the benchmark's clock (Unix time)")
    parser.add_argument("--reuse", action="store_true", help="time the existing database, do not generate")
    args = parser.parse_args()
    path = Path(args.db)
    if not args.reuse:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    storage = await Storage.open(path, synchronous="NORMAL")
    try:
        if not args.reuse:
            await generate(storage, args)
        counts = await storage.db.fetch_one(
            "SELECT (SELECT COUNT(*) FROM match_results), "
            "(SELECT COUNT(DISTINCT user_id) FROM player_period_stats WHERE period = 'all'), "
            "(SELECT COUNT(*) FROM hand_facts)")
        assert counts is not None
        size = path.stat().st_size / 2**20
        print(f"database {path}: {counts[0]} matches, {counts[1]} players, {counts[2]} hands, {size:.0f} MiB")
        worst = await measure(storage, args)
    finally:
        await storage.close()
    verdict = "OK" if worst < LIMIT_MS else "TOO SLOW"
    print(f"worst query: {worst:.2f} ms (limit {LIMIT_MS:.0f} ms) {verdict}")
    return 0 if worst < LIMIT_MS else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
