"""The web table's HTTP server: the page, its WebSocket and the Activity's sign-in, on aiohttp.

aiohttp's server is the one discord.py already brings, so the bot serves its
pages from its own process and event loop, beside the gateway, with no second
stack: a page's tap reaches ``TableService.act`` like a button press does.

Routes: ``GET /`` the page (or a plain message when its JavaScript is not built),
``GET /app.js`` (+ its map) and ``/style.css``, ``GET /ws`` the WebSocket
(:mod:`.frames`), ``POST /api/token`` the Activity's code exchange (:mod:`.oauth`;
only when the client secret is set).

Who a socket is: outside Discord, a random id in an HttpOnly cookie (its hash is
the user id, below any Discord snowflake); from a non-loopback address the
table's key (the printed table link) is needed to sit. In an Activity, the
session the sign-in gave. A socket without either only watches (the public view).
"""

from __future__ import annotations

import hashlib
import html
import ipaddress
import logging
import re
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

import orjson
from aiohttp import WSCloseCode, WSMsgType, web

from ..engine.errors import BalootError
from ..i18n import resolve_locale, t
from ..i18n.errors import error_text
from ..storage import StorageUnavailable
from ..tables import TableService
from . import rooms
from .frames import MAX_FRAME, ActFrame, BadFrame, PingFrame, SitFrame, StartFrame, error_frame, parse_client_frame
from .hub import Page, PageHub
from .oauth import DiscordOAuth, OAuthError
from .rooms import Room

log = logging.getLogger("baloot.web")

WEB_ROOT: Final = Path(__file__).resolve().parents[2] / "web"
"""The page's files: ``static/`` (committed) and ``dist/`` (the bundle built at set-up, never committed)."""

COOKIE: Final = "baloot_id"
SESSION_SECONDS: Final = 12 * 3600
# An Activity instance id as the Embedded App SDK gives it, e.g. "i-1276580072400224306-gc-9129…-9129…"
# (letters, digits and dashes; it goes into a Discord API path, so nothing else is accepted)
INSTANCE_ID: Final = re.compile(r"[A-Za-z0-9-]{1,128}")
MAX_SESSIONS: Final = 100_000
WEB_USER_LIMIT: Final = 1 << 40
"""Web users' ids are below this: every Discord snowflake since 2015 is far above it."""

NOT_BUILT: Final = (
    "<!doctype html><meta charset=utf-8><title>Baloot</title><p>The web table's JavaScript is not built yet. "
    "Run <code>bash scripts/build-web.sh</code> (it needs Node.js and npm) and reload this page.</p>"
)
CSP: Final = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: "
              "https://cdn.discordapp.com; connect-src 'self'; frame-ancestors 'self' https://discord.com "
              "https://*.discord.com https://*.discordsays.com; base-uri 'none'; form-action 'none'")


def web_user_id(token: str) -> int:
    """The user id of a browser's cookie token (stable across restarts, so its seat is kept)."""
    return int.from_bytes(hashlib.sha256(token.encode()).digest()[:5], "big") % (WEB_USER_LIMIT - 1) + 1


@dataclass(frozen=True, slots=True)
class Session:
    """A signed-in Activity user in the channel of their instance."""

    user_id: int
    name: str
    locale: str | None
    room: Room
    expires: float


def _is_loopback(remote: str | None) -> bool:
    try:
        return remote is not None and ipaddress.ip_address(remote).is_loopback
    except ValueError:
        return False


