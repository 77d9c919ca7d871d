"""A small HTTP/1.1 keep-alive client for the bot's requests to Discord (bot CPU per press).

Every press is answered by a callback, and every turn change edits each
waiting player's view through their interaction token: about
3.5 requests per interaction, each one costing aiohttp's general-purpose
client about three times the CPU of sending it (``scripts/bench_tables.py``).
:class:`LeanSession` stands in for the ``aiohttp.ClientSession`` that
discord.py's webhook adapter (``discord.webhook.async_``) is given: the adapter
keeps its per-token locks, its 429 and 5xx retries and its
``discord.HTTPException``s; this class only moves bytes. discord.py's
``HTTPClient`` (the bot-token requests: table messages, DMs, about 0.4 per
interaction at aiohttp's cost) is given it too (:class:`cogs.transport.wire.BotTokenSession`),
with its buckets and global limit around each request; the User-Agent it names
is this session's own.

What it does itself: a JSON (or empty) body to Discord's own origin
(``discord.http.Route.BASE``), with simple query parameters (the callback's
``with_response``), over a pool of kept-alive connections (TLS for
``https``), with ``Content-Length`` or chunked answers, gzip or deflate
bodies, a connection closed by the server answered by one retry on a fresh
connection when nothing was received, and a time limit per request.
Everything else - a multipart body (a picture), a proxy, another origin, a
header or path it would have to escape - goes to discord.py's
own aiohttp session unchanged. ``HTTP_CLIENT=aiohttp`` turns it off.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
import time
import zlib
from collections import deque
from types import TracebackType
from typing import Any, Final
from urllib.parse import urlencode, urlsplit

import aiohttp
from multidict import CIMultiDict, CIMultiDictProxy

log = logging.getLogger("baloot.discord")

REQUEST_TIMEOUT: Final = 60.0
"""Seconds one request may take, connecting included (aiohttp's would be discord.py's 5 minutes)."""
IDLE_SECONDS: Final = 30.0
"""An idle connection older than this is closed rather than reused (servers drop idle ones)."""
MAX_CONNECTIONS: Final = 100
"""Requests in flight at once (aiohttp's connector limit); more wait for a free connection."""
MAX_HEAD: Final = 64 * 1024
"""Bytes of status line and headers accepted in an answer."""
_SAFE_TARGET: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/%@:!$&'()*+,;=?")


class Response:
    """An answer read whole: what the webhook adapter and ``discord.HTTPException`` read of aiohttp's."""

    __slots__ = ("_body", "headers", "method", "reason", "status", "url")

    def __init__(self, method: str, url: str, status: int, reason: str, headers: CIMultiDict[str], body: bytes) -> None:
        self.method = method
        self.url = url
        self.status = status
        self.reason = reason
        self.headers = CIMultiDictProxy(headers)
        self._body = body

    async def read(self) -> bytes:
        return self._body

    async def text(self, encoding: str | None = None, errors: str = "strict") -> str:
        return self._body.decode(encoding or "utf-8", errors)

    def __repr__(self) -> str:
        return f"<Response [{self.status} {self.reason}] {self.method} {self.url}>"


class _Connection:
    __slots__ = ("idle_since", "reader", "writer")

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.idle_since = 0.0

    def close(self) -> None:
        self.writer.close()


class _Deadline:
    """A request's time limit: its task is cancelled once the limit has passed (``asyncio.timeout``'s
    rule). The session's one watchdog timer checks every request in flight (:meth:`LeanSession._sweep`),
    instead of a timer started and cancelled per request."""

    __slots__ = ("at", "cancelling", "fired", "task")

    def __init__(self, task: asyncio.Task[Any], at: float) -> None:
        self.task = task
        self.at = at
        self.cancelling = task.cancelling()
        self.fired = False

    def expire(self) -> None:
        self.fired = True
        self.task.cancel()

    def expired(self) -> bool:
        """Whether the limit cancelled the task, and no one else did too: call once, as the request
        ends with an exception. Its cancellation is then taken back, as ``asyncio.timeout`` does (a
        cancellation from outside stays a cancellation)."""
        return self.fired and self.task.uncancel() <= self.cancelling


class _Incomplete(Exception):
    """The connection ended before an answer began (a kept-alive one the server had closed)."""


class LeanSession:
    """``session.request(...)`` for one origin, in the shape discord.py's webhook adapter uses.

    ``fallback`` is discord.py's own session, used for every request this class
    does not make itself (see the module's docstring).
    """

    def __init__(self, fallback: aiohttp.ClientSession, base_url: str, user_agent: str, *,
                 timeout: float = REQUEST_TIMEOUT, limit: int = MAX_CONNECTIONS,
                 ssl_context: ssl.SSLContext | None = None) -> None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) URL: {base_url!r}")
        self.fallback = fallback
        self.host = parts.hostname
        self.port = parts.port or (443 if parts.scheme == "https" else 80)
        default_port = (parts.scheme == "https" and self.port == 443) or (parts.scheme == "http" and self.port == 80)
        self.origin = f"{parts.scheme}://{parts.netloc}"
        host_header = parts.netloc if not default_port else self.host
        self.user_agent = user_agent
        self._fixed = f"Host: {host_header}\r\nUser-Agent: {user_agent}\r\nAccept-Encoding: identity\r\n"
        self.timeout = timeout
        self._ssl: ssl.SSLContext | None = None
        if parts.scheme == "https":  # the system's certificates, as aiohttp uses them
            self._ssl = ssl_context or ssl.create_default_context()
        self._idle: deque[_Connection] = deque()
        self._slots = asyncio.Semaphore(limit)
        self._inflight: set[_Deadline] = set()  # the requests under way, with their time limits
        self._watchdog: asyncio.TimerHandle | None = None
        self._sweep_every = min(1.0, timeout / 4)  # a request ends at most this much past its limit
        self.closed = False
        self.sent = 0  # requests made here (not through the fallback)
        self.fell_back = 0
        self.opened = 0  # connections opened
        self.most_idle = 0  # the most connections kept idle at once

    # -- the aiohttp shape -------------------------------------------------------------------
    def request(self, method: str, url: str, *, data: Any = None, headers: dict[str, str] | None = None,
                params: Any = None, proxy: Any = None, proxy_auth: Any = None, **kwargs: Any) -> Any:
        """An async context manager giving the answer, like ``aiohttp.ClientSession.request``."""
        target = self.target_of(url) if not (proxy or proxy_auth or kwargs) else None
        if target is not None and params:
            query = _query(params)
            target = None if query is None else f"{target}{'&' if '?' in target else '?'}{query}"
        body = _body(data)
        own = headers
        if own and own.get("User-Agent") == self.user_agent:  # discord.py's bot-token requests: this session's
            own = {name: value for name, value in own.items() if name != "User-Agent"}
        if target is None or body is None or self.closed or not _plain_headers(own):
            self.fell_back += 1
            return self.fallback.request(method, url, data=data, headers=headers, params=params, proxy=proxy,
                                         proxy_auth=proxy_auth, **kwargs)
        return _Call(self, method, url, target, body, own or {})

    def target_of(self, url: str) -> str | None:
        """The request target of ``url`` on this origin, or None (another origin, or characters to escape)."""
        if not url.startswith(self.origin):
            return None
        target = url[len(self.origin):]
        if not target.startswith("/") or not _SAFE_TARGET.issuperset(target):
            return None
        return target

    # -- time limits -----------------------------------------------------------------------------
    def _watch(self) -> _Deadline:
        """The current request's time limit, watched until it ends."""
        loop = asyncio.get_running_loop()
        task = asyncio.current_task(loop)
        assert task is not None
        deadline = _Deadline(task, loop.time() + self.timeout)
        self._inflight.add(deadline)
        if self._watchdog is None:
            self._watchdog = loop.call_later(self._sweep_every, self._sweep)
        return deadline

    def _sweep(self) -> None:
        """Cancel the requests past their limit; look again while any is in flight."""
        self._watchdog = None
        if not self._inflight:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        for deadline in [d for d in self._inflight if d.at <= now and not d.fired]:
            deadline.expire()
        self._watchdog = loop.call_later(self._sweep_every, self._sweep)

    # -- connections -----------------------------------------------------------------------------
    async def _connect(self) -> _Connection:
        try:
            reader, writer = await asyncio.open_connection(
                self.host, self.port, ssl=self._ssl, server_hostname=self.host if self._ssl else None,
                limit=MAX_HEAD)
        except OSError as exc:
            raise aiohttp.ClientOSError(exc.errno, f"Cannot connect to {self.origin}: {exc}") from exc
        self.opened += 1
        return _Connection(reader, writer)

    def _take_idle(self) -> _Connection | None:
        now = time.monotonic()
        while self._idle:
            conn = self._idle.pop()
            if now - conn.idle_since < IDLE_SECONDS and not conn.writer.is_closing() and not conn.reader.at_eof():
                return conn
            conn.close()
        return None

    def _release(self, conn: _Connection) -> None:
        if self.closed:
            conn.close()
            return
        conn.idle_since = time.monotonic()
        self._idle.append(conn)
        self.most_idle = max(self.most_idle, len(self._idle))

    async def close(self) -> None:
        """Close the idle connections; later requests go to the fallback."""
        if not self.closed:
            log.info("lean HTTP client: %d requests (%d through aiohttp), %d connections opened, at most %d idle",
                     self.sent, self.fell_back, self.opened, self.most_idle)
        self.closed = True
        while self._idle:
            self._idle.pop().close()

    # -- one exchange ------------------------------------------------------------------------------
    async def send(self, method: str, url: str, target: str, body: bytes, headers: dict[str, str]) -> Response:
        head = [f"{method} {target} HTTP/1.1\r\n", self._fixed]
        head += [f"{name}: {value}\r\n" for name, value in headers.items()]
        if body or method not in ("GET", "HEAD", "DELETE"):
            head.append(f"Content-Length: {len(body)}\r\n")
        head.append("\r\n")
        request = "".join(head).encode("latin-1") + body
        async with self._slots:
            self.sent += 1
            deadline = self._watch()
            try:
                conn = self._take_idle()
                if conn is not None:
                    try:
                        return await self._exchange(conn, method, url, request)
                    except _Incomplete:
                        pass  # the server had closed that kept-alive connection: once more on a new one
                try:
                    return await self._exchange(await self._connect(), method, url, request)
                except _Incomplete as exc:
                    raise aiohttp.ServerDisconnectedError(f"{self.origin} closed the connection") from exc
            except BaseException as exc:
                if deadline.expired() and isinstance(exc, asyncio.CancelledError):
                    raise TimeoutError(f"no answer from {self.origin} in {self.timeout} s") from None
                raise
            finally:
                self._inflight.discard(deadline)

    async def _exchange(self, conn: _Connection, method: str, url: str, request: bytes) -> Response:
        reusable = False
        try:
            conn.writer.write(request)
            try:
                status, reason, headers = await _read_head(conn.reader)
            except (asyncio.IncompleteReadError, ConnectionResetError, BrokenPipeError) as exc:
                raise _Incomplete() from exc
            try:
                body, keep = await _read_body(conn.reader, method, status, headers)
            except asyncio.IncompleteReadError as exc:
                raise aiohttp.ServerDisconnectedError("the answer was cut short") from exc
            except asyncio.LimitOverrunError as exc:
                raise aiohttp.ClientPayloadError("malformed chunked answer") from exc
            response = Response(method, url, status, reason, headers, _decoded(body, headers))
            reusable = keep  # a whole, well-formed answer: the connection can carry the next request
            return response
        finally:
            if reusable:
                self._release(conn)
            else:
                conn.close()


