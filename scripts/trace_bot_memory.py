"""Run ``bot.py`` under tracemalloc (``scripts/bench_tables.py --trace-memory FILE``): where the bot's memory goes.

When the traced Python memory stops growing at a new high (looked at every
few seconds), the allocations by file and by line are written to
``$BALOOT_PROFILE_OUT``, so the file holds the picture at the peak of the run. tracemalloc slows the bot
and adds its own memory: read the shares, not the benchmark's other figures.
"""

from __future__ import annotations

import gc
import io
import os
import runpy
import sys
import threading
import time
import tracemalloc
from pathlib import Path
from typing import TextIO

REPO = Path(__file__).resolve().parent.parent
EVERY = 3.0  # seconds between two looks
GROWTH = 1.03  # a new picture once the traced memory is this much above the last one's (each stalls the bot)


def dump(path: str, current: int, base: tracemalloc.Snapshot | None) -> tracemalloc.Snapshot:
    snapshot = tracemalloc.take_snapshot()
    out = io.StringIO()  # written whole below: a bot stopped meanwhile leaves the previous picture
    out.write(f"traced Python memory at its peak: {current / 2**20:.1f} MiB\n\nby file:\n")
    for stat in snapshot.statistics("filename")[:30]:
        out.write(f"{stat.size / 1024:9.0f} KiB {stat.count:8d} blocks  {stat.traceback[0].filename}\n")
    out.write("\nby line:\n")
    for stat in snapshot.statistics("lineno")[:40]:
        frame = stat.traceback[0]
        out.write(f"{stat.size / 1024:9.0f} KiB {stat.count:8d} blocks  {frame.filename}:{frame.lineno}\n")
    if base is not None:
        write_growth(out, snapshot, base)
    Path(f"{path}.part").write_text(out.getvalue(), encoding="utf-8")
    os.replace(f"{path}.part", path)
    return snapshot


def write_growth(out: TextIO, snapshot: tracemalloc.Snapshot, base: tracemalloc.Snapshot) -> None:
    """What grew since the bot was ready, by file, by line and (with several frames) by call stack."""
    grown = sum(stat.size_diff for stat in snapshot.compare_to(base, "filename"))
    out.write(f"\ngrown since ready: {grown / 2**20:.1f} MiB\n\ngrown by file:\n")
    for stat in snapshot.compare_to(base, "filename")[:30]:
        out.write(f"{stat.size_diff / 1024:9.0f} KiB {stat.count_diff:8d} blocks  {stat.traceback[0].filename}\n")
    out.write("\ngrown by line:\n")
    for stat in snapshot.compare_to(base, "lineno")[:50]:
        frame = stat.traceback[0]
        out.write(f"{stat.size_diff / 1024:9.0f} KiB {stat.count_diff:8d} blocks  {frame.filename}:{frame.lineno}\n")
    if tracemalloc.get_traceback_limit() > 1:
        out.write("\ngrown by call stack:\n")
        for stat in snapshot.compare_to(base, "traceback")[:25]:
            out.write(f"{stat.size_diff / 1024:9.0f} KiB {stat.count_diff:8d} blocks\n")
            for line in stat.traceback.format(most_recent_first=True):
                out.write(f"    {line}\n")


def watch(path: str, base: tracemalloc.Snapshot | None = None) -> None:
    """A picture each time the traced memory stops growing at a new high (a picture stalls the bot for a
    moment: none is taken while it is still growing, as when every table is being set up)."""
    best = last = 0
    while True:
        time.sleep(EVERY)
        if base is None and gc.get_freeze_count() > 0:  # ready: what grows from here is the tables'
            base = tracemalloc.take_snapshot()
            best = last = 0
        current, _ = tracemalloc.get_traced_memory()
        if current <= last and last > best * GROWTH:
            best = current
            dump(path, current, base)
        last = current


def trace_from_ready(path: str, frames: int) -> None:
    while gc.get_freeze_count() == 0:
        time.sleep(0.2)
    tracemalloc.start(frames)
    watch(path, tracemalloc.take_snapshot())


def main() -> None:
    out = os.environ.get("BALOOT_PROFILE_OUT", "bot-memory.txt")
    frames = int(os.environ.get("BALOOT_PROFILE_FRAMES", "1"))
    sys.path.insert(0, str(REPO))
    sys.argv = [str(REPO / "bot.py")]
    if os.environ.get("BALOOT_PROFILE_FROM") == "ready":
        threading.Thread(target=trace_from_ready, args=(out, frames), daemon=True, name="trace-memory").start()
    else:
        tracemalloc.start(frames)
        threading.Thread(target=watch, args=(out,), daemon=True, name="trace-memory").start()
    runpy.run_path(str(REPO / "bot.py"), run_name="__main__")


if __name__ == "__main__":
    main()
