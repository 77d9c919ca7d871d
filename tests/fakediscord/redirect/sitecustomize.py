"""Points an unmodified discord.py bot at the stand-in Discord (test machinery only).

This directory goes first on the bot subprocess's PYTHONPATH; Python imports
``sitecustomize`` at start-up. With ``FAKEDISCORD_URL`` set it:

* sets ``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``;
* reports discord.py's ``ready`` event to ``FAKEDISCORD_URL/_fakediscord/hook``
  so tests can wait for ``on_ready`` without polling or sleeping;
* when ``FAKEDISCORD_GUILD_READY_TIMEOUT`` is set and the bot did not pass
  ``guild_ready_timeout`` itself, uses it instead of discord.py's 2 s wait after
  the last GUILD_CREATE (the same setting a bot can pass to its Client).
"""

from __future__ import annotations

import asyncio
import os
from typing import Any


def _install(url: str) -> None:
    import aiohttp
    import discord
    import discord.gateway
    import discord.http
    import discord.state
    import yarl

    discord.http.Route.BASE = url.rstrip("/") + "/api/v10"
    gateway = os.environ.get("FAKEDISCORD_GATEWAY") or url.replace("http", "ws", 1) + "/gateway"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)

    ready_timeout = os.environ.get("FAKEDISCORD_GUILD_READY_TIMEOUT")
    if ready_timeout:
        original_init = discord.state.ConnectionState.__init__

        def init(self: Any, *args: Any, **options: Any) -> None:
            original_init(self, *args, **options)
            if "guild_ready_timeout" not in options:
                self.guild_ready_timeout = float(ready_timeout)

        discord.state.ConnectionState.__init__ = init  # type: ignore[method-assign]

    original_dispatch = discord.Client.dispatch
    pending: set[asyncio.Task[None]] = set()

    async def report(event: str) -> None:
        try:
            async with aiohttp.ClientSession() as session:
                await session.post(
                    url.rstrip("/") + "/_fakediscord/hook", json={"event": event, "pid": os.getpid()}
                )
        except aiohttp.ClientError:
            pass

    def dispatch(self: discord.Client, event: str, /, *args: Any, **kwargs: Any) -> None:
        original_dispatch(self, event, *args, **kwargs)
        if event in ("ready", "resumed"):
            task = asyncio.get_running_loop().create_task(report(event))
            pending.add(task)
            task.add_done_callback(pending.discard)

    discord.Client.dispatch = dispatch  # type: ignore[method-assign]


_URL = os.environ.get("FAKEDISCORD_URL")
if _URL:
    _install(_URL)
