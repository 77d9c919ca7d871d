"""The bot's review workers run at the lowest CPU priority (``baloot/tables/workers.py``): on Linux the
``SCHED_IDLE`` policy, under which a waking bot process takes the core back, and nice 19; after every
play-out a worker enters the kernel, so that on a kernel with lazy preemption the bot does not wait for
the next tick; and held by the bot's brake, it waits there while the bot answers an interaction."""

from __future__ import annotations

import os
import sys
import time

import pytest

from baloot.review.parts import playout_pause
from baloot.tables.workers import LONGEST_WAIT, REVIEW_NICENESS, ReviewBrake, offer_the_core, review_pool


def pause_times(count: int) -> list[float]:
    """(In a review worker) ``count`` pauses after a play-out, the time after each."""
    pause = playout_pause()
    assert pause is not None
    times = []
    for _ in range(count):
        pause()
        times.append(time.monotonic())
    return times


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SCHED_IDLE is Linux's")
def test_a_review_worker_runs_under_sched_idle_at_nice_19() -> None:
    pool = review_pool(1)
    try:
        policy = pool.submit(os.sched_getscheduler, 0).result(timeout=60)
        niceness = pool.submit(os.nice, 0).result(timeout=60)
        pid = pool.submit(os.getpid).result(timeout=60)
        pause = pool.submit(playout_pause).result(timeout=60)
    finally:
        pool.shutdown()
    assert policy == os.SCHED_IDLE
    assert niceness == REVIEW_NICENESS
    assert pid != os.getpid()
    assert pause is offer_the_core  # it offers the core back after every play-out
    assert playout_pause() is None  # not in the bot's own process
    assert os.sched_getscheduler(0) != os.SCHED_IDLE  # the bot itself keeps its priority


def test_a_held_brake_holds_the_workers_play_outs() -> None:
    """The bot holds the brake (an interaction came): a worker's pause after a play-out then waits, at most
    ``LONGEST_WAIT`` at a time, so a review goes on under any load."""
    brake = ReviewBrake(hold_seconds=600.0)
    pool = review_pool(1, brake)
    try:
        assert pool.submit(os.getpid).result(timeout=60) != os.getpid()  # started, the brake passed to it
        assert not brake.held()
        brake.hold()
        assert brake.held()
        asked = time.monotonic()
        held = pool.submit(pause_times, 3).result(timeout=60)
    finally:
        pool.shutdown()
    waits = [b - a for a, b in zip([asked, *held], held, strict=False)]
    assert len(waits) == 3 and all(wait >= LONGEST_WAIT for wait in waits), waits
    assert brake.held()  # the worker waited its longest, and went on: the hold itself lasts


class Slept(Exception):
    """Raised by the test's ``time.sleep``: the pause's first wait, seen and cut short."""


def test_a_released_brake_does_not_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        raise Slept

    monkeypatch.setattr(time, "sleep", sleep)  # the one the brake calls (time.sleep)
    brake = ReviewBrake(hold_seconds=0.0)
    brake.hold()  # held for no time: over at once
    brake.pause()
    assert slept == [] and not brake.held()
    brake.hold_seconds = 30.0
    brake.hold()
    with pytest.raises(Slept):
        brake.pause()
    assert len(slept) == 1 and 0 < slept[0] <= LONGEST_WAIT
