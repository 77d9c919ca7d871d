"""Shard leases with an epoch: two processes never drive one table.

Each Storage object here stands for one bot process (its own connection or
pool on one database). A process takes the leases of its shards, renews them,
and shows its fence on every table write; once another process has taken the
lease (it expired), the stale owner's writes are refused with LeaseLost and
nothing is stored. Runs on both backends.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from storage_helpers import action_count

from baloot.storage import Fence, LeaseLost, SeatRow, Storage, StorageConflict, TableStatus

DECK = [r + s for s in "SHDC" for r in "789TJQKA"]
TTL = 30.0


class Clock:
    """A settable clock shared by the 'processes' (their clocks in step, as NTP keeps them)."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def pair(database: str | Path) -> AsyncIterator[tuple[Storage, Storage, Clock]]:
    clock = Clock()
    first = await Storage.open(database, clock=clock)
    second = await Storage.open(database, clock=clock)
    yield first, second, clock
    await first.close()
    await second.close()


async def playing_table(storage: Storage, fence: Fence) -> int:
    row = await storage.create_table(guild_id=1, channel_id=7, creator_id=11, rules={}, turn_seconds=30.0,
                                     language=None, first_seat=SeatRow(0, 0, 11, "Ali"), fence=fence)
    await storage.start_match(row.id, 0, DECK, fence=fence)
    return row.id


async def test_a_process_takes_free_shards_and_not_held_ones(pair: tuple[Storage, Storage, Clock]) -> None:
    first, second, clock = pair
    grant = await first.take_leases(4, [0, 1], "A", TTL)
    assert grant.taken == {0: Fence(0, "A", 1), 1: Fence(1, "A", 1)} and not grant.refused
    third = await second.take_leases(4, [1, 2], "C", TTL)  # a third process on a held range
    assert third.taken == {2: Fence(2, "C", 1)} and list(third.refused) == [1]
    assert third.refused[1].holder == "A"
    clock.now += TTL / 2
    assert await first.renew_leases(list(grant.taken.values()), TTL) == []
    clock.now += TTL * 0.9  # renewed: still held past the first expiry
    assert list((await second.take_leases(4, [1], "C", TTL)).refused) == [1]
    assert [(lease.shard_id, lease.holder, lease.epoch) for lease in await first.leases()] == [
        (0, "A", 1), (1, "A", 1), (2, "C", 1)
    ]


async def test_a_taken_lease_refuses_the_stale_owners_writes(pair: tuple[Storage, Storage, Clock]) -> None:
    old, new, clock = pair
    stale = (await old.take_leases(2, [0], "A", TTL)).taken[0]
    table = await playing_table(old, stale)
    await old.add_action(table, 0, 0, {"seat": 1, "type": "pass"}, by_user_id=12, auto=False, fence=stale)

    clock.now += TTL + 1  # A stopped renewing (hung, or cut off from the database)
    fresh = (await new.take_leases(2, [0], "B", TTL)).taken[0]
    assert fresh == Fence(0, "B", 2)
    assert await old.renew_leases([stale], TTL) == [stale]  # A learns it at its next renewal

    refused_writes = [
        old.add_action(table, 0, 1, {"seat": 2, "type": "pass"}, by_user_id=13, auto=False, fence=stale),
        old.add_hand(table, 1, 1, DECK, fence=stale),
        old.put_seats([SeatRow(table, 1, 12, "Badr")], fence=stale),
        old.remove_seat(table, 0, fence=stale),
        old.set_table_language(table, "ar", fence=stale),
        old.close_table(table, TableStatus.ENDED, "creator", fence=stale),
        old.create_table(guild_id=1, channel_id=8, creator_id=20, rules={}, turn_seconds=30.0, language=None,
                         fence=stale),
    ]
    for write in refused_writes:
        with pytest.raises(LeaseLost) as lost:
            await write
        assert isinstance(lost.value, StorageConflict) and lost.value.fence == stale
    # nothing of it was stored
    assert await action_count(new, table) == 1 and len(await new.hands(table)) == 1
    row = await new.table(table)
    assert row is not None and row.status is TableStatus.PLAYING and row.language is None
    assert [s.user_id for s in await new.seats(table)] == [11]
    assert [t.id for t in await new.live_tables()] == [table]
    # the new owner drives it
    await new.add_action(table, 0, 1, {"seat": 2, "type": "pass"}, by_user_id=13, auto=False, fence=fresh)
    assert await action_count(new, table) == 2


