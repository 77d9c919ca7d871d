"""A Sawa claim through the table service (R12): it ends the hand at once and is stored."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from test_tables_harness import Recorder, open_service, seat_four, snapshot, user_at

from baloot.engine.actions import ActionType
from baloot.engine.errors import IllegalActionError
from baloot.engine.records import match_from_record, replay_text
from baloot.storage import Storage
from baloot.tables import TableService
from baloot.tables.events import ActionApplied, HandFinished, HandStarted, TrickCompleted

Env = tuple[Storage, TableService, Recorder]


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    storage, service, recorder = await open_service(tmp_path / "sawa.db")
    yield storage, service, recorder
    await service.close()
    await storage.close()


async def test_a_claim_ends_the_hand_and_is_stored(env: Env) -> None:
    storage, service, recorder = env
    table_id = await seat_four(service, target=500)
    rng = random.Random(4)
    refused_once = False
    for _ in range(400):  # random legal play, never claiming, until a claim is offered
        info = service.table_by_id(table_id)
        assert info.to_move is not None
        user = user_at(service, table_id, info.to_move)
        hand = await service.my_hand(table_id, user)
        legal = hand.view.legal
        if any(a.type is ActionType.SAWA for a in legal):
            break
        if not refused_once and hand.view.current_trick is not None and len(hand.view.tricks) >= 2:
            # Not offered (R12.2 or mid-trick): refused, and nothing changes.
            before = await snapshot(storage, service, table_id)
            with pytest.raises(IllegalActionError):
                await service.act(table_id, user, {"type": "sawa"}, hand.version)
            assert await snapshot(storage, service, table_id) == before
            refused_once = True
        choices = [a for a in legal if a.type not in (ActionType.KAWESH, ActionType.SAWA)]
        await service.act(table_id, user, rng.choice(choices).to_json(), hand.version)
    else:
        raise AssertionError("no claim was offered")
    assert refused_once
    hand_no, index = hand.version
    seat = hand.view.seat
    tricks_before = len(hand.view.tricks)
    result = await service.act(table_id, user, {"type": "sawa"}, hand.version)
    assert result.hand_finished and result.action_json == {"seat": seat, "type": "sawa"}

    applied = recorder.of(ActionApplied)[-1]
    assert applied.action.type is ActionType.SAWA and applied.index == index and applied.seat == seat
    finished = [e for e in recorder.of(HandFinished) if e.hand_no == hand_no]
    assert len(finished) == 1
    summary = finished[0].summary
    assert summary.card_points is not None
    assert sum(summary.card_points) in (130, 162)  # every card point is counted (R12.3)
    assert len([e for e in recorder.of(TrickCompleted) if e.hand_no == hand_no]) == tricks_before
    assert any(e.hand_no == hand_no + 1 for e in recorder.of(HandStarted))  # the match goes on

    record = await storage.game_record(table_id)
    stored = record["hands"][hand_no]["actions"]
    assert stored[-1] == {"seat": seat, "type": "sawa"} and len(stored) == index + 1
    code, replay = replay_text(json.dumps(record))
    assert code == 0 and replay["hands"][hand_no] == summary.to_json()
    replayed = match_from_record(record).hands[hand_no]
    assert replayed.sawa_by == seat
    assert replayed.tricks_won[seat & 1] >= 8 - tricks_before