class WebTable:
    """The server's state: the service, the local room (``play``), the Activity's sign-in and the pages."""

    def __init__(
        self,
        service: TableService,
        *,
        local: Room | None = None,
        key: str | None = None,
        oauth: DiscordOAuth | None = None,
        public_url: str | None = None,
        root: Path = WEB_ROOT,
    ) -> None:
        self.service = service
        self.local = local
        self.key = key
        self.oauth = oauth
        self.public_url = public_url
        self.root = root
        self.hub = PageHub(service)
        self.sessions: dict[str, Session] = {}
        service.add_listener(self.hub)

    # -- the application ---------------------------------------------------------------------
    def app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024, middlewares=[_headers])
        app.router.add_get("/", self.index)
        app.router.add_get("/app.js", self.bundle)
        app.router.add_get("/app.js.map", self.bundle)
        app.router.add_get("/style.css", self.style)
        app.router.add_get("/ws", self.socket)
        app.router.add_post("/api/token", self.token)
        return app

    def table_link(self, base: str) -> str | None:
        if self.local is None or self.key is None:
            return None
        return f"{base.rstrip('/')}/?key={self.key}"

    async def index(self, request: web.Request) -> web.Response:
        page = self.root / "static" / "index.html"
        if not (self.root / "dist" / "app.js").is_file():
            return web.Response(text=NOT_BUILT, content_type="text/html", status=503)
        client_id = "" if self.oauth is None else self.oauth.settings.client_id
        text = page.read_text(encoding="utf-8").replace("{{CLIENT_ID}}", html.escape(client_id, quote=True))
        response = web.Response(text=text, content_type="text/html")
        if self.local is not None and COOKIE not in request.cookies:
            response.set_cookie(COOKIE, secrets.token_urlsafe(24), max_age=365 * 86400, httponly=True,
                                samesite="Strict")
        return response

    async def bundle(self, request: web.Request) -> web.StreamResponse:
        name = "app.js.map" if request.path.endswith(".map") else "app.js"
        path = self.root / "dist" / name
        if not path.is_file():
            raise web.HTTPNotFound(text="not built: run bash scripts/build-web.sh")
        return web.FileResponse(path, headers={"Content-Type": "text/javascript" if name == "app.js"
                                               else "application/json"})

    async def style(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(self.root / "static" / "style.css", headers={"Content-Type": "text/css"})

    # -- who a socket is ---------------------------------------------------------------------
    def _origin_ok(self, request: web.Request) -> bool:
        """Pages of this server (or of the Activity's Discord proxy) only: no other site may open a
        socket with this browser's cookie (cross-site WebSocket hijacking)."""
        origin = request.headers.get("Origin")
        if origin is None:
            return True  # not a browser
        host = urlsplit(origin).netloc
        if host == request.host:
            return True
        return self.oauth is not None and host == f"{self.oauth.settings.client_id}.discordsays.com"

    def _who(self, request: web.Request) -> tuple[Room | None, int | None, str | None, str | None]:
        """(room, user id or None to watch, name, locale) of a socket request."""
        session_id = request.query.get("session")
        if session_id is not None:
            session = self.sessions.get(session_id)
            if session is None or session.expires < time.time():
                return None, None, None, None
            return session.room, session.user_id, session.name, session.locale
        if self.local is None:
            return None, None, None, None
        token = request.cookies.get(COOKIE)
        allowed = _is_loopback(request.remote) or (
            self.key is not None and secrets.compare_digest(request.query.get("key", ""), self.key))
        return self.local, web_user_id(token) if token and allowed else None, None, None

    # -- the socket ----------------------------------------------------------------------------
    async def socket(self, request: web.Request) -> web.StreamResponse:
        if not self._origin_ok(request):
            raise web.HTTPForbidden(text="this page may not open the table's socket")
        room, user_id, name, user_locale = self._who(request)
        if room is None:
            raise web.HTTPForbidden(text="sign in again: no such session")
        ws = web.WebSocketResponse(max_msg_size=MAX_FRAME, heartbeat=30.0)
        await ws.prepare(request)
        locale = resolve_locale(request.query.get("lang") or user_locale or "en")
        extra: dict[str, Any] = {}
        link = self.table_link(self.public_url or f"{request.scheme}://{request.host}")
        if link is not None and user_id is not None:
            extra["link"] = link
        page = Page(ws.send_str, room.channel_id, user_id, locale, extra)
        self.hub.add(page)
        self.hub.offer(page, self.hub.current(room.channel_id))
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    try:
                        frame = parse_client_frame(msg.data)
                    except BadFrame as exc:
                        await ws.close(code=WSCloseCode.POLICY_VIOLATION, message=str(exc).encode())
                        break
                    await self._handle(ws, page, room, name, frame)
                elif msg.type == WSMsgType.BINARY:
                    await ws.close(code=WSCloseCode.UNSUPPORTED_DATA, message=b"binary frames are not accepted")
                    break
        finally:
            self.hub.remove(page)
        return ws

    async def _handle(self, ws: web.WebSocketResponse, page: Page, room: Room, name: str | None,
                      frame: SitFrame | ActFrame | StartFrame | PingFrame) -> None:
        if isinstance(frame, PingFrame):
            await ws.send_str('{"type":"pong"}')
            return
        user_id = page.user_id
        if user_id is None:
            await ws.send_str(orjson.dumps(error_frame(t("web.not_seated", page.locale))).decode())
            return
        try:
            if isinstance(frame, SitFrame):
                await rooms.sit(self.service, room, user_id, name or frame.name or t("web.guest", page.locale))
            elif isinstance(frame, StartFrame):
                await rooms.start(self.service, room, user_id)
            else:
                table_id = self.service.table_info(room.channel_id).id
                await self.service.act(table_id, user_id, frame.action, frame.version)
        except (BalootError, StorageUnavailable) as exc:  # a refusal: nothing changed
            await ws.send_str(orjson.dumps(error_frame(error_text(exc, page.locale))).decode())

    # -- the Activity's sign-in ---------------------------------------------------------------------
    async def token(self, request: web.Request) -> web.Response:
        """``{code, instance_id}`` → ``{access_token, session}`` once Discord vouched for the user."""
        if self.oauth is None:
            raise web.HTTPNotFound(text="the Activity is not configured (DISCORD_CLIENT_SECRET)")
        if not self._origin_ok(request):
            raise web.HTTPForbidden(text="wrong origin")
        try:
            body = await request.json()
        except ValueError:
            return web.json_response({"error": "the body is not JSON"}, status=400)
        code = body.get("code") if isinstance(body, dict) else None
        instance = body.get("instance_id") if isinstance(body, dict) else None
        if not (isinstance(code, str) and 0 < len(code) <= 256 and isinstance(instance, str)
                and INSTANCE_ID.fullmatch(instance) is not None):
            return web.json_response({"error": "code and instance_id are needed"}, status=400)
        try:
            access_token, user, where = await self.oauth.sign_in(code, instance)
        except OAuthError as exc:
            log.info("Activity sign-in refused: %s", exc)
            return web.json_response({"error": str(exc)}, status=403)
        except (TimeoutError, OSError):
            return web.json_response({"error": "Discord could not be reached"}, status=502)
        self._forget_old_sessions()
        session_id = secrets.token_urlsafe(32)
        self.sessions[session_id] = Session(user.id, user.name, user.locale,
                                            Room(where.guild_id, where.channel_id), time.time() + SESSION_SECONDS)
        return web.json_response({"access_token": access_token, "session": session_id})

    def _forget_old_sessions(self) -> None:
        now = time.time()
        if len(self.sessions) >= MAX_SESSIONS // 2:
            for key in [k for k, s in self.sessions.items() if s.expires < now]:
                del self.sessions[key]
        while len(self.sessions) >= MAX_SESSIONS:
            del self.sessions[next(iter(self.sessions))]


@web.middleware
async def _headers(request: web.Request, handler: Any) -> web.StreamResponse:
    response: web.StreamResponse = await handler(request)
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    return response


async def serve(table: WebTable, host: str, port: int) -> web.AppRunner:
    """Start serving ``table`` on ``host:port`` (no access log: socket URLs carry sessions and keys)."""
    runner = web.AppRunner(table.app(), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    return runner