async def test_two_owners_racing_store_each_action_once(pair: tuple[Storage, Storage, Clock]) -> None:
    """The stale owner and the new one write at the same moments as the takeover: every action index is
    stored once, and after the takeover has committed no write of the stale owner gets in."""
    old, new, clock = pair
    stale = (await old.take_leases(1, [0], "A", TTL)).taken[0]
    table = await playing_table(old, stale)
    clock.now += TTL + 1

    writing = asyncio.Event()

    async def stale_writer() -> list[int]:
        stored = []
        for idx in range(5000):
            try:
                await old.add_action(table, 0, idx, {"n": idx, "by": "A"}, by_user_id=1, auto=False, fence=stale)
            except LeaseLost:
                break
            stored.append(idx)
            if idx == 3:
                writing.set()
            await asyncio.sleep(0)
        return stored

    async def takeover() -> Fence:
        await writing.wait()  # mid-stream
        return (await new.take_leases(1, [0], "B", TTL)).taken[0]

    stored_by_old, fresh = await asyncio.gather(stale_writer(), takeover())
    assert 4 <= len(stored_by_old) < 5000, "the stale owner was never refused"
    # what the new owner reads after taking over is final: it continues from there, and the old one cannot
    hands = await new.hands(table)
    seen = [a.action["n"] for a in hands[0].actions]
    assert seen == stored_by_old == list(range(len(seen)))
    with pytest.raises(LeaseLost):
        await old.add_action(table, 0, len(seen), {"n": -1}, by_user_id=1, auto=False, fence=stale)
    await new.add_action(table, 0, len(seen), {"n": len(seen), "by": "B"}, by_user_id=2, auto=False, fence=fresh)
    assert await action_count(new, table) == len(seen) + 1


async def test_a_released_lease_is_taken_at_once_and_a_resharded_bot_waits(
    pair: tuple[Storage, Storage, Clock],
) -> None:
    first, second, clock = pair
    grant = await first.take_leases(2, [0, 1], "A", TTL)
    await first.release_leases(list(grant.taken.values()))  # a clean shutdown
    again = await second.take_leases(2, [0, 1], "B", TTL)
    assert sorted(f.epoch for f in again.taken.values()) == [2, 2]
    # B runs with 2 shards; a process of a 4-shard deployment must wait for it: the guilds map differently
    wider = await first.take_leases(4, [0, 1], "C", TTL)
    assert not wider.taken and sorted(wider.refused) == [0, 1]
    clock.now += TTL + 1
    wider = await first.take_leases(4, [0, 1], "C", TTL)
    assert sorted(wider.taken) == [0, 1]
    assert [(lease.shard_id, lease.shard_count) for lease in await first.leases()] == [(0, 4), (1, 4)]


async def test_a_holder_proved_dead_loses_its_lease_at_once(pair: tuple[Storage, Storage, Clock]) -> None:
    """A process restarted at once after a crash takes its dead predecessor's unexpired
    leases (``gone`` proves the holder dead), with a new epoch that refuses the dead one's writes; a holder
    not proved dead keeps its lease, and a dead one of another shard count does not block a resharded bot."""
    dead, restarted, clock = pair
    stale = (await dead.take_leases(2, [0, 1], "A", TTL)).taken
    await restarted.take_leases(2, [], "L", TTL)
    table = await playing_table(dead, stale[0])
    clock.now += TTL / 3  # A was killed a moment ago: its leases run on for most of their TTL

    waits = await restarted.take_leases(2, [0, 1], "B", TTL)  # without proof: A's leases still bind
    assert not waits.taken and sorted(waits.refused) == [0, 1]
    doubts = await restarted.take_leases(2, [0, 1], "B", TTL, gone=lambda holder: holder == "someone else")
    assert not doubts.taken

    grant = await restarted.take_leases(2, [0, 1], "B", TTL, gone=lambda holder: holder == "A")
    assert grant.taken == {0: Fence(0, "B", 2), 1: Fence(1, "B", 2)} and not grant.refused
    assert sorted(grant.orphaned) == [0, 1] and {lease.holder for lease in grant.orphaned.values()} == {"A"}
    with pytest.raises(LeaseLost):
        await dead.add_action(table, 0, 0, {"seat": 1, "type": "pass"}, by_user_id=12, auto=False, fence=stale[0])
    await restarted.add_action(table, 0, 0, {"seat": 1, "type": "pass"}, by_user_id=12, auto=False,
                               fence=grant.taken[0])
    assert await action_count(restarted, table) == 1

    # B's leases are live and B is not proved dead: a third taker gets nothing before they run out
    third = await dead.take_leases(2, [0, 1], "C", TTL, gone=lambda holder: holder == "A")
    assert not third.taken and {lease.holder for lease in third.refused.values()} == {"B"}
    # a resharded bot (4 shards) is blocked by a live holder of another count, but not by a dead one
    assert not (await dead.take_leases(4, [2], "D", TTL)).taken
    wider = await dead.take_leases(4, [2], "D", TTL, gone=lambda holder: holder == "B")
    assert wider.taken == {2: Fence(2, "D", 1)}
