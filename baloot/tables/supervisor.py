"""Background tasks that survive: a supervisor that restarts any task that ends.

:func:`supervise` runs a long-lived coroutine (the sweep of tables, a
clean-up loop) and starts it again, after ``restart_after`` seconds, whenever
it returns or raises — logged, never silent. Only cancelling the supervised
task (shutdown) stops it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("baloot.tables")


def supervise(
    name: str,
    run: Callable[[], Awaitable[None]],
    *,
    restart_after: float = 1.0,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> asyncio.Task[None]:
    """A task that runs ``run()`` forever, restarting it when it ends; cancel the task to stop it."""

    async def keep_running() -> None:
        restarts = 0
        while True:
            try:
                await run()
                log.error("background task %s ended; restart %d in %.1f s", name, restarts + 1, restart_after)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("background task %s failed; restart %d in %.1f s", name, restarts + 1, restart_after)
            restarts += 1
            await sleep(restart_after)

    return asyncio.create_task(keep_running(), name=f"baloot-supervised-{name}")
