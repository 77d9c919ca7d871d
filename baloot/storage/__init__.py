"""Persistence for the bot (docs/architecture.md): the only place with SQL.

Two backends behind one interface: SQLite through aiosqlite (a file; the
default) and PostgreSQL through asyncpg (a ``postgresql://`` URL). Callers
see only :class:`Storage` and the storage layer's errors, never a driver's.
"""

from .database import (
    DEFAULT_PATH,
    Connection,
    Database,
    SeatedElsewhere,
    StorageConflict,
)
from .dialect import POSTGRESQL, SQLITE, Dialect
from .errors import StorageError, StorageUnavailable
from .leases import Fence, Lease, LeaseGrant, LeaseLost
from .migrations import LATEST_VERSION, MIGRATIONS, migrate, schema_version
from .opening import is_database_url, open_database
from .reviews import RECENT_MATCHES, AverageAccuracy, ReviewStore, SeatAccuracy
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
    "POSTGRESQL",
    "RECENT_MATCHES",
    "SQLITE",
    "AverageAccuracy",
    "Connection",
    "Database",
    "Dialect",
    "Fence",
    "GuildSettings",
    "Lease",
    "LeaseGrant",
    "LeaseLost",
    "MatchResult",
    "ResultSeat",
    "ReviewStore",
    "SeatAccuracy",
    "SeatRow",
    "SeatedElsewhere",
    "Storage",
    "StorageConflict",
    "StorageError",
    "StorageUnavailable",
    "StoredAction",
    "StoredHand",
    "StoredMessage",
    "TableRow",
    "TableStatus",
    "is_database_url",
    "migrate",
    "open_database",
    "schema_version",
]
