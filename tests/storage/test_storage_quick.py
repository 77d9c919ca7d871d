"""The quick-match queue in storage (baloot/storage/quick.py), on SQLite and PostgreSQL.

A user waits in one place; a seated user cannot queue; the matcher's
transaction seats each player once, even when several matchers (processes,
each with its own connection pool) run at the same moment.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from baloot.storage import SeatRow, Storage, StorageConflict, TableStatus
from baloot.storage.quick import QUICK_GUILD_ID, AlreadyQueued, QueuedRow, SeatedNow


@pytest.fixture
async def storage(database: str | Path) -> AsyncIterator[Storage]:
    store = await Storage.open(database)
    yield store
    await store.close()


def row(user: int, *, entry: int | None = None, guild: int = 100, at: float = 0.0) -> QueuedRow:
    return QueuedRow(user, user if entry is None else entry, guild, f"u{user}", None, 25.0, 8.0, at)


def fours(rows: list[QueuedRow]) -> Sequence[Sequence[QueuedRow]]:
    """A plan: the queue in fours, oldest first."""
    return [rows[i:i + 4] for i in range(0, len(rows) - len(rows) % 4, 4)]


async def test_queue_leave_and_refusals(storage: Storage) -> None:
    await storage.enqueue_quick([row(1)])
    await storage.enqueue_quick([row(2), row(3, entry=2)])  # a pair
    with pytest.raises(AlreadyQueued):
        await storage.enqueue_quick([row(4), row(1, entry=4)])  # 1 waits already: nothing written
    assert sorted(r.user_id for r in await storage.quick_queue()) == [1, 2, 3]
    removed = await storage.dequeue_quick(3)  # the pair leaves together
    assert sorted(r.user_id for r in removed) == [2, 3]
    assert await storage.dequeue_quick(3) == []
    table = await storage.create_table(guild_id=5, channel_id=6, creator_id=9, rules={}, turn_seconds=30.0,
                                       language=None, first_seat=SeatRow(0, 0, 9, "u9"))
    with pytest.raises(SeatedNow) as refused:
        await storage.enqueue_quick([row(9)])
    assert refused.value.table_id == table.id
    assert [r.user_id for r in await storage.quick_queue()] == [1]


async def test_forming_a_table_seats_four_and_empties_their_queue_rows(storage: Storage) -> None:
    for user, guild in ((1, 101), (2, 102), (3, 103), (4, 104), (5, 105)):
        await storage.enqueue_quick([row(user, guild=guild, at=float(user))])
    [formed] = await storage.form_quick_tables(fours, rules={"target": 152}, turn_seconds=30.0)
    table = formed.table
    assert table.guild_id == QUICK_GUILD_ID and table.channel_id == -table.id
    assert [s.user_id for s in await storage.seats(table.id)] == [1, 2, 3, 4]
    assert await storage.quick_guilds(table.id) == {1: 101, 2: 102, 3: 103, 4: 104}
    assert [r.user_id for r in await storage.quick_queue()] == [5]
    live = await storage.live_tables()
    assert [(t.id, t.status, t.channel_id) for t in live] == [(table.id, TableStatus.OPEN, -table.id)]
    with pytest.raises(SeatedNow):  # seated now: cannot queue again
        await storage.enqueue_quick([row(1)])
    # reports are stored with the table
    assert await storage.add_quick_report(table.id, 1, 2)
    assert not await storage.add_quick_report(table.id, 1, 2)
    assert await storage.quick_reports(table.id) == [(1, 2)]


async def test_a_seated_user_is_dropped_from_the_queue_by_the_matcher(storage: Storage) -> None:
    for user in (1, 2, 3, 4):
        await storage.enqueue_quick([row(user)])
    # user 4 sat down at a channel table meanwhile (another process, say)
    await storage.create_table(guild_id=5, channel_id=6, creator_id=4, rules={}, turn_seconds=30.0, language=None,
                               first_seat=SeatRow(0, 0, 4, "u4"))
    assert await storage.form_quick_tables(fours, rules={}, turn_seconds=30.0) == []
    assert [r.user_id for r in await storage.quick_queue()] == [1, 2, 3]


async def test_a_plan_naming_a_user_no_longer_queued_writes_nothing(storage: Storage) -> None:
    for user in (1, 2, 3, 4):
        await storage.enqueue_quick([row(user)])
    stale = await storage.quick_queue()
    await storage.dequeue_quick(2)
    with pytest.raises(StorageConflict):
        await storage.form_quick_tables(lambda _rows: [stale], rules={}, turn_seconds=30.0)
    assert [r.user_id for r in await storage.quick_queue()] == [1, 3, 4]
    assert await storage.live_tables() == []


async def test_play_now_with_bots_takes_the_entry(storage: Storage) -> None:
    await storage.enqueue_quick([row(1), row(2, entry=1)])
    bots = [SeatRow(0, s, None, f"Bot {s + 1}", is_bot=True, bot_level="normal") for s in (1, 3)]
    formed = await storage.quick_with_bots(await storage.quick_queue(), bots, rules={}, turn_seconds=30.0)
    seats = await storage.seats(formed.table.id)
    assert [(s.seat, s.user_id, s.is_bot) for s in seats] == [(0, 1, False), (1, None, True), (2, 2, False),
                                                              (3, None, True)]
    with pytest.raises(StorageConflict):  # a second press: no longer queued
        await storage.quick_with_bots([row(1), row(2, entry=1)], bots, rules={}, turn_seconds=30.0)


async def test_concurrent_matchers_never_match_a_player_twice(database: str | Path) -> None:
    """Several matchers at once, each on its own pool (as separate bot processes are), over one queue."""
    stores = [await Storage.open(database) for _ in range(3)]
    try:
        for user in range(1, 27):
            await stores[0].enqueue_quick([row(user, at=float(user))])

        async def match(store: Storage) -> list[int]:
            seated: list[int] = []
            for _ in range(4):
                try:
                    formed = await store.form_quick_tables(fours, rules={}, turn_seconds=30.0)
                except StorageConflict:
                    continue
                seated += [s.user_id for f in formed for s in f.seats if s.user_id is not None]
                await asyncio.sleep(0)
            return seated

        results = await asyncio.gather(*(match(s) for s in stores))
        everyone = [u for r in results for u in r]
        assert len(everyone) == len(set(everyone)) == 24
        rows = await stores[0].db.fetch_all("SELECT user_id, COUNT(*) FROM seats GROUP BY user_id")
        assert all(int(r[1]) == 1 for r in rows) and len(rows) == 24
        assert sorted(r.user_id for r in await stores[0].quick_queue()) == [25, 26]
    finally:
        for store in stores:
            await store.close()
