"""PostgreSQL through asyncpg with a connection pool: for a bot past one machine.

Chosen by ``DATABASE_URL=postgresql://user:pass@host/db``. Each transaction
takes a connection from the pool, so the writes of different tables run side
by side (SQLite serializes them on its one connection). Queries are the same
text as SQLite's; :data:`~baloot.storage.dialect.POSTGRESQL` turns their ``?``
into ``$1, $2, ...``. Driver errors come out as :class:`StorageUnavailable`
(connection lost or refused, too many connections, shutdown, disk full,
serialization failure or deadlock), :class:`StorageConflict` (a constraint)
or :class:`StorageError`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager, suppress
from typing import Any, Final

import asyncpg
import asyncpg.exceptions as pg

from .database import Connection, Database, Row, SqlParams, StorageConflict
from .dialect import POSTGRESQL
from .errors import StorageError, StorageUnavailable
from .migrations import migrate

log = logging.getLogger("baloot.storage")

_TRANSIENT: Final[tuple[type[BaseException], ...]] = (
    pg.PostgresConnectionError,  # class 08: connection lost, refused, rejected
    pg.OperatorInterventionError,  # class 57: admin/crash shutdown, cannot connect now, query canceled
    pg.InsufficientResourcesError,  # class 53: too many connections, disk full, out of memory
    pg.TransactionRollbackError,  # class 40: serialization failure, deadlock (rolled back)
    pg.LockNotAvailableError,
    pg.PostgresIOError,
    pg.ConnectionDoesNotExistError,
    OSError,  # refused, reset, unreachable; TimeoutError is one too
)
_LOST_MESSAGES: Final = ("connection is closed", "released back to the pool")
"""What asyncpg's interface errors say when the server dropped a connection in use: the pool
detaches a lost connection, and the transaction's next statement finds it gone."""
_DRIVER: Final[tuple[type[BaseException], ...]] = (
    pg.PostgresError,
    pg.InterfaceError,
    pg.InternalClientError,
    OSError,
)


def storage_error(exc: BaseException) -> StorageError:
    """The storage layer's error for an asyncpg (or socket) error."""
    message = str(exc) or type(exc).__name__
    if isinstance(exc, _TRANSIENT) or (
        isinstance(exc, pg.InterfaceError) and any(m in message for m in _LOST_MESSAGES)
    ):
        return StorageUnavailable(f"PostgreSQL: {message}")
    if isinstance(exc, pg.IntegrityConstraintViolationError):
        return StorageConflict(f"PostgreSQL: {message}")
    return StorageError(f"PostgreSQL: {message}")


def _lost(conn: Any) -> bool:
    """Whether a connection in use is gone (closed, or detached by the pool because it was lost)."""
    try:
        return bool(conn.is_closed())
    except pg.InterfaceError:
        return True


@contextmanager
def mapped(conn: Any = None) -> Iterator[None]:
    """Re-raise asyncpg's errors as the storage layer's (the driver's error is the ``__cause__``).

    With ``conn``, any error after which that connection is gone is :class:`StorageUnavailable`:
    whatever asyncpg called it, the server dropped the connection and the transaction with it.
    """
    try:
        yield
    except _DRIVER as exc:
        error = storage_error(exc)
        if conn is not None and not isinstance(error, StorageUnavailable) and _lost(conn):
            error = StorageUnavailable(f"PostgreSQL: the connection was lost ({error})")
        raise error from exc


