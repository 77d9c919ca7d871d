"""What the shard-lease check costs on the hot path: add_action with and without a fence.

Stores ``--actions`` actions one after another (the table service's hot path)
on SQLite and, where PostgreSQL is installed, on a throwaway cluster
(tests/pg_cluster.py), and prints the mean time per action of each.

    .venv/bin/python scripts/bench_fence.py --actions 2000
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from pg_cluster import Cluster, missing_reason  # noqa: E402

from baloot.storage import SeatRow, Storage  # noqa: E402

DECK = [r + s for s in "SHDC" for r in "789TJQKA"]


async def run(where: str | Path, label: str, actions: int) -> None:
    storage = await Storage.open(where, synchronous="NORMAL")
    try:
        fence = (await storage.take_leases(1, [0], "bench", 600.0)).taken[0]
        for n, fenced in enumerate((False, True, False, True)):  # the first two warm the connections up
            row = await storage.create_table(guild_id=1, channel_id=10 + n, creator_id=20 + n, rules={},
                                             turn_seconds=30.0, language=None, first_seat=SeatRow(0, 0, 20 + n, "p"))
            await storage.start_match(row.id, 0, DECK)
            started = time.perf_counter()
            for idx in range(actions):
                await storage.add_action(row.id, 0, idx, {"seat": idx % 4, "type": "pass"}, by_user_id=5,
                                         auto=False, fence=fence if fenced else None)
            spent = (time.perf_counter() - started) / actions * 1000
            if n >= 2:
                print(f"{label:<11} add_action {'with' if fenced else 'without'} fence: {spent:.3f} ms per action")
    finally:
        await storage.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        await run(Path(folder) / "bench.db", "SQLite", args.actions)
    reason = missing_reason()
    if reason is not None:
        print(f"PostgreSQL skipped: {reason}")
        return
    cluster = Cluster.start()
    try:
        await run(await cluster.new_database(), "PostgreSQL", args.actions)
    finally:
        cluster.stop()


if __name__ == "__main__":
    asyncio.run(main())