class _Call:
    """``async with session.request(...) as response``."""

    __slots__ = ("body", "headers", "method", "session", "target", "url")

    def __init__(self, session: LeanSession, method: str, url: str, target: str, body: bytes,
                 headers: dict[str, str]) -> None:
        self.session = session
        self.method = method
        self.url = url
        self.target = target
        self.body = body
        self.headers = headers

    async def __aenter__(self) -> Response:
        return await self.session.send(self.method, self.url, self.target, self.body, self.headers)

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        return None


def _body(data: Any) -> bytes | None:
    """The bytes of a body this client sends itself (text or bytes), None for anything else."""
    if data is None:
        return b""
    if isinstance(data, str):
        return data.encode("utf-8")
    if isinstance(data, bytes):
        return data
    return None


def _query(params: Any) -> str | None:
    """``params`` as a query string (a mapping of plain names to text or numbers), None for anything else."""
    if not isinstance(params, dict):
        return None
    items = []
    for name, value in params.items():
        if not isinstance(name, str) or isinstance(value, bool) or not isinstance(value, str | int):
            return None
        items.append((name, str(value)))
    return urlencode(items)


def _plain_headers(headers: dict[str, str] | None) -> bool:
    """Headers this client may write as they are (no line breaks, none it sets itself)."""
    if not headers:
        return True
    for name, value in headers.items():
        if not isinstance(name, str) or not isinstance(value, str) or not name.isascii() or not value.isascii():
            return False
        if any(c in name for c in ":\r\n ") or "\r" in value or "\n" in value:
            return False
        if name.lower() in ("host", "content-length", "transfer-encoding", "connection", "user-agent",
                            "accept-encoding"):
            return False
    return True


