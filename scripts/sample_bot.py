"""Run ``bot.py`` under a sampling profiler (``scripts/bench_tables.py --sample FILE``): where its CPU goes.

cProfile (``--profile``) times every call, which inflates code made of many small
calls several times over; py-spy reads the process from outside and drops samples
of fast-changing Python frames. This samples from inside instead: a ``SIGPROF``
every millisecond of the process's CPU time, handled in the event loop's thread
between two bytecodes, records that thread's Python stack, weighted by the CPU
time the thread used since the previous sample (``time.thread_time``), so the
database thread's CPU is not charged to it. Time in a C call (a socket write, the
JSON encoder) is charged to the Python function that made it. So is the event
loop's own C work before a callback: the first lines a task runs after a wait (a
dict lookup, a property) can look costly when they are not; time those alone
(``timeit``) before changing them. Other threads (the database's, the table pictures'
(:mod:`cogs.presentation.pictures`), the card emojis drawn at start-up) are not sampled: compare their
CPU in ``/proc/PID/task/*/stat``.

Written to ``$BALOOT_PROFILE_OUT`` when the bot exits, as collapsed stacks
(``frame;frame;frame microseconds`` per line, the format of ``flamegraph.pl``
and of ``--summary`` below), with one line per stack.

    .venv/bin/python scripts/sample_bot.py --summary FILE [N]   # the N functions with the most CPU
"""

from __future__ import annotations

import os
import re
import runpy
import signal
import sys
import time
from collections import Counter
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

REPO = Path(__file__).resolve().parent.parent
INTERVAL_S = 0.001


class Sampler:
    """Collapsed stacks of the main thread, weighted by its CPU time (µs)."""

    def __init__(self) -> None:
        self.stacks: Counter[tuple[CodeType, ...]] = Counter()
        self.last = time.thread_time()
        self.previous: Any = signal.SIG_DFL

    def sample(self, signum: int, frame: FrameType | None) -> None:
        now = time.thread_time()
        weight = now - self.last
        self.last = now
        codes = []
        while frame is not None:
            codes.append(frame.f_code)
            frame = frame.f_back
        self.stacks[tuple(reversed(codes))] += round(weight * 1e6)

    def start(self) -> None:
        self.previous = signal.signal(signal.SIGPROF, self.sample)
        signal.setitimer(signal.ITIMER_PROF, INTERVAL_S, INTERVAL_S)

    def write(self, out: str) -> None:
        """Stop sampling (the previous SIGPROF handler back) and write the collapsed stacks to ``out``."""
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, self.previous)
        with open(out, "w", encoding="utf-8") as f:
            for codes, micros in self.stacks.items():
                names = ";".join(f"{_where(c)}:{c.co_qualname}" for c in codes)
                f.write(f"{names} {micros}\n")


def _where(code: CodeType) -> str:
    path = code.co_filename
    for marker in ("site-packages/", "/lib/python3"):
        if marker in path:
            return path.split(marker, 1)[1]
    return os.path.relpath(path, REPO) if path.startswith(str(REPO)) else path


def summary(path: str, top: int) -> None:
    """Inclusive and own CPU per function of a collapsed-stacks file."""
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            stack, _, weight = line.rstrip("\n").rpartition(" ")
            micros = int(weight)
            total += micros
            frames = stack.split(";")
            for name in set(frames):
                inclusive[name] += micros
            own[frames[-1]] += micros
    print(f"total CPU of the main thread {total / 1e6:.2f} s")
    for title, counts in (("inclusive", inclusive), ("own", own)):
        print(f"--- {title}")
        for name, micros in counts.most_common(top):
            print(f"{100 * micros / total:6.1f} %  {re.sub(r'^.*?/', '', name, count=0)}")


def main() -> None:
    if sys.argv[1:2] in (["-h"], ["--help"]):  # not a bot run: it would write its stacks for nothing
        print(__doc__)
        return
    if sys.argv[1:2] == ["--summary"]:
        summary(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 60)
        return
    out = os.environ.get("BALOOT_PROFILE_OUT", "bot.samples")
    sys.path.insert(0, str(REPO))
    sys.argv = [str(REPO / "bot.py")]
    sampler = Sampler()
    sampler.start()
    try:
        runpy.run_path(str(REPO / "bot.py"), run_name="__main__")
    finally:
        sampler.write(out)


if __name__ == "__main__":
    main()
