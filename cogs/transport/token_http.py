"""Discord's interaction-token endpoints on a road of the bot's own (public API only).

A press's answer (``POST /interactions/{id}/{token}/callback``) and a private
view's refresh (``PATCH /webhooks/{app}/{token}/messages/@original``) are
about 3.5 requests per interaction; a reply (the same callback, type 4) and the
followups that carry the channel's table message (:mod:`.carrier`) go the same
way. They are plain calls of Discord's documented HTTP API, not counted in the
global rate limit, so they need neither discord.py's ``HTTPClient`` (its
buckets and global lock) nor its webhook adapter (a ``Route``, two log
records and a parsed copy of every answer). :class:`TokenHttp` sends them on
a *road* (:class:`.road.Road`: one request out, its answer back whole):

- ``"llhttp"`` (the default, :mod:`.llhttp_road`): keep-alive HTTP/1.1
  connections of its own, answers parsed by llhttp (``httptools``): the
  least bot CPU per press of the roads measured with ``scripts/bench_tables.py``;
- ``"aiohttp"`` (:mod:`.aiohttp_road`): an ``aiohttp.ClientSession`` tuned
  with its public options; taken when discord.py is given a proxy, which the
  llhttp road does not speak.

Whatever the road, :class:`TokenHttp` keeps what discord.py's webhook adapter
does with Discord's answers:

- requests through one token are sent one after the other, in the order
  they were made (the adapter's lock per token; here a queue of waiters made
  only when a second request comes while one is in flight): two edits of one
  private view land in order;
- a 429 from Discord (it carries ``Via``) is waited out (``retry_after``) and
  the request sent again; one without ``Via`` (Cloudflare's) raises;
- a 5xx is tried again after 1, 3, 5, 7 seconds, then raises
  ``DiscordServerError`` (Discord answered: nothing was applied);
- 403 raises ``Forbidden``, 404 ``NotFound``, anything else ``HTTPException``;
- an answer saying the token's bucket is spent (``X-RateLimit-Remaining: 0``)
  holds the next request on that token until the bucket resets.

A connection that fails after the request was sent is *not* retried: a
callback or a followup the server may already have applied would be applied
twice (RFC 9112 section 9.3.1; aiohttp itself retries only idempotent
methods). The road's error (printable: aiohttp's ``ClientError`` or a
``ConnectionError``) goes to the caller.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Sequence
from typing import Any, Final, TypeAlias

import aiohttp
import discord
import orjson
from yarl import URL

from .aiohttp_road import AiohttpRoad
from .llhttp_road import LlhttpRoad
from .road import Reply, Road

REQUEST_TIMEOUT: Final = 60.0
"""Seconds one request may take, connecting included (discord.py's would be 5 minutes)."""
MAX_CONNECTIONS: Final = 100
"""Connections to Discord at once (aiohttp's connector limit); more requests wait for a free one."""
DEFAULT_ROAD: Final = "llhttp"
"""The road requests take (``TokenHttp(road=...)``)."""
_HELD_LIMIT: Final = 4096
Files: TypeAlias = Sequence[tuple[str, bytes]]
"""A payload's ``files``: (filename, bytes), uploaded as ``files[0]``, ``files[1]``..."""


class TokenHttp:
    """Requests through interaction tokens to ``base`` (``discord.http.Route.BASE``).

    ``road``: ``"llhttp"`` or ``"aiohttp"`` (see the module's doc); ``proxy``/``proxy_auth``:
    discord.py's settings (``Client(proxy=...)``): with a proxy the aiohttp road is taken.
    """

    def __init__(self, base: str, user_agent: str, *, proxy: str | None = None,
                 proxy_auth: aiohttp.BasicAuth | None = None, timeout: float = REQUEST_TIMEOUT,
                 limit: int = MAX_CONNECTIONS, road: str = DEFAULT_ROAD) -> None:
        self.base = base.rstrip("/")
        self.prefix = URL(self.base).raw_path.rstrip("/")
        self.road: Road
        if road == "llhttp" and proxy is None:
            self.road = LlhttpRoad(self.base, user_agent, timeout=timeout, limit=limit)
        else:
            self.road = AiohttpRoad(self.base, user_agent, proxy=proxy, proxy_auth=proxy_auth, timeout=timeout,
                                    limit=limit)
        self.turns: dict[str, deque[asyncio.Future[None]]] = {}
        """Token -> the requests waiting for the one in flight through it (FIFO); absent: none in flight."""
        self.held: dict[str, float] = {}
        """Token -> monotonic time before which no request may use it (its bucket is spent)."""
        self.sent = 0

    async def close(self) -> None:
        await self.road.close()

    # -- one token's requests, in order ---------------------------------------------------------------
    async def request(self, method: str, path: str, token: str, payload: dict[str, Any] | None,
                      query: str = "", *, answer: bool = False, files: Files = ()) -> Any:
        """Send ``payload`` as JSON (None: no body; with ``files``: as the multipart form discord.py builds) to ``path``
        under the base URL (``query``: its query string, encoded), after every earlier request through ``token``.
        ``answer``: return Discord's answer, parsed (the message a followup posted); else None."""
        turns = self.turns
        queue = turns.get(token)
        if queue is None:  # nothing in flight through this token (nearly always): no lock, no waiting
            turns[token] = queue = deque()
        else:
            waiter = asyncio.get_running_loop().create_future()
            queue.append(waiter)
            try:
                await waiter
            except BaseException:
                if waiter.done() and not waiter.cancelled():  # handed the turn, then cancelled: pass it on
                    self._next(token, queue)
                raise
        try:
            await self._wait_for_bucket(token)
            return await self._send(method, path, token, payload, query, answer, files)
        finally:
            self._next(token, queue)

    def _next(self, token: str, queue: deque[asyncio.Future[None]]) -> None:
        """The request in flight through ``token`` is done: the next one waiting goes (else the token is free)."""
        while queue:
            waiter = queue.popleft()
            if not waiter.done():  # not cancelled while waiting
                waiter.set_result(None)
                return
        del self.turns[token]

    async def _send(self, method: str, path: str, token: str, payload: dict[str, Any] | None,
                    query: str, answer: bool, files: Files) -> Any:
        # the path is ours and plain (ids and a token): sent as built, not parsed again
        target = f"{self.prefix}{path}?{query}" if query else f"{self.prefix}{path}"
        raw = None if payload is None else orjson.dumps(payload)
        content_type: str | None = None if raw is None else "application/json"
        if files:
            raw, content_type = await _form(raw or b"{}", files)
        data: Any = None
        reply: Reply | None = None
        for attempt in range(5):
            self.sent += 1
            reply = await self.road.exchange(method, target, raw, content_type)
            status = reply.status
            headers = reply.headers
            if headers.get("x-ratelimit-remaining") == "0" and status != 429:
                self._hold(token, _reset_after(headers))
            if 200 <= status < 300:
                return _parsed(reply) if answer else None
            data = _parsed(reply)
            if status == 429:
                if not headers.get("via") or not isinstance(data, dict):
                    raise discord.HTTPException(reply, data)
                await asyncio.sleep(float(data.get("retry_after", 1.0)))
                continue
            if status >= 500:
                if attempt < 4:
                    await asyncio.sleep(1 + attempt * 2)
                    continue
                raise discord.DiscordServerError(reply, data)
            if status == 403:
                raise discord.Forbidden(reply, data)
            if status == 404:
                raise discord.NotFound(reply, data)
            raise discord.HTTPException(reply, data)
        raise discord.HTTPException(reply, data)  # five 429s in a row

    def _hold(self, token: str, seconds: float) -> None:
        now = time.monotonic()
        held = self.held
        if len(held) >= _HELD_LIMIT:
            for key in [k for k, until in held.items() if until <= now]:
                del held[key]
        held[token] = now + seconds

    async def _wait_for_bucket(self, token: str) -> None:
        until = self.held.get(token)
        if until is None:
            return
        delay = until - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        if self.held.get(token) == until:
            del self.held[token]

    # -- the endpoints -------------------------------------------------------------------------------
    async def callback(self, interaction_id: int, token: str, body: dict[str, Any], *,
                           answer: bool = False, files: Files = ()) -> Any:
        """The interaction's callback (``body`` holds its ``type`` and ``data``); with ``answer``, Discord's
        answer (``with_response``: the callback and the message it made), else None (a 204, unread)."""
        return await self.request("POST", f"/interactions/{interaction_id}/{token}/callback", token, body,
                                  "with_response=1" if answer else "", answer=answer, files=files)

    async def patch_original(self, application_id: int, token: str, body: dict[str, Any], files: Files = ()) -> None:
        """Replace the interaction's response with the message ``body``."""
        await self.request("PATCH", f"/webhooks/{application_id}/{token}/messages/@original", token, body,
                           files=files)

    async def post_followup(self, application_id: int, token: str, body: dict[str, Any], files: Files = ()) -> Any:
        """Post the message ``body`` as a followup of the interaction; returns the message Discord answers."""
        return await self.request("POST", f"/webhooks/{application_id}/{token}", token, body,
                                  "wait=1&with_components=0", answer=True, files=files)

    async def patch_followup(self, application_id: int, token: str, message_id: int, body: dict[str, Any],
                            files: Files = ()) -> None:
        """Replace a followup message of the interaction with ``body``."""
        await self.request("PATCH", f"/webhooks/{application_id}/{token}/messages/{message_id}", token, body,
                           "with_components=0", files=files)

    async def delete_followup_message(self, application_id: int, token: str, message_id: int) -> None:
        """Delete a followup message of the interaction."""
        await self.request("DELETE", f"/webhooks/{application_id}/{token}/messages/{message_id}", token, None)


async def _form(payload_json: bytes, files: Files) -> tuple[bytes, str]:
    """The multipart form discord.py sends for a message with ``files`` (``handle_message_parameters``):
    ``payload_json``, then each file as ``files[n]`` (``application/octet-stream``); aiohttp's
    ``FormData`` builds it, as bytes and its content type."""
    form = aiohttp.FormData()
    form.add_field("payload_json", payload_json.decode(), content_type="application/json")
    for index, (name, data) in enumerate(files):
        form.add_field(f"files[{index}]", data, filename=name, content_type="application/octet-stream")
    writer = form()
    return await writer.as_bytes(), writer.content_type


def _parsed(reply: Reply) -> Any:
    """Discord's answer as discord.py reads it (``json_or_text``): JSON when it says so, else text."""
    text = reply.body.decode("utf-8")
    if reply.headers.get("content-type") == "application/json":
        return orjson.loads(text)
    return text


def _reset_after(headers: Any) -> float:
    """Seconds until a spent bucket resets (``X-RateLimit-Reset-After``), as discord.py reads it."""
    try:
        return max(0.0, float(headers.get("x-ratelimit-reset-after", "1")))  # lower case: as llhttp's road keeps them
    except ValueError:
        return 1.0
