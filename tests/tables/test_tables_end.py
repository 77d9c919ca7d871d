"""Ending a table: by its creator, by a server admin, or by a vote of the seated players."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from test_tables_harness import CHANNEL, GUILD, USERS, Recorder, open_service, play_one, seat_four, snapshot

from baloot.storage import Storage, TableStatus
from baloot.tables import NoTableHere, NotAllowed, TableNotRunning, TableService
from baloot.tables.events import EndReason, EndVoteCast, TableEnded

Env = tuple[Storage, TableService, Recorder]


@pytest.fixture
async def env(database: str | Path) -> AsyncIterator[Env]:
    storage, service, recorder = await open_service(database)
    yield storage, service, recorder
    await service.close()
    await storage.close()


async def started(service: TableService, actions: int = 5) -> int:
    table_id = await seat_four(service, target=500)
    rng = random.Random(7)
    for _ in range(actions):
        await play_one(service, table_id, rng)
    return table_id


async def assert_ended(storage: Storage, service: TableService, recorder: Recorder, table_id: int,
                       reason: EndReason, by: int) -> None:
    event = recorder.of(TableEnded)[-1]
    assert (event.table_id, event.reason, event.by_user_id) == (table_id, reason, by)
    row = await storage.table(table_id)
    assert row is not None and row.status is TableStatus.ENDED and row.end_reason == reason.value
    with pytest.raises(NoTableHere):
        service.table_info(CHANNEL)
    with pytest.raises(TableNotRunning):
        await service.act(table_id, USERS[1], {"type": "pass"}, None)
    assert service.table_of_user(USERS[1]) is None  # everyone is free to sit elsewhere


async def test_the_creator_ends_at_once_and_the_match_is_recorded_as_abandoned(env: Env) -> None:
    storage, service, recorder = env
    table_id = await started(service)
    result = await service.end(CHANNEL, USERS[0])
    assert result.ended
    await assert_ended(storage, service, recorder, table_id, EndReason.CREATOR, USERS[0])
    stored = await storage.result(table_id)
    assert stored is not None and stored.abandoned and stored.winner_team is None
    assert stored.record == await storage.game_record(table_id)
    assert len(stored.record["hands"][0]["actions"]) == 5


async def test_an_admin_ends_at_once(env: Env) -> None:
    storage, service, recorder = env
    table_id = await started(service)
    assert (await service.end(CHANNEL, 999, is_admin=True)).ended
    await assert_ended(storage, service, recorder, table_id, EndReason.ADMIN, 999)


async def test_an_open_table_ends_without_a_result(env: Env) -> None:
    storage, service, recorder = env
    info = await service.create(GUILD, CHANNEL, USERS[0], "Ali")
    assert (await service.end(CHANNEL, USERS[0])).ended
    assert await storage.result(info.id) is None
    assert recorder.of(TableEnded)[-1].reason is EndReason.CREATOR


async def test_a_majority_vote_of_the_seated_ends_it(env: Env) -> None:
    storage, service, recorder = env
    table_id = await started(service)
    before = await snapshot(storage, service, table_id)
    with pytest.raises(NotAllowed):
        await service.end(CHANNEL, 999)  # neither seated, creator nor admin
    first = await service.end(CHANNEL, USERS[1])
    assert (first.ended, first.votes, first.needed) == (False, 1, 3)  # 4 people: 3 make a majority
    with pytest.raises(NotAllowed, match="already"):
        await service.end(CHANNEL, USERS[1])
    second = await service.end(CHANNEL, USERS[2])
    assert (second.ended, second.votes) == (False, 2)
    assert [(e.user_id, e.votes, e.needed) for e in recorder.of(EndVoteCast)] == [(USERS[1], 1, 3), (USERS[2], 2, 3)]
    assert service.table_info(CHANNEL).end_votes == {USERS[1], USERS[2]}
    after = await snapshot(storage, service, table_id)
    # the votes changed nothing in the game or the database, but the votes themselves, stored with the seats
    assert after[1:3] + after[4:] == before[1:3] + before[4:]
    assert [dataclasses.replace(s, end_vote=False) for s in after[3]] == before[3]  # type: ignore[attr-defined]
    assert {s.user_id for s in after[3] if s.end_vote} == {USERS[1], USERS[2]}  # type: ignore[attr-defined]
    third = await service.end(CHANNEL, USERS[3])
    assert third.ended and third.votes == 3
    await assert_ended(storage, service, recorder, table_id, EndReason.VOTE, USERS[3])


async def test_a_vote_of_one_ends_a_table_with_one_person(env: Env) -> None:
    _, service, recorder = env
    await service.create(GUILD, CHANNEL, USERS[0], "Ali")
    await service.join(CHANNEL, USERS[1], "Badr")
    await service.leave(CHANNEL, USERS[0])  # the creator left; Badr alone decides
    assert (await service.end(CHANNEL, USERS[1])).ended
    assert recorder.of(TableEnded)[-1].reason is EndReason.VOTE
