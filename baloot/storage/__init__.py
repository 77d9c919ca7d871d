"""Persistence for the bot (issue 4, ARCHITECTURE.md): SQLite through aiosqlite, the only place with SQL."""

from .database import DEFAULT_PATH, Database
from .errors import StorageError, StorageUnavailable
from .migrations import LATEST_VERSION, MIGRATIONS, migrate, schema_version
from .rows import (
    GuildSettings,
    MatchResult,
    ResultSeat,
    SeatRow,
    StoredAction,
    StoredHand,
    StoredMessage,
    TableRow,
    TableStatus,
)
from .storage import Storage

__all__ = [
    "DEFAULT_PATH",
    "LATEST_VERSION",
    "MIGRATIONS",
    "Database",
    "GuildSettings",
    "MatchResult",
    "ResultSeat",
    "SeatRow",
    "Storage",
    "StorageError",
    "StorageUnavailable",
    "StoredAction",
    "StoredHand",
    "StoredMessage",
    "TableRow",
    "TableStatus",
    "migrate",
    "schema_version",
]
