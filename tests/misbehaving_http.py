"""A local HTTP server that misbehaves the way a real network does.

Each request the server reads is recorded (method, target, body) and answered
by the next scripted :data:`Answer`: raw bytes written as they are (a 204 with
a body, bytes past ``Content-Length``, loose framing), after which the
connection is kept or closed; or nothing at all (the server read the request,
then closed: the request may have been applied). Once the script is spent,
every request gets ``200 {"n": k}`` (k: its number), so a test can tell
which answer a request got.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Answer:
    """What the server does with one request: write ``raw`` (None: nothing), then close or keep the connection."""

    raw: bytes | None
    close: bool = False
    delay: float = 0.0


def ok(body: bytes, status: str = "200 OK", *, extra: bytes = b"", headers: str = "") -> Answer:
    """A well-formed answer (``extra``: bytes written right after it, past its end)."""
    head = (f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n{headers}\r\n"
            .encode())
    return Answer(head + body + extra)


def raw(text: str | bytes, *, close: bool = False) -> Answer:
    return Answer(text.encode("utf-8") if isinstance(text, str) else text, close)


READ_AND_CLOSE = Answer(None, close=True)
"""Read the request whole, then close the connection without a byte of answer."""


@dataclass
class Received:
    method: str
    target: str
    body: bytes


@dataclass
class MisbehavingServer:
    script: deque[Answer] = field(default_factory=deque)
    received: list[Received] = field(default_factory=list)
    connections: int = 0
    in_flight: int = 0
    most_in_flight: int = 0
    events: list[str] = field(default_factory=list)
    """``read <body>`` and ``answered <body>`` for each request, in the order they happened."""
    server: asyncio.Server | None = None
    writers: list[asyncio.StreamWriter] = field(default_factory=list)

    @property
    def base(self) -> str:
        assert self.server is not None
        host, port = self.server.sockets[0].getsockname()[:2]
        return f"http://{host}:{port}/api/v10"

    async def start(self) -> MisbehavingServer:
        self.server = await asyncio.start_server(self.serve, "127.0.0.1", 0)
        return self

    async def stop(self) -> None:
        for writer in self.writers:
            writer.close()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()

    def close_idle(self) -> None:
        """Close every connection now (a kept-alive one the server drops while it is idle)."""
        for writer in self.writers:
            writer.close()

    def posted(self, target_part: str) -> int:
        """How many requests whose target holds ``target_part`` the server read (messages made)."""
        return sum(1 for r in self.received if target_part in r.target and r.method in ("POST", "PATCH"))

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self.writers.append(writer)
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                lines = head.decode("latin-1").split("\r\n")
                method, target, _ = lines[0].split(" ", 2)
                length = 0
                for line in lines[1:]:
                    name, _, value = line.partition(":")
                    if name.strip().lower() == "content-length":
                        length = int(value.strip())
                body = await reader.readexactly(length) if length else b""
                self.received.append(Received(method, target, body))
                self.events.append(f"read {body.decode('utf-8', 'replace')}")
                answer = self.script.popleft() if self.script else ok(b'{"n": %d}' % len(self.received))
                self.in_flight += 1
                self.most_in_flight = max(self.most_in_flight, self.in_flight)
                try:
                    if answer.delay:
                        await asyncio.sleep(answer.delay)
                    if answer.raw is not None:
                        writer.write(answer.raw)
                        await writer.drain()
                    self.events.append(f"answered {body.decode('utf-8', 'replace')}")
                finally:
                    self.in_flight -= 1
                if answer.close:
                    return
        finally:
            writer.close()
