"""The async table service (docs/architecture.md): tables, seats, turns, bots; no Discord.

One table per channel (or thread); a user sits at one table at a time.
Everything that changes a table happens under that table's ``asyncio.Lock``
in arrival order: checked, applied through the engine, committed to storage,
then announced to listeners (:mod:`.events`). Bad input raises one of
:mod:`.errors` (or an engine error) and changes nothing.

Seating and game operations live in :mod:`.lobby` and :mod:`.gameplay`
(mixins of :class:`TableService`); this module holds the construction,
lookups, restart and shutdown.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from typing import Final

from ..engine.errors import BalootError
from ..engine.records import match_from_record
from ..storage import Storage, StorageError, StorageUnavailable
from ..storage.rows import TableStatus
from .bots import BOT_LEVELS, BotFactory
from .events import TableResumed
from .forwarding import PressForwarder
from .gameplay import GameplayOps
from .info import TableInfo
from .leases import ShardLeases
from .listeners import Announcer, Listener
from .live import LiveTable
from .lobby import LobbyOps
from .matching import BOTS_OFFER_AFTER
from .options import TURN_SECONDS_RANGE
from .quick import QueueListener, QueueState, QuickOps, is_quick
from .referee import Referee
from .supervisor import supervise
from .turns import TurnRunner, TurnSettings

log = logging.getLogger("baloot.tables")

GuildFilter = Callable[[int], bool]
"""Whether this process holds a guild's tables (the guild is on one of its shards)."""

RngFactory = Callable[[int], random.Random]
"""Gives a table (by id) its random generator: decks, first dealer and bot seeds."""


_SYSTEM_RNG: Final = random.SystemRandom()
"""One for every table: it keeps no state of its own (each draw reads ``os.urandom``), but each instance
still allocates the 2.5 KiB of ``random.Random``'s unused Mersenne Twister state."""


def system_rng(table_id: int) -> random.Random:
    """The default: the operating system's generator (``os.urandom``). Decks no one can predict from
    earlier ones, and no per-table state: a seeded ``random.Random`` holds 2.9 KiB, and even a
    ``SystemRandom`` 2.5 KiB, so every table shares one (memory per table)."""
    return _SYSTEM_RNG


