"""Seating: create, join by seat or team, leave, start, bots, table options."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from test_tables_harness import CHANNEL, GUILD, NAMES, USERS, Recorder, legal_bot_factory, open_service

from baloot.engine.rules import Rules
from baloot.storage import Storage, TableStatus
from baloot.tables import (
    AlreadySeated,
    BadOption,
    NoTableHere,
    NotAllowed,
    NotSeated,
    SeatTaken,
    TableExists,
    TableFull,
    TableNotRunning,
    TableService,
)
from baloot.tables.events import HandStarted, SeatsChanged, TableCreated, TurnStarted

Env = tuple[Storage, TableService, Recorder]


@pytest.fixture
async def env(database: str | Path) -> AsyncIterator[Env]:
    storage, service, recorder = await open_service(database, bot_factory=legal_bot_factory)
    yield storage, service, recorder
    await service.close()
    await storage.close()


async def test_create_seats_the_creator_and_stores_the_options(env: Env) -> None:
    storage, service, recorder = env
    info = await service.create(GUILD, CHANNEL, 11, "Ali", rules={"target": 21, "kawesh": True},
                                turn_seconds=30, language="ar")
    assert info.status is TableStatus.OPEN and info.rules == Rules(target=21, kawesh=True)
    assert info.turn_seconds == 30.0 and info.language == "ar"
    assert info.seat_of(11) == 0 and info.version is None
    row = await storage.table(info.id)
    assert row is not None and row.rules["kawesh"] is True and row.rules["target"] == 21
    assert [(s.seat, s.user_id) for s in await storage.seats(info.id)] == [(0, 11)]
    assert isinstance(recorder.events[0], TableCreated) and recorder.events[0].table == info


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rules": {"target": 0}}, "target"),
        ({"rules": {"target": 5000}}, "target"),
        ({"rules": {"kawesh": "yes"}}, "kawesh"),
        ({"rules": {"no_such_rule": True}}, "Unknown table option"),
        ({"turn_seconds": 0}, "turn time"),
        ({"turn_seconds": float("nan")}, "turn time"),
        ({"turn_seconds": 10_000}, "turn time"),
        ({"language": "fr"}, "language"),
    ],
)
async def test_bad_table_options_are_refused(env: Env, kwargs: dict[str, object], message: str) -> None:
    storage, service, _ = env
    with pytest.raises(BadOption, match=message):
        await service.create(GUILD, CHANNEL, 11, "Ali", **kwargs)  # type: ignore[arg-type]
    assert await storage.live_tables() == []
    with pytest.raises(NoTableHere):
        service.table_info(CHANNEL)


async def test_one_table_per_channel_and_one_table_per_user(env: Env) -> None:
    storage, service, _ = env
    await service.create(GUILD, CHANNEL, 11, "Ali")
    with pytest.raises(TableExists):
        await service.create(GUILD, CHANNEL, 12, "Badr")
    with pytest.raises(AlreadySeated):
        await service.create(GUILD, CHANNEL + 1, 11, "Ali")
    other = await service.create(GUILD, CHANNEL + 1, 12, "Badr")
    with pytest.raises(AlreadySeated):
        await service.join(CHANNEL, 12, "Badr")
    assert [s.user_id for s in await storage.seats(other.id)] == [12]
    assert len(await storage.live_tables()) == 2


async def test_join_by_seat_team_or_first_free(env: Env) -> None:
    _, service, recorder = env
    await service.create(GUILD, CHANNEL, 11, "Ali")
    assert (await service.join(CHANNEL, 12, "Badr", team=0)).seat_of(12) == 2  # R1: seats 0 and 2
    assert (await service.join(CHANNEL, 13, "Camil", seat=3)).seat_of(13) == 3
    info = await service.join(CHANNEL, 14, "Dana")
    assert info.seat_of(14) == 1 and info.full
    assert [s.name for s in info.seats if s is not None] == ["Ali", "Dana", "Badr", "Camil"]
    changes = recorder.of(SeatsChanged)
    assert len(changes) == 3 and changes[-1].table == info


async def test_join_errors(env: Env) -> None:
    storage, service, _ = env
    info = await service.create(GUILD, CHANNEL, 11, "Ali")
    with pytest.raises(NoTableHere):
        await service.join(CHANNEL + 5, 12, "Badr")
    await service.join(CHANNEL, 12, "Badr", seat=2)
    with pytest.raises(TableFull, match="team"):
        await service.join(CHANNEL, 13, "Camil", team=0)
    with pytest.raises(SeatTaken):
        await service.join(CHANNEL, 13, "Camil", seat=2)
    with pytest.raises(BadOption):
        await service.join(CHANNEL, 13, "Camil", seat=4)
    with pytest.raises(AlreadySeated):
        await service.join(CHANNEL, 12, "Badr")
    assert (await service.join(CHANNEL, 13, "Camil", team=1)).seat_of(13) == 1
    await service.join(CHANNEL, 14, "Dana")
    with pytest.raises(TableFull):
        await service.join(CHANNEL, 15, "Eid")
    assert [s.user_id for s in await storage.seats(info.id)] == [11, 13, 12, 14]


async def test_a_seated_player_may_move_before_the_start(env: Env) -> None:
    storage, service, recorder = env
    info = await service.create(GUILD, CHANNEL, 11, "Ali")
    moved = await service.join(CHANNEL, 11, "Ali", seat=3)
    assert moved.seat_of(11) == 3 and moved.seats[0] is None
    assert [(s.seat, s.user_id) for s in await storage.seats(info.id)] == [(3, 11)]
    assert isinstance(recorder.events[-1], SeatsChanged)
    with pytest.raises(AlreadySeated):
        await service.join(CHANNEL, 11, "Ali", seat=3)


async def test_leave_before_the_start_frees_the_seat_and_an_empty_table_closes(env: Env) -> None:
    storage, service, _ = env
    info = await service.create(GUILD, CHANNEL, 11, "Ali")
    await service.join(CHANNEL, 12, "Badr")
    with pytest.raises(NotSeated):
        await service.leave(CHANNEL, 13)
    assert (await service.leave(CHANNEL, 11)).seats[0] is None
    assert await service.create(GUILD, CHANNEL + 1, 11, "Ali")  # free to sit elsewhere
    await service.leave(CHANNEL, 12)
    with pytest.raises(NoTableHere):
        service.table_info(CHANNEL)
    row = await storage.table(info.id)
    assert row is not None and row.status is TableStatus.ABANDONED and row.end_reason == "empty"
    assert await storage.result(info.id) is None  # no match was played


async def test_start_needs_four_and_a_seated_player_or_the_creator(env: Env) -> None:
    storage, service, recorder = env
    info = await service.create(GUILD, CHANNEL, 11, "Ali")
    for user in USERS[1:3]:
        await service.join(CHANNEL, user, NAMES[user])
    with pytest.raises(NotAllowed, match="Four"):
        await service.start(CHANNEL, 11)
    await service.join(CHANNEL, 14, "Dana")
    with pytest.raises(NotAllowed):
        await service.start(CHANNEL, 99)
    started = await service.start(CHANNEL, 13)
    assert started.status is TableStatus.PLAYING and started.version == (0, 0)
    assert isinstance(recorder.events[-2], HandStarted) and isinstance(recorder.events[-1], TurnStarted)
    hands = await storage.hands(info.id)
    assert len(hands) == 1 and len(hands[0].deck) == 32 and hands[0].dealer == recorder.events[-2].dealer
    with pytest.raises(TableNotRunning):
        await service.start(CHANNEL, 11)
    with pytest.raises(TableNotRunning):
        await service.fill_with_bots(CHANNEL, 11, "easy")


async def test_fill_with_bots(env: Env) -> None:
    storage, service, _ = env
    info = await service.create(GUILD, CHANNEL, 11, "Ali")
    await service.join(CHANNEL, 12, "Badr", seat=2)
    with pytest.raises(BadOption):
        await service.fill_with_bots(CHANNEL, 11, "grandmaster")
    with pytest.raises(NotAllowed):
        await service.fill_with_bots(CHANNEL, 13, "easy")
    filled = await service.fill_with_bots(CHANNEL, 12, "hard")
    bots = [s for s in filled.seats if s is not None and s.is_bot]
    assert [(b.seat, b.bot_level) for b in bots] == [(1, "hard"), (3, "hard")]
    assert [s.is_bot for s in await storage.seats(info.id)] == [False, True, False, True]
    with pytest.raises(TableFull):
        await service.fill_with_bots(CHANNEL, 11, "easy")


async def test_no_bots_without_a_factory(database: str | Path) -> None:
    storage, service, _ = await open_service(database)
    try:
        await service.create(GUILD, CHANNEL, 11, "Ali")
        with pytest.raises(NotAllowed, match="Bots"):
            await service.fill_with_bots(CHANNEL, 11, "easy")
    finally:
        await storage.close()


async def test_languages(env: Env) -> None:
    storage, service, _ = env
    info = await service.create(GUILD, CHANNEL, 11, "Ali")
    await service.join(CHANNEL, 12, "Badr")
    with pytest.raises(NotAllowed):
        await service.set_language(CHANNEL, 12, "ar", is_admin=False)
    assert (await service.set_language(CHANNEL, 12, "ar", is_admin=True)).language == "ar"
    row = await storage.table(info.id)
    assert row is not None and row.language == "ar"
    await service.set_guild_language(GUILD, "ar")
    settings = await service.guild_settings(GUILD)
    assert (settings.language, settings.ai_rated) == ("ar", False)
    with pytest.raises(BadOption):
        await service.set_guild_language(GUILD, "xx")
