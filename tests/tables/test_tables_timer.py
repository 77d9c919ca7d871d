"""The turn timer: reminder, timeout with the safe policy, away after repeated timeouts, back."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from test_tables_harness import CHANNEL, GUILD, NAMES, USERS, Recorder, legal_bot_factory, open_service, user_at

from baloot.engine.actions import Action, ActionType
from baloot.engine.cards import parse_suit
from baloot.tables import TableInfo, TableService, safe_action
from baloot.tables.events import (
    ActionApplied,
    PlayerAway,
    PlayerBack,
    TableEvent,
    TurnReminder,
    TurnStarted,
    TurnTimedOut,
)
from baloot.tables.waiting import WaitingTurn

E = type[TableEvent]


async def wait_for(recorder: Recorder, kind: E, count: int = 1, timeout: float = 5.0) -> None:
    async def poll() -> None:
        while len(recorder.of(kind)) < count:
            await asyncio.sleep(0.005)

    await asyncio.wait_for(poll(), timeout)


async def start_four(service: TableService, turn_seconds: float) -> TableInfo:
    """A table of the four test users, started (its first turn running)."""
    info = await service.create(GUILD, CHANNEL, USERS[0], "Ali", turn_seconds=turn_seconds)
    for user in USERS[1:]:
        await service.join(CHANNEL, user, NAMES[user])
    await service.start(CHANNEL, USERS[0])
    return info


def play(seat: int, card: str) -> Action:
    return Action.play(seat, card)


def test_safe_policy_plays_the_lowest_value_card() -> None:
    spades = parse_suit("S")
    # Hokum in spades: JS (20) and 9S (14) are dear, AH 11, KD 4, 8C 0.
    legal = [play(0, c) for c in ("JS", "9S", "AH", "KD", "8C")] + [Action(0, ActionType.DECLARE)]
    assert safe_action(legal, spades) is play(0, "8C")
    # equal values: the lower card in trick order goes (R1.1), in Sun 7 before 8
    assert safe_action([play(1, "8H"), play(1, "7H")], None) is play(1, "7H")
    # in Hokum the trump 7 is the lowest trump, so also the cheapest zero
    assert safe_action([play(1, "8S"), play(1, "QH")], spades) is play(1, "8S")
    assert safe_action([play(1, "QS"), play(1, "QH")], spades) is play(1, "QS")  # both 3: trump Q ranks lower


def test_safe_policy_passes_and_never_declares() -> None:
    bids = [Action(2, ActionType.HOKUM), Action(2, ActionType.SUN), Action.pass_(2), Action(2, ActionType.ASHKAL)]
    assert safe_action(bids, None) is Action.pass_(2)
    doubling = [Action.pass_(3), Action(3, ActionType.DOUBLE, locked=True)]
    assert safe_action(doubling, None) is Action.pass_(3)
    confirm = [Action(1, ActionType.SUN), Action(1, ActionType.HOKUM, suit=2), Action(1, ActionType.HOKUM, suit=3)]
    assert safe_action(confirm, None) is Action(1, ActionType.HOKUM, suit=2)
    with pytest.raises(ValueError):
        safe_action([], None)


async def test_reminder_then_timeout_plays_safe_and_says_so(database: str | Path) -> None:
    storage, service, recorder = await open_service(
        database, reminder_seconds=0.1, bot_delay=0.0, away_after=5
    )
    try:
        info = await start_four(service, turn_seconds=0.25)
        started = recorder.of(TurnStarted)[0]
        assert not started.played_for and started.version == (0, 0)
        await wait_for(recorder, TurnTimedOut)
        kinds = recorder.kinds()
        i = kinds.index("TurnReminder")
        assert kinds[i:i + 4] == ["TurnReminder", "TurnTimedOut", "ActionApplied", "TurnStarted"]
        reminder = recorder.of(TurnReminder)[0]
        timed_out = recorder.of(TurnTimedOut)[0]
        applied = recorder.of(ActionApplied)[0]
        assert reminder.seat == timed_out.seat == applied.seat == started.seat
        assert timed_out.action is Action.pass_(started.seat) is applied.action and timed_out.timeouts == 1
        assert applied.auto and not applied.by_bot
        stored = (await storage.hands(info.id))[0].actions
        assert [(a.action, a.auto, a.by_user_id) for a in stored] == [
            ({"seat": started.seat, "type": "pass"}, True, None)
        ]
        # the timeout took about the turn time (not before the reminder)
        assert started.deadline - 0.3 < recorder.of(TurnStarted)[1].deadline - 0.25 < started.deadline + 1.5
    finally:
        await service.close()
        await storage.close()


async def test_acting_in_time_cancels_the_timer(database: str | Path) -> None:
    storage, service, recorder = await open_service(database, reminder_seconds=0.05)
    try:
        info = await start_four(service, turn_seconds=0.15)
        table = service.table_by_id(info.id)
        assert table.to_move is not None
        await service.act(info.id, user_at(service, info.id, table.to_move), {"type": "pass"}, (0, 0))
        await wait_for(recorder, TurnTimedOut)  # the next player's turn times out ...
        first = recorder.of(TurnTimedOut)[0]
        assert first.seat == (table.to_move + 1) % 4  # ... but not the one who acted
        assert next(e.version for e in recorder.of(TurnReminder)) == (0, 1)
    finally:
        await service.close()
        await storage.close()


async def test_a_persons_turn_waits_on_a_loop_timer_and_starts_no_task_until_it_fires(database: str | Path) -> None:
    """On the real clock a person's turn is a WaitingTurn (a loop timer); a press stops it
    before any task is made; the turn's task exists only once the timer has fired."""
    storage, service, recorder = await open_service(database, reminder_seconds=0.2)
    try:
        info = await start_four(service, turn_seconds=0.6)
        table = service._tables[info.id]  # the live table (its turn is not part of what the service shows)
        waiting = table.turn_task
        assert isinstance(waiting, WaitingTurn) and waiting.task is None and not waiting.done()
        assert not [t for t in asyncio.all_tasks() if t.get_name().startswith("baloot-turn-")]
        mover = table.to_move
        assert mover is not None
        await service.act(info.id, user_at(service, info.id, mover), {"type": "pass"}, (0, 0))
        assert waiting.done() and waiting.cancelled and waiting.task is None  # stopped before its timer
        following = table.turn_task
        assert isinstance(following, WaitingTurn) and following is not waiting and following.task is None
        await wait_for(recorder, TurnReminder)  # 0.4 s on: the timer fired and started the turn's task
        assert following.task is not None and not following.done()
        await wait_for(recorder, TurnTimedOut)
        assert following.done() and following.task.done() and not following.task.cancelled()
        assert recorder.of(TurnTimedOut)[0].seat == (mover + 1) % 4
    finally:
        await service.close()
        await storage.close()


