"""The quick-match queue and its tables, shared by every bot process on the database.

``quick_queue`` holds one row per waiting user (a pair: two rows with one
``entry_id``); its key makes a user wait in one place at a time. A user seated
at a live table (``seated_users``) cannot queue, and is dropped from the
queue when the matcher next runs.

:func:`form_tables` is the matcher's one transaction: it takes the matching
lock (PostgreSQL: an advisory transaction lock, so one process matches at a
time; SQLite writes one transaction at a time), reads the queue, asks the
caller's pure ``plan`` which groups to seat, and for each group deletes its
queue rows — refusing the whole transaction unless exactly those rows were
there, so **a player is never matched twice** even without the lock — then
creates the table (no channel: its ``channel_id`` is ``-id``, a value no
Discord channel has), its four seats (``seated_users`` refuses a user seated
elsewhere) and its ``quick_seats`` (each player's own server, for their
statistics and leaderboards).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .database import Connection, Database, StorageConflict, dumps
from .rows import SeatRow, TableRow, TableStatus

QUICK_GUILD_ID: Final = 0
"""The guild id of every quick-match table (no server holds it; shard 0's process drives it)."""
MATCHING_LOCK: Final = "SELECT pg_advisory_xact_lock(7411152)"
"""PostgreSQL: one matcher at a time across processes (the lease takers use 7411151)."""


class AlreadyQueued(StorageConflict):
    """The user already waits in the quick-match queue; nothing was written."""

    def __init__(self, user_id: int) -> None:
        super().__init__(f"user {user_id} is already in the quick-match queue")
        self.user_id = user_id


class SeatedNow(StorageConflict):
    """The user sits at a live table, so may not queue; nothing was written."""

    def __init__(self, user_id: int, table_id: int) -> None:
        super().__init__(f"user {user_id} is seated at table {table_id}")
        self.user_id = user_id
        self.table_id = table_id


@dataclass(frozen=True, slots=True)
class QueuedRow:
    """One waiting user. ``entry_id``: the user id of their entry's first player (a pair shares it)."""

    user_id: int
    entry_id: int
    guild_id: int
    display_name: str
    language: str | None
    mu: float
    sigma: float
    queued_at: float
    dm_channel_id: int | None = None
    message_id: int | None = None


@dataclass(frozen=True, slots=True)
class FormedTable:
    """A quick-match table just created: its row, its four seats and each player's server."""

    table: TableRow
    seats: tuple[SeatRow, ...]
    guilds: dict[int, int]
    queued: tuple[QueuedRow, ...]


Plan = Callable[[list[QueuedRow]], Sequence[Sequence[QueuedRow]]]
"""Given the queue, the groups to seat: each four rows in seat order."""
PutSeat = Callable[[Connection, int, SeatRow], Awaitable[None]]
"""The storage's seat writer (a seat, and its user in ``seated_users``)."""


def _queued(row: Any) -> QueuedRow:
    return QueuedRow(
        user_id=int(row["user_id"]), entry_id=int(row["entry_id"]), guild_id=int(row["guild_id"]),
        display_name=str(row["display_name"]), language=row["language"], mu=float(row["mu"]),
        sigma=float(row["sigma"]), queued_at=float(row["queued_at"]),
        dm_channel_id=None if row["dm_channel_id"] is None else int(row["dm_channel_id"]),
        message_id=None if row["message_id"] is None else int(row["message_id"]),
    )


async def queue(db: Database | Connection) -> list[QueuedRow]:
    """Every waiting user, longest waiting first."""
    rows = await db.fetch_all("SELECT * FROM quick_queue ORDER BY queued_at, entry_id, user_id")
    return [_queued(r) for r in rows]


async def enqueue(db: Database, rows: Sequence[QueuedRow]) -> None:
    """Queue one entry (one or two users) in one transaction; :class:`SeatedNow` or
    :class:`AlreadyQueued` (nothing written) if one of them sits at a live table or waits already."""
    async with db.transaction() as tx:
        for row in rows:
            seated = await tx.fetch_one("SELECT table_id FROM seated_users WHERE user_id = ?", (row.user_id,))
            if seated is not None:
                raise SeatedNow(row.user_id, int(seated[0]))
            if not await tx.execute(
                """INSERT INTO quick_queue (user_id, entry_id, guild_id, display_name, language, mu, sigma,
                       queued_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO NOTHING""",
                (row.user_id, row.entry_id, row.guild_id, row.display_name, row.language, row.mu, row.sigma,
                 row.queued_at),
            ):
                raise AlreadyQueued(row.user_id)


async def dequeue(db: Database, user_id: int) -> list[QueuedRow]:
    """Take ``user_id``'s whole entry (their partner too) out of the queue; returns the rows removed."""
    async with db.transaction() as tx:
        rows = await tx.fetch_all(
            "SELECT * FROM quick_queue WHERE entry_id IN (SELECT entry_id FROM quick_queue WHERE user_id = ?)",
            (user_id,),
        )
        removed = [_queued(r) for r in rows]
        if removed:
            await tx.execute("DELETE FROM quick_queue WHERE entry_id = ?", (removed[0].entry_id,))
    return removed


async def set_message(db: Database, user_id: int, channel_id: int, message_id: int) -> None:
    """Remember the private message that shows ``user_id`` the queue (edited as it changes)."""
    await db.execute("UPDATE quick_queue SET dm_channel_id = ?, message_id = ? WHERE user_id = ?",
                     (channel_id, message_id, user_id))


async def form_tables(
    db: Database, plan: Plan, put_seat: PutSeat, *, rules: dict[str, Any], turn_seconds: float, now: float,
    check: Callable[[Connection], Awaitable[None]] | None = None,
) -> list[FormedTable]:
    """The matcher's transaction (see the module docstring); ``check(tx)`` runs first (a lease fence)."""
    formed: list[FormedTable] = []
    async with db.transaction() as tx:
        if tx.dialect.lease_lock is not None:  # PostgreSQL: one matcher at a time
            await tx.execute(MATCHING_LOCK)
        if check is not None:
            await check(tx)
        await tx.execute("DELETE FROM quick_queue WHERE user_id IN (SELECT user_id FROM seated_users)")
        groups = plan(await queue(tx))
        for group in groups:
            users = [r.user_id for r in group]
            if len(group) != 4 or len(set(users)) != 4:
                raise ValueError("a quick-match table is four different players")
            marks = ", ".join("?" for _ in users)
            if await tx.execute(f"DELETE FROM quick_queue WHERE user_id IN ({marks})", users) != 4:
                raise StorageConflict(f"users {users} are no longer all in the queue")
            table_id = await _insert_table(tx, group[0].user_id, rules, turn_seconds, now)
            seats = tuple(SeatRow(table_id, i, r.user_id, r.display_name) for i, r in enumerate(group))
            formed.append(await _seat(tx, put_seat, table_id, seats, group, rules, turn_seconds, now))
    return formed


async def _insert_table(tx: Connection, creator: int, rules: dict[str, Any], turn_seconds: float,
                        now: float) -> int:
    """A new open table of no channel: its ``channel_id`` is ``-id`` (first a value below every ``-id``
    in use, so the one-live-table-per-channel index never sees two alike)."""
    last = await tx.fetch_one("SELECT COALESCE(MAX(id), 0) FROM tables")
    provisional = -1 - (0 if last is None else int(last[0]))
    table_id = await tx.insert_id(
        """INSERT INTO tables (guild_id, channel_id, creator_id, status, rules, turn_seconds, language, created_at)
           VALUES (?, ?, ?, 'open', ?, ?, NULL, ?)""",
        (QUICK_GUILD_ID, provisional, creator, dumps(rules), turn_seconds, now),
    )
    await tx.execute("UPDATE tables SET channel_id = ? WHERE id = ?", (-table_id, table_id))
    return table_id


async def _seat(tx: Connection, put_seat: PutSeat, table_id: int, seats: tuple[SeatRow, ...],
                people: Sequence[QueuedRow], rules: dict[str, Any], turn_seconds: float, now: float) -> FormedTable:
    for seat in seats:
        await put_seat(tx, table_id, seat)
    await tx.executemany(
        "INSERT INTO quick_seats (table_id, user_id, guild_id) VALUES (?, ?, ?)",
        [(table_id, r.user_id, r.guild_id) for r in people],
    )
    creator = people[0].user_id
    row = TableRow(table_id, QUICK_GUILD_ID, -table_id, creator, TableStatus.OPEN, rules, turn_seconds, None, now)
    return FormedTable(row, seats, {r.user_id: r.guild_id for r in people}, tuple(people))


async def create_with_bots(
    db: Database, rows: Sequence[QueuedRow], bots: Sequence[SeatRow], put_seat: PutSeat, *, rules: dict[str, Any],
    turn_seconds: float, now: float, check: Callable[[Connection], Awaitable[None]] | None = None,
) -> FormedTable:
    """Take one entry out of the queue and seat it with ``bots`` (**Play now with bots**; the entry's players at
    seats 0 and 2), in one transaction; :class:`StorageConflict` (nothing written) if it is no longer all queued
    (matched meanwhile, or gone)."""
    async with db.transaction() as tx:
        if tx.dialect.lease_lock is not None:
            await tx.execute(MATCHING_LOCK)
        if check is not None:
            await check(tx)
        users = [r.user_id for r in rows]
        marks = ", ".join("?" for _ in users)
        if await tx.execute(f"DELETE FROM quick_queue WHERE user_id IN ({marks})", users) != len(users):
            raise StorageConflict(f"users {users} are no longer all in the queue")
        table_id = await _insert_table(tx, rows[0].user_id, rules, turn_seconds, now)
        people = [SeatRow(table_id, 2 * i, r.user_id, r.display_name) for i, r in enumerate(rows)]
        robots = [SeatRow(table_id, b.seat, None, b.display_name, is_bot=True, bot_level=b.bot_level) for b in bots]
        seats = tuple(sorted([*people, *robots], key=lambda s: s.seat))
        return await _seat(tx, put_seat, table_id, seats, rows, rules, turn_seconds, now)


async def seat_guilds(db: Database | Connection, table_id: int) -> dict[int, int]:
    """Each player's own server at a quick-match table (empty for any other table)."""
    rows = await db.fetch_all("SELECT user_id, guild_id FROM quick_seats WHERE table_id = ?", (table_id,))
    return {int(r[0]): int(r[1]) for r in rows}


async def add_report(db: Database, table_id: int, reporter_id: int, reported_id: int, now: float) -> bool:
    """Store that ``reporter_id`` reported ``reported_id`` at a quick-match table; False if already reported."""
    return bool(await db.execute(
        """INSERT INTO quick_reports (table_id, reporter_id, reported_id, created_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (table_id, reporter_id, reported_id) DO NOTHING""",
        (table_id, reporter_id, reported_id, now),
    ))


async def reports(db: Database, table_id: int) -> list[tuple[int, int]]:
    """The (reporter, reported) pairs stored with a table."""
    rows = await db.fetch_all(
        "SELECT reporter_id, reported_id FROM quick_reports WHERE table_id = ? ORDER BY id", (table_id,))
    return [(int(r[0]), int(r[1])) for r in rows]


async def best_skill(db: Database, user_id: int) -> tuple[float, float] | None:
    """The user's rating (mu, sigma) in the server where they have played the most rated matches, if any."""
    row = await db.fetch_one(
        """SELECT mu, sigma FROM player_ratings WHERE user_id = ?
           ORDER BY rated_matches DESC, updated_at DESC LIMIT 1""",
        (user_id,),
    )
    return None if row is None else (float(row[0]), float(row[1]))
