"""Group commit on SQLite: actions appended at the same moment share one commit and one flush.

Each row is stored before its caller hears back, and a row that cannot be
stored fails alone. Commits are counted as SQLite's write-ahead log counts its
frames (``PRAGMA wal_checkpoint`` reports them): every commit writes at least one.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path

import pytest

from baloot.storage import StorageConflict
from baloot.storage.sqlite_backend import SqliteDatabase

INSERT = "INSERT INTO scratch (k, v) VALUES (?, ?)"


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[SqliteDatabase]:
    database = await SqliteDatabase.open(tmp_path / "group.db", synchronous="FULL")
    await database.execute("CREATE TABLE scratch (k INTEGER PRIMARY KEY, v TEXT NOT NULL)")
    yield database
    await database.close()


async def wal_frames_after(db: SqliteDatabase, work: Awaitable[object]) -> int:
    """The frames written to the log by ``work`` (the log emptied first; no checkpoint in between)."""
    await db.fetch_all("PRAGMA wal_checkpoint(TRUNCATE)")
    await work
    row = await db.fetch_one("PRAGMA wal_checkpoint(PASSIVE)")
    assert row is not None
    return int(row[1])


def stored(path: Path) -> dict[int, str]:
    """What another connection reads: only what was committed."""
    with sqlite3.connect(path) as other:
        return dict(other.execute("SELECT k, v FROM scratch").fetchall())


async def test_appends_at_the_same_moment_share_commits_and_each_is_stored_before_it_returns(
    db: SqliteDatabase,
) -> None:
    seen_when_answered: list[bool] = []

    async def append(k: int) -> None:
        await db.append(INSERT, (k, f"row {k}"))
        seen_when_answered.append(stored(db.path).get(k) == f"row {k}")

    async def one_by_one() -> None:
        for k in range(200):
            await append(k)

    alone = await wal_frames_after(db, one_by_one())
    together = await wal_frames_after(db, asyncio.gather(*(append(k) for k in range(200, 400))))
    assert seen_when_answered == [True] * 400
    assert stored(db.path) == {k: f"row {k}" for k in range(400)}
    assert alone >= 200  # a commit each
    assert together * 10 < alone, (together, alone)


async def test_a_row_that_cannot_be_stored_fails_alone_and_the_others_are_stored(db: SqliteDatabase) -> None:
    await db.append(INSERT, (7, "first"))
    rows = [(k, f"row {k}") for k in range(100, 140)]
    rows[10] = (7, "again")  # the key is taken
    rows[30] = (125, "twice")  # the key of row 25, earlier in the same group
    outcomes = await asyncio.gather(*(db.append(INSERT, row) for row in rows), return_exceptions=True)
    refused = [i for i, outcome in enumerate(outcomes) if isinstance(outcome, Exception)]
    assert refused == [10, 30]
    assert all(isinstance(outcomes[i], StorageConflict) for i in refused)
    expected = {7: "first"} | {k: v for i, (k, v) in enumerate(rows) if i not in refused}
    assert stored(db.path) == expected
    # the failed group left no transaction open: the next write commits as usual
    await db.append(INSERT, (999, "after"))
    assert stored(db.path)[999] == "after"


async def test_an_append_waits_for_an_open_transaction_and_joins_the_next_commit(db: SqliteDatabase) -> None:
    entered = asyncio.Event()
    release = asyncio.Event()

    async def long_transaction() -> None:
        async with db.transaction() as tx:
            await tx.execute(INSERT, (1, "in the transaction"))
            entered.set()
            await release.wait()

    holder = asyncio.create_task(long_transaction())
    await entered.wait()
    waiting = [asyncio.create_task(db.append(INSERT, (k, "waiting"))) for k in (2, 3, 4)]
    await asyncio.sleep(0.05)
    assert not any(task.done() for task in waiting)
    assert stored(db.path) == {}  # nothing is visible before its commit
    release.set()
    await holder
    await asyncio.gather(*waiting)
    assert stored(db.path) == {1: "in the transaction", 2: "waiting", 3: "waiting", 4: "waiting"}
