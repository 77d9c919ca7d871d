"""Bot players at a table: the protocol the AI package implements, and running it.

A bot sees only its own seat's view (:class:`~baloot.engine.view.SeatView`) and a
random generator. :func:`choose_off_loop` runs ``choose`` in an executor —
a process pool when one is configured, else the default thread pool — so
that a searching bot never blocks the event loop.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Final, Protocol

from ..engine.actions import Action
from ..engine.view import SeatView

BOT_LEVELS: Final = ("easy", "normal", "hard")
BOT_TIME_LIMIT: Final = 5.0
"""Seconds a bot may think before its seat is played safely instead (a hung worker never stalls a table)."""


class BotPlayer(Protocol):
    """Anything that picks a legal action for the seat of ``view``."""

    def choose(self, view: SeatView, rng: random.Random) -> Action: ...


BotFactory = Callable[[str], BotPlayer]
"""Make the bot of a level (one of the service's ``bot_levels``)."""


def _choose(bot: BotPlayer, view: SeatView, seed: int) -> Action:
    """Module level, so that a process pool can pickle the call."""
    return bot.choose(view, random.Random(seed))


async def choose_off_loop(
    bot: BotPlayer, view: SeatView, seed: int, executor: Executor | None, time_limit: float = BOT_TIME_LIMIT
) -> Action:
    """``bot.choose(view, Random(seed))`` in ``executor`` (None: the loop's default thread pool).

    Raises TimeoutError after ``time_limit`` seconds (the caller then plays safe).
    """
    loop = asyncio.get_running_loop()
    return await asyncio.wait_for(loop.run_in_executor(executor, _choose, bot, view, seed), time_limit)