async def _read_head(reader: asyncio.StreamReader) -> tuple[int, str, CIMultiDict[str]]:
    """The status line and headers of the final answer (1xx answers skipped)."""
    while True:
        try:
            raw = await reader.readuntil(b"\r\n\r\n")
        except asyncio.LimitOverrunError as exc:
            raise aiohttp.ClientResponseError(None, (), message="answer headers too long") from exc  # type: ignore[arg-type]
        lines = raw[:-4].decode("latin-1").split("\r\n")
        version, _, rest = lines[0].partition(" ")
        code, _, reason = rest.partition(" ")
        if not version.startswith("HTTP/1.") or len(code) != 3 or not code.isdigit():
            raise aiohttp.ClientResponseError(None, (), message=f"malformed status line {lines[0][:80]!r}")  # type: ignore[arg-type]
        status = int(code)
        headers: CIMultiDict[str] = CIMultiDict()
        for line in lines[1:]:
            name, sep, value = line.partition(":")
            if not sep or not name or name != name.strip():
                raise aiohttp.ClientResponseError(None, (), message=f"malformed header {line[:80]!r}")  # type: ignore[arg-type]
            headers.add(name, value.strip())
        if version == "HTTP/1.0" and headers.get("Connection", "").lower() != "keep-alive":
            headers["Connection"] = "close"
        if 100 <= status < 200 and status != 101:
            continue
        return status, reason, headers


