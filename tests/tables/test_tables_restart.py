"""Restarts: every unfinished table resumes from its stored record."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sys
import time
from pathlib import Path

import pytest
from test_tables_harness import (
    CHANNEL,
    GUILD,
    NAMES,
    USERS,
    open_service,
    play_one,
    play_to_end,
    seat_four,
)

from baloot.engine.records import replay_text
from baloot.storage import TableStatus
from baloot.tables import NotAllowed
from baloot.tables.events import ActionApplied, TableResumed, TurnStarted

ROOT = Path(__file__).resolve().parents[2]


async def test_a_crash_loses_nothing_and_the_match_goes_on(database: str | Path) -> None:
    path = database
    storage1, service1, _ = await open_service(path)
    table_id = await seat_four(service1, target=60)
    rng = random.Random(11)
    for _ in range(45):  # into the second hand or deep in the first
        await play_one(service1, table_id, rng)
    before = service1.table_by_id(table_id)
    views = [(await service1.my_hand(table_id, u)).view for u in USERS]
    # "crash": the first service is dropped without closing anything
    storage2, service2, recorder2 = await open_service(path)
    try:
        resumed = await service2.resume_all()
        assert [t.id for t in resumed] == [table_id]
        after = service2.table_by_id(table_id)
        assert (after.version, after.match_score, after.to_move, after.seats) == (
            before.version, before.match_score, before.to_move, before.seats
        )
        assert [(await service2.my_hand(table_id, u)).view for u in USERS] == views
        kinds = recorder2.kinds()
        assert kinds[:2] == ["TableResumed", "TurnStarted"]
        assert recorder2.of(TableResumed)[0].table.version == before.version
        turn = recorder2.of(TurnStarted)[0]
        assert abs(turn.deadline - (time.time() + 60)) < 5  # a fresh, full turn
        # the players can still not sit elsewhere
        assert service2.table_of_user(USERS[2]) is not None
        await play_to_end(service2, table_id, rng)
        result = await storage2.result(table_id)
        assert result is not None
        code, replay = replay_text(json.dumps(await storage2.game_record(table_id)))
        assert code == 0 and tuple(replay["score"]) == result.score
        stored = [a.action for h in await storage2.hands(table_id) for a in h.actions]
        assert len(stored) == 45 + len(recorder2.of(ActionApplied))
        assert await service2.resume_all() == []  # finished tables are not resumed
    finally:
        await service1.close()
        await service2.close()
        await storage1.close()
        await storage2.close()


async def test_an_open_table_resumes_with_its_seats(database: str | Path) -> None:
    path = database
    storage1, service1, _ = await open_service(path)
    info = await service1.create(GUILD, CHANNEL, USERS[0], "Ali", turn_seconds=20, language="ar")
    await service1.join(CHANNEL, USERS[1], NAMES[USERS[1]], seat=3)
    await storage1.close()
    storage2, service2, recorder2 = await open_service(path)
    try:
        await service2.resume_all()
        table = service2.table_info(CHANNEL)
        assert table.id == info.id and table.status is TableStatus.OPEN and table.language == "ar"
        assert table.seat_of(USERS[1]) == 3 and table.turn_seconds == 20
        assert recorder2.kinds() == ["TableResumed"]
        for user in USERS[2:]:
            await service2.join(CHANNEL, user, NAMES[user])
        await service2.start(CHANNEL, USERS[0])
        assert service2.table_info(CHANNEL).version == (0, 0)
    finally:
        await service2.close()
        await storage2.close()


async def test_a_finished_hand_without_the_next_deal_is_dealt_on_resume(database: str | Path) -> None:
    path = database
    storage1, service1, _ = await open_service(path)
    table_id = await seat_four(service1, target=500)
    rng = random.Random(5)
    while len(await storage1.hands(table_id)) < 2:
        await play_one(service1, table_id, rng)
    # simulate a crash between the last action of hand 0 and the storing of hand 1's deck
    await storage1.db.execute("DELETE FROM hands WHERE table_id = ? AND hand_no = 1", (table_id,))
    await service1.close()
    storage2, service2, recorder2 = await open_service(path)
    try:
        await service2.resume_all()
        assert service2.table_by_id(table_id).version == (1, 0)
        assert len(await storage2.hands(table_id)) == 2
        assert recorder2.kinds()[:3] == ["HandStarted", "TableResumed", "TurnStarted"]
    finally:
        await service2.close()
        await storage1.close()
        await storage2.close()


CHILD = """
import asyncio, json, random, sys
from pathlib import Path
sys.path[:0] = [sys.argv[3], sys.argv[3] + "/tests", sys.argv[3] + "/tests/tables"]
from test_tables_harness import CHANNEL, open_service, seat_four, user_at
from baloot.tables import NoTableHere

