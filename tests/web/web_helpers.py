"""Shared helpers of the web table's tests: a served table, pages with their own cookies,
frames recorded, the leak check and a local stand-in of Discord's OAuth2 endpoints."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web
from aiohttp.test_utils import TestServer

from baloot.storage import Storage
from baloot.tables import TableService
from baloot.web.oauth import DiscordOAuth, OAuthSettings
from baloot.web.rooms import LOCAL_CHANNEL, LOCAL_GUILD, Room
from baloot.web.server import COOKIE, WebTable

SEEN = web.AppKey("seen", list)  # the stand-in's code exchanges, as received
CARD_CODE = re.compile(r'"([789TJQKA][SHDC])"')


def first_legal_bot(level: str) -> Any:
    """Bots of these tests: the first legal action that is not Kawesh (fast and deterministic)."""
    from baloot.engine.actions import ActionType

    class First:
        def choose(self, view: Any, rng: random.Random) -> Any:
            legal = [a for a in view.legal if a.type is not ActionType.KAWESH] or list(view.legal)
            return legal[0]

    return First()


@asynccontextmanager
async def served(tmp_path: Path, *, people: int = 1, key: str | None = "k" * 22, oauth: OAuthSettings | None = None,
                 root: Path | None = None, **service_args: Any) -> AsyncIterator[tuple[TableService, WebTable,
                                                                                     TestServer]]:
    """A table service on SQLite and its web table on a loopback port."""
    storage = await Storage.open(tmp_path / "web.db", synchronous="NORMAL")
    settings: dict[str, Any] = {"rng_factory": lambda table_id: random.Random(2000 + table_id), "bot_delay": 0.0,
                                "bot_factory": first_legal_bot, "turn_seconds_default": 600.0}
    settings.update(service_args)
    service = TableService(storage, **settings)
    client = aiohttp.ClientSession() if oauth is not None else None
    extra: dict[str, Any] = {} if root is None else {"root": root}
    table = WebTable(service, local=Room(LOCAL_GUILD, LOCAL_CHANNEL, people=people), key=key,
                     oauth=None if oauth is None or client is None else DiscordOAuth(oauth, client), **extra)
    server = TestServer(table.app(), host="127.0.0.1")
    await server.start_server()
    try:
        yield service, table, server
    finally:
        await server.close()
        await service.close()
        if client is not None:
            await client.close()
        await storage.close()


@dataclass
class PageClient:
    """One browser: its own cookie, its socket, every frame it received."""

    session: aiohttp.ClientSession
    ws: aiohttp.ClientWebSocketResponse
    frames: list[dict[str, Any]] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)

    async def receive(self, timeout: float = 5.0) -> dict[str, Any]:
        msg = await self.ws.receive(timeout=timeout)
        if msg.type != aiohttp.WSMsgType.TEXT:
            raise ConnectionError(f"socket closed: {msg.type} {self.ws.close_code} {msg.extra}")
        frame: dict[str, Any] = json.loads(msg.data)
        self.texts.append(msg.data)
        self.frames.append(frame)
        return frame

    async def frame_where(self, check: Any, timeout: float = 10.0) -> dict[str, Any]:
        """The next frame that satisfies ``check``, within ``timeout`` seconds."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            frame = await self.receive(max(0.01, deadline - asyncio.get_running_loop().time()))
            if check(frame):
                return frame

    async def state_where(self, check: Any, timeout: float = 10.0) -> dict[str, Any]:
        """Frames until one satisfies ``check`` (the newest state may already be it)."""
        if self.frames and self.frames[-1].get("type") == "state" and check(self.frames[-1]):
            return self.frames[-1]
        return await self.frame_where(lambda f: f.get("type") == "state" and check(f), timeout)

    async def error_reply(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next error frame, past the states the table broadcast meanwhile (bots keep playing)."""

        def is_error(frame: dict[str, Any]) -> bool:
            assert frame.get("type") in ("state", "error"), frame
            return bool(frame["type"] == "error")

        return await self.frame_where(is_error, timeout)

    async def send(self, obj: dict[str, Any]) -> None:
        await self.ws.send_str(json.dumps(obj))

    async def close(self) -> None:
        await self.ws.close()
        await self.session.close()


async def open_page(server: TestServer, *, cookie: str | None = "auto", query: str = "",
                    headers: dict[str, str] | None = None) -> PageClient:
    """A browser that loads the page (getting its cookie) and opens the socket."""
    session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    if cookie == "auto":
        async with session.get(server.make_url("/")) as response:
            assert response.status in (200, 503)
    elif cookie is not None:
        session.cookie_jar.update_cookies({COOKIE: cookie}, server.make_url("/"))
    ws = await session.ws_connect(server.make_url("/ws" + query), headers=headers)
    return PageClient(session, ws)


def leaked_cards(frame_text: str, own: set[str], frame: dict[str, Any]) -> set[str]:
    """Cards named in a frame that are neither the seat's own, nor played, nor the up card."""
    named = set(CARD_CODE.findall(frame_text))
    allowed = own | set(frame.get("played") or ()) | ({frame["up_card"]["code"]} if frame.get("up_card") else set())
    return named - allowed


def discord_stand_in(client_id: str, secret: str, *, user_id: int, instance: str, guild_id: int, channel_id: int,
                     code: str = "mock_code", members: tuple[int, ...] | None = None) -> web.Application:
    """Discord's three OAuth2 endpoints of the sign-in, as the openapi spec describes them."""
    token = "token-of-" + str(user_id)
    seen: list[dict[str, Any]] = []

    async def oauth_token(request: web.Request) -> web.Response:
        form = dict(await request.post())
        seen.append(form)
        if form.get("client_id") != client_id or form.get("client_secret") != secret:
            return web.json_response({"error": "invalid_client"}, status=401)
        if form.get("grant_type") != "authorization_code" or form.get("code") != code:
            return web.json_response({"error": "invalid_grant"}, status=400)
        return web.json_response({"access_token": token, "token_type": "Bearer", "expires_in": 604800,
                                  "scope": "identify"})

    async def me(request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != f"Bearer {token}":
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return web.json_response({"id": str(user_id), "username": "layla", "global_name": "Layla",
                                  "discriminator": "0", "avatar": None, "locale": "ar"})

    async def activity_instance(request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != "Bot bot-token" or request.match_info["app"] != client_id:
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        if request.match_info["instance"] != instance:
            return web.json_response({"message": "Unknown Activity Instance", "code": 10000}, status=404)
        return web.json_response({
            "application_id": client_id, "instance_id": instance, "launch_id": "1",
            "location": {"id": "gc-1", "kind": "gc", "channel_id": str(channel_id), "guild_id": str(guild_id)},
            "users": [str(u) for u in (members if members is not None else (user_id,))],
        })

    app = web.Application()
    app.router.add_post("/oauth2/token", oauth_token)
    app.router.add_get("/users/@me", me)
    app.router.add_get("/applications/{app}/activity-instances/{instance}", activity_instance)
    app[SEEN] = seen
    return app
