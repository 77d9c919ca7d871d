"""One live table per user, enforced by the database.

Several bot processes share one database and each knows only its own tables,
so the rule is kept by the ``seated_users`` key: seating a person who sits at
another live table is refused with :class:`SeatedElsewhere` and writes
nothing, whichever process tries, and also when two try at the same moment.
Runs on both backends.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from test_tables_harness import open_service

from baloot.storage import SeatedElsewhere, SeatRow, Storage, StorageConflict, TableStatus, migrate
from baloot.storage.postgres_backend import PostgresDatabase
from baloot.storage.sqlite_backend import SqliteDatabase
from baloot.tables import AlreadySeated

DECK = [r + s for s in "SHDC" for r in "789TJQKA"]


@pytest.fixture
async def storage(database: str | Path) -> AsyncIterator[Storage]:
    store = await Storage.open(database)
    yield store
    await store.close()


async def new_table(storage: Storage, channel: int, creator: int = 11) -> int:
    row = await storage.create_table(
        guild_id=1, channel_id=channel, creator_id=creator, rules={}, turn_seconds=30.0, language=None,
        first_seat=SeatRow(0, 0, creator, f"u{creator}"),
    )
    return row.id


async def seated(storage: Storage) -> dict[int, int]:
    rows = await storage.db.fetch_all("SELECT user_id, table_id FROM seated_users")
    return {int(r[0]): int(r[1]) for r in rows}


async def test_a_user_at_a_live_table_cannot_sit_at_another(storage: Storage) -> None:
    first = await new_table(storage, 7)
    second = await new_table(storage, 8, creator=12)
    with pytest.raises(SeatedElsewhere) as refused:
        await storage.put_seats([SeatRow(second, 1, 11, "u11")])
    assert isinstance(refused.value, StorageConflict)
    assert (refused.value.user_id, refused.value.table_id) == (11, first)
    assert [s.user_id for s in await storage.seats(second)] == [12]  # nothing written
    with pytest.raises(SeatedElsewhere):  # nor may they create a table: no table row is left behind
        await new_table(storage, 9, creator=11)
    assert [t.channel_id for t in await storage.live_tables()] == [7, 8]
    assert await seated(storage) == {11: first, 12: second}


async def test_moving_leaving_and_closing_free_the_user(storage: Storage) -> None:
    first = await new_table(storage, 7)
    await storage.put_seats([SeatRow(first, 1, 12, "u12")])
    await storage.put_seats([SeatRow(first, 2, 12, "u12")], remove=[(first, 1)])  # moving within a table
    await storage.put_seats([SeatRow(first, 2, 12, "u12", away=True)])  # a seat put again
    assert await seated(storage) == {11: first, 12: first}
    await storage.remove_seat(first, 2)  # stood up before the match
    await storage.put_seats([SeatRow(first, 3, None, "Bot", is_bot=True)])
    assert await seated(storage) == {11: first}
    await storage.put_seats([SeatRow(first, 0, 11, "u11", vacated=True)])  # left during the match
    other = await new_table(storage, 8, creator=11)  # so they may sit elsewhere
    with pytest.raises(SeatedElsewhere):  # and may not take their old seat back while there
        await storage.put_seats([SeatRow(first, 0, 11, "u11")])
    await storage.put_seats([SeatRow(first, 0, 13, "u13")])  # someone else takes the seat left
    assert await seated(storage) == {11: other, 13: first}
    await storage.close_table(other, TableStatus.ENDED, "creator")
    assert await seated(storage) == {13: first}
    await storage.put_seats([SeatRow(first, 1, 11, "u11")])


async def test_a_finished_match_frees_its_players(storage: Storage) -> None:
    from test_storage_game_log import result_of

    table = await new_table(storage, 7)
    await storage.start_match(table, 0, DECK)
    await storage.add_action(table, 0, 0, {"seat": 1, "type": "pass"}, by_user_id=11, auto=False,
                             result=result_of(table, winner=0))
    assert await seated(storage) == {}
    await new_table(storage, 8)


async def test_two_processes_seating_one_user_at_once_seat_them_once(database: str | Path) -> None:
    """Two Storage objects (two connections or pools: two processes) seat user 99 at two tables together."""
    stores = [await Storage.open(database) for _ in range(2)]
    try:
        for round_no in range(5):
            tables = [await new_table(stores[0], 10 * round_no + n, creator=100 * round_no + n) for n in (1, 2)]
            outcomes = await asyncio.gather(
                *(stores[n].put_seats([SeatRow(tables[n], 2, 99, "u99")]) for n in (0, 1)),
                return_exceptions=True,
            )
            refused = [o for o in outcomes if isinstance(o, BaseException)]
            assert len(refused) == 1 and isinstance(refused[0], SeatedElsewhere), outcomes
            winner = tables[outcomes.index(None)]
            assert await seated(stores[1]) == {100 * round_no + 1: tables[0], 100 * round_no + 2: tables[1],
                                                99: winner}
            seats = {t: [s.user_id for s in await stores[0].seats(t)] for t in tables}
            assert sorted(99 in users for users in seats.values()) == [False, True]
            for table in tables:
                await stores[0].close_table(table, TableStatus.ENDED, "test")
    finally:
        for store in stores:
            await store.close()


async def test_the_migration_records_who_sits_where(empty_database: str | Path) -> None:
    """Migration 7 fills ``seated_users`` from the live tables' seats (the older table where two processes
    had already seated one user twice); closed tables, bots and seats left do not count."""
    db = await (SqliteDatabase.open(empty_database, migrate_schema=False) if isinstance(empty_database, Path)
                else PostgresDatabase.open(empty_database, migrate_schema=False))
    try:
        assert await migrate(db, target=6) == 6
        async with db.transaction() as tx:
            for table_id, status in ((1, "playing"), (2, "open"), (3, "ended")):
                await tx.execute(
                    "INSERT INTO tables (id, guild_id, channel_id, creator_id, status, rules, turn_seconds, "
                    "created_at) VALUES (?, 1, ?, 5, ?, '{}', 60, 0)", (table_id, table_id, status))
            for table_id, seat, user, is_bot, vacated in ((1, 0, 5, 0, 0), (2, 0, 5, 0, 0), (2, 1, 6, 0, 0),
                                                         (2, 2, None, 1, 0), (1, 1, 7, 0, 1), (3, 0, 8, 0, 0)):
                await tx.execute(
                    "INSERT INTO seats (table_id, seat, user_id, display_name, is_bot, vacated) "
                    "VALUES (?, ?, ?, 'x', ?, ?)", (table_id, seat, user, is_bot, vacated))
        assert await migrate(db) >= 7
        rows = await db.fetch_all("SELECT user_id, table_id FROM seated_users ORDER BY user_id")
        assert [tuple(r) for r in rows] == [(5, 1), (6, 2)]
    finally:
        await db.close()


async def test_services_of_two_processes_seat_a_user_once(database: str | Path) -> None:
    """The table service answers a seating refused by the database as it does its own: AlreadySeated."""
    opened = [await open_service(database) for _ in range(2)]
    try:
        (_, zero, _), (_, one, _) = opened
        await zero.create(1, 700, 41, "Ali")
        with pytest.raises(AlreadySeated):
            await one.create(2, 800, 41, "Ali")
        await one.create(2, 800, 42, "Badr")
        with pytest.raises(AlreadySeated):
            await one.join(800, 41, "Ali")
        assert one.table_info(800).seats[1] is None  # nothing changed in memory either
        # both processes seat user 43 at once: one succeeds, the other refuses clearly
        outcomes = await asyncio.gather(zero.join(700, 43, "Camil"), one.join(800, 43, "Camil"),
                                        return_exceptions=True)
        assert sorted(type(o).__name__ for o in outcomes) == ["AlreadySeated", "TableInfo"]
        assert sum(43 in [s.user_id for s in info.seats if s is not None]
                   for info in (zero.table_info(700), one.table_info(800))) == 1
        # leaving frees them for the other process's table
        sat = 700 if zero.table_of_user(43) else 800
        await (zero if sat == 700 else one).leave(sat, 43)
        await (one if sat == 700 else zero).join(800 if sat == 700 else 700, 43, "Camil")
    finally:
        for storage, service, _ in opened:
            await service.close()
            await storage.close()
