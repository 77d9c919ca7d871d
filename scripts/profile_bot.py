"""Run ``bot.py`` under cProfile (``scripts/bench_tables.py --profile FILE``): where the bot's CPU goes.

The statistics are written to ``$BALOOT_PROFILE_OUT`` when the bot exits (the
benchmark stops it with SIGTERM, which ``bot.py`` turns into a clean shutdown).
"""

from __future__ import annotations

import cProfile
import os
import runpy
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main() -> None:
    out = os.environ.get("BALOOT_PROFILE_OUT", "bot.prof")
    sys.path.insert(0, str(REPO))
    sys.argv = [str(REPO / "bot.py")]
    profiler = cProfile.Profile(time.thread_time)  # CPU time of the event loop's thread, not wall time
    try:
        profiler.runcall(runpy.run_path, str(REPO / "bot.py"), run_name="__main__")
    finally:
        profiler.dump_stats(out)


if __name__ == "__main__":
    main()
