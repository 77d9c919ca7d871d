"""The bot's review workers run at the lowest CPU priority (``baloot/tables/workers.py``): on Linux the
``SCHED_IDLE`` policy, under which a waking bot process takes the core back, and nice 19; after every
play-out a worker enters the kernel, so that on a kernel with lazy preemption the bot does not wait for
the next tick."""

from __future__ import annotations

import os
import sys

import pytest

from baloot.review.parts import playout_pause
from baloot.tables.workers import REVIEW_NICENESS, offer_the_core, review_pool


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
