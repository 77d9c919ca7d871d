"""Storage faults at the table service: live state never runs ahead of the database.

Faults come from the seam :func:`baloot.storage.faults.inject_faults`: a call
raises :class:`StorageUnavailable` before it reaches SQLite, as a locked,
full or failing database does. Every refused change leaves memory, database
and listeners as they were; a change that *was* committed stands even when
what follows it (the next deal, marking a seat away) cannot be stored.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from storage_helpers import action_count
from test_tables_harness import (
    CHANNEL,
    GUILD,
    NAMES,
    USERS,
    legal_bot_factory,
    open_service,
    play_one,
    seat_four,
    snapshot,
    user_at,
)

from baloot.engine.actions import ActionType
from baloot.storage import StorageUnavailable, TableStatus
from baloot.storage.faults import inject_faults
from baloot.tables.events import ActionApplied, HandStarted


async def _press(service, table_id: int, rng: random.Random) -> tuple[int, dict[str, object], tuple[int, int]]:  # type: ignore[no-untyped-def]
    info = service.table_by_id(table_id)
    user = user_at(service, table_id, info.to_move)
    hand = await service.my_hand(table_id, user)
    legal = [a for a in hand.view.legal if a.type is not ActionType.KAWESH] or list(hand.view.legal)
    return user, rng.choice(legal).to_json(), hand.version


async def test_a_fault_during_commit_changes_nothing(tmp_path: Path) -> None:
    """R10: an action the database did not take is not in memory either, and nobody is told of it."""
    storage, service, recorder = await open_service(tmp_path / "t.db")
    faults = inject_faults(storage)
    table_id = await seat_four(service)
    rng = random.Random(5)
    for _ in range(3):
        await play_one(service, table_id, rng)
    live = service._tables[table_id]
    for reason in ("database is locked", "database or disk is full", "disk I/O error"):
        user, action, version = await _press(service, table_id, rng)
        before = await snapshot(storage, service, table_id)
        assert live.match is not None
        events, record, deadline = len(recorder.events), live.match.to_record(), live.deadline
        faults.fail("add_action", times=1, reason=reason)
        with pytest.raises(StorageUnavailable, match=reason):
            await service.act(table_id, user, action, version)
        assert await snapshot(storage, service, table_id) == before
        assert len(recorder.events) == events  # nothing announced
        assert live.version == version and live.deadline == deadline
        assert live.match is not None and live.match.to_record() == record
        # The same press, once the fault is over, is taken exactly once.
        result = await service.act(table_id, user, action, version)
        assert result.version == (version[0], version[1] + 1)
        assert await action_count(storage, table_id) == before[-1] + 1  # type: ignore[operator]
    assert faults.injected == 3
    await service.close()
    await storage.close()


async def test_lobby_faults_change_nothing(tmp_path: Path) -> None:
    """Creating, joining, filling, starting and ending a table: a refused write leaves the table as it was."""
    storage, service, recorder = await open_service(tmp_path / "t.db", bot_factory=legal_bot_factory)
    faults = inject_faults(storage)
    faults.fail("create_table", times=1)
    with pytest.raises(StorageUnavailable):
        await service.create(GUILD, CHANNEL, USERS[0], NAMES[USERS[0]])
    assert service.tables() == [] and await storage.live_tables() == []
    info = await service.create(GUILD, CHANNEL, USERS[0], NAMES[USERS[0]])
    faults.fail("put_seats", times=1)
    with pytest.raises(StorageUnavailable):
        await service.join(CHANNEL, USERS[1], NAMES[USERS[1]])
    assert service.table_of_user(USERS[1]) is None
    assert [s.seat for s in await storage.seats(info.id)] == [0]
    await service.join(CHANNEL, USERS[1], NAMES[USERS[1]])
    faults.fail("put_seats", times=1)
    with pytest.raises(StorageUnavailable):
        await service.fill_with_bots(CHANNEL, USERS[0])
    assert service.table_by_id(info.id).seats[2:] == (None, None)
    await service.fill_with_bots(CHANNEL, USERS[0])
    faults.fail("start_match", times=1)
    with pytest.raises(StorageUnavailable):
        await service.start(CHANNEL, USERS[0])
    assert service.table_by_id(info.id).status == TableStatus.OPEN
    assert service.table_by_id(info.id).version is None and (await storage.table(info.id)).status == "open"  # type: ignore[union-attr]
    await service.end(CHANNEL, USERS[1])  # one vote of the two needed: nothing stored
    events = len(recorder.events)
    faults.fail("close_table", times=1)
    with pytest.raises(StorageUnavailable):
        await service.end(CHANNEL, USERS[0])  # the creator ends it: the closing is refused
    assert service.table_by_id(info.id).end_votes == frozenset({USERS[1]})
    assert service.table_of_user(USERS[0]) == service.table_by_id(info.id)
    assert (await storage.table(info.id)).status == "open"  # type: ignore[union-attr]
    assert len(recorder.events) == events
    assert faults.injected == 5
    await service.close()
    await storage.close()


async def test_a_hand_that_cannot_be_dealt_keeps_the_action_that_ended_the_previous_one(tmp_path: Path) -> None:
    """R2/R10: the last action of a hand is committed and stands; the next deck waits until it is stored."""
    storage, service, recorder = await open_service(tmp_path / "t.db")
    faults = inject_faults(storage)
    table_id = await seat_four(service, target=152)
    rng = random.Random(9)
    faults.fail("add_hand")  # until cleared (the turn runner deals again meanwhile: test_tables_healing)
    while True:
        before = await action_count(storage, table_id)
        result = await play_one(service, table_id, rng)  # never raises: the pressed action was taken
        assert await action_count(storage, table_id) == before + 1
        if result.hand_finished:
            break
    assert faults.injected >= 1
    live = service._tables[table_id]
    assert live.match is not None and live.match.needs_deal and len(live.match.hands) == 1
    assert [e.hand_no for e in recorder.of(HandStarted)] == [0]
    assert recorder.of(ActionApplied)[-1].version == result.version
    assert len((await storage.game_record(table_id))["hands"]) == 1
    await service.close()
    await storage.close()
