"""State and lookups shared by the table service's parts (:mod:`.lobby`, :mod:`.gameplay`)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

from ..storage import Storage
from .bots import BotFactory
from .errors import NoTableHere
from .info import TableInfo
from .leases import ShardLeases
from .listeners import Announcer
from .live import LiveTable
from .referee import Referee
from .turns import TurnRunner


class ServiceBase:
    """What every part of :class:`~baloot.tables.service.TableService` relies on."""

    storage: Storage
    announcer: Announcer
    referee: Referee
    turns: TurnRunner
    bot_factory: BotFactory | None
    bot_levels: tuple[str, ...]
    turn_seconds_default: float
    turn_seconds_range: tuple[float, float]
    clock: Callable[[], float]
    rng_factory: Callable[[int], random.Random]
    _lobby_lock: asyncio.Lock  # seating across tables (one table per user)
    _tables: dict[int, LiveTable]
    _by_channel: dict[int, int]
    _seated: dict[int, int]  # user id -> table id
    owns_guild: Callable[[int], bool] | None  # None: this process holds every guild's tables
    leases: ShardLeases | None  # None: no leases (one process on its database)

    def holds(self, guild_id: int) -> bool:
        """Whether this service drives the tables of ``guild_id`` (its guild is on one of
        this process's shards, and this process holds that shard's lease; always, without either)."""
        return (self.owns_guild is None or self.owns_guild(guild_id)) and (
            self.leases is None or self.leases.holds(guild_id)
        )

    # -- lookups ---------------------------------------------------------------------------
    def _in_channel(self, channel_id: int) -> LiveTable:
        table_id = self._by_channel.get(channel_id)
        if table_id is None:
            raise NoTableHere()
        return self._tables[table_id]

    def _by_id(self, table_id: int) -> LiveTable:
        table = self._tables.get(table_id)
        if table is None:
            raise NoTableHere("That table is no longer running.")
        return table

    def has_table_in(self, channel_id: int) -> bool:
        """Whether this channel has a live table here."""
        return channel_id in self._by_channel

    def table_info(self, channel_id: int) -> TableInfo:
        """The live table of a channel (raises NoTableHere)."""
        return self._in_channel(channel_id).info()

    def table_id_in(self, channel_id: int) -> int | None:
        """The id of a channel's live table, None if it has none."""
        return self._by_channel.get(channel_id)

    def table_by_id(self, table_id: int) -> TableInfo:
        """A live table by id (raises NoTableHere once it has closed)."""
        return self._by_id(table_id).info()

    def tables(self) -> list[TableInfo]:
        """Every live table."""
        return [t.info() for t in self._tables.values()]

    def table_of_user(self, user_id: int) -> TableInfo | None:
        """The live table where this user sits, if any, as last published (every change is published
        once committed), without building it again on every press."""
        table_id = self._seated.get(user_id)
        if table_id is None:
            return None
        table = self._tables[table_id]
        published = table.published
        return table.info() if published is None else published.info

    def _register(self, table: LiveTable) -> None:
        if self.leases is not None:
            table.fence = self.leases.fence_for(table.guild_id)
        self._tables[table.id] = table
        self._by_channel[table.channel_id] = table.id
        for info in table.seats:
            if info is not None and info.human and info.user_id is not None:
                self._seated[info.user_id] = table.id

    def _unregister(self, table: LiveTable) -> None:
        self.turns.cancel(table)
        self._tables.pop(table.id, None)
        if self._by_channel.get(table.channel_id) == table.id:
            del self._by_channel[table.channel_id]
        for user_id in [u for u, t in self._seated.items() if t == table.id]:
            del self._seated[user_id]

