"""The hot interaction-token requests, sent on the lean client directly (bot CPU per press).

A press's answer (``POST /interactions/{id}/{token}/callback``) and a private
view's refresh (``PATCH /webhooks/{app}/{token}/messages/@original``) are
about 3.5 requests per interaction; a reply (the same callback, type 4) and the
followups of the channel's table message and turn pings go the same way. discord.py's webhook adapter would build a
``Route``, a lock per token, two log records and a parsed copy of Discord's
answer for each; here they are plain JSON requests on
:class:`~.lean_http.LeanSession`, with the adapter's handling of what Discord
answers kept as it is (``discord.webhook.async_.AsyncWebhookAdapter.request``
at the pinned version):

- a 429 from Discord (it carries ``Via``) is waited out (``retry_after``) and
  the request sent again; one without ``Via`` (Cloudflare's) raises;
- a 5xx is tried again after 1, 3, 5, 7 seconds, then raises
  ``DiscordServerError``; a reset connection (errno 54/10054) likewise;
- 403 raises ``Forbidden``, 404 ``NotFound``, anything else ``HTTPException``
  (with Discord's code and message);
- an answer saying the token's bucket is spent (``X-RateLimit-Remaining: 0``)
  holds the next request on that token until the bucket resets.

The answer's body is parsed only when it is an error, or when the caller needs the
message it made (a reply's id, a followup's). A body with files (the table's
picture) goes as the multipart form discord.py's builders make for it
(:func:`multipart`: ``payload_json``, then ``files[n]``), built here as bytes
instead of through ``discord.File`` objects and aiohttp's form writer.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Sequence
from typing import Any, Final, TypeAlias

import discord
import orjson
from discord import utils

from .lean_http import LeanSession

RESET_ERRNOS: Final = (54, 10054)
"""A connection reset by the peer, as the adapter retries it."""
_HELD_LIMIT: Final = 4096
_JSON: Final = {"Content-Type": "application/json"}
_held: dict[str, float] = {}
"""Token -> monotonic time before which no request may use it (its bucket is spent)."""
Files: TypeAlias = Sequence[tuple[str, bytes]]
"""A payload's ``files``: (filename, bytes), uploaded as ``files[0]``, ``files[1]``..."""
_UNSAFE_FILENAME: Final = frozenset('"\\\r\n')


def plain_filenames(files: Files) -> bool:
    """Whether every filename can be written into a form part's header as it is (printable ASCII, no quotes)."""
    return all(name.isascii() and name.isprintable() and not _UNSAFE_FILENAME & set(name) for name, _ in files)


def multipart(payload_json: bytes, files: Files) -> tuple[bytes, str]:
    """The multipart/form-data body discord.py sends for a message with ``files``, and its Content-Type.

    Parts as ``discord.http.handle_message_parameters`` lists them: ``payload_json``, then each file as
    ``files[n]`` (``application/octet-stream``), under a random boundary that occurs in no part.
    """
    while True:
        boundary = os.urandom(16).hex()
        mark = boundary.encode("ascii")
        if mark not in payload_json and not any(mark in data for _, data in files):
            break
    parts = [b"--", mark, b'\r\nContent-Disposition: form-data; name="payload_json"\r\n'
             b"Content-Type: application/json\r\n\r\n", payload_json, b"\r\n"]
    for index, (name, data) in enumerate(files):
        parts += [b"--", mark, f'\r\nContent-Disposition: form-data; name="files[{index}]"; filename="{name}"\r\n'
                  "Content-Type: application/octet-stream\r\n\r\n".encode("ascii"), data, b"\r\n"]
    parts += [b"--", mark, b"--\r\n"]
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"



def _hold(token: str, seconds: float) -> None:
    now = time.monotonic()
    if len(_held) >= _HELD_LIMIT:
        for key in [k for k, until in _held.items() if until <= now]:
            del _held[key]
    _held[token] = now + seconds


async def _wait_for_bucket(token: str) -> None:
    until = _held.get(token)
    if until is None:
        return
    delay = until - time.monotonic()
    if delay > 0:
        await asyncio.sleep(delay)
    if _held.get(token) == until:
        del _held[token]