async def main(path, seed):
    storage, service, _ = await open_service(path)
    await service.resume_all()
    try:
        table_id = service.table_info(CHANNEL).id
    except NoTableHere:
        table_id = await seat_four(service, target=80)
    rng = random.Random(seed)
    while True:
        info = service.table_by_id(table_id)
        user = user_at(service, table_id, info.to_move)
        hand = await service.my_hand(table_id, user)
        action = rng.choice([a for a in hand.view.legal if a.type.value != "kawesh"] or list(hand.view.legal))
        result = await service.act(table_id, user, action.to_json(), hand.version)
        print("ack", json.dumps([hand.version[0], hand.version[1], result.action_json]), flush=True)
        if result.match_finished:
            print("finished", flush=True)
            return

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


async def run_child_and_kill(
    path: str | Path, seed: int, acks_before_kill: int
) -> list[tuple[int, int, dict[str, object]]]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CHILD, str(path), str(seed), str(ROOT),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    acks: list[tuple[int, int, dict[str, object]]] = []
    assert proc.stdout is not None
    async with asyncio.timeout(20):
        while len(acks) < acks_before_kill:
            line = (await proc.stdout.readline()).decode()
            if not line:
                break
            if line.startswith("ack "):
                hand_no, idx, action = json.loads(line[4:])
                acks.append((hand_no, idx, action))
        os.kill(proc.pid, signal.SIGKILL)  # mid-game, possibly mid-commit
        rest, err = await proc.communicate()
    for line in rest.decode().splitlines():  # acknowledged before the kill landed
        if line.startswith("ack "):
            hand_no, idx, action = json.loads(line[4:])
            acks.append((hand_no, idx, action))
    assert proc.returncode == -signal.SIGKILL, err.decode()[-2000:]
    return acks


async def test_sigkill_mid_match_several_times_loses_and_duplicates_nothing(database: str | Path) -> None:
    path = database
    acked: list[tuple[int, int, dict[str, object]]] = []
    for round_no, n in enumerate((15, 40, 25)):
        acked += await run_child_and_kill(path, round_no, n)
    storage, service, _ = await open_service(path)
    try:
        [table] = await service.resume_all()
        await play_to_end(service, table.id, random.Random(99))
        hands = await storage.hands(table.id)
        stored = {(h.hand_no, a.idx): a.action for h in hands for a in h.actions}
        for hand_no, idx, action in acked:  # every acknowledged action is there, at its place
            assert stored[(hand_no, idx)] == action
        for h in hands:
            assert [a.idx for a in h.actions] == list(range(len(h.actions)))
        result = await storage.result(table.id)
        assert result is not None
        code, replay = replay_text(json.dumps(await storage.game_record(table.id)))
        assert code == 0 and tuple(replay["score"]) == result.score and replay["winner"] == result.winner_team
    finally:
        await service.close()
        await storage.close()


async def test_a_vote_to_end_survives_a_restart_and_leaves_with_its_voter(database: str | Path) -> None:
    """A vote to end the table is accepted and announced, so it is stored (nothing accepted is lost): a
    restart keeps it, the voter cannot vote twice across it, and a voter who leaves takes the vote along."""
    storage1, service1, _ = await open_service(database)
    table_id = await seat_four(service1, target=60)
    first = await service1.end(CHANNEL, USERS[1])
    assert (first.ended, first.votes, first.needed) == (False, 1, 3)
    storage2, service2, _ = await open_service(database)  # "crash"
    storage3, service3 = storage2, service2
    try:
        assert [t.id for t in await service2.resume_all()] == [table_id]
        with pytest.raises(NotAllowed, match="already voted"):
            await service2.end(CHANNEL, USERS[1])
        second = await service2.end(CHANNEL, USERS[2])
        assert (second.ended, second.votes, second.needed) == (False, 2, 3)
        await service2.leave(CHANNEL, USERS[2])  # mid-match: the seat is played for them; their vote goes
        storage3, service3, _ = await open_service(database)
        await service3.resume_all()
        third = await service3.end(CHANNEL, USERS[3])  # USERS[1]'s stored vote and this one: 2 of 3 people
        assert (third.ended, third.votes, third.needed) == (True, 2, 2)
        row = await storage3.table(table_id)
        assert row is not None and row.status == TableStatus.ENDED
    finally:
        for service in {service1, service2, service3}:
            await service.close()
        for storage in {storage1, storage2, storage3}:
            await storage.close()
