"""Two backends behind one interface: the same schema, exact values, and the storage layer's errors."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg
import asyncpg.exceptions as pg
import pytest
from pg_cluster import Cluster
from storage_helpers import pg_column_types, schema_of

from baloot.storage import (
    POSTGRESQL,
    SQLITE,
    GuildSettings,
    MatchResult,
    ResultSeat,
    SeatRow,
    Storage,
    StorageConflict,
    StorageError,
    StorageUnavailable,
    TableStatus,
    postgres_backend,
    sqlite_backend,
)
from baloot.storage.postgres_backend import PostgresDatabase

WHEN = 1763800000.123  # PostgreSQL's 4-byte REAL would store 1763800064.0
BIG = 2**53 + 1  # not exactly representable as a float: lost by any detour through a double
SNOWFLAKE = 2**63 - 1  # the largest id a signed 8-byte column holds


async def test_both_backends_build_the_same_schema(tmp_path: Path, pg_cluster: Cluster) -> None:
    lite = await Storage.open(tmp_path / "schema.db")
    post = await Storage.open(await pg_cluster.new_database(empty=True))
    try:
        lite_schema, post_schema = await schema_of(lite.db), await schema_of(post.db)
        types = await pg_column_types(post.db)
    finally:
        await lite.close()
        await post.close()
    assert set(lite_schema) == set(post_schema) and len(lite_schema) >= 14
    for table, expected in lite_schema.items():
        got = post_schema[table]
        assert got.columns == expected.columns, table
        assert got.primary_key == expected.primary_key, table
        assert got.indexes == expected.indexes, table
        assert got.foreign_keys == expected.foreign_keys, table
    # Only the types differ: ids are 8-byte integers and no float column is PostgreSQL's 4-byte real.
    for (table, column), kind in types.items():
        if column == "id" or column.endswith("_id"):
            assert kind == "bigint", (table, column)
        assert kind != "real", (table, column)
    assert types[("tables", "created_at")] == types[("player_ratings", "rating")] == "double precision"
    assert lite_schema["tables"].indexes >= {("tables_one_live_per_channel", ("channel_id",), True, True)}


async def test_times_and_ids_round_trip_exactly(database: str | Path) -> None:
    storage = await Storage.open(database, clock=lambda: WHEN)
    try:
        table = await storage.create_table(
            guild_id=SNOWFLAKE, channel_id=BIG, creator_id=BIG + 2, rules={"target": 152}, turn_seconds=45.5,
            language=None, first_seat=SeatRow(0, 0, BIG + 2, "Ali"),
        )
        stored = await storage.table(table.id)
        assert stored == table and stored is not None
        assert stored.created_at == WHEN and stored.guild_id == SNOWFLAKE and stored.channel_id == BIG
        assert [s.user_id for s in await storage.seats(table.id)] == [BIG + 2]
        await storage.start_match(table.id, 0, ["7S"])
        await storage.add_action(table.id, 0, 0, {"seat": 1, "type": "pass"}, by_user_id=BIG + 3, auto=False)
        [hand] = await storage.hands(table.id)
        assert hand.dealt_at == WHEN and hand.actions[0].by_user_id == BIG + 3 and hand.actions[0].created_at == WHEN
        result = MatchResult(
            table_id=table.id, guild_id=SNOWFLAKE, finished_at=WHEN, score=(152, 3), winner_team=0, hands_played=1,
            record={"format": "baloot-game/1", "hands": []},
            seats=tuple(ResultSeat(i, BIG + 2 + i, False, False) for i in range(4)),
        )
        await storage.close_table(table.id, TableStatus.FINISHED, "finished", result)
        assert await storage.result(table.id) == result
        await storage.set_message(table.id, "hand:0", BIG, SNOWFLAKE)
        [message] = await storage.messages(table.id)
        assert (message.channel_id, message.message_id) == (BIG, SNOWFLAKE)
    finally:
        await storage.close()


async def test_a_driver_error_is_a_storage_error_and_changes_nothing(database: str | Path) -> None:
    storage = await Storage.open(database)
    try:
        with pytest.raises(StorageError) as err:
            await storage.db.execute("UPDATE no_such_table SET x = 1")
        assert not isinstance(err.value, StorageUnavailable | StorageConflict)
        assert isinstance(err.value.__cause__, sqlite3.Error | asyncpg.PostgresError)
        with pytest.raises(StorageError):
            async with storage.db.transaction() as tx:
                await tx.execute("INSERT INTO guild_settings (guild_id, language) VALUES (?, ?)", (5, "ar"))
                await tx.execute("THIS IS NOT SQL")
        assert await storage.db.fetch_all("SELECT * FROM guild_settings") == []  # rolled back
    finally:
        await storage.close()


async def test_a_locked_sqlite_database_is_unavailable_and_nothing_is_written(tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    storage = await Storage.open(path)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        await storage.db.execute("PRAGMA busy_timeout=0")  # fail at once rather than wait 5 s
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        with pytest.raises(StorageUnavailable, match="locked"):
            await storage.save_guild_settings(GuildSettings(5, "ar"))
        other.execute("ROLLBACK")
        assert await storage.db.fetch_all("SELECT * FROM guild_settings") == []
        await storage.save_guild_settings(GuildSettings(5, "ar"))  # later: works
        assert (await storage.guild_settings(5)).language == "ar"
    finally:
        other.close()
        await storage.close()


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (sqlite3.OperationalError("database is locked"), StorageUnavailable),
        (sqlite3.OperationalError("database is busy"), StorageUnavailable),
        (sqlite3.OperationalError("database table is locked: seats"), StorageUnavailable),
        (sqlite3.OperationalError("database or disk is full"), StorageUnavailable),
        (sqlite3.OperationalError("disk I/O error"), StorageUnavailable),
        (sqlite3.OperationalError("unable to open database file"), StorageUnavailable),
        (sqlite3.IntegrityError("UNIQUE constraint failed: tables.channel_id"), StorageConflict),
        (sqlite3.OperationalError("no such table: x"), StorageError),
        (sqlite3.ProgrammingError("Incorrect number of bindings supplied"), StorageError),
    ],
)
def test_sqlite_errors_map_to_the_storage_layers(error: sqlite3.Error, kind: type[StorageError]) -> None:
    mapped = sqlite_backend.storage_error(error)
    assert type(mapped) is kind and str(error) in str(mapped)


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (pg.ConnectionDoesNotExistError("connection was closed in the middle of operation"), StorageUnavailable),
        (pg.ConnectionFailureError("connection failure"), StorageUnavailable),
        (pg.TooManyConnectionsError("sorry, too many clients already"), StorageUnavailable),
        (pg.AdminShutdownError("terminating connection due to administrator command"), StorageUnavailable),
        (pg.CannotConnectNowError("the database system is starting up"), StorageUnavailable),
        (pg.DiskFullError("could not extend file"), StorageUnavailable),
        (pg.SerializationError("could not serialize access"), StorageUnavailable),
        (ConnectionRefusedError(111, "Connection refused"), StorageUnavailable),
        (ConnectionResetError(104, "Connection reset by peer"), StorageUnavailable),
        (pg.InterfaceError("cannot call Transaction.__aexit__(): the underlying connection is closed"),
         StorageUnavailable),
        (pg.InterfaceError("cannot perform operation: another operation is in progress"), StorageError),
        (pg.UniqueViolationError("duplicate key value violates unique constraint"), StorageConflict),
        (pg.ForeignKeyViolationError("violates foreign key constraint"), StorageConflict),
        (pg.UndefinedTableError('relation "x" does not exist'), StorageError),
        (pg.PostgresSyntaxError("syntax error at or near"), StorageError),
    ],
)
def test_asyncpg_errors_map_to_the_storage_layers(error: Exception, kind: type[StorageError]) -> None:
    assert type(postgres_backend.storage_error(error)) is kind


async def test_postgresql_refusing_connections_is_unavailable(unused_tcp_port: int) -> None:
    with pytest.raises(StorageUnavailable, match="PostgreSQL"):
        await PostgresDatabase.open(f"postgresql://baloot@127.0.0.1:{unused_tcp_port}/nothing")


@pytest.mark.parametrize("pause", [0.0, 0.1])  # the next statement races the client noticing, or comes after
async def test_a_lost_postgresql_connection_is_unavailable_then_recovers(pg_cluster: Cluster, pause: float) -> None:
    url = await pg_cluster.new_database()
    storage = await Storage.open(url, pool_size=1)
    admin = await asyncpg.connect(pg_cluster.url("postgres"))
    insert = "INSERT INTO guild_settings (guild_id, language) VALUES (?, ?)"
    try:
        with pytest.raises(StorageUnavailable):
            async with storage.db.transaction() as tx:
                await tx.execute(insert, (1, "ar"))
                killed = await admin.fetchval(  # the server drops the connection mid-transaction
                    "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = $1",
                    url.rsplit("/", 1)[1],
                )
                assert killed == 1
                await asyncio.sleep(pause)
                await tx.execute(insert, (2, "ar"))
        assert await storage.guild_settings(1) == GuildSettings(1)  # nothing was written
        await storage.save_guild_settings(GuildSettings(1, "en"))  # the pool connects again: retrying works
        assert await storage.guild_settings(1) == GuildSettings(1, "en")
    finally:
        await admin.close()
        await storage.close()


def test_placeholders_become_numbered_outside_quotes_only() -> None:
    sql = "SELECT '?', \"a?\" FROM t WHERE a = ? AND b IN (?, ?) AND c = 'it''s?'"
    assert POSTGRESQL.sql(sql) == "SELECT '?', \"a?\" FROM t WHERE a = $1 AND b IN ($2, $3) AND c = 'it''s?'"
    assert SQLITE.sql(sql) == sql
    with pytest.raises(ValueError, match="quote"):
        POSTGRESQL.sql("SELECT 'open")
