"""The table service with shard leases: a process drives only the tables of shards it leased.

Two services on one database stand for two bot processes started on the same
shard range. The first takes the lease and drives the table; the second (a
third process on a held range) changes nothing and says so in one log line.
When the first stops renewing (a crash), the second takes the lease over at
its next renewal and resumes the table; the first's writes are refused from
then on and nothing of them is stored. Runs on both backends.
"""

from __future__ import annotations

import logging
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from storage_helpers import action_count
from test_tables_harness import NAMES, USERS

from baloot.storage import LeaseLost, Storage
from baloot.tables import ShardLeases, TableElsewhere, TableService
from baloot.tables.holders import new_holder, this_process

GUILD = 7 << 22  # on shard 1 of 2
TTL = 30.0


class Clock:
    def __init__(self) -> None:
        self.now = 2_000_000.0

    def __call__(self) -> float:
        return self.now


async def process(database: str | Path, clock: Clock, name: str | None) -> TableService:
    """A bot process's table service on shard 1 of 2; ``name``: its holder token (None: a real one)."""
    storage = await Storage.open(database, synchronous="NORMAL", clock=clock)
    leases = ShardLeases(storage, 2, [1], holder=name, ttl=TTL)
    settings: dict[str, Any] = {"rng_factory": lambda table_id: random.Random(1000 + table_id),
                                "turn_seconds_range": (0.01, 600.0), "bot_delay": 0.0}
    return TableService(storage, leases=leases, **settings)


async def stop(service: TableService) -> None:
    await service.close()
    await service.storage.close()


async def test_one_process_drives_a_shard_and_another_takes_over_when_it_stops_renewing(
    database: str | Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    first = await process(database, clock, "first")
    second = await process(database, clock, "second")
    try:
        assert await first.resume_all() == []
        info = await first.create(GUILD, 900, USERS[0], NAMES[USERS[0]], rules={"target": 21})
        for user in USERS[1:]:
            await first.join(900, user, NAMES[user])
        await first.start(900, USERS[0])

        with caplog.at_level(logging.WARNING, logger="baloot.tables.leases"):
            assert await second.resume_all() == []  # the range is held: nothing resumed, nothing driven
            assert await second.keep_leases() == []  # still held (first renews): one log line, not one a tick
        refusals = [r.getMessage() for r in caplog.records if "held by another bot process" in r.getMessage()]
        assert len(refusals) == 1 and "shards [1]" in refusals[0] and "first" in refusals[0]
        assert second.tables() == [] and not second.holds(GUILD)
        with pytest.raises(TableElsewhere):
            await second.create(GUILD, 901, 77, "Zed")
        mover = first.table_by_id(info.id).to_move
        assert mover is not None
        hand = await first.my_hand(info.id, USERS[mover])
        with pytest.raises(TableElsewhere):
            await second.act(info.id, USERS[mover], hand.view.legal[0].to_json(), hand.version)
        assert await action_count(first.storage, info.id) == 0
        await first.act(info.id, USERS[mover], hand.view.legal[0].to_json(), hand.version)
        assert await first.keep_leases() == []  # renewed

        # first hangs (no renewal) past the TTL: second takes the shard over and resumes the table
        clock.now += TTL + 1
        resumed = await second.keep_leases()
        assert [t.id for t in resumed] == [info.id] and second.holds(GUILD)
        stored = await action_count(second.storage, info.id)
        assert stored == 1
        # first wakes up and plays on: refused, nothing stored
        mover = first.table_by_id(info.id).to_move
        assert mover is not None
        hand = await first.my_hand(info.id, USERS[mover])
        with pytest.raises(LeaseLost):
            await first.act(info.id, USERS[mover], hand.view.legal[0].to_json(), hand.version)
        assert await action_count(second.storage, info.id) == stored
        assert first.table_by_id(info.id).version == hand.version  # nothing changed in its memory either
        # at its next renewal it learns the lease is gone and lets the table go
        await first.keep_leases()
        assert first.tables() == [] and not first.holds(GUILD)
        # the new owner plays on from the stored state
        mover = second.table_by_id(info.id).to_move
        assert mover is not None
        hand = await second.my_hand(info.id, USERS[mover])
        await second.act(info.id, USERS[mover], hand.view.legal[0].to_json(), hand.version)
        assert await action_count(second.storage, info.id) == stored + 1
    finally:
        await stop(first)
        await stop(second)


async def test_a_clean_stop_releases_the_leases_for_the_next_process(database: str | Path) -> None:
    clock = Clock()
    first = await process(database, clock, "first")
    await first.resume_all()
    info = await first.create(GUILD, 900, USERS[0], NAMES[USERS[0]])
    await stop(first)
    second = await process(database, clock, "second")
    try:
        assert [t.id for t in await second.resume_all()] == [info.id]  # no wait for the TTL
        leases = await second.storage.leases()
        assert [(lease.shard_id, lease.holder, lease.epoch) for lease in leases] == [(1, "second", 2)]
    finally:
        await stop(second)


async def test_a_process_restarted_after_a_crash_takes_its_dead_predecessors_shard_at_once(
    database: str | Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The predecessor's holder token names a process of this host that is gone (a child
    killed with SIGKILL): the restarted process resumes its table at start, not when the lease runs out."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    stat = Path(f"/proc/{child.pid}/stat").read_text()
    dead = new_holder(replace(this_process(), pid=child.pid, started=int(stat[stat.rindex(")") + 2:].split()[19])))
    clock = Clock()
    crashed = await process(database, clock, dead)
    try:
        await crashed.resume_all()
        info = await crashed.create(GUILD, 900, USERS[0], NAMES[USERS[0]])
        for user in USERS[1:]:
            await crashed.join(900, user, NAMES[user])
        await crashed.start(900, USERS[0])
        live = await process(database, clock, None)  # while the holder runs, its lease binds
        assert await live.resume_all() == [] and not live.holds(GUILD)
        await stop(live)
        child.kill()
        child.wait()
        clock.now += 1.0  # restarted at once: 29 s of the dead holder's lease are left
        restarted = await process(database, clock, None)
        try:
            with caplog.at_level(logging.WARNING, logger="baloot.tables.leases"):
                assert [t.id for t in await restarted.resume_all()] == [info.id] and restarted.holds(GUILD)
            assert any("took over shards [1] from " + dead in r.getMessage() for r in caplog.records)
            mover = restarted.table_by_id(info.id).to_move
            assert mover is not None
            hand = await restarted.my_hand(info.id, USERS[mover])
            await restarted.act(info.id, USERS[mover], hand.view.legal[0].to_json(), hand.version)
            assert await action_count(restarted.storage, info.id) == 1
        finally:
            await stop(restarted)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        await stop(crashed)
