"""The lean HTTP client of the interaction answers (:mod:`cogs.transport.lean_http`, :mod:`.token_http`).

A raw asyncio server writes exactly the bytes of each case (lengths, chunks,
compression, a closed kept-alive connection, garbage); the last tests run
discord.py's own webhook adapter over it, so its retries and exceptions are
the ones the bot meets in production.
"""

from __future__ import annotations

import asyncio
import contextlib
import email.parser
import email.policy
import gzip
import json
import os
import ssl
import subprocess
import time
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from discord.webhook.async_ import AsyncWebhookAdapter
from test_wire import discord_py_params, without_defaults

from cogs.transport import token_http, wire
from cogs.transport.lean_http import LeanSession, _Call

Answer = Callable[[bytes], bytes | None]
"""The raw answer to one raw request (None: close the connection without answering)."""


@dataclass
class Server:
    """A raw HTTP/1.1 server: each request is answered by ``answer``; every request and connection recorded."""

    answer: Answer
    requests: list[bytes] = field(default_factory=list)
    connections: int = 0
    port: int = 0
    close_after_each: bool = False

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.decode("latin-1").split("\r\n"):
                    if line.lower().startswith("content-length:"):
                        length = int(line.split(":", 1)[1])
                request = head + await reader.readexactly(length)
                self.requests.append(request)
                answer = self.answer(request)
                if answer is None:
                    break
                writer.write(answer)
                await writer.drain()
                if self.close_after_each:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


Start = Callable[[Answer], Awaitable[Server]]


@pytest.fixture
async def raw_server() -> AsyncIterator[Start]:
    servers: list[asyncio.Server] = []

    async def start(answer: Answer) -> Server:
        server = Server(answer)
        srv = await asyncio.start_server(server.handle, "127.0.0.1", 0)
        server.port = srv.sockets[0].getsockname()[1]
        servers.append(srv)
        return server

    yield start
    for srv in servers:
        srv.close()


def ok(body: bytes, *, extra: str = "", status: str = "200 OK") -> bytes:
    return (f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n{extra}\r\n"
            .encode() + body)


async def lean_for(server: Server, session: aiohttp.ClientSession) -> LeanSession:
    return LeanSession(session, f"http://127.0.0.1:{server.port}/api/v10", "test-agent")


async def test_a_json_request_is_sent_whole_and_kept_alive(raw_server: Start) -> None:
    server = await raw_server(lambda req: ok(b'{"id": "1"}'))
    async with aiohttp.ClientSession() as fallback:
        lean = await lean_for(server, fallback)
        for i in range(3):
            async with lean.request("PATCH", f"{lean.origin}/api/v10/webhooks/1/tok{i}/messages/@original",
                                    data=json.dumps({"content": "é"}),
                                    headers={"Content-Type": "application/json"}) as response:
                assert response.status == 200
                assert json.loads(await response.text(encoding="utf-8")) == {"id": "1"}
                assert response.headers["content-type"] == "application/json"
        await lean.close()
    assert server.connections == 1  # one kept-alive connection for all three
    assert lean.sent == 3 and lean.fell_back == 0
    first = server.requests[0]
    head, body = first.split(b"\r\n\r\n", 1)
    assert head.startswith(b"PATCH /api/v10/webhooks/1/tok0/messages/@original HTTP/1.1\r\n")
    assert b"\r\nContent-Type: application/json" in head and b"\r\nUser-Agent: test-agent" in head
    assert f"Host: 127.0.0.1:{server.port}".encode() in head
    assert json.loads(body) == {"content": "é"}


async def test_headers_are_read_whole_and_case_blind(raw_server: Start) -> None:
    extra = ("x-ratelimit-remaining:0\r\nVia:  1.1 google \r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\n"
             "X-Empty:\r\nX-Colon: a: b\r\n")
    server = await raw_server(lambda req: ok(b"{}", extra=extra))
    async with aiohttp.ClientSession() as fallback:
        lean = await lean_for(server, fallback)
        async with lean.request("GET", f"{lean.origin}/api/v10/h") as response:
            headers = response.headers
        assert headers["X-RateLimit-Remaining"] == "0" and headers["via"] == "1.1 google"
        assert headers.getall("Set-Cookie") == ["a=1", "b=2"]
        assert headers["x-empty"] == "" and headers["X-Colon"] == "a: b"
        assert headers["Content-Length"] == "2"
        await lean.close()


