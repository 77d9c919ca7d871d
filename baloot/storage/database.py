"""The database behind the storage layer: one interface, two backends.

:class:`Database` is a migrated database; its :meth:`Database.transaction`
hands out a :class:`Connection` whose statements commit together (or, on any
error, not at all). Queries are written once with ``?`` placeholders and the
backend's :class:`~baloot.storage.dialect.Dialect` adapts them. Rows are read
by column name or position (``row["id"]``, ``row[0]``) on both backends.

The backends, :mod:`.sqlite_backend` (aiosqlite, the embedded default) and
:mod:`.postgres_backend` (asyncpg with a pool), raise only the storage layer's
errors (:mod:`.errors`, and :class:`StorageConflict` here) — never a driver's.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, Final, Protocol

import orjson

from .dialect import Dialect
from .errors import StorageError

DEFAULT_PATH: Final = Path("data") / "baloot.db"
"""Where the bot keeps its SQLite database unless ``DATABASE_PATH`` or ``DATABASE_URL`` says otherwise."""

SqlParams = Sequence[Any]


class StorageConflict(StorageError):
    """A constraint refused the write (a duplicate key, a missing parent row, a failed check); nothing was written.

    Not transient: the same write fails again. One live table per channel and
    one action per (table, hand, index) are enforced this way.
    """


class SeatedElsewhere(StorageConflict):
    """The user already sits at another live table (one table per user; enforced by the
    database's ``seated_users`` key across bot processes); nothing was written."""

    def __init__(self, user_id: int, table_id: int) -> None:
        super().__init__(f"user {user_id} is already seated at table {table_id}")
        self.user_id = user_id
        self.table_id = table_id


class Row(Protocol):
    """A result row of either driver (``sqlite3.Row``, ``asyncpg.Record``): by name or by position."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...


def dumps(obj: object) -> str:
    """Compact, stable JSON for the JSON columns."""
    return json.dumps(obj, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def dumps_plain(obj: Mapping[str, object]) -> str:
    """:func:`dumps` of a flat object of strings, ints and bools (an R10 action, stored at every press):
    the same text, made by orjson in a tenth of the time (``tests/storage/test_storage_game_log.py``)."""
    return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS).decode()


def loads(text: str) -> Any:
    return json.loads(text)


class Connection(ABC):
    """The statements of one transaction (or one read), in the backend's dialect."""

    dialect: Dialect

    @abstractmethod
    async def execute(self, sql: str, params: SqlParams = ()) -> int:
        """One statement; returns the rows it changed."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[SqlParams]) -> None:
        """One statement for many parameter rows."""

    @abstractmethod
    async def fetch_all(self, sql: str, params: SqlParams = ()) -> list[Row]:
        """Every row of a query."""

    async def fetch_one(self, sql: str, params: SqlParams = ()) -> Row | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    @abstractmethod
    async def insert_id(self, sql: str, params: SqlParams = ()) -> int:
        """An ``INSERT`` into a table with an ``{AUTO_ID}`` key named ``id``; returns the new row's id."""


class Database(ABC):
    """A migrated database: transactions, and single statements each in their own."""

    dialect: Dialect
    closed: bool
    notifies: bool = False
    """Whether :meth:`notify` and ``listen`` work (PostgreSQL's NOTIFY/LISTEN; not SQLite)."""

    async def notify(self, channel: str, payload: str) -> None:
        """Send ``payload`` to the listeners of ``channel`` (PostgreSQL only)."""
        raise StorageError("this database cannot notify other processes (PostgreSQL only)")

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """Statements that commit together when the block ends, or roll back on any error."""

    @abstractmethod
    async def close(self) -> None:
        """Close the connection (or the pool); idempotent."""

    @abstractmethod
    async def fetch_all(self, sql: str, params: SqlParams = ()) -> list[Row]:
        """Every row of a query (a read outside any transaction)."""

    async def fetch_one(self, sql: str, params: SqlParams = ()) -> Row | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    async def execute(self, sql: str, params: SqlParams = ()) -> int:
        """One write statement in its own transaction; returns the rows changed."""
        async with self.transaction() as tx:
            return await tx.execute(sql, params)

    async def append(self, sql: str, row: SqlParams) -> None:
        """One ``INSERT`` of one row, stored (committed, and flushed where the backend flushes) before it
        returns, or refused with the storage layer's error and nothing stored. Rows appended at the same
        moment may share one commit (:class:`~baloot.storage.sqlite_backend.SqliteDatabase`)."""
        await self.execute(sql, row)
