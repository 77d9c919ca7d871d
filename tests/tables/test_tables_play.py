"""Playing through the table service: a whole match, storage before announcement, bad input."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from storage_helpers import action_count
from test_tables_harness import (
    CHANNEL,
    USERS,
    Recorder,
    open_service,
    play_one,
    play_to_end,
    seat_four,
    snapshot,
    user_at,
)

from baloot.engine.actions import Action
from baloot.engine.errors import IllegalActionError, NotationError
from baloot.engine.records import replay_text
from baloot.storage import Storage, TableStatus
from baloot.tables import (
    NoTableHere,
    NotAllowed,
    NotSeated,
    NotYourTurn,
    StaleAction,
    TableNotRunning,
    TableService,
)
from baloot.tables.events import (
    ActionApplied,
    HandFinished,
    HandStarted,
    MatchFinished,
    TableEvent,
    TrickCompleted,
)

Env = tuple[Storage, TableService, Recorder]


@pytest.fixture
async def env(database: str | Path) -> AsyncIterator[Env]:
    storage, service, recorder = await open_service(database)
    yield storage, service, recorder
    await service.close()
    await storage.close()


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_whole_match_is_stored_and_replays_to_the_same_score(env: Env, seed: int) -> None:
    storage, service, recorder = env
    table_id = await seat_four(service, target=21)
    last = await play_to_end(service, table_id, random.Random(seed))
    assert last.match_finished and last.hand is None

    finished = recorder.of(MatchFinished)
    assert len(finished) == 1
    result = await storage.result(table_id)
    assert result is not None and not result.abandoned
    code, replay = replay_text(json.dumps(await storage.game_record(table_id)))
    assert code == 0
    assert tuple(replay["score"]) == result.score == finished[0].score
    assert replay["winner"] == result.winner_team == finished[0].winner
    assert (max(result.score) >= 21 and result.score[result.winner_team] > result.score[1 - result.winner_team]) \
        or any(h["level"] == "gahwa" for h in replay["hands"])
    assert result.record == await storage.game_record(table_id)
    assert result.user_ids() == USERS
    assert finished[0].replay.to_json() == replay

    # every hand was announced, with the replay summary of that hand
    hand_events = recorder.of(HandFinished)
    assert [e.summary.to_json() for e in hand_events] == replay["hands"]
    assert len(recorder.of(HandStarted)) == len(replay["hands"])
    record = await storage.game_record(table_id)
    for hand_no, summary in enumerate(replay["hands"]):
        tricks = [e for e in recorder.of(TrickCompleted) if e.hand_no == hand_no]
        actions = record["hands"][hand_no]["actions"]
        if actions and actions[-1]["type"] == "sawa":  # R12.3: a claim ends the play, no more tricks
            assert len(tricks) == sum(1 for a in actions if a["type"] == "play") // 4 >= 2
        else:
            assert len(tricks) == (8 if summary["contract"] else 0)
    # one ActionApplied per stored action, in order
    applied = recorder.of(ActionApplied)
    stored = [a.action for h in await storage.hands(table_id) for a in h.actions]
    assert [e.action.to_json() for e in applied] == stored

    row = await storage.table(table_id)
    assert row is not None and row.status is TableStatus.FINISHED
    with pytest.raises(NoTableHere):
        service.table_info(CHANNEL)
    with pytest.raises(TableNotRunning):
        await service.act(table_id, USERS[0], {"type": "pass"}, None)


async def test_an_action_is_in_the_database_before_any_listener_hears_of_it(env: Env) -> None:
    storage, service, _ = env
    seen: list[tuple[int, int, dict[str, object]]] = []

    async def reader(event: TableEvent) -> None:
        if isinstance(event, ActionApplied):
            hands = await storage.hands(event.table_id)
            stored = hands[event.hand_no].actions
            assert len(stored) == event.index + 1
            seen.append((event.hand_no, event.index, stored[-1].action))
            assert stored[-1].action == event.action.to_json()
        if isinstance(event, MatchFinished):
            assert await storage.result(event.table_id) is not None

    service.add_listener(reader)
    table_id = await seat_four(service)
    await play_to_end(service, table_id, random.Random(8))
    assert len(seen) == await action_count(storage, table_id) > 30


async def test_a_failing_listener_breaks_nothing(env: Env) -> None:
    storage, service, recorder = env

    async def broken(event: TableEvent) -> None:
        raise RuntimeError("listener bug")

    service.add_listener(broken)
    table_id = await seat_four(service)
    for _ in range(10):
        await play_one(service, table_id, random.Random(1))
    assert await action_count(storage, table_id) == 10
    assert len(recorder.of(ActionApplied)) == 10


async def test_act_result_and_seat_filled_in(env: Env) -> None:
    storage, service, _ = env
    table_id = await seat_four(service)
    info = service.table_by_id(table_id)
    assert info.to_move is not None
    user = user_at(service, table_id, info.to_move)
    result = await service.act(table_id, user, {"type": "pass"}, (0, 0))  # no seat: the user's own
    assert result.action_json == {"seat": info.to_move, "type": "pass"}
    assert result.version == (0, 1) and not result.hand_finished
    assert result.hand is not None and result.hand.seat == info.to_move and result.hand.view.legal == ()
    nxt = service.table_by_id(table_id).to_move
    assert nxt is not None
    other = user_at(service, table_id, nxt)
    result = await service.act(table_id, other, Action.pass_(nxt), (0, 1))  # an Action works too
    assert result.version == (0, 2)
    stored = await storage.hands(table_id)
    assert [(a.by_user_id, a.auto) for a in stored[0].actions] == [(user, False), (other, False)]


async def test_every_bad_press_is_refused_and_changes_nothing(env: Env) -> None:
    storage, service, _ = env
    table_id = await seat_four(service)
    for _ in range(5):
        await play_one(service, table_id, random.Random(4))
    info = service.table_by_id(table_id)
    assert info.to_move is not None and info.version is not None
    mover = user_at(service, table_id, info.to_move)
    waiting_seat = (info.to_move + 1) % 4
    waiting = user_at(service, table_id, waiting_seat)
    hand = await service.my_hand(table_id, mover)
    good = hand.view.legal[0].to_json()
    before = await snapshot(storage, service, table_id)

    bad_presses: list[tuple[type[Exception], int, int, object, object]] = [
        (NoTableHere, table_id + 99, mover, good, info.version),  # a table that never was
        (NotSeated, table_id, 99, good, info.version),  # not at this table
        (NotAllowed, table_id, waiting, good, info.version),  # a press on another player's hand
        (NotYourTurn, table_id, waiting, {"type": "pass"}, info.version),  # out of turn
        (StaleAction, table_id, mover, good, (info.version[0], info.version[1] - 1)),  # an earlier button
        (StaleAction, table_id, mover, good, (info.version[0] - 1, info.version[1])),  # an earlier hand
        (NotationError, table_id, mover, {"type": "fold"}, info.version),  # not an action
        (NotationError, table_id, mover, {"type": "play", "card": "1X"}, info.version),
    ]
    illegal = [a for a in (Action.play(info.to_move, c) for c in ("7S", "AS", "JH", "TD")) if a not in hand.view.legal]
    bad_presses.append((IllegalActionError, table_id, mover, illegal[0].to_json(), info.version))
    for error, tid, user, action, version in bad_presses:
        with pytest.raises(error):
            await service.act(tid, user, action, version)  # type: ignore[arg-type]
        assert await snapshot(storage, service, table_id) == before, error
    with pytest.raises(NotSeated):
        await service.my_hand(table_id, 99)


async def test_a_double_click_is_applied_once(env: Env) -> None:
    storage, service, recorder = env
    table_id = await seat_four(service)
    info = service.table_by_id(table_id)
    assert info.to_move is not None and info.version is not None
    user = user_at(service, table_id, info.to_move)
    await service.act(table_id, user, {"type": "pass"}, info.version)
    count = await action_count(storage, table_id)
    with pytest.raises(StaleAction):
        await service.act(table_id, user, {"type": "pass"}, info.version)
    assert await action_count(storage, table_id) == count == 1
    assert len(recorder.of(ActionApplied)) == 1


async def test_concurrent_presses_are_applied_one_at_a_time_in_arrival_order(env: Env) -> None:
    storage, service, recorder = env
    table_id = await seat_four(service)
    info = service.table_by_id(table_id)
    assert info.to_move is not None
    first = info.to_move
    # The first three players pass at once, each with the button drawn for their turn,
    # plus a duplicate of the first press: arrival order decides.
    presses = [
        service.act(table_id, user_at(service, table_id, (first + k) % 4), {"type": "pass"}, (0, k))
        for k in range(3)
    ]
    presses.insert(1, service.act(table_id, user_at(service, table_id, first), {"type": "sun"}, (0, 0)))
    outcomes = await asyncio.gather(*presses, return_exceptions=True)
    assert not isinstance(outcomes[0], BaseException)
    assert isinstance(outcomes[1], StaleAction)
    assert [o.version for o in outcomes[2:] if not isinstance(o, BaseException)] == [(0, 2), (0, 3)]
    stored = (await storage.hands(table_id))[0].actions
    assert [(a.action["seat"], a.action["type"]) for a in stored] == [((first + k) % 4, "pass") for k in range(3)]
    assert [e.index for e in recorder.of(ActionApplied)] == [0, 1, 2]


async def test_many_presses_race_and_exactly_one_wins(env: Env) -> None:
    storage, service, _ = env
    table_id = await seat_four(service)
    for _ in range(12):
        await play_one(service, table_id, random.Random(2))
    info = service.table_by_id(table_id)
    assert info.to_move is not None and info.version is not None
    user = user_at(service, table_id, info.to_move)
    legal = (await service.my_hand(table_id, user)).view.legal
    count = await action_count(storage, table_id)
    presses = [service.act(table_id, user, a.to_json(), info.version) for a in legal for _ in range(3)]
    outcomes = await asyncio.gather(*presses, return_exceptions=True)
    winners = [o for o in outcomes if not isinstance(o, BaseException)]
    assert len(winners) == 1 and winners[0] is outcomes[0]
    assert all(isinstance(o, StaleAction) for o in outcomes[1:])
    assert await action_count(storage, table_id) == count + 1


async def test_a_failed_commit_leaves_memory_as_the_database(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    storage, service, recorder = env
    table_id = await seat_four(service)
    for _ in range(6):
        await play_one(service, table_id, random.Random(3))
    info = service.table_by_id(table_id)
    assert info.to_move is not None and info.version is not None
    user = user_at(service, table_id, info.to_move)
    legal = (await service.my_hand(table_id, user)).view.legal
    before = await snapshot(storage, service, table_id)
    events = len(recorder.events)

    async def disk_full(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    with monkeypatch.context() as patch:
        patch.setattr(storage, "add_action", disk_full)
        with pytest.raises(OSError):
            await service.act(table_id, user, legal[0].to_json(), info.version)
    assert await snapshot(storage, service, table_id) == before
    assert len(recorder.events) == events  # nobody was told
    result = await service.act(table_id, user, legal[0].to_json(), info.version)  # and it works again
    assert result.version == (info.version[0], info.version[1] + 1)


async def test_open_table_has_no_hand_yet(env: Env) -> None:
    _, service, _ = env
    info = await service.create(1, CHANNEL, USERS[0], "Ali")
    with pytest.raises(TableNotRunning):
        await service.act(info.id, USERS[0], {"type": "pass"}, (0, 0))
    with pytest.raises(TableNotRunning):
        await service.my_hand(info.id, USERS[0])
    sheet = service.score_sheet(CHANNEL)
    assert sheet.hands == () and sheet.score == (0, 0) and sheet.target == 152


async def test_score_sheet_and_public_view(env: Env) -> None:
    _, service, _ = env
    table_id = await seat_four(service, target=500)
    rng = random.Random(6)
    while not service.score_sheet(CHANNEL).hands[0].score:
        await play_one(service, table_id, rng)
    sheet = service.score_sheet(CHANNEL)
    assert sheet.target == 500 and len(sheet.hands) == 2 and sheet.hands[1].score is None
    assert sheet.score == tuple(sheet.hands[0].score or ())
    public = service.public_view(table_id)
    assert public is not None and not hasattr(public, "hand") and not hasattr(public, "legal")
    assert not hasattr(public, "seat")
    # nobody's cards leak through the private view either
    for seat in range(4):
        mine = await service.my_hand(table_id, user_at(service, table_id, seat))
        assert len(mine.view.hand) in (5, 8) and mine.seat == seat
        if mine.view.to_move != seat:
            assert mine.view.legal == () and mine.deadline is None
