"""Opening a database: a PostgreSQL URL (asyncpg) or else a SQLite file (aiosqlite), migrated.

Apart from :mod:`.database` (the interface both backends implement), so that the interface
imports neither backend (no import circle, ``tests/test_layers.py``).
"""

from __future__ import annotations

from pathlib import Path

from .database import DEFAULT_PATH, Database


def is_database_url(where: str | Path) -> bool:
    """Whether ``where`` names a PostgreSQL database (``postgresql://`` or ``postgres://``) rather than a file."""
    return isinstance(where, str) and where.startswith(("postgresql://", "postgres://"))


async def open_database(
    where: str | Path = DEFAULT_PATH, *, synchronous: str = "FULL", pool_size: int = 10
) -> Database:
    """Open and migrate the database at ``where``: a PostgreSQL URL, or else a SQLite file.

    ``synchronous`` applies to SQLite only; ``pool_size`` (the most connections
    held at once) to PostgreSQL only.
    """
    if is_database_url(where):
        from .postgres_backend import PostgresDatabase  # only where PostgreSQL is used

        return await PostgresDatabase.open(str(where), max_size=pool_size)
    from .sqlite_backend import SqliteDatabase

    return await SqliteDatabase.open(where, synchronous=synchronous)
