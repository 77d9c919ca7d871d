"""Interaction-token requests on keep-alive HTTP/1.1 connections, answers parsed by llhttp (``httptools``).

The road :class:`.token_http.TokenHttp` takes by default: the request is
written as bytes on an asyncio connection and the answer is parsed by
``httptools.HttpResponseParser`` (llhttp, the parser of Node.js, used so by
uvicorn), which refuses loose framing itself: two ``Content-Length``\\s,
``Content-Length`` with ``Transfer-Encoding``, a bad chunk size or a non-digit
length. What this module adds is the connection's life:

- a request is written once. It goes on a kept-alive connection only if that
  connection is still open (no end of stream seen, ``transport.is_closing()``
  false) and younger than :data:`.road.KEEPALIVE_SECONDS`; once written it
  is never sent again, whatever happens to the connection (the server may have
  applied it: RFC 9112 section 9.3.1). The caller gets a printable
  :class:`BrokenAnswer`;
- a connection is kept for the next request only when its answer ended
  cleanly, llhttp says it may be kept (``should_keep_alive``) and no byte
  followed the answer: leftover bytes (a 204 with a body, bytes past
  ``Content-Length``), a malformed answer, a time limit reached or a
  cancelled request close it;
- a request has :attr:`LlhttpRoad.timeout` seconds, connecting and waiting for a free connection
  included; an answer still awaited then fails with ``TimeoutError`` (one timer of the road's
  looks every :data:`WATCH_SECONDS` or less, rather than a timer per request);
- an answer framed only by the connection's close (no length, no chunks) is
  refused: llhttp cannot be told that the stream ended, and Discord always
  frames its answers.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from collections import deque
from typing import Final, cast

import httptools
from yarl import URL

from .road import KEEPALIVE_SECONDS, Reply

WATCH_SECONDS: Final = 1.0
"""How often the road looks for answers past their time limit (a request fails at most this late)."""


class BrokenAnswer(ConnectionError):
    """The connection closed before the answer ended, or the answer was malformed (llhttp's reason)."""


class _Connection(asyncio.Protocol):
    """One HTTP/1.1 connection: one request at a time, its answer fed to llhttp as it arrives."""

    def __init__(self) -> None:
        self.parser = httptools.HttpResponseParser(self)
        self.transport: asyncio.Transport | None = None
        self.answer: asyncio.Future[Reply] | None = None
        self.open = True
        self.keep = False
        self.reason = ""
        self.headers: dict[str, str] = {}
        self.body: list[bytes] = []
        self.begun = 0
        self.idle_since = 0.0
        self.deadline = 0.0  # the loop's time by which the answer must have come (LlhttpRoad._watch)

    # -- asyncio's callbacks --------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass of asyncio's

    def connection_lost(self, exc: Exception | None) -> None:
        self.open = False
        self._fail(BrokenAnswer(f"the connection closed before the answer ended{f': {exc}' if exc else ''}"))

    def eof_received(self) -> bool:
        self.open = False
        return False  # the transport closes itself; connection_lost fails an answer still awaited

    def data_received(self, data: bytes) -> None:
        answer = self.answer
        if answer is None or answer.done():  # bytes nobody asked for: the connection cannot be trusted
            self.close()
            return
        try:
            self.parser.feed_data(data)
        except (httptools.HttpParserError, httptools.HttpParserUpgrade) as exc:
            self._fail(BrokenAnswer(f"malformed answer: {exc}"))
            self.close()

    # -- llhttp's callbacks ---------------------------------------------------------------------
    def on_message_begin(self) -> None:
        self.begun += 1
        if self.begun > 1:  # a second answer to one request: leftover bytes
            self.close()

    def on_status(self, status: bytes) -> None:
        self.reason += status.decode("latin-1")

    def on_header(self, name: bytes, value: bytes) -> None:
        self.headers[name.decode("latin-1").lower()] = value.decode("latin-1")

    def on_headers_complete(self) -> None:
        self.keep = self.parser.should_keep_alive()

    def on_body(self, body: bytes) -> None:
        self.body.append(body)

    def on_message_complete(self) -> None:
        answer = self.answer
        if self.begun == 1 and answer is not None and not answer.done():
            answer.set_result(Reply(self.parser.get_status_code(), self.reason, self.headers, b"".join(self.body)))

    # -- the road's use -------------------------------------------------------------------------
    def send(self, request: bytes) -> asyncio.Future[Reply]:
        assert self.transport is not None
        self.answer = answer = asyncio.get_running_loop().create_future()
        self.reason, self.headers, self.body, self.begun = "", {}, [], 0
        self.transport.write(request)
        return answer

    def reusable(self) -> bool:
        return self.open and self.keep and self.begun == 1 and self.transport is not None \
            and not self.transport.is_closing()

    def close(self) -> None:
        self.open = False
        if self.transport is not None:
            self.transport.close()

    def time_out(self) -> None:
        """The answer did not come in time: it fails with ``TimeoutError`` and the connection closes."""
        answer = self.answer
        if answer is not None and not answer.done():
            answer.set_exception(TimeoutError("no answer within the time limit"))
        self.close()

    def _fail(self, exc: BrokenAnswer) -> None:
        answer = self.answer
        if answer is not None and not answer.done():
            answer.set_exception(exc)


class LlhttpRoad:
    """Keep-alive connections to one server (at most ``limit`` at once), requests written as bytes."""

    def __init__(self, base: str, user_agent: str, *, timeout: float, limit: int) -> None:
        url = URL(base)
        self.host = url.raw_host or ""
        self.port = url.port or 443
        self.ssl = ssl.create_default_context() if url.scheme == "https" else None
        authority = self.host if url.explicit_port is None else f"{self.host}:{self.port}"
        self.head: Final = f"\r\nHost: {authority}\r\nUser-Agent: {user_agent}\r\n".encode()
        self.timeout = timeout
        self.slots = asyncio.Semaphore(limit)
        self.idle: deque[_Connection] = deque()
        self.waiting: set[_Connection] = set()
        """Connections whose answer is awaited (what :meth:`_watch` checks)."""
        self.watch: asyncio.TimerHandle | None = None
        self.watch_every = min(WATCH_SECONDS, timeout / 4)

    async def exchange(self, method: str, target: str, body: bytes | None, content_type: str | None) -> Reply:
        line = f"{method} {target} HTTP/1.1".encode("ascii")
        if b"\r" in line or b"\n" in line or line.count(b" ") != 2:
            raise ValueError(f"not a plain request target: {target!r}")
        if body is None:
            request = line + self.head + b"\r\n"
        else:
            request = b"".join((line, self.head, b"Content-Type: ", (content_type or "").encode("ascii"),
                                b"\r\nContent-Length: ", str(len(body)).encode(), b"\r\n\r\n", body))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        slots = self.slots
        if slots.locked():  # every connection in use (rare): wait for one within the time limit
            async with asyncio.timeout_at(deadline):
                await slots.acquire()
        else:
            await slots.acquire()
        try:
            connection = self._kept()
            if connection is None:
                async with asyncio.timeout_at(deadline):
                    connection = await self._connect()
            waiting = self.waiting
            answer = connection.send(request)
            connection.deadline = deadline
            waiting.add(connection)
            if self.watch is None:
                self.watch = loop.call_later(self.watch_every, self._watch)
            try:
                reply = await answer
            except BaseException:
                connection.close()
                raise
            finally:
                waiting.discard(connection)
            if connection.reusable():
                connection.idle_since = time.monotonic()
                self.idle.append(connection)
            else:
                connection.close()
            return reply
        finally:
            slots.release()

    def _watch(self) -> None:
        """The road's one timer, not one per request (``asyncio.timeout`` would schedule and cancel one for
        each: bot CPU per press): the answers awaited past their deadline fail with ``TimeoutError``."""
        self.watch = None
        if not self.waiting:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        for connection in [c for c in self.waiting if c.deadline <= now]:
            self.waiting.discard(connection)
            connection.time_out()
        if self.waiting:
            self.watch = loop.call_later(self.watch_every, self._watch)

    def _kept(self) -> _Connection | None:
        """The newest idle connection that is still open and young enough, the others closed."""
        idle = self.idle
        now = time.monotonic()
        while idle:
            connection = idle.pop()
            if connection.reusable() and now - connection.idle_since < KEEPALIVE_SECONDS:
                return connection
            connection.close()
        return None

    async def _connect(self) -> _Connection:
        loop = asyncio.get_running_loop()
        _, connection = await loop.create_connection(_Connection, self.host, self.port, ssl=self.ssl)
        return connection

    async def close(self) -> None:
        if self.watch is not None:
            self.watch.cancel()
            self.watch = None
        while self.idle:
            self.idle.pop().close()
