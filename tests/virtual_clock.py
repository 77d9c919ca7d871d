"""A virtual clock for the table service's ``clock`` and ``sleep``: minutes of turns in milliseconds.

Every ``sleep`` on the clock waits for :meth:`VirtualClock.advance` (or
:meth:`run_until`) to move time past its deadline. Before each step the clock
*settles*: it waits (in real time) until every other task of the loop is
either asleep on this clock or finished, so database writes, bot threads and
lock hand-overs complete before virtual time moves on.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable


class VirtualClock:
    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start
        self._heap: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()
        self._asleep: set[asyncio.Task[object]] = set()

    def time(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._heap, (self.now + seconds, next(self._seq), future))
        task = asyncio.current_task()
        assert task is not None
        self._asleep.add(task)
        try:
            await future
        finally:
            self._asleep.discard(task)

    async def settle(self, timeout: float = 10.0) -> None:
        """Wait until every other task is asleep on this clock (or done), seen three times in a row."""
        loop = asyncio.get_running_loop()
        me = asyncio.current_task()
        give_up = loop.time() + timeout
        quiet = 0
        while quiet < 3:
            await asyncio.sleep(0.001)
            busy = [t for t in asyncio.all_tasks() if t is not me and not t.done() and t not in self._asleep]
            quiet = 0 if busy else quiet + 1
            if loop.time() > give_up:
                raise TimeoutError(f"tasks never settled: {[t.get_name() for t in busy]}")

    def _wake_next(self, until: float) -> bool:
        while self._heap and self._heap[0][0] <= until:
            when, _, future = heapq.heappop(self._heap)
            if future.done():
                continue
            self.now = max(self.now, when)
            future.set_result(None)
            return True
        return False

    async def advance(self, seconds: float) -> None:
        """Move time ``seconds`` on, waking every sleeper on the way in deadline order."""
        end = self.now + seconds
        await self.settle()
        while self._wake_next(end):
            await self.settle()
        self.now = end

    async def run_until(self, done: Callable[[], bool], limit: float) -> float:
        """Move time on until ``done()``; returns the virtual seconds it took (fails past ``limit``)."""
        start = self.now
        await self.settle()
        while not done():
            if not self._wake_next(start + limit):
                raise AssertionError(f"not done within {limit} s of virtual time")
            await self.settle()
        return self.now - start
