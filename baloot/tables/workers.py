"""AI worker processes that die with the bot.

``bot.py`` searches bots' moves in a spawn-context process pool. If the bot's
main process is killed (SIGKILL included), nothing closes the pool: its
workers — and with them multiprocessing's resource tracker, which exits when
the last process holding its pipe is gone — would run forever, and a
supervisor restarting the bot would pile them up. :func:`die_with_parent` is
the pool's initializer: on Linux ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` makes
the kernel kill the worker when the bot dies; everywhere a daemon thread also
watches the parent and exits once it is gone (the parent id changes).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Final

PR_SET_PDEATHSIG: Final = 1
WATCH_SECONDS: Final = 1.0


def die_with_parent(parent_pid: int) -> None:
    """Worker initializer: exit when the process ``parent_pid`` dies (SIGKILL of the bot included)."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # no prctl: the watcher below still ends the worker
    if os.getppid() != parent_pid:  # the bot died before this worker got here
        os._exit(0)
    threading.Thread(target=_watch, args=(parent_pid,), name="baloot-parent-watch", daemon=True).start()


def _watch(parent_pid: int) -> None:
    while True:
        time.sleep(WATCH_SECONDS)
        if os.getppid() != parent_pid:
            os._exit(0)


def worker_pool(workers: int) -> ProcessPoolExecutor:
    """The bot's pool of AI workers (spawn context), each of which dies with this process."""
    return ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    )


def warm_worker() -> None:
    """Run in each AI worker at start-up: the worker is spawned and has imported the AI before the
    first bot's move, which would otherwise pay for both inside its time limit (``bots.BOT_TIME_LIMIT``)."""
    import baloot.ai.levels  # noqa: F401  (the players and the hard AI's search)


async def warm_pool(pool: ProcessPoolExecutor, workers: int, warm: Callable[[], object] = warm_worker) -> None:
    """Start every worker of ``pool`` and load its code in it (one ``warm`` each, at once: the AI's by
    default; for the review pool any task will do, its initializer loads the reviewer)."""
    loop = asyncio.get_running_loop()
    await asyncio.gather(*(loop.run_in_executor(pool, warm) for _ in range(workers)))


REVIEW_NICENESS: Final = 19
"""The review workers' CPU priority (``nice``): the lowest, so that a table's bots always go first."""


def review_worker_init(parent_pid: int, brake: ReviewBrake | None = None) -> None:
    """Review worker initializer: run at the lowest CPU priority, offer the core back after every
    play-out (:func:`offer_the_core`) and, given the bot's ``brake``, wait there while the bot answers an
    interaction (:meth:`ReviewBrake.pause`); then die with the bot (its watcher thread, started here,
    inherits the priority)."""
    from ..review.parts import pause_after_playouts  # here: the other workers never load the reviewer

    lowest_priority()
    pause_after_playouts(offer_the_core if brake is None else brake.pause)
    die_with_parent(parent_pid)


def offer_the_core() -> None:
    """Enter the kernel for a moment (a review worker's pause after every play-out): a bot thread that
    woke meanwhile gets the core now rather than at the next scheduler tick."""
    with contextlib.suppress(OSError, AttributeError):  # no sched_yield on this platform: no pause
        os.sched_yield()


LONGEST_WAIT: Final = 0.05
"""The longest a review worker waits at one pause for the brake (:meth:`ReviewBrake.pause`): under any
load it still plays out at least one deal every 50 ms, so that a review always ends."""


