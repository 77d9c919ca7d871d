"""Run ``bot.py`` under tracemalloc (``scripts/bench_tables.py --trace-memory FILE``): where the bot's memory goes.

Every few seconds, when the traced Python memory is at a new high, the
allocations by file and by line are written to ``$BALOOT_PROFILE_OUT``, so
the file holds the picture at the peak of the run. tracemalloc slows the bot
and adds its own memory: read the shares, not the benchmark's other figures.
"""

from __future__ import annotations

import os
import runpy
import sys
import threading
import time
import tracemalloc
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
EVERY = 3.0  # seconds between two looks


def dump(path: str, current: int) -> None:
    snapshot = tracemalloc.take_snapshot()
    with open(path, "w", encoding="utf-8") as out:
        out.write(f"traced Python memory at its peak: {current / 2**20:.1f} MiB\n\nby file:\n")
        for stat in snapshot.statistics("filename")[:30]:
            out.write(f"{stat.size / 1024:9.0f} KiB {stat.count:8d} blocks  {stat.traceback[0].filename}\n")
        out.write("\nby line:\n")
        for stat in snapshot.statistics("lineno")[:40]:
            frame = stat.traceback[0]
            out.write(f"{stat.size / 1024:9.0f} KiB {stat.count:8d} blocks  {frame.filename}:{frame.lineno}\n")


def watch(path: str) -> None:
    best = 0
    while True:
        time.sleep(EVERY)
        current, _ = tracemalloc.get_traced_memory()
        if current > best:
            best = current
            dump(path, current)


def main() -> None:
    out = os.environ.get("BALOOT_PROFILE_OUT", "bot-memory.txt")
    sys.path.insert(0, str(REPO))
    sys.argv = [str(REPO / "bot.py")]
    tracemalloc.start(1)
    threading.Thread(target=watch, args=(out,), daemon=True, name="trace-memory").start()
    runpy.run_path(str(REPO / "bot.py"), run_name="__main__")


if __name__ == "__main__":
    main()
