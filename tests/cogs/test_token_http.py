"""The interaction-token road on aiohttp (:mod:`cogs.transport.token_http`), against a local
server that misbehaves the way a real network does (:mod:`misbehaving_http`).

Each test here failed on the hand-written HTTP/1.1 client that came before
(``cogs/transport/lean_http.py``): a POST the server had read was sent twice, leftover
bytes answered the next request, loose framing was accepted, an error could
not be printed, two edits through one token went out at once.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from misbehaving_http import READ_AND_CLOSE, Answer, MisbehavingServer, ok, raw

from cogs.transport.token_http import TokenHttp

FOLLOWUP = "/webhooks/3/tok"


@pytest.fixture
async def server() -> AsyncIterator[MisbehavingServer]:
    srv = await MisbehavingServer().start()
    yield srv
    await srv.stop()


ROADS = ("llhttp", "aiohttp")
BROKEN = (aiohttp.ClientError, OSError)
"""What a road raises when the connection fails or the answer is malformed (aiohttp's, or a ConnectionError)."""


@pytest.fixture(params=ROADS)
def kind(request: pytest.FixtureRequest) -> str:
    road: str = request.param
    return road


@pytest.fixture
async def road(server: MisbehavingServer, kind: str) -> AsyncIterator[TokenHttp]:
    http = TokenHttp(server.base, "baloot-test", timeout=5.0, road=kind)
    yield http
    await http.close()


async def warmed(road: TokenHttp, server: MisbehavingServer, *script: Answer) -> None:
    """One answered followup (its connection is kept alive), then ``script`` for the next requests."""
    assert await road.post_followup(3, "tok", {"content": "warm"}) == {"n": 1}
    server.script = deque(script)


def printable(exc: BaseException) -> str:
    text = str(exc)  # raises on an error that cannot be printed
    return f"{type(exc).__name__}: {text}"


# -- defect 1: a request the server read is not sent again ------------------------------------------------
@pytest.mark.parametrize("call", ["followup", "callback", "edit"])
async def test_a_request_read_then_dropped_is_sent_once(road: TokenHttp, server: MisbehavingServer,
                                                        call: str) -> None:
    """The server reads the POST/PATCH on a kept-alive connection, then closes: the request may have been
    applied, so it is not sent again (one message made); the caller gets a printable error."""
    await warmed(road, server, READ_AND_CLOSE)
    with pytest.raises(BROKEN) as caught:
        if call == "followup":
            await road.post_followup(3, "tok", {"content": "once"})
        elif call == "callback":
            await road.callback(9, "tok", {"type": 7, "data": {}})
        else:
            await road.patch_original(3, "tok", {"content": "once"})
    assert printable(caught.value)
    assert len(server.received) == 2  # the warm-up and this one: nothing sent twice
    assert await road.post_followup(3, "tok", {"content": "next"}) == {"n": 3}  # the next one gets its own


async def test_a_stale_kept_alive_connection_does_not_lose_or_double_a_request(
        road: TokenHttp, server: MisbehavingServer) -> None:
    """The server drops an idle kept-alive connection: the next request goes on a fresh one, once."""
    await warmed(road, server)
    server.close_idle()
    await asyncio.sleep(0.05)
    assert await road.post_followup(3, "tok", {"content": "after"}) == {"n": 2}
    assert server.posted(FOLLOWUP) == 2


# -- defect 2: leftover bytes do not answer the next request ----------------------------------------------
async def test_bytes_past_content_length_do_not_answer_the_next_request(
        road: TokenHttp, server: MisbehavingServer) -> None:
    await warmed(road, server, ok(b'{"n": 2}', extra=b'HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n{"n": 99}'))
    assert await road.post_followup(3, "tok", {}) == {"n": 2}
    assert await road.post_followup(3, "tok", {}) == {"n": 3}  # its own answer, not the stray {"n": 99}
    assert await road.post_followup(3, "tok", {}) == {"n": 4}


async def test_a_204_with_a_body_does_not_answer_the_next_request(road: TokenHttp, server: MisbehavingServer) -> None:
    await warmed(road, server, raw('HTTP/1.1 204 No Content\r\n\r\n{"n": 99}'))
    try:
        await road.patch_original(3, "tok", {"content": "x"})
    except BROKEN as exc:  # aiohttp rejects the stray bytes as a bad status line: fine, and printable
        assert printable(exc)
    assert await road.post_followup(3, "tok", {}) == {"n": 3}
    assert await road.post_followup(3, "tok", {}) == {"n": 4}


# -- defect 3: loose framing is refused, and the connection is not reused -----------------------------------
LOOSE = {
    "two Content-Lengths": "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}x",
    "Content-Length and chunked": ("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n"
                                   "2\r\n{}\r\n0\r\n\r\n"),
    "chunk size 0x2": "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0x2\r\n{}\r\n0\r\n\r\n",
    "chunk size 0_2": "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0_2\r\n{}\r\n0\r\n\r\n",
    "Arabic digit in Content-Length": "HTTP/1.1 200 OK\r\nContent-Length: \u0662\r\n\r\n{}",
}


@pytest.mark.parametrize("answer", list(LOOSE.values()), ids=list(LOOSE))
async def test_loose_framing_is_refused_with_a_printable_error(road: TokenHttp, server: MisbehavingServer,
                                                                answer: str, kind: str) -> None:
    await warmed(road, server, raw(answer))
    with pytest.raises(BROKEN) as caught:
        await road.post_followup(3, "tok", {})
    assert ("400" if kind == "aiohttp" else "malformed answer") in printable(caught.value)
    assert await road.post_followup(3, "tok", {}) == {"n": 3}
    assert server.posted(FOLLOWUP) == 3


async def test_an_unknown_transfer_coding_reads_to_the_close_without_hanging(
        road: TokenHttp, server: MisbehavingServer, kind: str) -> None:
    """``Transfer-Encoding: notchunked``: the body runs to the connection's close (RFC 9112 section 6.3).
    On aiohttp the answer arrives when the server closes; the llhttp road refuses an answer framed only
    by the close (llhttp cannot be told the stream ended; Discord frames every answer), with a printable
    error when the server closes. Either way nothing hangs and the next request gets its own answer."""
    await warmed(road, server, raw(
        'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: notchunked\r\n\r\n{"n": 2}',
        close=True))
    if kind == "aiohttp":
        assert await asyncio.wait_for(road.post_followup(3, "tok", {}), 3) == {"n": 2}
    else:
        with pytest.raises(BROKEN) as caught:
            await asyncio.wait_for(road.post_followup(3, "tok", {}), 3)
        assert "closed before the answer ended" in printable(caught.value)
    assert await road.post_followup(3, "tok", {}) == {"n": 3}


async def test_no_answer_at_all_ends_at_the_time_limit(server: MisbehavingServer, kind: str) -> None:
    http = TokenHttp(server.base, "baloot-test", timeout=0.3, road=kind)
    try:
        server.script = deque([Answer(None, delay=2.0)])
        with pytest.raises(TimeoutError) as caught:
            await asyncio.wait_for(http.post_followup(3, "tok", {}), 3)
        assert printable(caught.value)
        assert server.posted(FOLLOWUP) == 1
    finally:
        await http.close()


# -- defect 4: errors can be printed --------------------------------------------------------------------
@pytest.mark.parametrize(("status", "kind"), [(404, discord.NotFound), (403, discord.Forbidden),
                                              (400, discord.HTTPException)])
async def test_discords_refusals_raise_printable_errors_with_its_code(
        road: TokenHttp, server: MisbehavingServer, status: int, kind: type[discord.HTTPException]) -> None:
    server.script = deque([ok(b'{"code": 10062, "message": "Unknown interaction"}', f"{status} No")])
    with pytest.raises(kind) as caught:
        await road.callback(9, "tok", {"type": 7, "data": {}})
    assert caught.value.code == 10062 and "Unknown interaction" in printable(caught.value)


async def test_a_cut_answer_raises_a_printable_error(road: TokenHttp, server: MisbehavingServer) -> None:
    await warmed(road, server, raw("HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n{", close=True))
    with pytest.raises(BROKEN) as caught:
        await road.post_followup(3, "tok", {})
    assert printable(caught.value)


# -- defect 5: two edits through one token are applied in order ------------------------------------------
async def test_two_edits_through_one_token_go_one_after_the_other(road: TokenHttp,
                                                                  server: MisbehavingServer) -> None:
    server.script = deque([Answer(ok(b"{}").raw, delay=0.2), ok(b"{}"), ok(b"{}")])
    first = asyncio.create_task(road.patch_original(3, "tok", {"content": "first"}))
    await asyncio.sleep(0)
    second = asyncio.create_task(road.patch_original(3, "tok", {"content": "second"}))
    other = asyncio.create_task(road.patch_original(3, "other", {"content": "other token"}))
    await asyncio.gather(first, second, other)
    mine = [r.body for r in server.received if "/tok/" in r.target]
    assert mine == [b'{"content":"first"}', b'{"content":"second"}']
    mine_events = [e for e in server.events if "token" not in e]
    assert mine_events == ['read {"content":"first"}', 'answered {"content":"first"}',
                           'read {"content":"second"}', 'answered {"content":"second"}']
    assert server.most_in_flight == 2  # the other token's edit did not wait for this token's


async def test_a_request_cancelled_while_waiting_for_its_token_does_not_stop_the_next(
        road: TokenHttp, server: MisbehavingServer) -> None:
    server.script = deque([Answer(ok(b"{}").raw, delay=0.2), ok(b"{}")])
    first = asyncio.create_task(road.patch_original(3, "tok", {"content": "first"}))
    await asyncio.sleep(0)
    waiting = asyncio.create_task(road.patch_original(3, "tok", {"content": "cancelled"}))
    third = asyncio.create_task(road.patch_original(3, "tok", {"content": "third"}))
    await asyncio.sleep(0.05)
    waiting.cancel()
    await asyncio.wait_for(asyncio.gather(first, third), 3)
    assert [r.body for r in server.received if "/tok/" in r.target] == [b'{"content":"first"}',
                                                                         b'{"content":"third"}']
    assert road.turns == {}  # nothing left waiting: the token is free again


# -- what Discord answers ------------------------------------------------------------------------------
async def test_a_429_from_discord_is_waited_out_and_a_5xx_retried(road: TokenHttp, server: MisbehavingServer,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    waits: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        await real_sleep(0)

    monkeypatch.setattr(asyncio, "sleep", sleep)
    server.script = deque([ok(b'{"retry_after": 0.25, "global": false, "message": "slow"}', "429 Too Many",
                              headers="Via: 1.1 google\r\n"), ok(b"{}", "502 Bad Gateway")])
    assert await road.post_followup(3, "tok", {"content": "x"}) == {"n": 3}
    assert waits == [0.25, 3]  # the adapter's schedule: 1 + 2 * attempt, the 429 counting as one
    assert server.posted(FOLLOWUP) == 3  # Discord refused twice: nothing was applied before the third


async def test_a_spent_bucket_holds_the_next_request_on_that_token(road: TokenHttp, server: MisbehavingServer,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    server.script = deque([ok(b"{}", headers="X-RateLimit-Remaining: 0\r\nX-RateLimit-Reset-After: 0.2\r\n")])
    await road.patch_original(3, "spent", {})
    loop = asyncio.get_running_loop()
    began = loop.time()
    await road.patch_original(3, "other", {})
    assert loop.time() - began < 0.15  # another token is not held
    await road.patch_original(3, "spent", {})
    assert 0.15 <= loop.time() - began < 0.9  # held until the bucket resets (0.2 s), not a default second


async def test_bodies_and_files_go_as_discord_expects(road: TokenHttp, server: MisbehavingServer) -> None:
    answer: Any = await road.callback(9, "tok", {"type": 4, "data": {"content": "é"}}, answer=True)
    assert answer == {"n": 1}
    await road.patch_followup(3, "tok", 77, {"content": "x"}, [("baloot-table.png", b"\x89PNG")])
    await road.delete_followup_message(3, "tok", 77)
    first, second, third = server.received
    assert (first.method, first.target) == ("POST", "/api/v10/interactions/9/tok/callback?with_response=1")
    assert first.body == '{"type":4,"data":{"content":"é"}}'.encode()
    assert (second.method, second.target) == ("PATCH", "/api/v10/webhooks/3/tok/messages/77?with_components=0")
    assert b'name="payload_json"' in second.body and b'name="files[0]"; filename="baloot-table.png"' in second.body
    assert b"\x89PNG" in second.body
    assert (third.method, third.target) == ("DELETE", "/api/v10/webhooks/3/tok/messages/77")
    assert road.turns == {}  # no lock kept for a token nobody is using


# -- the connection's life on the llhttp road -------------------------------------------------------------
async def test_an_answer_that_closes_is_not_followed_on_its_connection(road: TokenHttp,
                                                                       server: MisbehavingServer) -> None:
    """``Connection: close``: the answer is taken, and the next request goes on a fresh connection."""
    await warmed(road, server, ok(b'{"n": 2}', headers="Connection: close\r\n"))
    assert await road.post_followup(3, "tok", {}) == {"n": 2}
    assert await road.post_followup(3, "tok", {}) == {"n": 3}
    assert server.connections == 2


async def test_a_clean_answer_keeps_its_connection(road: TokenHttp, server: MisbehavingServer) -> None:
    for n in range(1, 4):
        assert await road.post_followup(3, "tok", {}) == {"n": n}
    assert server.connections == 1


async def test_a_token_that_would_break_the_request_line_is_not_sent(road: TokenHttp, server: MisbehavingServer,
                                                                     kind: str) -> None:
    """A line break in a token is refused by both roads; a space too by the llhttp road, which writes the
    request line itself (aiohttp sends it as given: Discord's tokens hold neither)."""
    with pytest.raises(ValueError):
        await road.patch_original(3, "tok\r\nX-Evil: 1", {})
    if kind == "llhttp":
        with pytest.raises(ValueError):
            await road.patch_original(3, "tok en", {})
    assert server.received == []


def test_the_llhttp_road_runs_on_uvloop() -> None:
    """The bot runs on uvloop (``EVENT_LOOP``), whose transports are not subclasses of asyncio's."""
    uvloop = pytest.importorskip("uvloop")

    async def play() -> tuple[list[Any], int]:
        server = await MisbehavingServer().start()
        http = TokenHttp(server.base, "baloot-test", road="llhttp")
        try:
            return [await http.post_followup(3, "tok", {}) for _ in range(3)], server.connections
        finally:
            await http.close()
            await server.stop()

    assert uvloop.run(play()) == ([{"n": 1}, {"n": 2}, {"n": 3}], 1)
