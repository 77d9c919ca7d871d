"""Bots at a table: filling seats, off-loop choosing, taking over a seat left."""

from __future__ import annotations

import asyncio
import json
import os
import random
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import pytest
from test_tables_harness import (
    CHANNEL,
    GUILD,
    NAMES,
    USERS,
    LegalBot,
    Recorder,
    legal_bot_factory,
    open_service,
    play_one,
    seat_four,
)

from baloot import Match, seat_view
from baloot.engine.actions import Action
from baloot.engine.records import replay_text
from baloot.engine.view import SeatView
from baloot.storage import TableStatus
from baloot.tables import LastPlayer, TableService
from baloot.tables.bots import choose_off_loop
from baloot.tables.events import ActionApplied, MatchFinished, PlayerBack, SeatsChanged, TableEnded


async def human_plays_with_bots(service: TableService, recorder: Recorder, human: int, seed: int) -> int:
    """One person and three bots: the person acts when it is their turn, until the match ends."""
    info = await service.create(GUILD, CHANNEL, human, "Ali", rules={"target": 21})
    await service.fill_with_bots(CHANNEL, human, "easy")
    await service.start(CHANNEL, human)
    rng = random.Random(seed)
    async with asyncio.timeout(20):
        while not recorder.of(MatchFinished):
            try:
                table = service.table_by_id(info.id)
            except Exception:
                break
            if table.to_move == 0:
                hand = await service.my_hand(info.id, human)
                if hand.view.legal and hand.version == service.table_by_id(info.id).version:
                    await service.act(info.id, human, rng.choice(hand.view.legal).to_json(), hand.version)
                    continue
            await asyncio.sleep(0.001)
    return info.id


async def test_a_match_with_three_bots(database: str | Path) -> None:
    storage, service, recorder = await open_service(database, bot_factory=legal_bot_factory)
    try:
        table_id = await human_plays_with_bots(service, recorder, USERS[0], 1)
        assert recorder.of(MatchFinished)
        applied = recorder.of(ActionApplied)
        assert {e.by_bot for e in applied if e.seat != 0} == {True}
        assert {e.auto for e in applied} == {False}  # bots act for themselves; the person was never timed out
        result = await storage.result(table_id)
        assert result is not None and result.has_bots and result.user_ids() == (USERS[0], None, None, None)
        code, replay = replay_text(json.dumps(result.record))
        assert code == 0 and tuple(replay["score"]) == result.score
    finally:
        await service.close()
        await storage.close()


class ThreadNotingBot(LegalBot):
    threads: set[int] = set()  # noqa: RUF012

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        ThreadNotingBot.threads.add(threading.get_ident())
        return super().choose(view, rng)


async def test_bots_choose_off_the_event_loop(database: str | Path) -> None:
    executor = ThreadPoolExecutor(max_workers=1)
    storage, service, recorder = await open_service(
        database, bot_factory=lambda level: ThreadNotingBot(level), bot_executor=executor
    )
    try:
        await human_plays_with_bots(service, recorder, USERS[0], 2)
        assert ThreadNotingBot.threads and threading.get_ident() not in ThreadNotingBot.threads
    finally:
        await service.close()
        await storage.close()
        executor.shutdown()


