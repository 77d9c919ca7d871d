"""SQLite through aiosqlite: the embedded default (one process, a file under ``data/``).

One :class:`SqliteDatabase` wraps one aiosqlite connection in autocommit mode.
Every write runs under an asyncio lock so that the statements of concurrent
tables never interleave on the shared connection; a write is committed (and,
with ``synchronous=FULL``, flushed to disk) before it returns. The actions that
tables append while a commit is under way share the next one
(:meth:`SqliteDatabase.append`, group commit). Driver errors come
out as :class:`StorageUnavailable` (locked, busy, full, I/O),
:class:`StorageConflict` (a constraint) or :class:`StorageError`.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager, suppress
from itertools import groupby
from operator import attrgetter
from pathlib import Path
from typing import Final

import aiosqlite

from .database import DEFAULT_PATH, Connection, Database, Row, SqlParams, StorageConflict
from .dialect import SQLITE
from .errors import StorageError, StorageUnavailable
from .migrations import migrate

_TRANSIENT_CODES: Final = ("SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_FULL", "SQLITE_IOERR", "SQLITE_CANTOPEN",
                           "SQLITE_PROTOCOL", "SQLITE_NOMEM")
_TRANSIENT_MESSAGES: Final = ("database is locked", "database table is locked", "database is busy",
                              "database or disk is full", "disk i/o error", "unable to open database file",
                              "out of memory")


_BUSY_TIMEOUT_MS: Final = 5000
"""How long a statement waits for another connection's lock before "database is locked"."""


async def _switch_to_wal(conn: aiosqlite.Connection) -> None:
    """``PRAGMA journal_mode=WAL``, tried again for up to the busy timeout while it is refused as locked.

    While another connection switches the same new file, SQLite refuses the switch
    at once, without waiting in its busy handler (processes starting together: one
    open in fifty of ``tests/storage/test_storage_migrations.py``'s three under load).
    """
    loop = asyncio.get_running_loop()
    give_up = loop.time() + _BUSY_TIMEOUT_MS / 1000
    delay = 0.01
    while True:
        try:
            await conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "database is locked" not in str(exc).lower() or loop.time() + delay > give_up:
                raise
        await asyncio.sleep(delay)
        delay = min(2 * delay, 0.25)


def _open_and_close(path: Path) -> None:
    """Open the database file as aiosqlite will (creating it if missing), and close it again."""
    sqlite3.connect(path, isolation_level=None).close()


def storage_error(exc: sqlite3.Error) -> StorageError:
    """The storage layer's error for an SQLite error: transient faults are :class:`StorageUnavailable`."""
    code = getattr(exc, "sqlite_errorname", None) or ""
    message = str(exc)
    if code.startswith(_TRANSIENT_CODES) or any(m in message.lower() for m in _TRANSIENT_MESSAGES):
        return StorageUnavailable(f"SQLite: {message}")
    if isinstance(exc, sqlite3.IntegrityError):
        return StorageConflict(f"SQLite: {message}")
    return StorageError(f"SQLite: {message}")


@contextmanager
def mapped() -> Iterator[None]:
    """Re-raise SQLite's errors as the storage layer's (the driver's error is the ``__cause__``)."""
    try:
        yield
    except sqlite3.Error as exc:
        raise storage_error(exc) from exc


class SqliteConnection(Connection):
    """The shared aiosqlite connection, used while its database's lock is held."""

    dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: SqlParams = ()) -> int:
        with mapped():
            cur = await self._conn.execute(sql, params)
            return cur.rowcount

    async def executemany(self, sql: str, rows: Iterable[SqlParams]) -> None:
        with mapped():
            await self._conn.executemany(sql, list(rows))

    async def fetch_all(self, sql: str, params: SqlParams = ()) -> list[Row]:
        with mapped():
            async with self._conn.execute(sql, params) as cur:
                rows = await cur.fetchall()
        return list(rows)

    async def insert_id(self, sql: str, params: SqlParams = ()) -> int:
        with mapped():
            cur = await self._conn.execute(sql, params)
        if cur.lastrowid is None:
            raise StorageError("SQLite: the insert returned no row id")
        return cur.lastrowid


class _Append:
    """A row waiting for the next group commit, and the caller waiting for it."""

    __slots__ = ("done", "row", "sql")

    def __init__(self, sql: str, row: SqlParams, done: asyncio.Future[None]) -> None:
        self.sql = sql
        self.row = row
        self.done = done

    def settle(self, error: BaseException | None = None) -> None:
        """Tell the caller: stored, or ``error`` (unless it stopped waiting)."""
        if not self.done.done():
            if error is None:
                self.done.set_result(None)
            else:
                self.done.set_exception(error)


