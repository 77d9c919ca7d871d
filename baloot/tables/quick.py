"""Quick match: one queue for every server the bot is in, and tables of no channel.

A mixin of :class:`~baloot.tables.service.TableService`. The queue lives in
the database (:mod:`baloot.storage.quick`), shared by every bot process. The
process that holds :data:`QUICK_GUILD_ID` (guild 0, so shard 0's lease) runs
the matcher every :attr:`QuickOps.match_every` seconds: one transaction,
under PostgreSQL's advisory lock, seats each group :func:`.matching.find_matches`
picks and deletes its queue rows, so a player is never matched twice.

A quick-match table has no channel: its ``channel_id`` is ``-id`` (no
Discord channel has a negative id) and its guild is :data:`QUICK_GUILD_ID`.
Everything else — seats, R9 default rules, turn timers, auto-play, Sawa,
the stored record, resuming after a restart, leaving (the seat played for
by a bot) — is a channel table's. The Discord layer shows it in each
player's direct messages (cogs/presentation).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from ..engine.error_codes import ErrorCode
from ..engine.records import match_from_record
from ..engine.rules import Rules
from ..storage import Fence, StorageConflict
from ..storage.quick import QUICK_GUILD_ID, AlreadyQueued, FormedTable, QueuedRow, SeatedNow
from ..storage.rows import SeatRow, TableStatus
from . import matching, options
from .base import ServiceBase
from .errors import AlreadySeated, BadOption, BotsNotYet, NotAllowed, NotQueued, QueuedAlready, TableElsewhere
from .events import TableCreated, TableResumed
from .info import TableInfo
from .live import LiveTable

log = logging.getLogger("baloot.tables")

__all__ = ["QUICK_GUILD_ID", "QueueState", "QuickOps", "is_quick"]


def is_quick(channel_id: int) -> bool:
    """Whether a table's channel id is a quick-match table's (no channel: ``-id``)."""
    return channel_id < 0


@dataclass(frozen=True, slots=True)
class QueueState:
    """The quick-match queue as one process last read it: who waits, longest first."""

    waiting: tuple[QueuedRow, ...]
    at: float

    def entry_of(self, user_id: int) -> tuple[QueuedRow, ...]:
        """The rows of ``user_id``'s entry (their own and their partner's), or none."""
        mine = next((r for r in self.waiting if r.user_id == user_id), None)
        return () if mine is None else tuple(r for r in self.waiting if r.entry_id == mine.entry_id)

    def waited(self, user_id: int) -> float:
        mine = self.entry_of(user_id)
        return 0.0 if not mine else max(0.0, self.at - mine[0].queued_at)

    def others_for(self, user_id: int) -> int:
        """How many others wait in the queue (every row not of ``user_id``'s entry); 0 if they do not wait.

        Only a count of who waits: the matcher may not seat them with ``user_id`` (it balances teams by
        rating within an allowance that widens with the wait, :mod:`.matching`), so the queue message says
        "others in the queue", never "N of 4 found"."""
        mine = {r.user_id for r in self.entry_of(user_id)}
        return len(self.waiting) - len(mine) if mine else 0


QueueListener = Callable[[QueueState, Sequence[TableInfo]], Awaitable[None]]
"""Told of the queue after every change this process makes or sees, with the quick tables just formed."""


def _entries(rows: Sequence[QueuedRow]) -> list[matching.Entry]:
    by_entry: dict[int, list[QueuedRow]] = {}
    for r in rows:
        by_entry.setdefault(r.entry_id, []).append(r)
    out = []
    for entry_id, members in by_entry.items():
        members.sort(key=lambda r: (r.user_id != entry_id, r.user_id))
        out.append(matching.Entry(tuple(matching.Player(r.user_id, r.mu, r.sigma) for r in members),
                                  min(r.queued_at for r in members), language=members[0].language))
    return out


def plan_tables(rows: list[QueuedRow], now: float) -> list[list[QueuedRow]]:
    """The matcher's plan over the stored queue: each group's rows in seat order."""
    by_user = {r.user_id: r for r in rows}
    return [[by_user[p.user_id] for p in m.seats] for m in matching.find_matches(_entries(rows), now)]


class QuickOps(ServiceBase):
    """Queueing, matching and quick-match tables."""

    match_every: float = 2.0
    quick_bots_after: float
    queue_listeners: list[QueueListener]
    last_queue: QueueState | None

    @property
    def runs_matcher(self) -> bool:
        """Whether this process matches the queue and drives the quick-match tables (it holds guild 0)."""
        return self.holds(QUICK_GUILD_ID)

    def add_queue_listener(self, listener: QueueListener) -> None:
        self.queue_listeners.append(listener)

    async def _tell_queue(self, formed: Sequence[TableInfo] = ()) -> QueueState:
        state = QueueState(tuple(await self.storage.quick_queue()), self.clock())
        self.last_queue = state
        for listener in list(self.queue_listeners):
            try:
                await listener(state, formed)
            except Exception:
                log.exception("queue listener %r failed", listener)
        return state

    # -- the queue ------------------------------------------------------------------------------
    async def queue_quick(
        self, guild_id: int, user_id: int, name: str, *, partner: tuple[int, str] | None = None,
        language: str | None = None,
    ) -> QueueState:
        """Put ``user_id`` (with ``partner``, one team) in the quick-match queue; R9 default rules only.

        Refused, with nothing changed, while either sits at a table or waits already.
        """
        lang = options.language(language)
        people = [(user_id, name), *([partner] if partner is not None else [])]
        if partner is not None and partner[0] == user_id:
            raise BadOption("Your partner must be someone else.")
        for uid, _ in people:
            if uid in self._seated:
                raise AlreadySeated()
        rows = []
        now = self.clock()
        for uid, who in people:
            skill = await self.storage.best_skill(uid)
            mu, sigma = skill if skill is not None else (matching.NEW_MU, matching.NEW_SIGMA)
            rows.append(QueuedRow(uid, user_id, guild_id, who, lang, mu, sigma, now))
        try:
            await self.storage.enqueue_quick(rows)
        except SeatedNow as exc:
            raise AlreadySeated() from exc
        except AlreadyQueued as exc:
            raise QueuedAlready() from exc
        return await self._tell_queue()

    async def leave_queue(self, user_id: int) -> QueueState:
        """Take ``user_id``'s entry (and their partner) out of the queue; :class:`NotQueued` if not there."""
        if not await self.storage.dequeue_quick(user_id):
            raise NotQueued()
        return await self._tell_queue()

    async def queue_state(self) -> QueueState:
        return await self._tell_queue()

    async def set_queue_message(self, user_id: int, channel_id: int, message_id: int) -> None:
        await self.storage.set_queue_message(user_id, channel_id, message_id)

    async def play_with_bots(self, user_id: int, level: str = "normal") -> TableInfo | None:
        """**Play now with bots**: the user's entry leaves the queue and sits with bots (its players at
        seats 0 and 2), once it has waited :attr:`quick_bots_after` (:data:`~.matching.BOTS_OFFER_AFTER` by
        default). Returns the table if this process drives it (else the matcher's process adopts it within
        :attr:`match_every`)."""
        if self.bot_factory is None:
            raise NotAllowed("Bots are not available here.")
        state = QueueState(tuple(await self.storage.quick_queue()), self.clock())
        entry = state.entry_of(user_id)
        if not entry:
            raise NotQueued()
        waited = state.waited(user_id)
        if waited < self.quick_bots_after:
            raise BotsNotYet(int(self.quick_bots_after - waited + 0.999))
        taken = {2 * i for i in range(len(entry))}
        bots = [SeatRow(0, s, None, f"Bot {s + 1}", is_bot=True, bot_level=level) for s in range(4) if s not in taken]
        try:
            formed = await self.storage.quick_with_bots(
                entry, bots, rules=Rules().to_json(), turn_seconds=self.turn_seconds_default, fence=self._quick_fence())
        except StorageConflict as exc:  # matched (or gone) meanwhile
            raise NotQueued() from exc
        infos = await self._adopt([formed]) if self.runs_matcher else []
        await self._tell_queue(infos)
        return infos[0] if infos else None

    def _quick_fence(self) -> Fence | None:
        return None if self.leases is None or not self.runs_matcher else self.leases.fence_for(QUICK_GUILD_ID)

    # -- the matcher ------------------------------------------------------------------------------
    async def match_quick(self) -> list[TableInfo]:
        """One round of the matcher: seat the groups found, start their matches, and adopt any quick table
        another process stored (bots at once) or a restart left unstarted. Only where :attr:`runs_matcher`."""
        if not self.runs_matcher:
            raise TableElsewhere(guild_id=QUICK_GUILD_ID)
        now = self.clock()
        formed = await self.storage.form_quick_tables(
            lambda rows: plan_tables(rows, now), rules=Rules().to_json(), turn_seconds=self.turn_seconds_default,
            fence=self._quick_fence(),
        )
        infos = await self._adopt(formed)
        infos += await self._adopt_stored()
        await self._tell_queue(infos)
        return infos

    async def _adopt(self, formed: Sequence[FormedTable]) -> list[TableInfo]:
        infos = []
        for f in formed:
            table = LiveTable(f.table, list(f.seats), None, self.rng_factory(f.table.id))
            infos.append(await self._start_quick(table))
        return infos

    async def _adopt_stored(self) -> list[TableInfo]:
        """Quick tables in storage that this process does not drive yet (formed by another process, or
        stored just before a restart): resumed, and started if they were not."""
        infos = []
        for row in await self.storage.live_tables(QUICK_GUILD_ID):
            if row.guild_id != QUICK_GUILD_ID or row.id in self._tables or not is_quick(row.channel_id):
                continue
            record = await self.storage.game_record(row.id)
            match = match_from_record(record) if record["hands"] else None
            table = LiveTable(row, await self.storage.seats(row.id), match, self.rng_factory(row.id))
            infos.append(await self._start_quick(table))
        return infos

    async def _start_quick(self, table: LiveTable) -> TableInfo:
        """Drive a quick table: new (``TableCreated``, then its first deal) or already playing (stored before a
        restart, or by another process: ``TableResumed``, so its players' DM messages are edited, not sent anew)."""
        self._register(table)
        async with table.lock:
            info = table.info()
            if table.status == TableStatus.OPEN:
                await self.announcer.emit(table, TableCreated(table_id=table.id, channel_id=table.channel_id,
                                                              table=info))
            else:
                await self.announcer.emit(table, TableResumed(table_id=table.id, channel_id=table.channel_id,
                                                              table=info))
            if table.status == TableStatus.OPEN:
                await self.referee.start_match(table)
            elif table.match is not None and table.match.needs_deal:
                await self.referee.deal_next(table)
            await self.turns.start_turn(table)
            return table.info()

    # -- at a quick-match table -------------------------------------------------------------------
    async def report_player(self, table_id: int, user_id: int, seat: int) -> bool:
        """``user_id`` (seated at this quick-match table) reports the player of ``seat``; stored with the
        table's record. False if they had reported that player already."""
        if isinstance(seat, bool) or seat not in range(4):
            raise BadOption("Seats are numbered 0 to 3.")
        table = self._by_id(table_id)
        if not is_quick(table.channel_id):
            raise NotAllowed("Reports are for quick-match tables.", code=ErrorCode.QUICK_ONLY)
        table.seated(user_id)
        target = table.seats[seat]
        if target is None or target.is_bot or target.user_id is None or target.user_id == user_id:
            raise BadOption("Report a person at this table other than yourself.")
        return await self.storage.add_quick_report(table.id, user_id, target.user_id)

