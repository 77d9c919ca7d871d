"""Turns: timers, reminders, auto-play and bots.

For each turn the runner starts one task (a person's turn on the real clock:
a loop timer, :class:`WaitingTurn`, that starts it only if the turn is still
waiting when its reminder or deadline comes). A person's turn has the table's
turn time, a :class:`TurnReminder` when ``reminder_seconds`` remain, and at
the deadline the seat is played with the safe policy (:mod:`.autoplay`); after
``away_after`` timeouts in a row the player is marked away. A seat that is
played for — a bot, a player away, a player who left — is played after
``bot_delay``: by a bot from the factory when there is one (off the event
loop), else by the safe policy. Every task re-checks the table's version
under the lock before acting, so a turn that was answered meanwhile is left
alone.

Turns heal themselves: a bot move, a timeout or a deal that
storage refuses (:class:`~baloot.storage.StorageUnavailable`) is tried again
with backoff (:attr:`TurnSettings.retry_most` at most between tries) until it
is stored or the table stops playing; the service's sweep re-arms any playing
table left without a live turn task. ``clock`` and ``sleep`` are injectable,
so that tests run turns on a virtual clock.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor

from ..ai.autoplay import SafeBot, safe_action
from ..engine.actions import Action
from ..storage import Storage, StorageUnavailable
from ..storage.rows import TableStatus
from .bots import BotFactory, BotPlayer, choose_off_loop
from .events import PlayerAway, PlayerBack, TurnReminder, TurnStarted, TurnTimedOut
from .info import SeatInfo, Version
from .listeners import Announcer
from .live import LiveTable, seat_row
from .referee import Referee
from .waiting import WaitingTurn

log = logging.getLogger("baloot.tables")


@dataclasses.dataclass(frozen=True, slots=True)
class TurnSettings:
    """How turns run; ``bot_delay`` is also the pause before an away or absent seat is played."""

    reminder_seconds: float = 15.0
    away_after: int = 2
    bot_delay: float = 1.0
    takeover_level: str = "normal"
    retry_first: float = 0.5
    retry_most: float = 5.0
    """Backoff between tries to store a turn: doubling from ``retry_first`` up to ``retry_most``.

    ``retry_most`` (at most 30 s) bounds how long after a fault clears a table waits to play on.
    """

    def __post_init__(self) -> None:
        if not 0 < self.retry_first <= self.retry_most <= 30.0:
            raise ValueError("need 0 < retry_first <= retry_most <= 30 seconds")


class TurnRunner:
    """Starts, times and plays turns for the table service."""

    def __init__(
        self,
        referee: Referee,
        storage: Storage,
        announcer: Announcer,
        settings: TurnSettings,
        *,
        bot_factory: BotFactory | None,
        bot_executor: Executor | None,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.referee = referee
        self.storage = storage
        self.announcer = announcer
        self.settings = settings
        self.bot_factory = bot_factory
        self.bot_executor = bot_executor
        self.clock = clock
        self.sleep = sleep
        self._bots: dict[str, BotPlayer] = {}

    # -- starting and stopping -------------------------------------------------------
    async def start_turn(self, table: LiveTable) -> None:
        """Under the lock: announce whose turn it is and start its timer (or its bot).

        A playing table whose next hand (or first deal) is not stored yet gets
        a task that deals it, retrying until storage takes it.
        """
        self.cancel(table)
        if table.status == TableStatus.PLAYING and (table.match is None or table.match.needs_deal):
            table.deadline = None
            table.turn_task = asyncio.create_task(self._deal(table), name=f"baloot-deal-{table.id}")
            return
        seat = table.to_move
        version = table.version
        if seat is None or version is None:
            table.deadline = None
            return
        info = table.seats[seat]
        played_for = info is None or info.played_for
        delay = self.settings.bot_delay if played_for else table.turn_seconds
        table.deadline = self.clock() + delay
        await self.announcer.emit(
            table,
            TurnStarted(
                table_id=table.id,
                channel_id=table.channel_id,
                seat=seat,
                user_id=info.user_id if info else None,
                deadline=table.deadline,
                version=version,
                played_for=played_for,
            )
        )
        name = f"baloot-turn-{table.id}-{version}"
        if not played_for and self.sleep is asyncio.sleep:  # the real clock: no task until the first timer
            first, reminds = self._first_wait(table)
            table.turn_task = WaitingTurn(first, lambda: asyncio.create_task(
                self._run(table, seat, version, played_for, waited=reminds), name=name))
            return
        table.turn_task = asyncio.create_task(self._run(table, seat, version, played_for), name=name)

    @staticmethod
    def cancel(table: LiveTable) -> None:
        """Stop the table's turn task (never the task calling this)."""
        task = table.turn_task
        table.turn_task = None
        if isinstance(task, WaitingTurn):
            task.stop(asyncio.current_task())
        elif task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()

    @staticmethod
    def needs_turn(table: LiveTable) -> bool:
        """A playing table with a seat to act or a hand to deal, and no live task doing it."""
        if table.status != TableStatus.PLAYING:
            return False
        if table.to_move is None and table.match is not None and not table.match.needs_deal:
            return False
        task = table.turn_task
        return task is None or task.done()

    async def _run(self, table: LiveTable, seat: int, version: Version, played_for: bool,
                   waited: bool | None = None) -> None:
        """Play the seat after its delay, or time a person's turn out; ``waited``: started by a
        :class:`WaitingTurn` whose timer was the turn's first wait (True: the reminder is due now)."""
        try:
            if played_for:
                await self.sleep(self.settings.bot_delay)
                what, attempt = f"the move of seat {seat}", self._play_for
            else:
                if waited is None:
                    first, reminds = self._first_wait(table)
                    await self.sleep(first)
                else:
                    reminds = waited
                if reminds:
                    await self._remind(table, seat, version)
                what, attempt = f"the timeout of seat {seat}", self._time_out
            await self._until_stored(table, what, lambda: attempt(table, seat, version))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("turn of seat %s at table %s failed; the sweep starts it again", seat, table.id)

    async def _until_stored(self, table: LiveTable, what: str, attempt: Callable[[], Awaitable[None]]) -> None:
        """Run ``attempt`` until storage takes it: backoff from ``retry_first`` to ``retry_most`` s.

        Each attempt re-checks the table under its lock, so one that was
        overtaken (a press, the table ending) does nothing.
        """
        delay = self.settings.retry_first
        tries = 0
        while True:
            try:
                await attempt()
            except StorageUnavailable as exc:
                if table.status != TableStatus.PLAYING:
                    return
                tries += 1
                log.warning("table %s: %s could not be stored (%s); try %d again in %.1f s",
                            table.id, what, exc, tries + 1, delay)
                await self.sleep(delay)
                delay = min(delay * 2, self.settings.retry_most)
                continue
            if tries:
                log.info("table %s: %s stored after %d tries", table.id, what, tries + 1)
            return

    async def _deal(self, table: LiveTable) -> None:
        """Deal the first or next hand (R1, R2) of a playing table whose deck is not stored yet."""

        async def attempt() -> None:
            async with table.lock:
                if table.status != TableStatus.PLAYING:
                    return
                if table.match is None:
                    await self.referee.start_match(table)
                elif table.match.needs_deal:
                    await self.referee.deal_next(table)
                else:
                    return
                await self.start_turn(table)

        try:
            await self._until_stored(table, "the next hand", attempt)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("dealing at table %s failed; the sweep starts it again", table.id)

    @staticmethod
    def _current(table: LiveTable, version: Version) -> bool:
        return table.status == TableStatus.PLAYING and table.version == version

    # -- a person's turn ------------------------------------------------------------------
    def _first_wait(self, table: LiveTable) -> tuple[float, bool]:
        """Seconds until a person's turn first needs attention, and whether that is its reminder
        (``reminder_seconds`` before the deadline) rather than the deadline itself."""
        total = table.turn_seconds
        remind = self.settings.reminder_seconds
        return (total - remind, True) if 0 < remind < total else (total, False)

    async def _remind(self, table: LiveTable, seat: int, version: Version) -> None:
        """Announce the reminder (if the turn is still this one), then wait out the rest of the turn."""
        async with table.lock:
            if not self._current(table, version):
                return
            info = table.seats[seat]
            await self.announcer.emit(
                table,
                TurnReminder(
                    table_id=table.id,
                    channel_id=table.channel_id,
                    seat=seat,
                    user_id=info.user_id if info else None,
                    deadline=table.deadline or self.clock(),
                    version=version,
                )
            )
        await self.sleep(self.settings.reminder_seconds)

    async def _time_out(self, table: LiveTable, seat: int, version: Version) -> None:
        """At the deadline: play the seat safely (R: safe policy), count the timeout, maybe mark away."""
        async with table.lock:
            if not self._current(table, version):
                return
            view = table.view_of(seat)
            assert view is not None
            action = safe_action(view.legal, view.trump)
            table.timeouts[seat] += 1
            count = table.timeouts[seat]
            info = table.seats[seat]
            timed_out = TurnTimedOut(
                table_id=table.id,
                channel_id=table.channel_id,
                seat=seat,
                user_id=info.user_id if info else None,
                action=action,
                timeouts=count,
            )
            try:
                await self.referee.apply(
                    table, action, by_user_id=None, auto=True, by_bot=False, preface=(timed_out,)
                )
            except BaseException:
                table.timeouts[seat] -= 1
                raise
            if count >= self.settings.away_after:
                await self.set_away_after_commit(table, seat, True)
            await self.start_turn(table)

    async def set_away(self, table: LiveTable, seat: int, away: bool) -> None:
        """Under the lock: store and announce a player going away or coming back."""
        info = table.seats[seat]
        if info is None or info.away == away:
            return
        new = dataclasses.replace(info, away=away)
        await self.storage.put_seats([seat_row(table.id, new)], fence=table.fence)
        table.seats[seat] = new
        table.timeouts[seat] = 0
        event = PlayerAway if away else PlayerBack
        await self.announcer.emit(
            table,
            event(table_id=table.id, channel_id=table.channel_id, seat=seat, user_id=info.user_id)
        )

    async def set_away_after_commit(self, table: LiveTable, seat: int, away: bool) -> None:
        """:meth:`set_away` after an action was committed: a storage fault here must not undo that action.

        The seat keeps its stored (and shown) state; the next timeout or press tries again.
        """
        try:
            await self.set_away(table, seat, away)
        except StorageUnavailable as exc:
            log.warning("table %s: seat %s could not be marked %s (%s)", table.id, seat,
                        "away" if away else "back", exc)

    # -- a seat played for (bot, away, left) ------------------------------------------------------
    def bot_for(self, info: SeatInfo | None) -> BotPlayer | None:
        """The bot that plays this seat, or None when the safe policy does."""
        if self.bot_factory is None:
            return None
        level = (info.bot_level if info is not None and info.is_bot else None) or self.settings.takeover_level
        bot = self._bots.get(level)
        if bot is None:
            bot = self._bots[level] = self.bot_factory(level)
        return bot

    async def _play_for(self, table: LiveTable, seat: int, version: Version) -> None:
        async with table.lock:
            if not self._current(table, version):
                return
            view = table.view_of(seat)
            info = table.seats[seat]
            seed = table.bot_rng.getrandbits(63)
        assert view is not None
        bot = self.bot_for(info)
        action: Action | None = None
        if bot is not None:
            try:
                action = await choose_off_loop(bot, view, seed, self.bot_executor)
            except Exception:
                log.exception("bot for seat %s at table %s failed; playing safe", seat, table.id)
            if action is not None and action not in view.legal:
                log.warning("bot at table %s chose illegal %s; playing safe", table.id, action)
                action = None
        if action is None:
            action = SafeBot().choose(view, table.bot_rng)
        async with table.lock:
            if not self._current(table, version):
                return
            auto = info is None or not info.is_bot
            await self.referee.apply(table, action, by_user_id=None, auto=auto, by_bot=bot is not None)
            await self.start_turn(table)