class SqliteDatabase(Database):
    """A migrated SQLite database behind one connection.

    Group commit (:meth:`append`): SQLite commits one transaction at a time and, with
    ``synchronous=FULL``, waits for the disk at each commit, so the actions of many
    tables, each committed on its own, queue behind one another's flushes. An
    action appended while the connection is busy waits for the next commit, which
    stores every row that arrived meanwhile in one transaction and one flush.
    """

    dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        self._conn = conn
        self._tx = SqliteConnection(conn)
        self.path = path
        self._lock = asyncio.Lock()
        self._appends: list[_Append] = []
        self._committing: asyncio.Task[None] | None = None
        self.closed = False

    @classmethod
    async def open(
        cls, path: str | Path = DEFAULT_PATH, *, synchronous: str = "FULL", migrate_schema: bool = True
    ) -> SqliteDatabase:
        """Open (creating the file and its folder if needed) and migrate to the latest schema."""
        if synchronous not in ("FULL", "NORMAL", "EXTRA"):
            raise ValueError(f"synchronous must be FULL, NORMAL or EXTRA, not {synchronous!r}")
        where = Path(path)
        if str(where) != ":memory:":
            where.parent.mkdir(parents=True, exist_ok=True)
        with mapped():
            # A file that cannot be opened is refused here, by the standard library, before aiosqlite
            # starts its worker thread: on a failed open aiosqlite stops that thread without waiting for
            # it, and its last callback could land on a closed loop (a traceback after a clean refusal).
            await asyncio.to_thread(_open_and_close, where)
            conn = await aiosqlite.connect(where, isolation_level=None)
        db = cls(conn, where)
        try:
            with mapped():
                conn.row_factory = sqlite3.Row
                # the busy timeout first: switching a new file to WAL takes a lock that processes
                # starting together contend for ("database is locked" without a wait)
                await conn.execute(f"PRAGMA busy_timeout={_BUSY_TIMEOUT_MS}")
                await _switch_to_wal(conn)
                await conn.execute(f"PRAGMA synchronous={synchronous}")
                await conn.execute("PRAGMA foreign_keys=ON")
            if migrate_schema:
                await migrate(db)
        except BaseException:
            await conn.close()
            raise
        return db

    async def close(self) -> None:
        if not self.closed:
            self.closed = True
            async with self._lock:
                await self._conn.close()

    async def _rollback(self) -> None:
        """Undo an open transaction, if SQLite has not already (an I/O error can end it)."""
        # If even that fails the connection is broken; the transaction's own error is what the caller needs.
        if self._conn.in_transaction:
            with suppress(sqlite3.Error):
                await self._conn.execute("ROLLBACK")

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` on any error, a failed commit included), one at a time."""
        async with self._lock:
            with mapped():
                await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._tx
                with mapped():
                    await self._conn.execute("COMMIT")
            except BaseException:
                await self._rollback()
                raise

    async def fetch_all(self, sql: str, params: SqlParams = ()) -> list[Row]:
        async with self._lock:
            return await self._tx.fetch_all(sql, params)

    async def execute(self, sql: str, params: SqlParams = ()) -> int:
        """One write statement, committed on its own (autocommit: SQLite makes a single statement atomic).

        One trip to the database thread instead of three (BEGIN, the statement, COMMIT): the
        hot path of every accepted action (bot CPU per press). The lock keeps it out of
        another coroutine's open transaction.
        """
        async with self._lock:
            return await self._tx.execute(sql, params)

    async def append(self, sql: str, row: SqlParams) -> None:
        """One ``INSERT`` of one row, committed (and flushed) before it returns: on its own when the
        connection is free (one trip to the database thread), else with the rows that arrive while it
        is busy, in one transaction and one flush (group commit). A row that cannot be stored fails
        alone: after a failed group, each of its rows is tried on its own, as :meth:`execute` would.
        """
        if not self._appends and not self._lock.locked():
            await self.execute(sql, row)
            return
        done = asyncio.get_running_loop().create_future()
        self._appends.append(_Append(sql, row, done))
        if self._committing is None:
            self._committing = asyncio.create_task(self._commit_appends())
        await done

    async def _commit_appends(self) -> None:
        """Store every waiting row once the connection is free (those that arrive until then too)."""
        batch: list[_Append] = []
        try:
            async with self._lock:
                batch, self._appends, self._committing = self._appends, [], None
                await self._store(batch)
        except BaseException as exc:  # the connection closed, or cancelled at shutdown
            if not batch:  # still waiting for the lock: the rows queued so far are this task's
                batch, self._appends, self._committing = self._appends, [], None
            refusal = exc if isinstance(exc, Exception) else StorageError("SQLite: the bot is stopping")
            for item in batch:
                item.settle(refusal)
            if not isinstance(exc, Exception):
                raise

    async def _store(self, batch: list[_Append]) -> None:
        """``batch`` in one transaction (runs of one statement as one ``executemany``); if that fails, each
        row on its own, so that each caller gets its own row's result. Called with the lock held."""
        if len(batch) > 1:
            try:
                with mapped():
                    await self._conn.execute("BEGIN IMMEDIATE")
                    for sql, run in groupby(batch, key=attrgetter("sql")):
                        await self._conn.executemany(sql, [item.row for item in run])
                    await self._conn.execute("COMMIT")
            except StorageError:
                await self._rollback()
            else:
                for item in batch:
                    item.settle()
                return
        for item in batch:
            try:
                await self._tx.execute(item.sql, item.row)
            except StorageError as exc:
                item.settle(exc)
            else:
                item.settle()