def _rowcount(status: str) -> int:
    """The rows a command changed, from its status (``UPDATE 3``, ``INSERT 0 1``, ``CREATE TABLE``)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PgConnection(Connection):
    """One pooled connection, inside a transaction."""

    dialect = POSTGRESQL

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: SqlParams = ()) -> int:
        with mapped(self._conn):
            status: str = await self._conn.execute(POSTGRESQL.sql(sql), *params)
        return _rowcount(status)

    async def executemany(self, sql: str, rows: Iterable[SqlParams]) -> None:
        batch = [tuple(r) for r in rows]
        if batch:
            with mapped(self._conn):
                await self._conn.executemany(POSTGRESQL.sql(sql), batch)

    async def fetch_all(self, sql: str, params: SqlParams = ()) -> list[Row]:
        with mapped(self._conn):
            return list(await self._conn.fetch(POSTGRESQL.sql(sql), *params))

    async def insert_id(self, sql: str, params: SqlParams = ()) -> int:
        with mapped(self._conn):
            new_id = await self._conn.fetchval(POSTGRESQL.sql(sql) + " RETURNING id", *params)
        return int(new_id)


class PostgresDatabase(Database):
    """A migrated PostgreSQL database behind an asyncpg pool."""

    dialect = POSTGRESQL

    notifies = True

    def __init__(self, pool: Any, url: str = "") -> None:
        self._pool = pool
        self.url = url  # for the dedicated LISTEN connection
        self._turns: set[asyncio.Task[None]] = set()
        self.closed = False

    @classmethod
    async def open(
        cls, url: str, *, min_size: int = 1, max_size: int = 10, migrate_schema: bool = True
    ) -> PostgresDatabase:
        """Connect a pool to ``url`` and migrate the database to the latest schema."""
        if not 1 <= min_size <= max_size:
            raise ValueError("pool sizes must satisfy 1 <= min_size <= max_size")
        with mapped():
            pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size)
        db = cls(pool, url)
        try:
            if migrate_schema:
                await migrate(db)
        except BaseException:
            await db.close()
            raise
        return db

    async def close(self) -> None:
        """Close the pool, waiting up to 10 s for connections in use; then drop them."""
        if not self.closed:
            self.closed = True
            try:
                await asyncio.wait_for(self._pool.close(), 10)
            except _DRIVER:  # TimeoutError is an OSError
                self._pool.terminate()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """``BEGIN`` … ``COMMIT`` on a pooled connection (``ROLLBACK`` on any error).

        If the connection was lost, the server has already discarded the
        transaction: the error that says so is raised, not the failed rollback's.
        """
        with mapped():
            async with self._pool.acquire() as conn:
                tx = conn.transaction()
                await tx.start()
                try:
                    yield PgConnection(conn)
                except BaseException:
                    with suppress(*_DRIVER):
                        if not conn.is_closed():
                            await tx.rollback()
                    raise
                await tx.commit()

    async def fetch_all(self, sql: str, params: SqlParams = ()) -> list[Row]:
        with mapped():
            return list(await self._pool.fetch(POSTGRESQL.sql(sql), *params))

    async def notify(self, channel: str, payload: str) -> None:
        """``NOTIFY channel, payload`` (a DM press forwarded to the process holding its table)."""
        with mapped():
            await self._pool.execute("SELECT pg_notify($1, $2)", channel, payload)

    async def take_turn(self, key: int, hold: float) -> None:
        """Wait for the session advisory lock ``key``, and keep it ``hold`` seconds after returning
        (one identify per bucket per 5 s across processes). A process that dies lets it go with its connection."""
        with mapped():
            conn = await self._pool.acquire()
            try:
                await conn.execute("SELECT pg_advisory_lock($1)", key)
            except BaseException:
                await self._pool.release(conn)
                raise

        async def let_go() -> None:
            try:
                await asyncio.sleep(hold)
                with suppress(*_DRIVER):
                    await conn.execute("SELECT pg_advisory_unlock($1)", key)
            finally:
                with suppress(*_DRIVER):
                    await self._pool.release(conn)

        task = asyncio.create_task(let_go(), name="baloot-identify-turn")
        self._turns.add(task)
        task.add_done_callback(self._turns.discard)

    def listen(self, channels: Sequence[str], callback: Callable[[str, str], None]) -> Listening:
        """LISTEN on ``channels`` on a dedicated connection, connected again whenever it drops."""
        return Listening(self.url, tuple(channels), callback)


class Listening:
    """A dedicated connection LISTENing on some channels; reconnects (every second) while it is not closed."""

    RETRY: Final = 1.0

    def __init__(self, url: str, channels: tuple[str, ...], callback: Callable[[str, str], None]) -> None:
        self.url = url
        self.channels = channels
        self.callback = callback
        self.connected = asyncio.Event()
        self._task = asyncio.create_task(self._run(), name="baloot-listen")

    def _heard(self, _conn: Any, _pid: int, channel: str, payload: str) -> None:
        self.callback(channel, payload)

    async def _run(self) -> None:
        while True:
            conn: Any = None
            try:
                conn = await asyncpg.connect(self.url)
                lost = asyncio.Event()
                conn.add_termination_listener(lambda _c, lost=lost: lost.set())
                for channel in self.channels:
                    await conn.add_listener(channel, self._heard)
                self.connected.set()
                while not lost.is_set() and not conn.is_closed():
                    with suppress(TimeoutError):
                        await asyncio.wait_for(lost.wait(), 5.0)
                    if not lost.is_set():
                        await conn.execute("SELECT 1")  # a dropped server is noticed here
            except asyncio.CancelledError:
                if conn is not None:
                    conn.terminate()
                raise
            except _DRIVER as exc:
                log.warning("LISTEN connection lost (%s); connecting again", storage_error(exc))
            finally:
                self.connected.clear()
            if conn is not None and not conn.is_closed():
                conn.terminate()
            await asyncio.sleep(self.RETRY)

    async def close(self) -> None:
        self._task.cancel()
        with suppress(asyncio.CancelledError):
            await self._task
