"""This process's shard leases: which guilds' tables it may drive, and the fence of its writes.

A bot process holding ``shard_ids`` of ``shard_count`` takes their leases in
the shared database when it starts (:meth:`ShardLeases.take`), renews them
every ``renew_every`` seconds, and shows a shard's :class:`~baloot.storage.Fence`
on every write of that shard's tables, so that a process whose lease another
took can no longer change them (the storage refuses with ``LeaseLost``).
A shard another live process holds is not driven here: one log line says so,
and the lease is tried again at each renewal (taken once the holder stops
renewing, as after a crash). A holder proved dead (this host, its process gone:
:func:`~baloot.tables.holders.holder_gone`) does not hold its shards until its
lease runs out: a process restarted at once after a crash takes them over at
once. No Discord here: the table service uses it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from ..storage import Fence, LeaseGrant, Storage
from .holders import holder_gone, new_holder

log = logging.getLogger("baloot.tables.leases")

DEFAULT_TTL = 30.0
"""Seconds a lease lasts unless renewed: how long a crashed process's tables wait for another."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a guild's events to."""
    return (guild_id >> 22) % shard_count


class ShardLeases:
    """The leases of one process's shards, as last taken or renewed."""

    def __init__(
        self,
        storage: Storage,
        shard_count: int,
        shard_ids: Sequence[int],
        *,
        holder: str | None = None,
        ttl: float = DEFAULT_TTL,
        renew_every: float | None = None,
    ) -> None:
        if ttl <= 0:
            raise ValueError("the lease TTL must be positive")
        self.storage = storage
        self.shard_count = shard_count
        self.shard_ids = tuple(shard_ids)
        self.holder = holder or new_holder()
        self.ttl = ttl
        self.renew_every = ttl / 3 if renew_every is None else renew_every
        self.fences: dict[int, Fence] = {}
        self.refused: set[int] = set()
        self._watchers: list[Callable[[frozenset[int]], None]] = []
        self._held: frozenset[int] = frozenset()

    def watch(self, callback: Callable[[frozenset[int]], None]) -> None:
        """Call ``callback`` with the shards held whenever that set changes (a lease taken, lost or
        given up): the bot connects a shard's gateway only while it holds the shard's lease."""
        self._watchers.append(callback)

    def _changed(self) -> None:
        held = frozenset(self.fences)
        if held != self._held:
            self._held = held
            for callback in self._watchers:
                callback(held)

    def fence_for(self, guild_id: int) -> Fence | None:
        """The fence of the guild's shard if this process holds its lease (else None)."""
        return self.fences.get(shard_of(guild_id, self.shard_count))

    def holds(self, guild_id: int) -> bool:
        return shard_of(guild_id, self.shard_count) in self.fences

    async def take(self) -> LeaseGrant:
        """Take the leases of the shards not yet held; log once which ones another process keeps."""
        wanted = [s for s in self.shard_ids if s not in self.fences]
        grant = await self.storage.take_leases(self.shard_count, wanted, self.holder, self.ttl, holder_gone)
        self.fences.update(grant.taken)
        self._changed()
        if grant.taken:
            log.info("took the leases of shards %s (epochs %s) as %s", sorted(grant.taken),
                     [grant.taken[s].epoch for s in sorted(grant.taken)], self.holder)
        for holder in sorted({lease.holder for lease in grant.orphaned.values()}):
            log.warning("took over shards %s from %s at once: that process is gone (its lease ran until %.0f)",
                        sorted(s for s, lease in grant.orphaned.items() if lease.holder == holder), holder,
                        max(lease.expires_at for lease in grant.orphaned.values() if lease.holder == holder))
        refused = set(grant.refused)
        if refused and refused != self.refused:
            lease = grant.refused[min(refused)]
            log.warning(
                "shards %s are held by another bot process (%s, until %.0f): not driving their tables; "
                "trying again every %.0f s", sorted(refused), lease.holder, lease.expires_at, self.renew_every,
            )
        self.refused = refused
        return grant

    async def renew(self) -> list[Fence]:
        """Renew the held leases; forget (and return) those another process has taken."""
        if not self.fences:
            return []
        lost = await self.storage.renew_leases(list(self.fences.values()), self.ttl)
        for fence in lost:
            self.fences.pop(fence.shard_id, None)
            log.error("lost the lease of shard %s (epoch %s) to another bot process: no longer driving its tables",
                      fence.shard_id, fence.epoch)
        self._changed()
        return lost

    async def release(self) -> None:
        """Give every held lease up (a clean shutdown: the next process takes them at once)."""
        if self.fences:
            await self.storage.release_leases(list(self.fences.values()))
            self.fences.clear()
            self._changed()
