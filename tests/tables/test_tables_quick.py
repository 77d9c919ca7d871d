"""Quick match in the table service (baloot/tables/quick.py): the queue, the matcher, tables of no channel.

Run on SQLite and PostgreSQL; the two-process test shows that matchers of two
services on one PostgreSQL database never seat a player twice.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from test_tables_harness import Recorder, legal_bot_factory, open_service, play_to_end

from baloot.storage import Storage, TableStatus
from baloot.storage.quick import QUICK_GUILD_ID
from baloot.tables import AlreadySeated, BadOption, NotAllowed, ShardLeases, TableElsewhere, TableService
from baloot.tables.errors import BotsNotYet, NotQueued, QueuedAlready
from baloot.tables.events import MatchFinished, TableCreated, TableResumed
from baloot.tables.info import TableInfo
from baloot.tables.matching import BOTS_OFFER_AFTER
from baloot.tables.quick import QueueState


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def queue_four(service: TableService, users: Sequence[int] = (21, 22, 23, 24)) -> None:
    for i, user in enumerate(users):
        await service.queue_quick(500 + i, user, f"p{user}")


async def test_four_from_four_servers_are_seated_at_a_table_of_no_channel(database: str | Path) -> None:
    clock = Clock()
    storage, service, recorder = await open_service(database, clock=clock, bot_factory=legal_bot_factory)
    told: list[tuple[QueueState, Sequence[TableInfo]]] = []

    async def listen(state: QueueState, formed: Sequence[TableInfo]) -> None:
        told.append((state, formed))

    service.add_queue_listener(listen)
    try:
        await queue_four(service, (21, 22, 23))
        # how many others wait (not "N of 4 found"); nobody for who does not wait
        assert told[-1][0].others_for(21) == 2 and told[-1][0].others_for(99) == 0
        assert await service.match_quick() == []  # three are not a table
        await service.queue_quick(503, 24, "p24")
        [info] = await service.match_quick()
        assert info.guild_id == QUICK_GUILD_ID and info.channel_id == -info.id
        assert info.status == TableStatus.PLAYING and info.version == (0, 0)
        assert sorted(s.user_id for s in info.seats if s is not None and s.user_id is not None) == [21, 22, 23, 24]
        assert told[-1][1] == [info] or [t.id for t in told[-1][1]] == [info.id]
        assert told[-1][0].waiting == ()
        assert await storage.quick_guilds(info.id) == {21: 500, 22: 501, 23: 502, 24: 503}
        assert recorder.of(TableCreated)[-1].channel_id == -info.id
        # each player sits at one table at a time: queueing again is refused, nothing changed
        with pytest.raises(AlreadySeated):
            await service.queue_quick(500, 21, "p21")
        assert await storage.quick_queue() == []
        # the match plays like any other, to its end
        result = await play_to_end(service, info.id, random.Random(5))
        assert result is not None
        assert recorder.of(MatchFinished)
        stored = await storage.result(info.id)
        assert stored is not None and stored.guild_id == QUICK_GUILD_ID
    finally:
        await service.close()
        await storage.close()


async def test_bad_queue_input_is_refused_and_changes_nothing(database: str | Path) -> None:
    clock = Clock()
    storage, service, _ = await open_service(database, clock=clock, bot_factory=legal_bot_factory)
    try:
        await service.queue_quick(1, 21, "p21")
        with pytest.raises(QueuedAlready):
            await service.queue_quick(1, 21, "p21")
        with pytest.raises(QueuedAlready):  # a partner already waiting: the pair is not queued
            await service.queue_quick(1, 22, "p22", partner=(21, "p21"))
        with pytest.raises(BadOption):
            await service.queue_quick(1, 23, "p23", partner=(23, "p23"))
        with pytest.raises(BadOption):
            await service.queue_quick(1, 23, "p23", language="klingon")
        with pytest.raises(NotQueued):
            await service.leave_queue(22)
        with pytest.raises(NotQueued):
            await service.play_with_bots(22)
        with pytest.raises(BotsNotYet):
            await service.play_with_bots(21)
        assert [r.user_id for r in await storage.quick_queue()] == [21]
        await service.create(7, 70, 30, "p30")
        with pytest.raises(AlreadySeated):  # seated at a channel table
            await service.queue_quick(7, 30, "p30")
        await service.leave_queue(21)
        with pytest.raises(NotQueued):  # a stale Leave queue button
            await service.leave_queue(21)
        assert await storage.quick_queue() == []
    finally:
        await service.close()
        await storage.close()


async def test_play_now_with_bots_after_the_wait(database: str | Path) -> None:
    clock = Clock()
    storage, service, _ = await open_service(database, clock=clock, bot_factory=legal_bot_factory)
    try:
        await service.queue_quick(1, 21, "p21", partner=(22, "p22"))
        clock.now += BOTS_OFFER_AFTER
        info = await service.play_with_bots(22)  # either of the pair may press it
        assert info is not None and info.status == TableStatus.PLAYING
        assert [(s.user_id, s.is_bot) for s in info.seats if s is not None] == [
            (21, False), (None, True), (22, False), (None, True)]
        with pytest.raises(NotQueued):  # pressed again: the entry has left the queue
            await service.play_with_bots(21)
        assert await storage.quick_guilds(info.id) == {21: 1, 22: 1}
    finally:
        await service.close()
        await storage.close()


async def test_report_and_leave_at_a_quick_table(database: str | Path) -> None:
    storage, service, _ = await open_service(database, clock=Clock(), bot_factory=legal_bot_factory)
    try:
        await queue_four(service)
        [info] = await service.match_quick()
        seat_of = {s.user_id: s.seat for s in info.seats if s is not None}
        assert await service.report_player(info.id, 21, seat_of[22])
        assert not await service.report_player(info.id, 21, seat_of[22])  # once is stored
        with pytest.raises(BadOption):
            await service.report_player(info.id, 21, seat_of[21])
        assert await storage.quick_reports(info.id) == [(21, 22)]
        left = await service.leave(info.channel_id, 22)  # the seat is played for by a bot
        seat = left.seats[seat_of[22]]
        assert seat is not None and seat.vacated and left.status == TableStatus.PLAYING
        with pytest.raises(AlreadySeated):  # still seated at it? no: but 21 is
            await service.queue_quick(500, 21, "p21")
        await service.queue_quick(501, 22, "p22")  # who left may queue again
        await service.create(7, 70, 30, "p30")
        with pytest.raises(NotAllowed):
            await service.report_player(service.table_info(70).id, 30, 0)
    finally:
        await service.close()
        await storage.close()


async def test_a_restart_adopts_the_quick_table_and_plays_on(database: str | Path) -> None:
    storage, service, _ = await open_service(database, clock=Clock(), bot_factory=legal_bot_factory)
    await queue_four(service)
    [info] = await service.match_quick()
    rng = random.Random(3)
    from test_tables_harness import play_one
    for _ in range(10):
        await play_one(service, info.id, rng)
    before = service.table_by_id(info.id).version
    await service.close()
    await storage.close()
    storage, service, recorder = await open_service(database, clock=Clock(), bot_factory=legal_bot_factory)
    try:
        assert await service.resume_all() == []  # a quick table is the matcher's to adopt
        [again] = await service.match_quick()
        assert again.id == info.id and again.version == before
        assert isinstance(recorder.events[0], TableResumed)  # its DM messages are edited, not sent anew
        await play_to_end(service, info.id, rng)
    finally:
        await service.close()
        await storage.close()


async def test_two_processes_one_matcher_and_concurrent_presses(database: str | Path) -> None:
    """Two services, as two bot processes on one database with shard leases: presses on both at once queue a
    user once, only the holder of the quick-match guild (shard 0) matches, and nobody is seated twice."""
    services: list[tuple[Storage, TableService, Recorder]] = []
    lease_stores = [await Storage.open(database) for _ in (0, 1)]
    for shard in (0, 1):
        leases = ShardLeases(lease_stores[shard], 2, [shard], holder=f"p{shard}")
        storage, service, recorder = await open_service(database, clock=Clock(), bot_factory=legal_bot_factory,
                                                        leases=leases)
        await leases.take()
        services.append((storage, service, recorder))
    (_, first, _), (_, second, _) = services
    try:
        assert first.runs_matcher and not second.runs_matcher
        with pytest.raises(TableElsewhere):
            await second.match_quick()
        users = list(range(101, 131))

        async def press(service: TableService, i: int, user: int) -> bool:
            try:
                await service.queue_quick(900 + i, user, f"p{user}")
                return True
            except QueuedAlready:
                return False

        # every user presses Quick match on both processes at the same moment: queued once
        done = await asyncio.gather(*(press(s, i, u) for i, u in enumerate(users) for _, s, _ in services))
        assert sum(done) == len(users)
        formed = await first.match_quick()
        seated = [s.user_id for t in formed for s in t.seats if s is not None]
        assert len(formed) == 7 and len(seated) == len(set(seated)) == 28
        assert len(await services[0][0].quick_queue()) == 2
        assert await first.match_quick() == []  # the two left wait; the formed tables are not adopted twice
    finally:
        for storage, service, _ in services:
            await service.close()
            await storage.close()
        for store in lease_stores:
            await store.close()
