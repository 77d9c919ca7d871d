"""Refuse at start-up what cannot be written.

:func:`check_database` opens the database as the bot will (creating its
folder and file, WAL, migrations), then proves that it can write with a real
write transaction — a table created, filled and dropped, committed — and
closes it. A read-only file (with or without its ``-wal``/``-shm`` files), a
read-only folder, a full disk or a schema newer than the code raise
:class:`StartupRefused` naming the path and the reason; ``bot.py`` prints it
as one line and exits with code 2 before contacting Discord.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from .database import Database
from .errors import StorageError
from .opening import is_database_url, open_database

_PROBE = "baloot_write_check"


class StartupRefused(StorageError):
    """The database cannot be used: ``str(exc)`` is one line naming the path and the reason."""


async def prove_writable(db: Database) -> None:
    """A real write transaction: pages written and committed (and synced, with ``synchronous=FULL``)."""
    async with db.transaction() as conn:
        await conn.execute(f"CREATE TABLE IF NOT EXISTS {_PROBE} (checked_at DOUBLE PRECISION NOT NULL)")
        await conn.execute(f"INSERT INTO {_PROBE} (checked_at) VALUES (?)", (time.time(),))
        await conn.execute(f"DROP TABLE {_PROBE}")


async def check_database(path: str | Path, *, synchronous: str = "FULL") -> None:
    """Open, migrate and write ``path`` (a SQLite file or a PostgreSQL URL) once; raise
    :class:`StartupRefused` if any step fails (a URL is named without its password)."""
    where: str | Path = _without_password(str(path)) if is_database_url(path) else Path(path)
    try:
        db = await open_database(path if is_database_url(path) else Path(path), synchronous=synchronous)
    except (OSError, sqlite3.Error, RuntimeError, StorageError) as exc:
        raise StartupRefused(f"cannot open the database {where}: {_reason(exc)}") from exc
    try:
        await prove_writable(db)
    except (OSError, sqlite3.Error, StorageError) as exc:
        raise StartupRefused(f"cannot write the database {where}: {_reason(exc)}") from exc
    finally:
        await db.close()


def _without_password(url: str) -> str:
    """``postgresql://user:***@host/db``: a URL fit for a log line."""
    head, sep, rest = url.partition("://")
    creds, at, host = rest.rpartition("@")
    if not at or ":" not in creds:
        return url
    return f"{head}{sep}{creds.split(':', 1)[0]}:***@{host}"


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:300]