class TableService(LobbyOps, GameplayOps, QuickOps):
    """Drives every table of the bot. Create it, ``await resume_all()``, add listeners."""

    def __init__(
        self,
        storage: Storage,
        *,
        rng_factory: RngFactory = system_rng,
        turn_seconds_default: float = 60.0,
        turn_seconds_range: tuple[float, float] = TURN_SECONDS_RANGE,
        reminder_seconds: float = 15.0,
        away_after: int = 2,
        bot_delay: float = 1.0,
        bot_factory: BotFactory | None = None,
        bot_levels: Sequence[str] = BOT_LEVELS,
        takeover_level: str = "normal",
        bot_executor: Executor | None = None,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        retry_most: float = 5.0,
        sweep_seconds: float = 5.0,
        owns_guild: GuildFilter | None = None,
        leases: ShardLeases | None = None,
        quick_bots_after: float = BOTS_OFFER_AFTER,
    ) -> None:
        if away_after < 1:
            raise ValueError("away_after must be at least 1")
        self.storage = storage
        self.owns_guild = owns_guild  # None: every guild (one process holds all tables)
        self.leases = leases  # None: no shard leases (one process on its database)
        # PostgreSQL with leases: DM presses forwarded to the holder of their table
        self.forwarder = PressForwarder(storage, leases) if leases is not None and storage.notifies else None
        self._keeper: asyncio.Task[None] | None = None
        self.rng_factory = rng_factory
        self.turn_seconds_default = turn_seconds_default
        self.turn_seconds_range = turn_seconds_range
        self.bot_factory = bot_factory
        self.bot_levels = tuple(bot_levels)
        self.clock = clock
        self.announcer = Announcer()
        self.referee = Referee(storage, self.announcer, self._unregister)
        self.turns = TurnRunner(
            self.referee,
            storage,
            self.announcer,
            TurnSettings(reminder_seconds, away_after, bot_delay, takeover_level,
                         retry_first=min(0.5, retry_most), retry_most=retry_most),
            bot_factory=bot_factory,
            bot_executor=bot_executor,
            clock=clock,
            sleep=sleep,
        )
        self.sleep = sleep
        self.sweep_seconds = sweep_seconds
        self._sweeper: asyncio.Task[None] | None = None
        self._tables: dict[int, LiveTable] = {}
        self._by_channel: dict[int, int] = {}
        self._seated: dict[int, int] = {}  # user id -> table id
        self._lobby_lock = asyncio.Lock()
        self._closed = False
        self.quick_bots_after = quick_bots_after  # quick match: "Play now with bots" after this long queued
        self.queue_listeners: list[QueueListener] = []
        self.last_queue: QueueState | None = None
        self._matcher: asyncio.Task[None] | None = None

    # -- listeners ------------------------------------------------------------------------
    def add_listener(self, listener: Listener, *, first: bool = False) -> None:
        """Receive every event (an ``async`` callable); its exceptions are logged, never raised.

        ``first``: called before the listeners already added (a listener that
        must commit derived data, such as statistics, before others announce).
        """
        self.announcer.add(listener, first=first)

    def remove_listener(self, listener: Listener) -> None:
        self.announcer.remove(listener)

    # -- restart and shutdown -----------------------------------------------------------------
    async def resume_all(self) -> list[TableInfo]:
        """Rebuild every open or playing table from storage and restart its timers (fresh turn).

        The match is the replay of the stored record through the engine. A
        table whose record no longer replays is logged and left alone. With
        ``owns_guild`` set, only the tables of the guilds it accepts are resumed:
        the others belong to the bot process holding their guild's shard.
        With ``leases``, the leases of this process's shards are taken first, and
        only the tables of shards whose lease it got are resumed.
        """
        if self.leases is not None and len(self.leases.fences) < len(self.leases.shard_ids):
            await self.leases.take()
        resumed: list[TableInfo] = []
        for row in await self.storage.live_tables():
            if row.id in self._tables or not self.holds(row.guild_id) or is_quick(row.channel_id):
                continue  # a quick-match table is adopted by the matcher's round (match_quick)
            try:
                record = await self.storage.game_record(row.id)
                match = match_from_record(record) if record["hands"] else None
            except BalootError:
                log.exception("table %s does not replay; not resumed", row.id)
                continue
            table = LiveTable(row, await self.storage.seats(row.id), match, self.rng_factory(row.id))
            self._register(table)
            async with table.lock:
                try:
                    if table.status == TableStatus.PLAYING and match is None:
                        await self.referee.start_match(table)  # stopped between start and first deal
                    elif match is not None and match.needs_deal:
                        await self.referee.deal_next(table)
                except StorageUnavailable as exc:  # start_turn deals it again until it is stored
                    log.warning("table %s: could not deal on resuming (%s)", table.id, exc)
                await self.announcer.emit(
                    table,
                    TableResumed(table_id=table.id, channel_id=table.channel_id, table=table.info())
                )
                await self.turns.start_turn(table)
            resumed.append(table.info())
        return resumed

    # -- shard leases ---------------------------------------------------------------------------------
    async def keep_leases(self) -> list[TableInfo]:
        """Renew this process's leases; stop driving the tables of any lease another process took; take
        (and resume the tables of) shards whose holder stopped renewing. Returns the tables resumed."""
        if self.leases is None:
            return []
        lost = {fence.shard_id for fence in await self.leases.renew()}
        for table in list(self._tables.values()):
            if table.fence is not None and table.fence.shard_id in lost:
                self._unregister(table)  # its new owner drives it; our writes would be refused anyway
        if len(self.leases.fences) < len(self.leases.shard_ids):
            resumed = await self.resume_all()
            if resumed:
                log.info("took over shard leases %s: resumed %d tables", sorted(f.shard_id for f in
                                                                              self.leases.fences.values()),
                         len(resumed))
            return resumed
        return []

    async def _keep_leases_forever(self) -> None:
        assert self.leases is not None
        while not self._closed:
            await self.sleep(self.leases.renew_every)
            await self.keep_leases()

    def start_keeping_leases(self) -> asyncio.Task[None] | None:
        """Start the periodic :meth:`keep_leases` (every ``renew_every``), supervised; idempotent."""
        if self.leases is not None and (self._keeper is None or self._keeper.done()):
            self._keeper = supervise("leases", self._keep_leases_forever, restart_after=self.leases.renew_every,
                                     sleep=self.sleep)
        return self._keeper

    # -- healing --------------------------------------------------------------------------------
    async def sweep(self) -> int:
        """Re-arm every playing table whose seat to act (or next deal) has no live turn task.

        A turn task ends for good only on an unexpected error; this starts the
        turn again (a fresh timer, or the bot plays). Returns the tables re-armed.
        """
        rearmed = 0
        for table in list(self._tables.values()):
            if not self.turns.needs_turn(table) or table.lock.locked():
                continue  # a locked table is being changed: whoever holds it starts the turn
            async with table.lock:
                if self.turns.needs_turn(table) and self._tables.get(table.id) is table:
                    log.warning("table %s had no live turn; starting it again", table.id)
                    await self.turns.start_turn(table)
                    rearmed += 1
        return rearmed

    async def _sweep_forever(self) -> None:
        while not self._closed:
            await self.sleep(self.sweep_seconds)
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep of tables failed; sweeping again in %.0f s", self.sweep_seconds)

    def start_sweeping(self) -> asyncio.Task[None]:
        """Start the periodic :meth:`sweep` (every ``sweep_seconds``), supervised; idempotent."""
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = supervise("sweep", self._sweep_forever, restart_after=self.sweep_seconds,
                                      sleep=self.sleep)
        return self._sweeper

    # -- quick match ------------------------------------------------------------------------------
    async def _match_forever(self) -> None:
        while not self._closed:
            await self.sleep(self.match_every)
            if self.runs_matcher:
                try:
                    await self.match_quick()
                except StorageError as exc:  # a conflict (a player gone meanwhile) or an outage: next round
                    log.warning("the quick-match round failed (%s); again in %.0f s", exc, self.match_every)

    def start_matching(self) -> asyncio.Task[None]:
        """Start the periodic quick-match round (every ``match_every``; it acts only where this process holds
        the quick-match tables), supervised; idempotent."""
        if self._matcher is None or self._matcher.done():
            self._matcher = supervise("quick match", self._match_forever, restart_after=self.match_every,
                                      sleep=self.sleep)
        return self._matcher

    async def close(self) -> None:
        """Stop every timer and bot task; the storage stays open (its owner closes it)."""
        self._closed = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._keeper is not None:
            self._keeper.cancel()
        if self._matcher is not None:
            self._matcher.cancel()
        for table in list(self._tables.values()):
            self.turns.cancel(table)
        if self.forwarder is not None:
            await self.forwarder.close()
        if self.leases is not None:  # a clean stop: the next process on these shards need not wait
            try:
                await self.leases.release()
            except StorageError as exc:
                log.warning("could not release the shard leases (%s); they expire in %.0f s", exc, self.leases.ttl)