async def test_chunked_gzip_and_deflate_answers(raw_server: Start) -> None:
    payload = json.dumps({"id": "2", "embeds": ["x" * 5000]}).encode()
    answers = iter([
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        + b"".join(f"{len(part):x};ext=1\r\n".encode() + part + b"\r\n" for part in (payload[:100], payload[100:]))
        + b"0\r\nX-Trailer: yes\r\n\r\n",
        ok(gzip.compress(payload), extra="Content-Encoding: gzip\r\n"),
        ok(zlib.compress(payload), extra="Content-Encoding: deflate\r\n"),
        ok(b"", status="204 No Content"),
    ])
    server = await raw_server(lambda req: next(answers))
    async with aiohttp.ClientSession() as fallback:
        lean = await lean_for(server, fallback)
        for _ in range(3):
            async with lean.request("GET", f"{lean.origin}/api/v10/x") as response:
                assert await response.read() == payload
        async with lean.request("DELETE", f"{lean.origin}/api/v10/x") as response:
            assert response.status == 204 and await response.read() == b""
        await lean.close()
    assert server.connections == 1


async def test_a_closed_kept_alive_connection_is_retried_once_on_a_new_one(
        raw_server: Start) -> None:
    server = await raw_server(lambda req: ok(b"{}"))
    server.close_after_each = True  # the server closes every connection after one answer
    async with aiohttp.ClientSession() as fallback:
        lean = await lean_for(server, fallback)
        for _ in range(3):
            async with lean.request("POST", f"{lean.origin}/api/v10/y", data="{}") as response:
                assert response.status == 200
        await lean.close()
    assert len(server.requests) == 3  # each request reached the server once
    assert server.connections == 3


async def test_a_connection_without_an_answer_raises_and_is_not_reused(
        raw_server: Start) -> None:
    server = await raw_server(lambda req: None)
    async with aiohttp.ClientSession() as fallback:
        lean = await lean_for(server, fallback)
        with pytest.raises(aiohttp.ServerDisconnectedError):
            async with lean.request("POST", f"{lean.origin}/api/v10/y", data="{}"):
                pass
        assert not lean._idle
        await lean.close()
    assert len(server.requests) == 1  # a fresh connection is not retried


@pytest.mark.parametrize("answer", [
    b"garbage\r\n\r\n",
    b"HTTP/1.1 2x0 OK\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nno colon here\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n folded: line\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 3\r\n\r\nabc",
    b"HTTP/1.1 200 OK\r\nContent-Encoding: br\r\nContent-Length: 3\r\n\r\nabc",
])
async def test_a_malformed_answer_is_an_aiohttp_error_and_the_connection_is_dropped(
        raw_server: Start, answer: bytes) -> None:
    server = await raw_server(lambda req: answer)
    async with aiohttp.ClientSession() as fallback:
        lean = await lean_for(server, fallback)
        with pytest.raises(aiohttp.ClientError):
            async with lean.request("GET", f"{lean.origin}/api/v10/z"):
                pass
        assert not lean._idle
        await lean.close()


