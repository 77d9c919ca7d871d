"""The gateway websocket: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, dispatches.

Sharding as Discord does it: IDENTIFY's ``shard`` pair ``[shard_id, shard_count]``
(default ``[0, 1]``) picks the guilds a session hears about. A guild's events go
only to the sessions of shard ``(guild_id >> 22) % shard_count``; events without a
guild (DMs: direct messages, interactions in DMs) only to shard 0. A bad pair closes
the connection with 4010 (invalid shard).
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import FakeDiscord

log = logging.getLogger(__name__)

JSON = dict[str, Any]

# Privileged intents: GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT.
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
HEARTBEAT_INTERVAL_MS = 41250
GUILD_EVENTS_BY_ID = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})
"""Events whose ``d.id`` is the guild (the others name it in ``d.guild_id``)."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives a guild's events: ``(guild_id >> 22) % shard_count`` (Discord's formula)."""
    return (guild_id >> 22) % shard_count


def event_guild(event: str, data: JSON) -> int | None:
    """The guild an event belongs to, or None for DMs (which go to shard 0)."""
    raw = data.get("id") if event in GUILD_EVENTS_BY_ID else data.get("guild_id")
    return int(raw) if raw is not None else None


@dataclass
class GatewaySession:
    ws: web.WebSocketResponse
    session_id: str = field(default_factory=lambda: secrets.token_hex(16))
    seq: int = 0
    intents: int = 0
    identified: bool = False
    shard: tuple[int, int] = (0, 1)  # (shard_id, shard_count) from IDENTIFY
    heard: Counter[str] = field(default_factory=Counter)  # dispatches sent, by event name

    def receives(self, guild_id: int | None) -> bool:
        """Whether this session gets the events of ``guild_id`` (None: a DM, shard 0 only)."""
        shard_id, count = self.shard
        return shard_id == 0 if guild_id is None else shard_of(guild_id, count) == shard_id

    async def send(self, payload: JSON) -> None:
        if not self.ws.closed:
            await self.ws.send_str(json.dumps(payload))

    async def dispatch(self, event: str, data: JSON) -> None:
        self.seq += 1
        self.heard[event] += 1
        await self.send({"op": 0, "t": event, "s": self.seq, "d": data})


class Gateway:
    """All live gateway connections of the bot (one per shard of each running bot process)."""

    def __init__(self, server: FakeDiscord) -> None:
        self.server = server
        self.sessions: list[GatewaySession] = []
        self.identifies = 0
        self.identify_log: list[tuple[float, int, int]] = []  # (monotonic time, shard_id, shard_count)

    async def close(self) -> None:
        for session in list(self.sessions):
            await session.ws.close(code=1001)
        self.sessions.clear()

    def sessions_of(self, guild_id: int | None) -> list[GatewaySession]:
        """The identified sessions that receive ``guild_id``'s events (None: DMs)."""
        return [s for s in self.sessions if s.identified and s.receives(guild_id)]

    async def dispatch(self, event: str, data: JSON, *, intent: int | None = None) -> None:
        """Send ``event`` to the sessions of its guild's shard (DMs: shard 0) that asked for ``intent``."""
        guild_id = event_guild(event, data)
        for session in list(self.sessions):
            if not session.identified or not session.receives(guild_id):
                continue
            if intent is not None and not session.intents & intent:
                continue
            await session.dispatch(event, data)

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session = GatewaySession(ws)
        self.sessions.append(session)
        try:
            await session.send({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                await self._on_message(session, json.loads(msg.data))
        finally:
            if session in self.sessions:
                self.sessions.remove(session)
            self.server.notify()
        return ws

    async def _on_message(self, session: GatewaySession, payload: JSON) -> None:
        op = payload.get("op")
        data = payload.get("d")
        if op == 1:
            await session.send({"op": 11})
        elif op == 2:
            await self._identify(session, data or {})
        elif op == 6:
            # No resuming here: an invalid session makes discord.py identify afresh.
            await session.send({"op": 9, "d": False})
        elif op == 8:
            await self._request_members(session, data or {})

    async def _identify(self, session: GatewaySession, data: JSON) -> None:
        server = self.server
        if data.get("token") != server.token:
            await session.ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED_INTENTS & ~server.granted_intents:
            await session.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard = data.get("shard", [0, 1])
        valid = (
            isinstance(shard, list) and len(shard) == 2 and all(type(n) is int for n in shard)
            and shard[1] >= 1 and 0 <= shard[0] < shard[1]
        )
        if not valid:
            await session.ws.close(code=4010, message=b"Invalid shard.")
            return
        session.shard = (shard[0], shard[1])
        session.intents = intents
        session.identified = True
        self.identifies += 1
        self.identify_log.append((time.monotonic(), shard[0], shard[1]))
        guilds = [g for g in server.guilds.values() if session.receives(g.id)]
        await session.dispatch(
            "READY",
            {
                "v": 10,
                "user": server.bot_user.payload(),
                "session_id": session.session_id,
                "resume_gateway_url": server.gateway_url,
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "application": {"id": str(server.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "user_settings": {},
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "shard": list(session.shard),
            },
        )
        for guild in guilds:
            await session.dispatch("GUILD_CREATE", guild.payload())
        server.notify()

    async def _request_members(self, session: GatewaySession, data: JSON) -> None:
        guild = self.server.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        chunk: JSON = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in guild.members.values()],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)