async def _read_body(reader: asyncio.StreamReader, method: str, status: int,
                     headers: CIMultiDict[str]) -> tuple[bytes, bool]:
    """The body and whether the connection can carry another request (RFC 9112 section 6.3)."""
    keep = "close" not in headers.get("Connection", "").lower()
    if method == "HEAD" or status in (204, 304) or 100 <= status < 200:
        return b"", keep
    if "chunked" in headers.get("Transfer-Encoding", "").lower():
        parts: list[bytes] = []
        while True:
            size_line = await reader.readuntil(b"\r\n")
            size_text = size_line.split(b";", 1)[0].strip()
            try:
                size = int(size_text, 16)
            except ValueError:
                raise aiohttp.ClientPayloadError(f"malformed chunk size {size_text[:20]!r}") from None
            if size < 0:
                raise aiohttp.ClientPayloadError("negative chunk size")
            if size == 0:
                while await reader.readuntil(b"\r\n") != b"\r\n":  # trailers
                    pass
                return b"".join(parts), keep
            parts.append(await reader.readexactly(size))
            if await reader.readexactly(2) != b"\r\n":
                raise aiohttp.ClientPayloadError("malformed chunk end")
    length = headers.get("Content-Length")
    if length is not None:
        if not length.isdigit():
            raise aiohttp.ClientPayloadError(f"malformed Content-Length {length[:20]!r}")
        return await reader.readexactly(int(length)), keep
    return await reader.read(), False  # delimited by the end of the connection


def _decoded(body: bytes, headers: CIMultiDict[str]) -> bytes:
    encoding = headers.get("Content-Encoding", "").lower()
    if not body or encoding in ("", "identity"):
        return body
    try:
        if encoding == "gzip":
            return zlib.decompress(body, 16 + zlib.MAX_WBITS)
        if encoding == "deflate":
            try:
                return zlib.decompress(body)
            except zlib.error:
                return zlib.decompress(body, -zlib.MAX_WBITS)
    except zlib.error as exc:
        raise aiohttp.ClientPayloadError(f"cannot decode a {encoding} body: {exc}") from exc
    raise aiohttp.ClientPayloadError(f"unsupported Content-Encoding {encoding!r}")
