"""The storage layer's own errors: what callers see instead of a driver's exceptions.

Every backend (SQLite through aiosqlite, PostgreSQL through asyncpg) turns its
driver's errors into these, so the table service and the cogs never import a
driver. :class:`StorageUnavailable` is transient: the database is locked or
busy, the disk is full, an I/O error happened, or the connection was lost.
Nothing was written; the same operation may succeed later.
"""

from __future__ import annotations


class StorageError(Exception):
    """Base class of every error the storage layer raises."""


class StorageUnavailable(StorageError):
    """A transient fault (locked, busy, full, I/O, connection lost): nothing was written; retry later."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