async def run_until_away(service: TableService, recorder: Recorder, human: int) -> None:
    """Bots fill the other seats; the human at seat 0 never acts until marked away."""
    await service.create(GUILD, CHANNEL, human, "Ali", turn_seconds=0.1, rules={"target": 500})
    await service.fill_with_bots(CHANNEL, human, "easy")
    await service.start(CHANNEL, human)
    await wait_for(recorder, PlayerAway)


async def test_repeated_timeouts_mark_away_a_bot_takes_over_and_acting_brings_back(database: str | Path) -> None:
    storage, service, recorder = await open_service(
        database, reminder_seconds=0.05, away_after=2, bot_factory=legal_bot_factory
    )
    try:
        await run_until_away(service, recorder, USERS[0])
        table = service.table_info(CHANNEL)
        assert [e.timeouts for e in recorder.of(TurnTimedOut)] == [1, 2]
        away = recorder.of(PlayerAway)[0]
        assert away.seat == 0 and away.user_id == USERS[0]
        seats = await storage.seats(table.id)
        assert seats[0].away and table.seats[0] is not None and table.seats[0].away
        # while away, the seat is played at once by the takeover bot
        before = len(recorder.of(ActionApplied))
        while not [e for e in recorder.of(ActionApplied)[before:] if e.seat == 0]:
            await asyncio.sleep(0.01)
        mine = next(e for e in recorder.of(ActionApplied)[before:] if e.seat == 0)
        assert mine.auto and mine.by_bot
        assert len(recorder.of(TurnTimedOut)) == 2  # no more waiting out the turn time
        # opening the hand brings the player back
        hand = await service.my_hand(table.id, USERS[0])
        assert hand.seat == 0
        assert [e.seat for e in recorder.of(PlayerBack)] == [0]
        assert not (await storage.seats(table.id))[0].away
        assert not service.table_info(CHANNEL).seats[0].away  # type: ignore[union-attr]
    finally:
        await service.close()
        await storage.close()


async def test_away_without_bots_is_played_by_the_safe_policy_and_back_by_acting(database: str | Path) -> None:
    storage, service, recorder = await open_service(database, reminder_seconds=0.02, away_after=1,
                                                    bot_delay=0.3)
    try:
        info = await service.create(GUILD, CHANNEL, USERS[0], "Ali", turn_seconds=0.3)
        for user in USERS[1:]:
            await service.join(CHANNEL, user, NAMES[user])
        await service.start(CHANNEL, USERS[0])
        await wait_for(recorder, PlayerAway)
        away = recorder.of(PlayerAway)[0]
        # the away player's next turn is announced as played for; they act before the delay runs out
        await wait_for(recorder, ActionApplied, 4)
        while True:
            starts = [e for e in recorder.of(TurnStarted) if e.seat == away.seat and e.played_for]
            if starts:
                break
            await asyncio.sleep(0.005)
        hand = await service.my_hand(info.id, away.user_id)  # type: ignore[arg-type]
        assert recorder.of(PlayerBack)
        result = await service.act(info.id, away.user_id, hand.view.legal[0].to_json(), hand.version)  # type: ignore[arg-type]
        applied = [e for e in recorder.of(ActionApplied) if e.version == result.version]
        assert applied and not applied[0].auto
    finally:
        await service.close()
        await storage.close()


async def test_acting_while_away_brings_the_player_back(database: str | Path) -> None:
    storage, service, recorder = await open_service(database, reminder_seconds=0.02, away_after=1,
                                                    bot_delay=5.0)
    try:
        info = await service.create(GUILD, CHANNEL, USERS[0], "Ali", turn_seconds=0.08)
        for user in USERS[1:]:
            await service.join(CHANNEL, user, NAMES[user])
        await service.start(CHANNEL, USERS[0])
        await wait_for(recorder, PlayerAway)
        away = recorder.of(PlayerAway)[0]
        # the next seat's turn is a person's: let it time out too, until the away seat is to move again
        while service.table_by_id(info.id).to_move != away.seat:
            await asyncio.sleep(0.005)
        table = service.table_by_id(info.id)
        result = await service.act(info.id, away.user_id, {"type": "pass"}, table.version)  # type: ignore[arg-type]
        assert result.version[1] == table.version[1] + 1  # type: ignore[index]
        back = recorder.of(PlayerBack)
        assert [b.seat for b in back] == [away.seat]
        assert not (await storage.seats(info.id))[away.seat].away
    finally:
        await service.close()
        await storage.close()
