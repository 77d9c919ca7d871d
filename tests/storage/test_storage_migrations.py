"""The schema is created and upgraded by numbered migrations, on both backends."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path

import pytest
from storage_helpers import table_names

from baloot.storage import (
    LATEST_VERSION,
    MIGRATIONS,
    SQLITE,
    Storage,
    StorageError,
    migrate,
    open_database,
    schema_version,
)
from baloot.storage.postgres_backend import PostgresDatabase
from baloot.storage.sqlite_backend import SqliteDatabase

RELEASED = {
    1: "6e887d48daaaba7c3e8118aadbc673523e5496f198f304a9f7c417bc447546d4",
    2: "481f113b7e7fcc092e1f12e7a34c661d181719d2e50dbd0457b608b2dc70c34f",
    3: "00dcacef7852b4721d551b2f6dee3d38f93dc0b74b15a81e775508b5c778a7de",
    4: "d61916e02376cba17f0eb25762f0000aee909d9f167ca61fb56209dcce47a0e4",
}
"""SHA-256 of each released migration's SQLite text: a released migration is never edited."""


async def open_unmigrated(where: str | Path) -> SqliteDatabase | PostgresDatabase:
    if isinstance(where, Path):
        return await SqliteDatabase.open(where, migrate_schema=False)
    return await PostgresDatabase.open(where, migrate_schema=False)


def test_migrations_are_numbered_in_order() -> None:
    versions = [v for v, _ in MIGRATIONS]
    assert versions == list(range(1, len(versions) + 1))
    assert LATEST_VERSION == versions[-1] >= 3


def test_released_migrations_render_for_sqlite_exactly_as_released() -> None:
    for version, sql in MIGRATIONS:
        if version in RELEASED:
            assert hashlib.sha256(SQLITE.schema(sql).encode()).hexdigest() == RELEASED[version], version


async def test_sqlite_is_opened_in_wal_mode_with_foreign_keys(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "baloot.db"
    storage = await Storage.open(path)
    try:
        assert path.exists()
        row = await storage.db.fetch_one("PRAGMA journal_mode")
        assert row is not None and row[0] == "wal"
        row = await storage.db.fetch_one("PRAGMA foreign_keys")
        assert row is not None and row[0] == 1
    finally:
        await storage.close()


async def test_empty_database_is_created_at_the_latest_version(empty_database: str | Path) -> None:
    storage = await Storage.open(empty_database)
    try:
        assert await schema_version(storage.db) == LATEST_VERSION
        names = await table_names(storage.db)
    finally:
        await storage.close()
    for table in ("schema_version", "guild_settings", "tables", "seats", "hands", "actions",
                  "match_results", "result_seats", "table_messages"):
        assert table in names


async def test_reopening_does_not_migrate_again(empty_database: str | Path) -> None:
    storage = await Storage.open(empty_database)
    await storage.close()
    storage = await Storage.open(empty_database)
    try:
        rows = await storage.db.fetch_all("SELECT version FROM schema_version")
        assert [r[0] for r in rows] == [LATEST_VERSION]
    finally:
        await storage.close()


async def test_upgrade_from_version_1_keeps_the_data(empty_database: str | Path) -> None:
    db = await open_unmigrated(empty_database)
    try:
        assert await migrate(db, target=1) == 1
        await db.execute(
            "INSERT INTO tables (guild_id, channel_id, creator_id, status, rules, turn_seconds, created_at) "
            "VALUES (1, 2, 3, 'playing', '{\"target\": 21}', 60, 0)"
        )
        await db.execute("INSERT INTO seats (table_id, seat, user_id, display_name) VALUES (1, 0, 3, 'Ali')")
        await db.execute("INSERT INTO hands (table_id, hand_no, dealer, deck, dealt_at) VALUES (1, 0, 2, '[]', 0)")
        await db.execute(
            "INSERT INTO actions (table_id, hand_no, idx, action, by_user_id, auto, created_at) "
            "VALUES (1, 0, 0, '{\"seat\": 3, \"type\": \"pass\"}', 3, 0, 0)"
        )
        assert "match_results" not in await table_names(db)
    finally:
        await db.close()

    storage = await Storage.open(empty_database)
    try:
        assert await schema_version(storage.db) == LATEST_VERSION
        table = await storage.table(1)
        assert table is not None and table.rules == {"target": 21} and table.channel_id == 2
        assert [s.display_name for s in await storage.seats(1)] == ["Ali"]
        hands = await storage.hands(1)
        assert hands[0].dealer == 2 and hands[0].actions[0].action == {"seat": 3, "type": "pass"}
        # the new tables of versions 2 and 3 work
        await storage.set_message(1, "hand:0", 2, 555)
        assert (await storage.messages(1))[0].message_id == 555
        assert await storage.result(1) is None
    finally:
        await storage.close()


async def test_a_failing_migration_changes_nothing(
    empty_database: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = await open_unmigrated(empty_database)
    try:
        await migrate(db, target=1)
        broken = [*MIGRATIONS[:1], (2, "CREATE TABLE half_done (x INTEGER); THIS IS NOT SQL")]
        monkeypatch.setattr("baloot.storage.migrations.MIGRATIONS", broken)
        with pytest.raises(StorageError):
            await migrate(db)
        assert await schema_version(db) == 1
        assert "half_done" not in await table_names(db)
    finally:
        await db.close()


async def test_a_database_newer_than_the_code_is_refused(empty_database: str | Path) -> None:
    storage = await Storage.open(empty_database)
    await storage.db.execute("UPDATE schema_version SET version = ?", (LATEST_VERSION + 1,))
    await storage.close()
    with pytest.raises(RuntimeError, match="newer"):
        await Storage.open(empty_database)


async def test_two_processes_starting_together_migrate_once(empty_database: str | Path) -> None:
    """Several opens at once (processes starting together) leave one schema at the latest version."""
    opened = await asyncio.gather(*(open_database(empty_database) for _ in range(3)))
    try:
        rows = await opened[0].fetch_all("SELECT version FROM schema_version")
        assert [r[0] for r in rows] == [LATEST_VERSION]
    finally:
        for db in opened:
            await db.close()