async def test_a_cut_short_body_raises(raw_server: Start) -> None:
    server = await raw_server(lambda req: b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort")
    server.close_after_each = True
    async with aiohttp.ClientSession() as fallback:
        lean = await lean_for(server, fallback)
        with pytest.raises(aiohttp.ServerDisconnectedError):
            async with lean.request("GET", f"{lean.origin}/api/v10/z"):
                pass
        await lean.close()


async def test_an_unreachable_origin_is_a_client_os_error() -> None:
    probe = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = probe.sockets[0].getsockname()[1]
    probe.close()
    await probe.wait_closed()
    async with aiohttp.ClientSession() as fallback:
        lean = LeanSession(fallback, f"http://127.0.0.1:{port}/api/v10", "t")
        with pytest.raises(aiohttp.ClientOSError) as caught:
            async with lean.request("GET", f"{lean.origin}/api/v10/z"):
                pass
        assert isinstance(caught.value, OSError)  # what the bot's retry and start-up checks look for


async def silent_server() -> tuple[asyncio.Server, int, asyncio.Event]:
    """A server that reads a request and answers nothing until the event is set."""
    stalled = asyncio.Event()

    async def never(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
            await reader.readuntil(b"\r\n\r\n")
        await stalled.wait()
        writer.close()

    srv = await asyncio.start_server(never, "127.0.0.1", 0)
    return srv, srv.sockets[0].getsockname()[1], stalled


async def test_a_slow_answer_times_out(raw_server: Start) -> None:
    srv, port, stalled = await silent_server()
    async with aiohttp.ClientSession() as fallback:
        lean = LeanSession(fallback, f"http://127.0.0.1:{port}/api/v10", "t", timeout=0.2)
        with pytest.raises(TimeoutError):
            async with lean.request("GET", f"{lean.origin}/api/v10/z"):
                pass
        assert not lean._idle
    stalled.set()
    srv.close()


async def test_a_cancelled_request_stays_cancelled_and_a_timeout_is_taken_back(raw_server: Start) -> None:
    """The request's own time limit (``_Deadline``) follows ``asyncio.timeout``: a cancellation from
    outside is not turned into a TimeoutError, and after a timeout the task is not left cancelling."""
    srv, port, stalled = await silent_server()
    async with aiohttp.ClientSession() as fallback:
        lean = LeanSession(fallback, f"http://127.0.0.1:{port}/api/v10", "t", timeout=30)

        async def one() -> None:
            async with lean.request("GET", f"{lean.origin}/api/v10/z"):
                pass

        task = asyncio.create_task(one())
        await asyncio.sleep(0.1)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert not lean._idle

        quick = LeanSession(fallback, f"http://127.0.0.1:{port}/api/v10", "t", timeout=0.1)

        async def timed_out() -> int:
            with pytest.raises(TimeoutError):
                async with quick.request("GET", f"{quick.origin}/api/v10/z"):
                    pass
            current = asyncio.current_task()
            assert current is not None
            await asyncio.sleep(0)  # not cancelled again
            return current.cancelling()

        assert await asyncio.create_task(timed_out()) == 0
    stalled.set()
    srv.close()


async def test_what_it_does_not_handle_goes_to_the_fallback(raw_server: Start) -> None:
    server = await raw_server(lambda req: ok(b"{}"))
    async with aiohttp.ClientSession() as fallback:
        lean = await lean_for(server, fallback)
        form = aiohttp.FormData()
        form.add_field("payload_json", "{}")
        cases = [
            {"data": form},  # a picture: multipart
            {"params": {"wait": 1.5}},  # not text or an integer: aiohttp decides how it is written
            {"headers": {"Host": "elsewhere"}},
            {"headers": {"User-Agent": "another-agent"}},  # not the session's: aiohttp sends it as given
        ]
        for kwargs in cases:
            async with lean.request("POST", f"{lean.origin}/api/v10/w", **kwargs) as response:  # type: ignore[arg-type]
                assert response.status == 200
        with pytest.raises(ValueError):  # a header with a line break: aiohttp refuses it, as it always did
            async with lean.request("POST", f"{lean.origin}/api/v10/w", headers={"X-Evil": "a\r\nInjected: 1"}):
                pass
        async with lean.request("POST", f"{lean.origin}/api/v10/q", params={"with_response": "1", "n": 2}):
            pass
        for url in (f"{lean.origin}/api/v10/a b", f"{lean.origin}/api/v10/é", "http://other.invalid/x"):
            call = lean.request("GET", url)
            assert not isinstance(call, _Call)
            call.close()  # aiohttp's request, never sent
        await lean.close()
    assert lean.sent == 1 and lean.fell_back == 8
    assert len(server.requests) == 5
    assert b"User-Agent: another-agent\r\n" in server.requests[3]
    assert server.requests[-1].startswith(b"POST /api/v10/q?with_response=1&n=2 HTTP/1.1\r\n")
    assert not any(b"Injected" in req for req in server.requests)


async def test_a_bot_token_request_with_the_sessions_own_user_agent_is_sent_here(raw_server: Start) -> None:
    """discord.py's HTTPClient names its User-Agent (the session's) and the bot token on every request
    (cogs.transport.wire.BotTokenSession): sent here, the User-Agent once, the token as given."""
    server = await raw_server(lambda req: ok(b'{"id": "7"}'))
    async with aiohttp.ClientSession() as fallback:
        lean = await lean_for(server, fallback)
        headers = {"User-Agent": "test-agent", "Authorization": "Bot abc", "Content-Type": "application/json"}
        async with lean.request("PATCH", f"{lean.origin}/api/v10/channels/1/messages/2", data='{"content":"x"}',
                                headers=headers) as response:
            assert response.status == 200 and await response.read() == b'{"id": "7"}'
        await lean.close()
    assert lean.sent == 1 and lean.fell_back == 0
    assert headers["User-Agent"] == "test-agent"  # the caller's dict is left as it was
    request = server.requests[0]
    assert request.count(b"User-Agent:") == 1 and b"User-Agent: test-agent\r\n" in request
    assert b"Authorization: Bot abc\r\n" in request and request.endswith(b'{"content":"x"}')


async def test_discord_adapter_over_it_retries_429_and_raises_its_own_errors(
        raw_server: Start) -> None:
    answers = iter([
        ok(b'{"message": "You are being rate limited.", "retry_after": 0.01, "global": false}',
           status="429 Too Many Requests", extra="Via: 1.1 google\r\n"),
        ok(b'{"id": "9"}', extra="X-RateLimit-Remaining: 4\r\n"),
        ok(b'{"message": "Unknown Webhook", "code": 10015}', status="404 Not Found"),
        ok(b'{"message": "Unknown interaction", "code": 10062}', status="404 Not Found"),
    ])
    server = await raw_server(lambda req: next(answers))
    original = discord.http.Route.BASE
    discord.http.Route.BASE = f"http://127.0.0.1:{server.port}/api/v10"
    try:
        async with aiohttp.ClientSession() as fallback:
            lean = await lean_for(server, fallback)
            adapter: Any = AsyncWebhookAdapter()  # type: ignore[no-untyped-call]
            data = await adapter.edit_original_interaction_response(1, "tok", session=lean, payload={"content": "x"})
            assert data == {"id": "9"}
            with pytest.raises(discord.NotFound) as caught:
                await adapter.edit_original_interaction_response(1, "tok", session=lean, payload={"content": "y"})
            assert caught.value.code == 10015 and caught.value.status == 404
            with pytest.raises(discord.NotFound):
                await adapter.create_interaction_response(
                    5, "tok", session=lean, proxy=None, proxy_auth=None,
                    params=discord.http.MultipartParameters({"type": 7, "data": {}}, None, None))
            await lean.close()
    finally:
        discord.http.Route.BASE = original
    assert len(server.requests) == 4  # the 429 was tried again once
    assert server.connections == 1


# -- cogs/transport/token_http.py: the press's answer and the view's edit, without discord.py's adapter ----------------

@pytest.fixture
def route_base() -> Iterator[Callable[[Server], None]]:
    original = discord.http.Route.BASE

    def point(server: Server) -> None:
        discord.http.Route.BASE = f"http://127.0.0.1:{server.port}/api/v10"

    yield point
    discord.http.Route.BASE = original


async def test_token_requests_are_sent_as_the_adapter_sends_them(
        raw_server: Start, route_base: Callable[[Server], None]) -> None:
    server = await raw_server(lambda req: ok(b'{"id": "1", "big": "' + b"x" * 3000 + b'"}'))
    route_base(server)
    async with aiohttp.ClientSession() as fallback:
        lean = await lean_for(server, fallback)
        await token_http.answer_press(lean, 55, "tok-a", {"type": 7, "data": {"content": "é"}})
        await token_http.edit_original(lean, 66, "tok-b", {"content": "x", "embeds": []})
        assert await token_http.answer_press(lean, 56, "tok-c", {"type": 4, "data": {}}, answer=True) == {
            "id": "1", "big": "x" * 3000}
        await lean.close()
    assert server.connections == 1
    callback, edit, reply = (req.split(b"\r\n\r\n", 1) for req in server.requests)
    # The answer is asked for (discord.py's with_response) only when it is read: a reply's message id.
    assert callback[0].startswith(b"POST /api/v10/interactions/55/tok-a/callback HTTP/1.1\r\n")
    assert reply[0].startswith(b"POST /api/v10/interactions/56/tok-c/callback?with_response=1 HTTP/1.1\r\n")
    assert json.loads(callback[1]) == {"type": 7, "data": {"content": "é"}}
    assert b"Content-Type: application/json" in callback[0]
    assert edit[0].startswith(b"PATCH /api/v10/webhooks/66/tok-b/messages/@original HTTP/1.1\r\n")
    assert json.loads(edit[1]) == {"content": "x", "embeds": []}


async def test_followup_requests_are_the_adapters_own(raw_server: Start, route_base: Callable[[Server], None]) -> None:
    """A followup's post and edit (the carrier's table message) are the requests discord.py's
    webhook adapter makes for them: the same request line (with its query) and body; the post returns
    Discord's message."""
    server = await raw_server(lambda req: ok(b'{"id": "77", "content": "x"}'))
    route_base(server)
    body = {"content": "x", "embeds": [{"title": "\u0628"}], "components": [], "allowed_mentions": {"parse": []}}
    async with aiohttp.ClientSession() as fallback:
        lean = await lean_for(server, fallback)
        adapter: Any = AsyncWebhookAdapter()  # type: ignore[no-untyped-call]
        assert await adapter.execute_webhook(3, "tok-c", session=lean, payload=body, wait=True) == {
            "id": "77", "content": "x"}
        assert await token_http.send_followup(lean, 3, "tok-c", body) == {"id": "77", "content": "x"}
        await adapter.edit_webhook_message(3, "tok-c", 77, session=lean, payload=body)
        await token_http.edit_followup(lean, 3, "tok-c", 77, body)
        await lean.close()
    by_adapter_post, ours_post, by_adapter_edit, ours_edit = server.requests

    def line_and_body(request: bytes) -> tuple[bytes, object]:
        head, _, raw = request.partition(b"\r\n\r\n")
        return head.split(b"\r\n", 1)[0], json.loads(raw)

    assert line_and_body(ours_post) == line_and_body(by_adapter_post)
    assert line_and_body(ours_edit) == line_and_body(by_adapter_edit)
    assert line_and_body(ours_edit)[0] == b"PATCH /api/v10/webhooks/3/tok-c/messages/77?with_components=0 HTTP/1.1"


def form_parts(request: bytes) -> tuple[bytes, list[tuple[str | None, str | None, str, bytes]]]:
    """The request line and the parts of a multipart/form-data request: (name, filename, content type, bytes)."""
    head, _, raw = request.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    content_type = next(line.split(":", 1)[1].strip() for line in lines if line.lower().startswith("content-type:"))
    assert content_type.startswith("multipart/form-data; boundary=")
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + raw)
    parts: list[tuple[str | None, str | None, str, bytes]] = []
    for part in message.iter_parts():
        data = part.get_payload(decode=True)
        name = part.get_param("name", header="content-disposition")
        assert isinstance(data, bytes) and (name is None or isinstance(name, str))
        parts.append((name, part.get_filename(), part.get_content_type(), data))
    return lines[0].encode(), parts


async def test_a_followup_with_a_picture_is_the_multipart_form_discord_py_sends(
        raw_server: Start, route_base: Callable[[Server], None]) -> None:
    """The table message's picture goes with the followup as the form discord.py builds for it -
    ``payload_json`` naming the attachment, then ``files[0]`` - built here as bytes: the same
    request line, parts, names, filenames and bytes, for a post and an edit."""
    server = await raw_server(lambda req: ok(b'{"id": "77", "content": "x"}'))
    route_base(server)
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40  # every byte value, CR LF and dashes included
    files = [("baloot-table.png", png)]
    payload: dict[str, Any] = {"content": "x", "embeds": [{"title": "\u0628",
                                                         "image": {"url": "attachment://baloot-table.png"}}],
                               "components": [], "allowed_mentions": {"parse": []}, "files": files}
    async with aiohttp.ClientSession() as fallback:
        lean = await lean_for(server, fallback)
        adapter: Any = AsyncWebhookAdapter()  # type: ignore[no-untyped-call]
        with discord_py_params(payload) as params:
            await adapter.execute_webhook(3, "tok-c", session=lean, multipart=params.multipart, files=params.files,
                                          wait=True)
        body = wire.message_json(payload)
        assert await token_http.send_followup(lean, 3, "tok-c", body, files) == {"id": "77",
                                                                                             "content": "x"}
        with discord_py_params(payload) as params:
            await adapter.edit_webhook_message(3, "tok-c", 77, session=lean, multipart=params.multipart,
                                               files=params.files)
        await token_http.edit_followup(lean, 3, "tok-c", 77, body, files)
        assert lean.fell_back == 2 and lean.sent == 2  # discord.py's forms went through aiohttp; ours were sent here
        await lean.close()
    by_adapter_post, ours_post, by_adapter_edit, ours_edit = (form_parts(r) for r in server.requests)

    for ours, (line, parts) in ((ours_post, by_adapter_post), (ours_edit, by_adapter_edit)):
        assert ours[0] == line  # the same request line, query included
        assert ours[1][0][:2] == parts[0][:2] == ("payload_json", None)
        # the same JSON, naming the attachment
        assert json.loads(ours[1][0][3]) == without_defaults(json.loads(parts[0][3]))
        assert ours[1][1:] == parts[1:] == [("files[0]", "baloot-table.png", "application/octet-stream", png)]
    assert json.loads(ours_post[1][0][3])["attachments"] == [{"id": 0, "filename": "baloot-table.png"}]
    assert ours_edit[0] == b"PATCH /api/v10/webhooks/3/tok-c/messages/77?with_components=0 HTTP/1.1"


def test_a_filename_that_cannot_go_in_a_form_header_is_left_to_discord_py() -> None:
    assert token_http.plain_filenames([("baloot-table.png", b"")])
    for name in ('a"b.png', "a\r\nX: y.png", "a\\b.png", "جدول.png", "a\x00.png"):
        assert not token_http.plain_filenames([("ok.png", b""), (name, b"")])


def test_the_forms_boundary_is_in_none_of_its_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    draws = iter([bytes(16), bytes(range(16))])  # the first boundary is in the file: a new one is drawn
    monkeypatch.setattr(os, "urandom", lambda n: next(draws))
    body, content_type = token_http.multipart(b"{}", [("t.png", b"--" + bytes(16).hex().encode())])
    assert content_type == f"multipart/form-data; boundary={bytes(range(16)).hex()}"
    assert body.startswith(f"--{bytes(range(16)).hex()}\r\n".encode())
    assert body.endswith(f"--{bytes(range(16)).hex()}--\r\n".encode())


@pytest.mark.parametrize("lean_closed", [False, True], ids=["lean", "closed-lean-so-aiohttp"])
async def test_token_requests_retry_a_429_and_a_5xx_and_raise_discords_errors(
        raw_server: Start, route_base: Callable[[Server], None], lean_closed: bool) -> None:
    """The same answers, the same handling, on the lean client and on aiohttp (once the lean one is closed)."""
    answers = iter([
        ok(b'{"message": "rate limited", "retry_after": 0.01, "global": false}',
           status="429 Too Many Requests", extra="Via: 1.1 google\r\n"),
        ok(b'{"message": "oops"}', status="502 Bad Gateway"),
        ok(b'{"id": "1"}'),
        ok(b'{"message": "Unknown interaction", "code": 10062}', status="404 Not Found"),
        ok(b'{"message": "Missing Access", "code": 50001}', status="403 Forbidden"),
        ok(b'{"message": "Invalid Form Body", "code": 50035}', status="400 Bad Request"),
        ok(b'{"message": "cloudflare"}', status="429 Too Many Requests"),  # no Via: not Discord's, not retried
    ])
    server = await raw_server(lambda req: next(answers))
    route_base(server)
    async with aiohttp.ClientSession() as fallback:
        lean = await lean_for(server, fallback)
        if lean_closed:
            await lean.close()
        await token_http.edit_original(lean, 1, "t", {"content": "x"})  # 429, 502, then 200
        assert len(server.requests) == 3
        with pytest.raises(discord.NotFound) as not_found:
            await token_http.answer_press(lean, 2, "t2", {"type": 7, "data": {}})
        assert not_found.value.code == 10062
        with pytest.raises(discord.Forbidden) as forbidden:
            await token_http.edit_original(lean, 1, "t", {"content": "y"})
        assert forbidden.value.code == 50001
        with pytest.raises(discord.HTTPException) as bad:
            await token_http.edit_original(lean, 1, "t", {"content": "z"})
        assert bad.value.code == 50035 and bad.value.status == 400
        with pytest.raises(discord.HTTPException) as cloudflare:
            await token_http.edit_original(lean, 1, "t", {"content": "w"})
        assert cloudflare.value.status == 429
        await lean.close()
    assert len(server.requests) == 7
    assert (lean.sent, lean.fell_back) == ((0, 7) if lean_closed else (7, 0))


async def test_a_spent_token_bucket_holds_the_next_request_on_that_token_only(
        raw_server: Start, route_base: Callable[[Server], None]) -> None:
    spent = ok(b"{}", extra="X-RateLimit-Remaining: 0\r\nX-RateLimit-Reset-After: 0.3\r\n")
    server = await raw_server(lambda req: spent if b"/spent/" in req.split(b"\r\n", 1)[0] else ok(b"{}"))
    route_base(server)
    async with aiohttp.ClientSession() as fallback:
        lean = await lean_for(server, fallback)
        await token_http.edit_original(lean, 1, "spent", {"content": "1"})
        started = time.monotonic()
        await token_http.edit_original(lean, 1, "other", {"content": "2"})
        assert time.monotonic() - started < 0.25  # another token is not held
        await token_http.edit_original(lean, 1, "spent", {"content": "3"})
        assert time.monotonic() - started >= 0.28  # held until the bucket reset
        await lean.close()


async def test_https_with_a_verified_certificate_and_a_refused_one(tmp_path: Path) -> None:
    """Discord is reached over TLS: the certificate is checked against the host name, as aiohttp checks it."""
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    server_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_ctx.load_cert_chain(cert, key)
    server = Server(lambda req: ok(b'{"id": "7"}'))
    srv = await asyncio.start_server(server.handle, "127.0.0.1", 0, ssl=server_ctx)
    port = srv.sockets[0].getsockname()[1]
    trusting = ssl.create_default_context(cafile=str(cert))
    try:
        async with aiohttp.ClientSession() as fallback:
            lean = LeanSession(fallback, f"https://localhost:{port}/api/v10", "t", ssl_context=trusting)
            for _ in range(2):
                async with lean.request("PATCH", f"https://localhost:{port}/api/v10/x", data="{}") as response:
                    assert response.status == 200 and json.loads(await response.read()) == {"id": "7"}
            await lean.close()
            assert server.connections == 1
            strict = LeanSession(fallback, f"https://localhost:{port}/api/v10", "t")  # the system's CAs only
            with pytest.raises(aiohttp.ClientError):
                async with strict.request("PATCH", f"https://localhost:{port}/api/v10/x", data="{}"):
                    pass
            await strict.close()
    finally:
        srv.close()
