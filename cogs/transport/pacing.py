"""Bot-token requests paced under Discord's global rate limit (the REST budget).

Discord allows a bot 50 requests per second with its bot token, all of its
processes together; interaction callbacks, followups and edits through an
interaction token are not counted. Left to discord.py alone, a burst (many
tables starting at once, a wave of DMs) is sent at full speed, Discord
answers 429 with ``global: true``, every waiting request retries at the same
moment and, after five tries, fails: a private view or a table message is
then lost until the next change.

:class:`Pacer` keeps this process's bot-token requests to its share of the
limit in every sliding second (FIFO, by reservation), so the 429 never comes:
a burst waits its turn instead. A process holding ``k`` of ``n`` shards takes
``k/n`` of the limit (each process's share follows its shards), less
a safety margin for clock and network jitter. The requests are held back
where aiohttp lets a program see them, a trace (:func:`pacing_trace`, given to
discord.py as ``http_trace``), so every bot-token request of discord.py is
paced, its own included, without replacing anything of discord.py.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import contextvars
import heapq
import itertools
import math
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Final

import aiohttp
import discord

GLOBAL_LIMIT: Final = 50
"""Discord's global limit: bot-token requests per second, per bot (all processes)."""
MARGIN: Final = 0.9
"""The share of the limit actually used: requests leave and arrive with some jitter."""


def share(shard_ids: tuple[int, ...], shard_count: int | None) -> int:
    """Requests per second this process may make: its shards' share of :data:`GLOBAL_LIMIT`, at least 1."""
    fraction = 1.0 if shard_count is None else len(shard_ids) / shard_count
    return max(1, math.floor(GLOBAL_LIMIT * MARGIN * fraction))


URGENT: Final = 0
"""A private view a player needs to act (their hand, their turn): goes before the rest."""
NORMAL: Final = 1
"""Everything else: the table message, notices, pings."""
PRIORITY: contextvars.ContextVar[int] = contextvars.ContextVar("baloot_request_priority", default=NORMAL)
"""The priority of the bot-token requests made in this context (:func:`urgent` sets it)."""


@contextlib.contextmanager
def urgent() -> Iterator[None]:
    """Requests made inside go before :data:`NORMAL` ones when the pace holds requests back."""
    token = PRIORITY.set(URGENT)
    try:
        yield
    finally:
        PRIORITY.reset(token)


class Pacer:
    """At most ``per_window`` requests reach Discord in any ``window`` seconds; waiters by priority, then arrival.

    When exactly a request reaches Discord is not known here: after it is let go it may still wait in
    discord.py's route buckets or aiohttp's connection pool and then leave with others. So a request
    holds its slot from the moment it is let go (:meth:`wait`) until ``window`` seconds after it is
    answered (:meth:`done`): whatever arrives within one window was let go while all the others of that
    window still held theirs, so no window can see more than ``per_window``.
    """

    def __init__(self, per_window: int, window: float = 1.0, clock: Callable[[], float] | None = None) -> None:
        if per_window < 1 or window <= 0:
            raise ValueError("a pacer needs per_window >= 1 and window > 0")
        self.per_window = per_window
        self.window = window
        self._clock = clock
        self._inflight = 0
        self._answered: collections.deque[float] = collections.deque()  # answer times within the last window
        self._freed = asyncio.Event()
        self._queue: list[tuple[int, int, asyncio.Future[None]]] = []  # a heap: (priority, arrival, waiter)
        self._arrivals = itertools.count()
        self._runner: asyncio.Task[None] | None = None
        self.waited = 0  # requests that had to wait (a figure for the logs and the benchmark)

    def _now(self) -> float:
        return self._clock() if self._clock is not None else asyncio.get_running_loop().time()

    def delay(self) -> float | None:
        """Seconds until a slot is free (0: now; None: when a request in flight is answered)."""
        now = self._now()
        answered = self._answered
        while answered and answered[0] <= now - self.window:
            answered.popleft()
        if self._inflight + len(answered) < self.per_window:
            return 0.0
        if not answered:
            return None
        return max(0.0, answered[0] + self.window - now)

    def take(self) -> None:
        """Hold a slot for a request let go now (call only when :meth:`delay` is 0)."""
        self._inflight += 1

    def done(self) -> None:
        """The request let go by :meth:`take`/:meth:`wait` was answered (or failed): its slot frees a window later."""
        self._inflight -= 1
        self._answered.append(self._now())
        self._freed.set()

    async def wait(self, priority: int | None = None) -> None:
        """Return when one more request may go (``priority``: default :data:`PRIORITY`'s); call :meth:`done` after."""
        if not self._queue and self.delay() == 0.0:
            self.take()  # the common case: no queue, room in the window
            return
        self.waited += 1
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        rank = PRIORITY.get() if priority is None else priority
        heapq.heappush(self._queue, (rank, next(self._arrivals), waiter))
        if self._runner is None or self._runner.done():
            self._runner = asyncio.create_task(self._run(), name="baloot-pacer")
        await waiter

    async def _run(self) -> None:
        """Let the waiters go one by one as slots free up (a waiter cancelled meanwhile is skipped)."""
        while self._queue:
            delay = self.delay()
            if delay is None:
                self._freed.clear()
                await self._freed.wait()
                continue
            if delay > 0.0:
                await asyncio.sleep(delay)
                continue
            _, _, waiter = heapq.heappop(self._queue)
            if not waiter.done():
                self.take()
                waiter.set_result(None)


def counted(url: str, base: str = discord.http.Route.BASE) -> bool:
    """Whether a request to ``url`` counts in the global limit: one to Discord's API with the bot token,
    not through an interaction's token (``/interactions/...``, ``/webhooks/{app}/{token}...``)."""
    if not url.startswith(base):
        return False
    path = url[len(base):]
    return not path.startswith(("/interactions/", "/webhooks/"))


def pacing_trace(pacer: Pacer, base: str = discord.http.Route.BASE) -> aiohttp.TraceConfig:
    """An ``aiohttp.TraceConfig`` that holds every bot-token request back until ``pacer`` lets it go.

    discord.py gives it to its session (``discord.Client(http_trace=...)``, ``bot.py``): aiohttp awaits
    ``on_request_start`` before it sends a request, and reports its end (answered or failed) to
    ``on_request_end`` / ``on_request_exception``, where the slot's window starts. Interaction-token
    requests (discord.py's or :mod:`.token_http`'s) are not held back: Discord does not count them.
    """
    trace = aiohttp.TraceConfig()

    async def start(session: aiohttp.ClientSession, context: SimpleNamespace,
                    params: aiohttp.TraceRequestStartParams) -> None:
        if counted(str(params.url), base):
            await pacer.wait()
            context.baloot_paced = True

    async def end(session: aiohttp.ClientSession, context: SimpleNamespace, params: object) -> None:
        if getattr(context, "baloot_paced", False):
            context.baloot_paced = False
            pacer.done()

    trace.on_request_start.append(start)
    trace.on_request_end.append(end)
    trace.on_request_exception.append(end)
    return trace