async def token_request(session: LeanSession, method: str, path: str, token: str, payload: dict[str, Any],
                        query: str = "", *, answer: bool = False, files: Files = ()) -> Any:
    """Send ``payload`` as JSON to ``path`` under ``discord.http.Route.BASE``, as the adapter would; with
    ``files``, as a multipart form (:func:`multipart`; their names must be :func:`plain_filenames`).

    ``answer``: return Discord's answer, parsed (the message a followup posted); else None."""
    url = f"{discord.http.Route.BASE}{path}{query}"
    raw = orjson.dumps(payload)  # the bytes of discord.py's utils._to_json (orjson), without a str between
    headers = _JSON
    if files:
        raw, content_type = multipart(raw, files)
        headers = {"Content-Type": content_type}
    await _wait_for_bucket(token)
    response: Any = None
    data: Any = None
    for attempt in range(5):
        try:
            # None: closed, another origin, or characters to escape (then the aiohttp-shaped path decides)
            target = None if session.closed else session.target_of(url)
            if target is not None:  # the session's own request, without the aiohttp-shaped wrapping
                response = await session.send(method, url, target, raw, headers)
            else:
                async with session.request(method, url, data=raw if files else raw.decode(),
                                           headers=dict(headers)) as response:
                    await response.read()
            status = response.status
            if response.headers.get("X-Ratelimit-Remaining") == "0" and status != 429:
                _hold(token, utils._parse_ratelimit_header(response))
            if 200 <= status < 300:
                return await discord.http.json_or_text(response) if answer else None
            data = await discord.http.json_or_text(response)
        except OSError as exc:
            if attempt < 4 and exc.errno in RESET_ERRNOS:
                await asyncio.sleep(1 + attempt * 2)
                continue
            raise
        if status == 429:
            if not response.headers.get("Via") or not isinstance(data, dict):
                raise discord.HTTPException(response, data)
            await asyncio.sleep(float(data.get("retry_after", 1.0)))
            continue
        if status >= 500:
            await asyncio.sleep(1 + attempt * 2)
            continue
        if status == 403:
            raise discord.Forbidden(response, data)
        if status == 404:
            raise discord.NotFound(response, data)
        raise discord.HTTPException(response, data)
    if response is not None and response.status >= 500:
        raise discord.DiscordServerError(response, data)
    raise discord.HTTPException(response, data)


async def answer_press(session: LeanSession, interaction_id: int, token: str, body: dict[str, Any], *,
                       answer: bool = False, files: Files = ()) -> Any:
    """The interaction's callback (``body`` holds its ``type`` and ``data``); with ``answer``, Discord's
    answer (``with_response``: the callback and the message it made), else None.

    Without ``answer`` the callback does not ask for the response (discord.py always does): Discord
    then answers 204 with no body instead of the whole updated message, unread."""
    return await token_request(session, "POST", f"/interactions/{interaction_id}/{token}/callback", token, body,
                               "?with_response=1" if answer else "", answer=answer, files=files)


async def edit_original(session: LeanSession, application_id: int, token: str, body: dict[str, Any],
                        files: Files = ()) -> None:
    """Replace the interaction's response with the message ``body``."""
    await token_request(session, "PATCH", f"/webhooks/{application_id}/{token}/messages/@original", token, body,
                        files=files)


async def send_followup(session: LeanSession, application_id: int, token: str, body: dict[str, Any],
                        files: Files = ()) -> Any:
    """Post the message ``body`` as a followup of the interaction; returns the message Discord answers with
    (the adapter's ``execute_webhook`` with ``wait=True``)."""
    return await token_request(session, "POST", f"/webhooks/{application_id}/{token}", token, body,
                               "?wait=1&with_components=0", answer=True, files=files)


async def edit_followup(session: LeanSession, application_id: int, token: str, message_id: int,
                        body: dict[str, Any], files: Files = ()) -> None:
    """Replace a followup message of the interaction with ``body`` (the adapter's ``edit_webhook_message``)."""
    await token_request(session, "PATCH", f"/webhooks/{application_id}/{token}/messages/{message_id}", token, body,
                        "?with_components=0", files=files)
