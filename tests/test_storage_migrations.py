"""The schema is created and upgraded by numbered migrations (issue 4 "Persistence")."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from baloot.storage import LATEST_VERSION, MIGRATIONS, Storage, migrate, schema_version


def tables_in(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def test_migrations_are_numbered_in_order() -> None:
    versions = [v for v, _ in MIGRATIONS]
    assert versions == list(range(1, len(versions) + 1))
    assert LATEST_VERSION == versions[-1] >= 3


async def test_empty_database_is_created_at_the_latest_version(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "baloot.db"
    storage = await Storage.open(path)
    try:
        assert path.exists()
        assert await schema_version(storage.db._conn) == LATEST_VERSION
        row = await storage.db.fetch_one("PRAGMA journal_mode")
        assert row is not None and row[0] == "wal"
        row = await storage.db.fetch_one("PRAGMA foreign_keys")
        assert row is not None and row[0] == 1
    finally:
        await storage.close()
    names = tables_in(path)
    for table in ("schema_version", "guild_settings", "tables", "seats", "hands", "actions",
                  "match_results", "result_seats", "table_messages"):
        assert table in names


async def test_reopening_does_not_migrate_again(tmp_path: Path) -> None:
    path = tmp_path / "b.db"
    storage = await Storage.open(path)
    await storage.close()
    storage = await Storage.open(path)
    try:
        rows = await storage.db.fetch_all("SELECT version FROM schema_version")
        assert [r[0] for r in rows] == [LATEST_VERSION]
    finally:
        await storage.close()


async def test_upgrade_from_version_1_keeps_the_data(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    async with aiosqlite.connect(path, isolation_level=None) as db:
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
    assert "match_results" not in tables_in(path)

    storage = await Storage.open(path)
    try:
        assert await schema_version(storage.db._conn) == LATEST_VERSION
        table = await storage.table(1)
        assert table is not None and table.rules == {"target": 21} and table.channel_id == 2
        assert [s.display_name for s in await storage.seats(1)] == ["Ali"]
        hands = await storage.hands(1)
        assert hands[0].dealer == 2 and hands[0].actions[0].action == {"seat": 3, "type": "pass"}
        # the new tables of versions 2 and 3 work
        await storage.set_message(1, "hand:0", 2, 555)
        assert (await storage.messages(1))[0].message_id == 555
        assert await storage.results(1) == []
    finally:
        await storage.close()


async def test_a_failing_migration_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f.db"
    async with aiosqlite.connect(path, isolation_level=None) as db:
        await migrate(db, target=1)
    broken = [*MIGRATIONS[:1], (2, "CREATE TABLE half_done (x INTEGER); THIS IS NOT SQL")]
    monkeypatch.setattr("baloot.storage.migrations.MIGRATIONS", broken)
    async with aiosqlite.connect(path, isolation_level=None) as db:
        with pytest.raises(sqlite3.OperationalError):
            await migrate(db)
        assert await schema_version(db) == 1
    assert "half_done" not in tables_in(path)


async def test_a_database_newer_than_the_code_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "n.db"
    storage = await Storage.open(path)
    await storage.db.execute("UPDATE schema_version SET version = ?", (LATEST_VERSION + 1,))
    await storage.close()
    with pytest.raises(RuntimeError, match="newer"):
        await Storage.open(path)