class PidBot(LegalBot):
    """Notes the process it runs in (a file, since it may run in another process)."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        with self.path.open("a") as out:
            out.write(f"{os.getpid()}\n")
        return super().choose(view, rng)


async def test_bots_can_run_in_a_process_pool(tmp_path: Path, database: str | Path) -> None:
    executor = ProcessPoolExecutor(max_workers=1)
    pids = tmp_path / "pids.txt"
    storage, service, recorder = await open_service(
        database, bot_factory=lambda level: PidBot(pids), bot_executor=executor
    )
    try:
        info = await service.create(GUILD, CHANNEL, USERS[0], "Ali")
        await service.fill_with_bots(CHANNEL, USERS[0], "hard")
        await service.start(CHANNEL, USERS[0])
        async with asyncio.timeout(10):
            while len([e for e in recorder.of(ActionApplied) if e.by_bot]) < 2:
                table = service.table_by_id(info.id)
                if table.to_move == 0:
                    await service.act(info.id, USERS[0], {"type": "pass"}, table.version)
                await asyncio.sleep(0.01)
        children = {int(line) for line in pids.read_text().split()}
        assert children and os.getpid() not in children
    finally:
        await service.close()
        await storage.close()
        executor.shutdown()


class BrokenBot:
    def __init__(self, illegal: bool) -> None:
        self.illegal = illegal

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        if self.illegal:
            return Action.play(view.seat, "7S") if Action.play(view.seat, "7S") not in view.legal \
                else Action.play(view.seat, "8S")
        raise RuntimeError("bot bug")


@pytest.mark.parametrize("illegal", [True, False])
async def test_a_broken_bot_is_replaced_by_the_safe_policy(database: str | Path, illegal: bool) -> None:
    storage, service, recorder = await open_service(database, bot_factory=lambda level: BrokenBot(illegal))
    try:
        table_id = await human_plays_with_bots(service, recorder, USERS[0], 3)
        assert recorder.of(MatchFinished)
        assert await storage.result(table_id) is not None
    finally:
        await service.close()
        await storage.close()


async def test_a_seat_left_is_played_for_and_given_back(database: str | Path) -> None:
    storage, service, recorder = await open_service(database, bot_factory=legal_bot_factory)
    try:
        table_id = await seat_four(service, target=500)
        rng = random.Random(9)
        for _ in range(3):
            await play_one(service, table_id, rng)
        leaver = USERS[1]
        seat = service.table_by_id(table_id).seat_of(leaver)
        assert seat is not None
        info = await service.leave(CHANNEL, leaver)
        assert info.seats[seat] is not None and info.seats[seat].vacated  # type: ignore[union-attr]
        assert (await storage.seats(table_id))[seat].vacated
        assert await service.create(GUILD, CHANNEL + 1, leaver, "Badr")  # free to sit elsewhere
        await service.leave(CHANNEL + 1, leaver)
        # the others keep playing; the seat left is played by a bot when its turn comes
        async with asyncio.timeout(10):
            while not [e for e in recorder.of(ActionApplied) if e.seat == seat and e.by_bot]:
                table = service.table_by_id(table_id)
                if table.to_move is not None and table.to_move != seat:
                    await play_one(service, table_id, rng)
                else:
                    await asyncio.sleep(0.001)
        bot_move = next(e for e in recorder.of(ActionApplied) if e.seat == seat and e.by_bot)
        assert bot_move.auto
        # somebody new cannot take a seat that is not free; the leaver comes back to theirs
        back = await service.join(CHANNEL, leaver, "Badr")
        assert back.seat_of(leaver) == seat and not back.seats[seat].vacated  # type: ignore[union-attr]
        assert recorder.of(PlayerBack)[-1].seat == seat
        assert isinstance(recorder.of(SeatsChanged)[-1], SeatsChanged)
    finally:
        await service.close()
        await storage.close()


async def test_when_every_person_leaves_the_match_is_abandoned(database: str | Path) -> None:
    storage, service, recorder = await open_service(database, bot_factory=legal_bot_factory)
    try:
        info = await service.create(GUILD, CHANNEL, USERS[0], "Ali", rules={"target": 500})
        await service.join(CHANNEL, USERS[1], NAMES[USERS[1]])
        await service.fill_with_bots(CHANNEL, USERS[0], "easy")
        await service.start(CHANNEL, USERS[1])
        await service.leave(CHANNEL, USERS[0])
        # the last person is asked first; their plain leave changes nothing
        with pytest.raises(LastPlayer):
            await service.leave(CHANNEL, USERS[1])
        assert (await storage.table(info.id)).status is TableStatus.PLAYING  # type: ignore[union-attr]
        assert service.table_info(CHANNEL).seats[1].human  # type: ignore[union-attr]
        assert recorder.of(TableEnded) == []
        left = await service.leave(CHANNEL, USERS[1], close_if_last=True)
        assert left.status is TableStatus.ABANDONED
        ended = recorder.of(TableEnded)
        assert [(e.reason.value, e.by_user_id, e.abandoned) for e in ended] == [("empty", USERS[1], True)]
        row = await storage.table(info.id)
        assert row is not None and row.status is TableStatus.ABANDONED
        result = await storage.result(info.id)
        assert result is not None and result.abandoned and result.winner_team is None
        assert [s.left_early for s in result.seats] == [True, True, False, False]
    finally:
        await service.close()
        await storage.close()


async def test_a_bot_that_hangs_times_out_instead_of_stalling_the_table() -> None:
    """A worker that never answers: choose_off_loop gives up after its limit (the table then plays safe)."""
    release = threading.Event()

    class Hung:
        def choose(self, view, rng):  # type: ignore[no-untyped-def]
            release.wait(5)
            return view.legal[0]

    match = Match()
    match.deal(random.Random(1))
    hand = match.current
    assert hand is not None
    view = seat_view(hand, hand.to_move)
    try:
        with pytest.raises(TimeoutError):
            await choose_off_loop(Hung(), view, 1, None, time_limit=0.05)
    finally:
        release.set()
    await asyncio.sleep(0)
