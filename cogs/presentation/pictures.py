"""Table pictures drawn on a thread of their own: a picture never holds up the event loop.

The channel's table message gets a picture at each edit while PICTURE_TABLES
or fewer tables are active. Drawn on the event loop, every press
behind a picture waited for it: at 100 tables the bot answered presses at p99
160-230 ms, against 11 ms with the pictures here (``scripts/bench_tables.py
--tables 100 --hands 1 --think 1.5``). One worker thread draws them, one after
another: Pillow lets go of the GIL while it maps colours and compresses, so on
a machine with two cores most of the drawing runs beside the loop. A picture
that fails to draw is logged and the message goes out as text, as before
(:func:`.payloads.attach_picture`).

A game review's overview picture (``baloot/render/review_picture.py``) is 80-400 ms
of Pillow work, mostly with the GIL held. On the picture thread it took the GIL
from the event loop: every time the loop let go of it (a socket write, a
database reply from aiosqlite's thread) it waited up to the switch interval
(5 ms) to get it back, so a press answered while a review's picture was drawn
took several times longer. It is drawn in a process of its own instead
(:class:`PictureProcess`), at a lower CPU priority than the bot's, started at
the first review asked for and kept.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from baloot.render import Payload
from baloot.render.review_picture import warm_up
from baloot.tables.workers import picture_pool

from ..transport.payloads import attach_picture

T = TypeVar("T")
THREAD_NAME = "baloot-picture"
log = logging.getLogger(__name__)


class PictureWorker:
    """The thread that draws the pictures (started at the first one, shut down with the bot)."""

    def __init__(self) -> None:
        self._pool: ThreadPoolExecutor | None = None

    async def attach(self, payload: Payload, draw: Callable[[], bytes]) -> Payload:
        """``payload`` with the picture ``draw()`` makes on the worker thread (text only if it fails)."""
        return await self.run(attach_picture, payload, draw)

    async def run(self, make: Callable[..., T], *args: Any) -> T:
        """``make(*args)`` on the worker thread."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=THREAD_NAME)
        return await asyncio.get_running_loop().run_in_executor(self._pool, make, *args)

    def close(self) -> None:
        """Stop the thread; pictures not started yet are dropped (shutdown)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


class PictureProcess:
    """The process that draws the game reviews' pictures (see the module): started by :meth:`warm` or
    the first :meth:`run`, kept until :meth:`close`, started again if it dies."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    def _started(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = picture_pool()
            warming = asyncio.get_running_loop().run_in_executor(self._pool, warm_up)
            warming.add_done_callback(_log_failure)
        return self._pool

    def warm(self) -> None:
        """Start the process now (a review is about to be shown), without waiting for it."""
        self._started()

    async def run(self, make: Callable[..., T], *args: Any) -> T:
        """``make(*args)`` in the picture process (its arguments and result pickled); once more in a
        new process if the old one died (killed, out of memory) before it answered."""
        try:
            return await self._run_once(make, args)
        except BrokenProcessPool:
            log.warning("the picture process died; starting a new one")
        return await self._run_once(make, args)

    async def _run_once(self, make: Callable[..., T], args: tuple[Any, ...]) -> T:
        pool = self._started()
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, make, *args)
        except BrokenProcessPool:
            if self._pool is pool:  # the next call starts a new process
                self.close()
            raise

    def close(self) -> None:
        """Stop the process; pictures not started yet are dropped (shutdown)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _log_failure(done: asyncio.Future[None]) -> None:
    error = None if done.cancelled() else done.exception()
    if error is not None and not isinstance(error, BrokenProcessPool):  # a dead process: run() says so
        log.warning("the picture process could not warm up", exc_info=error)
