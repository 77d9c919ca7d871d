"""Shard leases with an epoch: which bot process drives the tables of each shard.

A guild's tables belong to the process holding the guild's shard (Discord sends
the guild's events to shard ``(guild_id >> 22) % shard_count`` only). Processes
sharing one database say which shards they hold in ``shard_leases``: one row a
shard, with its holder (a token unique to a process run), an ``epoch`` that
grows by one each time the lease is taken, and when it expires unless renewed.

- :func:`take` gives a process the leases of its shards that are free, expired
  or already its own (each with a new epoch, so writes of an earlier run of the
  same holder are refused too), and reports those another live holder keeps.
  A lease whose holder the taker proves dead (``gone``: the same host, its
  process gone; :mod:`baloot.tables.holders`) is free at once, not when it
  runs out (a crashed process restarted at once).
  Takers run one at a time (PostgreSQL: an advisory lock; SQLite: its one writer).
- :func:`renew` pushes the expiry of held leases on; a lease found taken is lost.
- Every table write of a holder carries its :class:`Fence` (shard, holder, epoch),
  and :func:`check` (inside the write's transaction) or :func:`guard` (inside
  the one statement of an action) refuses it with :class:`LeaseLost` once
  another process has taken the lease: nothing is written. On PostgreSQL the
  check holds the lease row (``FOR KEY SHARE``) until the write commits, and a
  taker locks it (``FOR UPDATE``) first: a takeover waits for a write already
  checked, and a write checked after it sees the new epoch.

Expiry uses the storage clock of each process (Unix time): processes on
several machines need their clocks in step (NTP) to within a small part of the TTL.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from .database import Connection, Database, Row, StorageConflict

_COLUMNS: Final = "shard_id, shard_count, holder, epoch, expires_at"


@dataclass(frozen=True, slots=True)
class Fence:
    """What a holder's table writes show: the lease of ``shard_id`` held by ``holder`` at ``epoch``."""

    shard_id: int
    holder: str
    epoch: int


@dataclass(frozen=True, slots=True)
class Lease:
    """One row of ``shard_leases``."""

    shard_id: int
    shard_count: int
    holder: str
    epoch: int
    expires_at: float


@dataclass(frozen=True, slots=True)
class LeaseGrant:
    """What :func:`take` gave: a fence per shard taken, and the live leases of others it did not take.

    ``orphaned``: the unexpired leases it took (among ``taken``) because their holder was proved dead.
    """

    taken: dict[int, Fence] = field(default_factory=dict)
    refused: dict[int, Lease] = field(default_factory=dict)
    orphaned: dict[int, Lease] = field(default_factory=dict)


class LeaseLost(StorageConflict):
    """Another bot process took this shard's lease (a newer epoch): the write was refused, nothing stored."""

    def __init__(self, fence: Fence) -> None:
        super().__init__(
            f"the lease of shard {fence.shard_id} (epoch {fence.epoch}) is no longer held by {fence.holder}"
        )
        self.fence = fence


def _lease(r: Row) -> Lease:
    return Lease(int(r[0]), int(r[1]), str(r[2]), int(r[3]), float(r[4]))


def guard(db: Connection | Database) -> str:
    """An SQL condition (three ``?``: shard, holder, epoch) true while that fence's lease is held."""
    return ("EXISTS (SELECT 1 FROM shard_leases WHERE shard_id = ? AND holder = ? AND epoch = ?"
            f"{db.dialect.share_lock})")


def guard_params(fence: Fence) -> tuple[int, str, int]:
    return (fence.shard_id, fence.holder, fence.epoch)


async def check(db: Connection, fence: Fence) -> None:
    """Inside a write's transaction: raise :class:`LeaseLost` unless ``fence`` still holds its lease."""
    row = await db.fetch_one(
        f"SELECT 1 FROM shard_leases WHERE shard_id = ? AND holder = ? AND epoch = ?{db.dialect.share_lock}",
        guard_params(fence),
    )
    if row is None:
        raise LeaseLost(fence)


async def leases(db: Database) -> list[Lease]:
    """Every lease row, by shard."""
    return [_lease(r) for r in await db.fetch_all(f"SELECT {_COLUMNS} FROM shard_leases ORDER BY shard_id")]


async def take(
    db: Database, shard_count: int, shard_ids: tuple[int, ...], holder: str, ttl: float, now: float,
    gone: Callable[[str], bool] | None = None,
) -> LeaseGrant:
    """Take the leases of ``shard_ids`` (of ``shard_count``) that no other holder keeps alive.

    A live lease of another holder under a different shard count (the bot was
    resharded and an old process still runs) blocks every shard: the old
    process's guilds map to other shards. Expired rows of another count are removed.
    ``gone(holder)``: True only when that holder's process is proved dead; its
    leases count as expired (their rows are taken over with a new epoch).
    """
    if shard_count < 1 or any(not 0 <= s < shard_count for s in shard_ids):
        raise ValueError("shard ids must lie in 0 .. shard_count - 1")
    grant = LeaseGrant()
    async with db.transaction() as tx:
        if tx.dialect.lease_lock is not None:
            await tx.execute(tx.dialect.lease_lock)
        update_lock = " FOR UPDATE" if tx.dialect.share_lock else ""
        rows = {r.shard_id: r for r in
                (_lease(x) for x in await tx.fetch_all(f"SELECT {_COLUMNS} FROM shard_leases{update_lock}"))}
        unexpired = [r for r in rows.values() if r.holder != holder and r.expires_at > now]
        dead = {r.holder for r in unexpired if gone is not None and gone(r.holder)}
        alive = [r for r in unexpired if r.holder not in dead]
        resharded = [r for r in alive if r.shard_count != shard_count]
        if resharded:
            return LeaseGrant(refused={s: resharded[0] for s in shard_ids})
        await tx.execute("DELETE FROM shard_leases WHERE shard_count <> ?", (shard_count,))
        for shard in shard_ids:
            row = rows.get(shard)
            if row is not None and row.shard_count == shard_count and row in alive:
                grant.refused[shard] = row
                continue
            if row is not None and row.shard_count == shard_count and row.holder in dead:
                grant.orphaned[shard] = row
            epoch = 1 if row is None else row.epoch + 1
            await tx.execute(
                """INSERT INTO shard_leases (shard_id, shard_count, holder, epoch, expires_at) VALUES (?, ?, ?, ?, ?)
                   ON CONFLICT (shard_id) DO UPDATE SET shard_count = excluded.shard_count,
                       holder = excluded.holder, epoch = excluded.epoch, expires_at = excluded.expires_at""",
                (shard, shard_count, holder, epoch, now + ttl),
            )
            grant.taken[shard] = Fence(shard, holder, epoch)
    return grant


async def renew(db: Database, fences: list[Fence], ttl: float, now: float) -> list[Fence]:
    """Push the leases of ``fences`` on to ``now + ttl``; returns the fences whose lease was taken meanwhile."""
    lost: list[Fence] = []
    async with db.transaction() as tx:
        for fence in fences:
            changed = await tx.execute(
                "UPDATE shard_leases SET expires_at = ? WHERE shard_id = ? AND holder = ? AND epoch = ?",
                (now + ttl, *guard_params(fence)),
            )
            if not changed:
                lost.append(fence)
    return lost


async def release(db: Database, fences: list[Fence]) -> None:
    """Let the leases go at once (a clean shutdown): the next process on these shards takes them without waiting."""
    async with db.transaction() as tx:
        for fence in fences:
            await tx.execute(
                "UPDATE shard_leases SET expires_at = 0 WHERE shard_id = ? AND holder = ? AND epoch = ?",
                guard_params(fence),
            )
