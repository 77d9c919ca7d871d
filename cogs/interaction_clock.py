"""How long ago Discord created an interaction, as this machine's clock can tell.

Discord refuses an interaction's first response after 3 s counted from when it
created the interaction, not from when the bot began its work. A press can wait
before its work starts: in the gateway's socket while the event loop is busy (a
hundred tables starting at once), or behind a command's earlier step. So
:func:`~cogs.replies.in_time` defers by the interaction's age, not by the time
its own work has taken.

The age comes from the interaction's id (a snowflake holds its creation time in
milliseconds: ``interaction.created_at``, discord.py's public property) and this
machine's clock, which may differ from Discord's by seconds. The smallest age
seen lately (the interactions that reached the bot fastest) is taken as that
difference plus the quickest delivery, and is taken off every age. A clock ahead
of Discord's then does not make every interaction look late (each would be
deferred at once: one more request and a "thinking" state for every press), and
one behind it does not hide a late one. The smallest is kept over two windows of
:data:`WINDOW` seconds, so that a change of the clock is followed within
``2 * WINDOW``, while a burst of late interactions shorter than that does not
become the new normal.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from datetime import datetime
from typing import Final, Protocol

WINDOW: Final = 300.0
"""Seconds each of the two windows of the smallest age covers."""


class Created(Protocol):
    """What an age is read from: a ``discord.Interaction`` (its id's timestamp)."""

    @property
    def created_at(self) -> datetime: ...


class InteractionClock:
    """Ages of interactions, corrected for the difference between this clock and Discord's (see the module)."""

    def __init__(self, wall: Callable[[], float] = time.time, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._wall = wall
        self._monotonic = monotonic
        self._current = math.inf  # the smallest raw age of this window
        self._previous = math.inf  # ... and of the window before it
        self._window_start = monotonic()

    def age(self, interaction: Created) -> float:
        """Seconds since Discord created ``interaction``, at least 0 (the fastest delivery seen lately counts as 0)."""
        raw = self._wall() - interaction.created_at.timestamp()
        now = self._monotonic()
        if now - self._window_start >= WINDOW:
            self._previous, self._current, self._window_start = self._current, math.inf, now
        if raw < self._current:
            self._current = raw
        return max(0.0, raw - min(self._current, self._previous))

    def time_left(self, interaction: Created, limit: float) -> float:
        """Seconds until ``interaction`` is ``limit`` seconds old (0 if it already is)."""
        return max(0.0, limit - self.age(interaction))


CLOCK: Final = InteractionClock()
"""The bot process's clock of interaction ages (one per process: its difference from Discord's is one)."""
