"""Turns heal themselves: after a storage fault every table plays on, on a virtual clock.

Tables of one person (who never presses: each turn times out, R: safe
policy) and three bots play on a :class:`VirtualClock`. All writes fail for
two virtual minutes; once the fault clears, every table stores a new action
within 10 virtual seconds, without a restart. Nothing is lost or stored
twice: what is stored replays to what is in memory, and each stored action
was announced exactly once.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from storage_helpers import action_count
from test_tables_harness import Recorder, legal_bot_factory, play_one, seat_four
from virtual_clock import VirtualClock

from baloot.engine.records import match_from_record
from baloot.storage import Storage, TableStatus
from baloot.storage.faults import Faults, inject_faults
from baloot.tables import TableService
from baloot.tables.events import ActionApplied, HandStarted

TABLES = 6


@dataclass
class Env:
    storage: Storage
    service: TableService
    recorder: Recorder
    clock: VirtualClock
    faults: Faults


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    clock = VirtualClock()
    storage = await Storage.open(tmp_path / "t.db", synchronous="NORMAL", clock=clock.time)
    faults = inject_faults(storage)
    service = TableService(
        storage,
        rng_factory=lambda table_id: random.Random(7000 + table_id),
        turn_seconds_range=(1.0, 600.0),
        bot_delay=1.0,
        bot_factory=legal_bot_factory,
        away_after=1000,
        clock=clock.time,
        sleep=clock.sleep,
        retry_most=5.0,
        sweep_seconds=5.0,
    )
    recorder = Recorder()
    service.add_listener(recorder)
    service.start_sweeping()
    try:
        yield Env(storage, service, recorder, clock, faults)
    finally:
        await service.close()
        await clock.settle()
        await storage.close()


async def _open_tables(env: Env, count: int) -> list[int]:
    ids = []
    for n in range(count):
        user = 500 + n
        info = await env.service.create(1, 900 + n, user, f"P{n}", rules={"target": 152}, turn_seconds=8)
        await env.service.fill_with_bots(900 + n, user, "easy")
        await env.service.start(900 + n, user)
        ids.append(info.id)
    return ids


async def _stored(env: Env, ids: list[int]) -> dict[int, int]:
    return {t: await action_count(env.storage, t) for t in ids}


async def _check_nothing_lost_or_doubled(env: Env, ids: list[int]) -> None:
    applied = env.recorder.of(ActionApplied)
    for table_id in ids:
        record = await env.storage.game_record(table_id)
        live = env.service._tables.get(table_id)
        if live is not None and live.match is not None:
            assert live.match.to_record() == record  # memory equals the database
        match_from_record(record)  # the stored record replays
        announced = [(e.hand_no, e.index) for e in applied if e.table_id == table_id]
        assert len(announced) == len(set(announced)) == await action_count(env.storage, table_id)


async def test_tables_play_on_within_10_s_after_a_fault_clears(env: Env) -> None:
    ids = await _open_tables(env, TABLES)
    await env.clock.advance(30)
    before = await _stored(env, ids)
    assert all(n > 0 for n in before.values())

    env.faults.fail(writes_only=True, reason="database or disk is full")
    await env.clock.advance(120)
    during = await _stored(env, ids)
    assert during == before  # nothing stored during the fault ...
    assert env.faults.injected >= TABLES * 10  # ... though every table kept trying (backoff <= 5 s)
    tries = env.faults.injected

    env.faults.clear()
    cleared_at = env.clock.now
    moved: dict[int, float] = {}
    counts = dict(during)

    async def poll() -> None:
        for table_id, n in (await _stored(env, ids)).items():
            if n > counts[table_id] and table_id not in moved:
                moved[table_id] = env.clock.now - cleared_at

    while len(moved) < TABLES and env.clock.now - cleared_at <= 10:
        await env.clock.advance(0.5)
        await poll()
    assert sorted(moved) == ids, f"tables that never moved: {set(ids) - set(moved)}"
    assert max(moved.values()) <= 10.0
    await env.clock.advance(60)
    after = await _stored(env, ids)
    assert all(after[t] > during[t] + 5 for t in ids)  # and they keep playing
    await _check_nothing_lost_or_doubled(env, ids)
    print(f"\n{TABLES} tables, {tries} faults injected over 120 s; after clearing every table moved within "
          f"{max(moved.values()):.1f} s (mean {sum(moved.values()) / TABLES:.1f} s)")


async def test_the_sweep_restarts_a_turn_whose_task_died(env: Env, monkeypatch: Any) -> None:
    ids = await _open_tables(env, 2)
    await env.clock.advance(5)
    real = env.storage.add_action
    broken = {"left": 2}

    async def add_action(*args: Any, **kwargs: Any) -> Any:
        if broken["left"] > 0:
            broken["left"] -= 1
            raise RuntimeError("a bug, not a storage fault")
        return await real(*args, **kwargs)

    monkeypatch.setattr(env.storage, "add_action", add_action)
    await env.clock.run_until(lambda: broken["left"] == 0, 20)
    stuck = await _stored(env, ids)
    dead = [t for t in ids if env.service._tables[t].turn_task is None or env.service._tables[t].turn_task.done()]  # type: ignore[union-attr]
    assert dead, "a turn task ended on the error"
    took = await env.clock.run_until(lambda: all(env.service._tables[t].turn_task is not None
                                                 and not env.service._tables[t].turn_task.done()  # type: ignore[union-attr]
                                                 for t in ids), 10)
    assert took <= env.service.sweep_seconds
    await env.clock.advance(20)
    assert all(n > stuck[t] for t, n in (await _stored(env, ids)).items())
    await _check_nothing_lost_or_doubled(env, ids)


async def test_a_failed_deal_is_dealt_again(env: Env) -> None:
    """R2: the next deck is stored before it is used; a refused one is dealt again once storage is back."""
    table_id = await seat_four(env.service, target=152, turn_seconds=600)
    rng = random.Random(3)
    env.faults.fail("add_hand")
    while True:
        result = await play_one(env.service, table_id, rng)
        if result.hand_finished:
            break
    live = env.service._tables[table_id]
    assert live.match is not None and live.match.needs_deal and live.status == TableStatus.PLAYING
    await env.clock.advance(60)
    assert live.match.needs_deal and [e.hand_no for e in env.recorder.of(HandStarted)] == [0]
    env.faults.clear()
    took = await env.clock.run_until(lambda: not live.match.needs_deal, 10)  # type: ignore[union-attr]
    assert took <= 5.0
    assert [e.hand_no for e in env.recorder.of(HandStarted)] == [0, 1]
    assert live.to_move is not None and live.turn_task is not None
    assert len((await env.storage.game_record(table_id))["hands"]) == 2
