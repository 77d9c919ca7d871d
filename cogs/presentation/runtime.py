"""The Discord layer's runtime: the shared objects and the table's views built on them.

``bot.py`` builds one :class:`Runtime` in ``setup_hook`` and sets it as ``bot.runtime``;
commands and buttons reach it with :func:`runtime_of`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import discord

from .channel import ChannelBoard
from .pings import TurnPings
from .private import PrivateHands
from .queue import QueueMessages
from .shared import Languages, Shared

__all__ = ["Languages", "Runtime", "maybe_runtime", "runtime_of"]


@dataclass
class Runtime(Shared):
    """The shared objects and the views: the channel's table messages, private hands, turn pings, queue messages."""

    channel: ChannelBoard = field(init=False)
    private: PrivateHands = field(init=False)
    pings: TurnPings = field(init=False)
    queue: QueueMessages = field(init=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.channel = ChannelBoard(self)
        self.private = PrivateHands(self, self.channel)
        self.pings = TurnPings(self)
        self.queue = QueueMessages(self)


def runtime_of(client: discord.Client) -> Runtime:
    """The runtime ``bot.py`` attached to the client."""
    runtime = maybe_runtime(client)
    if runtime is None:
        raise RuntimeError("the Baloot runtime is not set up")
    return runtime


def maybe_runtime(client: discord.Client) -> Runtime | None:
    """The runtime ``bot.py`` attached to the client, or None before it is set up (or in a bare client)."""
    runtime = getattr(client, "runtime", None)
    return runtime if isinstance(runtime, Runtime) else None