class ReviewBrake:
    """Holds the review workers back while the bot answers an interaction.

    One number in memory that the bot and its review workers share: the (monotonic, system-wide) time
    until which a worker waits at its pause after a play-out. The bot calls :meth:`hold` for every
    interaction it receives (``cogs/buttons.py``); a worker then finishes its play-out (about a
    millisecond), offers the core back and sleeps until ``hold_seconds`` after the last interaction,
    at most :data:`LONGEST_WAIT` at a time. Where the review workers must share the bot's cores, the
    lowest CPU priority alone does not keep them from slowing a press: a woken bot thread still waits
    for the core (the next tick, or a worker's pause) and each press wakes it several times.
    Measured on a 2-core machine at 200 tables with four reviews in four workers
    (``scripts/bench_tables.py --tables 200 --hands 1 --think 1.5 --reviews 4``): press p99 bot side
    about three times that of a run without reviews before the brake; with a 10 ms brake, within 10 %
    of it (or below) in 6 runs of 9 (the reviews then got about 80 % of a core instead of 115-140 %).
    With the default single review worker (``--review-workers 1``), the median p99 of six runs was
    18.6 ms against 18.7 ms without reviews, in runs alternating with them.
    ``REVIEW_YIELD_MS`` sets ``hold_seconds`` (``cogs/settings.py``).
    """

    def __init__(self, hold_seconds: float) -> None:
        self.hold_seconds = hold_seconds
        self.until = multiprocessing.get_context("spawn").RawValue(ctypes.c_double, 0.0)
        """Shared with the review workers (passed to them as they start: :func:`review_pool`)."""

    def hold(self) -> None:
        """(The bot) an interaction came: the review workers wait for ``hold_seconds`` from now."""
        self.until.value = time.monotonic() + self.hold_seconds

    def held(self) -> bool:
        """Whether the workers are held now."""
        return self.until.value > time.monotonic()

    def pause(self) -> None:
        """(A review worker, after every play-out) offer the core back, then wait while the brake is held,
        at most :data:`LONGEST_WAIT`."""
        offer_the_core()
        end = time.monotonic() + LONGEST_WAIT
        while (left := min(self.until.value, end) - time.monotonic()) > 0:
            time.sleep(left)


def lowest_priority() -> None:
    """Put the calling thread (a review worker's, which runs the reviews) at the lowest CPU priority.

    Where the system has it (Linux), the ``SCHED_IDLE`` policy: the worker gets a core only when
    no other thread wants it, and a waking bot thread takes the core back as soon as the worker
    enters the kernel (:func:`offer_the_core`) or the next scheduler tick comes (a nice-19 thread
    still gets a small share of a busy core). The nice value is set as well, where
    ``SCHED_IDLE`` is missing (macOS) and for tools that show it. Measured with
    ``scripts/bench_tables.py --reviews 4``.
    """
    with contextlib.suppress(OSError, AttributeError):  # no SCHED_IDLE here: nice 19 alone
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    nice_at_least(REVIEW_NICENESS)


def nice_at_least(niceness: int) -> None:
    """Lower the calling thread's CPU priority to ``niceness`` (never raise it: that needs privileges);
    nothing where the platform has no nice (the work still runs off the event loop)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(max(0, niceness - os.nice(0)))


def review_pool(workers: int, brake: ReviewBrake | None = None) -> ProcessPoolExecutor:
    """The bot's pool of game-review workers (spawn context, lowest CPU priority, held by ``brake`` where
    given, dying with this process)."""
    return ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=review_worker_init,
        initargs=(os.getpid(), brake),
    )


PICTURE_NICENESS: Final = 10
"""The picture process's CPU priority: below the bot's (a table's press goes first), above the reviews'
(a player is waiting for the picture)."""


def picture_worker_init(parent_pid: int) -> None:
    """Picture process initializer: a lower CPU priority than the bot's, then die with the bot."""
    nice_at_least(PICTURE_NICENESS)
    die_with_parent(parent_pid)


def picture_pool() -> ProcessPoolExecutor:
    """One process that draws the bot's large pictures (a game review's), so that their Pillow work never
    takes the bot's GIL from the event loop (spawn context, priority :data:`PICTURE_NICENESS`, dying with
    this process)."""
    return ProcessPoolExecutor(
        1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=picture_worker_init,
        initargs=(os.getpid(),),
    )
