"""The SQLite connection: opening (WAL, foreign keys, migrations) and serialized transactions.

One :class:`Database` wraps one aiosqlite connection in autocommit mode. Every
write runs in :meth:`Database.transaction`, which holds an asyncio lock so
that the statements of concurrent tables never interleave on the shared
connection; a transaction is committed (and, with ``synchronous=FULL``,
flushed to disk) before it returns.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final

import aiosqlite

from .errors import StorageUnavailable
from .migrations import migrate

DEFAULT_PATH: Final = Path("data") / "baloot.db"
"""Where the bot keeps its database unless ``DATABASE_PATH`` says otherwise."""

SqlParams = tuple[Any, ...]

_TRANSIENT: Final = ("locked", "busy", "full", "disk i/o", "readonly", "read-only", "unable to open")


def _transient(exc: sqlite3.OperationalError) -> bool:
    """SQLite's locked / busy / full / I/O errors: the write did not happen; it may later."""
    text = str(exc).lower()
    return any(word in text for word in _TRANSIENT)


def dumps(obj: object) -> str:
    """Compact, stable JSON for the JSON columns."""
    return json.dumps(obj, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def loads(text: str) -> Any:
    return json.loads(text)


class Database:
    """A migrated SQLite database behind one connection."""

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        self._conn = conn
        self.path = path
        self._lock = asyncio.Lock()
        self.closed = False

    @classmethod
    async def open(cls, path: str | Path = DEFAULT_PATH, *, synchronous: str = "FULL") -> Database:
        """Open (creating the file and its folder if needed) and migrate to the latest schema."""
        if synchronous not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError(f"synchronous must be FULL, NORMAL or EXTRA, not {synchronous!r}")
        where = Path(path)
        if str(where) != ":memory:":
            where.parent.mkdir(parents=True, exist_ok=True)
        connecting = aiosqlite.connect(where, isolation_level=None)
        try:
            conn = await connecting
        except BaseException:
            # aiosqlite stops its worker thread without waiting for it; let it finish while the loop
            # still runs, or its last callback lands on a closed loop (a traceback after a clean refusal).
            thread = getattr(connecting, "_thread", None)
            if thread is not None:
                await asyncio.to_thread(thread.join, 1.0)
                await asyncio.sleep(0)
            raise
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute(f"PRAGMA synchronous={synchronous}")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute("PRAGMA busy_timeout=5000")
            await migrate(conn)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, where)

    async def close(self) -> None:
        if not self.closed:
            self.closed = True
            async with self._lock:
                await self._conn.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` on any error), one at a time.

        A locked, busy, full or failing database raises :class:`StorageUnavailable` (nothing written).
        """
        async with self._lock:
            try:
                await self._conn.execute("BEGIN IMMEDIATE")
                try:
                    yield self._conn
                    await self._conn.execute("COMMIT")
                except BaseException:
                    if self._conn.in_transaction:
                        await self._conn.execute("ROLLBACK")
                    raise
            except sqlite3.OperationalError as exc:
                if _transient(exc):
                    raise StorageUnavailable(str(exc)) from exc
                raise

    async def execute(self, sql: str, params: SqlParams = ()) -> int:
        """One write statement in its own transaction; returns the rows changed."""
        async with self.transaction() as db:
            cur = await db.execute(sql, params)
            return cur.rowcount

    async def fetch_all(self, sql: str, params: SqlParams = ()) -> list[sqlite3.Row]:
        async with self._lock, self._conn.execute(sql, params) as cur:
            rows = await cur.fetchall()
        return list(rows)

    async def fetch_one(self, sql: str, params: SqlParams = ()) -> sqlite3.Row | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def executemany(self, db: aiosqlite.Connection, sql: str, rows: Iterable[SqlParams]) -> None:
        """Inside a transaction: one statement for many parameter rows."""
        await db.executemany(sql, list(rows))
