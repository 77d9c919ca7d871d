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

A game review's overview picture (``baloot/render/review_picture.py``) is drawn
on the same thread (:meth:`PictureWorker.run`): 100-400 ms of Pillow work per
review that, on the loop, held up every press behind it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from baloot.render import Payload

from ..transport.payloads import attach_picture

T = TypeVar("T")
THREAD_NAME = "baloot-picture"


class PictureWorker:
    """The thread that draws the pictures (started at the first one, shut down with the bot)."""

    def __init__(self) -> None:
        self._pool: ThreadPoolExecutor | None = None

    async def attach(self, payload: Payload, draw: Callable[[], bytes]) -> Payload:
        """``payload`` with the picture ``draw()`` makes on the worker thread (text only if it fails)."""
        return await self.run(attach_picture, payload, draw)

    async def run(self, make: Callable[..., T], *args: Any) -> T:
        """``make(*args)`` on the worker thread: a payload whose making draws a picture (a game review's)."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=THREAD_NAME)
        return await asyncio.get_running_loop().run_in_executor(self._pool, make, *args)

    def close(self) -> None:
        """Stop the thread; pictures not started yet are dropped (shutdown)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
