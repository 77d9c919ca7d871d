"""Bot-token requests paced under Discord's global rate limit (issue 11: the REST budget).

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
``k/n`` of the limit (issue 11: each process's share follows its shards), less
a safety margin for clock and network jitter.
"""

from __future__ import annotations

import asyncio
import collections
import math
from collections.abc import Callable, Coroutine
from typing import Any, Final

import discord

GLOBAL_LIMIT: Final = 50
"""Discord's global limit: bot-token requests per second, per bot (all processes)."""
MARGIN: Final = 0.9
"""The share of the limit actually used: requests leave and arrive with some jitter."""


def share(shard_ids: tuple[int, ...], shard_count: int | None) -> int:
    """Requests per second this process may make: its shards' share of :data:`GLOBAL_LIMIT`, at least 1."""
    fraction = 1.0 if shard_count is None else len(shard_ids) / shard_count
    return max(1, math.floor(GLOBAL_LIMIT * MARGIN * fraction))


class Pacer:
    """At most ``per_window`` releases in any ``window`` seconds, in the order :meth:`wait` was called.

    A release is recorded when it happens, after any wait: on a busy event loop sleepers wake late
    and together, and recording the planned time instead would let them through in a bunch.
    """

    def __init__(self, per_window: int, window: float = 1.0, clock: Callable[[], float] | None = None) -> None:
        if per_window < 1 or window <= 0:
            raise ValueError("a pacer needs per_window >= 1 and window > 0")
        self.per_window = per_window
        self.window = window
        self._clock = clock
        self._released: collections.deque[float] = collections.deque(maxlen=per_window)
        self._turn = asyncio.Lock()  # FIFO: waiters go in the order they came
        self.waited = 0  # requests that had to wait (a figure for the logs and the benchmark)

    def _now(self) -> float:
        return self._clock() if self._clock is not None else asyncio.get_running_loop().time()

    def delay(self) -> float:
        """Seconds until one more release fits in the window (0: now)."""
        if len(self._released) < self.per_window:
            return 0.0
        return max(0.0, self._released[0] + self.window - self._now())

    def release(self) -> None:
        """Record a release now (call only when :meth:`delay` is 0)."""
        self._released.append(self._now())

    async def wait(self) -> None:
        if not self._turn.locked() and self.delay() == 0.0:
            self.release()  # the common case: no queue, room in the window
            return
        self.waited += 1
        async with self._turn:
            while (delay := self.delay()) > 0.0:
                await asyncio.sleep(delay)
            self.release()


Request = Callable[..., Coroutine[Any, Any, Any]]


def install_pacer(client: discord.Client, pacer: Pacer) -> Pacer:
    """Route every bot-token request of ``client`` (``client.http.request``) through ``pacer``.

    Interaction responses go through discord.py's webhook adapter, not this
    method, so they are never held back (Discord does not count them either).
    """
    http = client.http
    request: Request = http.request

    async def paced(route: Any, **kwargs: Any) -> Any:
        await pacer.wait()
        return await request(route, **kwargs)

    setattr(http, "request", paced)  # noqa: B010 - an instance attribute shadows the method
    return pacer
