"""The gateway websocket: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, dispatches."""

from __future__ import annotations

import json
import logging
import secrets
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


@dataclass
class GatewaySession:
    ws: web.WebSocketResponse
    session_id: str = field(default_factory=lambda: secrets.token_hex(16))
    seq: int = 0
    intents: int = 0
    identified: bool = False

    async def send(self, payload: JSON) -> None:
        if not self.ws.closed:
            await self.ws.send_str(json.dumps(payload))

    async def dispatch(self, event: str, data: JSON) -> None:
        self.seq += 1
        await self.send({"op": 0, "t": event, "s": self.seq, "d": data})


class Gateway:
    """All live gateway connections of the bot (one per running bot process)."""

    def __init__(self, server: FakeDiscord) -> None:
        self.server = server
        self.sessions: list[GatewaySession] = []
        self.identifies = 0

    async def close(self) -> None:
        for session in list(self.sessions):
            await session.ws.close(code=1001)
        self.sessions.clear()

    async def dispatch(self, event: str, data: JSON, *, intent: int | None = None) -> None:
        for session in list(self.sessions):
            if not session.identified:
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
        session.intents = intents
        session.identified = True
        self.identifies += 1
        guilds = list(server.guilds.values())
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
                "shard": data.get("shard", [0, 1]),
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
