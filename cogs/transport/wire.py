"""Rendered payloads sent as Discord's JSON through discord.py's request layer (bot CPU per press).

discord.py's high-level calls (``InteractionResponse.edit_message``,
``Interaction.edit_original_response``, ``PartialMessage.edit``) turn our
payload's dicts into a ``View`` of ``Button`` objects and ``Embed`` objects,
back into dicts, and parse every answer into a ``Message``: on a button press
that was most of the bot's CPU (``scripts/bench_tables.py --profile``). The
hot paths - answering a press, refreshing a private view, editing the table
message - go through here instead: the body is built once from the payload's
dicts and sent by discord.py's own request layer (its rate-limit buckets,
retries and ``discord.HTTPException``s are kept); the answer is not parsed.

A payload with files (a picture) is sent as the same multipart form
discord.py's builders make (``payload_json``, ``files[n]``): built as bytes by
:func:`.token_http.multipart` on the lean client's paths, else as the form
parameters discord.py's request layer sends (:func:`message_params`; the bot
token's edits). A private view is refreshed through a
:class:`ResponseToken` (the few fields it needs) instead of keeping the whole
``discord.Interaction`` of the player's last press (memory per table).

This uses discord.py's request adapters (``discord.http``,
``discord.webhook.async_``), stable within the version pinned in
``requirements.txt``; ``tests/cogs/test_wire.py`` checks the bodies against
discord.py's own on every payload shape we send.
"""

from __future__ import annotations

import io
import time
import weakref
from dataclasses import dataclass
from typing import Any, Final

import discord
import orjson
from discord.enums import InteractionResponseType
from discord.http import MultipartParameters
from discord.webhook.async_ import async_context

from baloot.engine.quick_init import quick_init
from baloot.render import Payload

from . import timings, token_http
from .lean_http import LeanSession
from .payloads import send_args
from .token_http import answer_press, edit_original

UPDATE_MESSAGE: Final = InteractionResponseType.message_update.value
"""Callback type 7: the press's answer replaces the message it was on."""
DEFERRED_UPDATE: Final = InteractionResponseType.deferred_message_update.value
"""Callback type 6: the press is acknowledged; its message is edited later."""
NOBODY: Final = discord.AllowedMentions.none().to_dict()
"""``allowed_mentions`` of every message: nobody is pinged by an edit (turn pings are their own messages)."""


def message_json(payload: Payload) -> dict[str, Any]:
    """The JSON body of a message (create or edit); ``files: []`` removes the attachments, and files replace
    them (each named in ``attachments`` by its index, as discord.py's ``File.to_dict`` does).

    Nobody is pinged unless the payload names ``allowed_mentions`` of its own as Discord's JSON
    (a turn ping, :mod:`.pings`)."""
    mentions = payload.get("allowed_mentions")
    body: dict[str, Any] = {
        "content": str(payload.get("content") or ""),
        "embeds": list(payload.get("embeds", [])),
        "components": list(payload.get("components", [])),  # card emojis are drawn in (render_hand's card_emojis)
        "allowed_mentions": mentions if isinstance(mentions, dict) and mentions.get("users") else NOBODY,
    }
    files = payload.get("files")
    if files is not None:
        body["attachments"] = [{"id": index, "filename": name} for index, (name, _) in enumerate(files)]
    return body


def message_params(payload: Payload, *, callback: int | None = None) -> MultipartParameters:
    """Request parameters for ``payload``: a message body, or an interaction callback of type ``callback``.

    With files, the multipart form ``discord.http.handle_message_parameters`` makes (``payload_json``, then
    ``files[n]`` as ``discord.File``s, which discord.py rewinds to retry), built from the payload's dicts
    rather than through a ``View`` of ``Button``s and ``Embed``s (``tests/cogs/test_wire.py`` compares them)."""
    body = message_json(payload)
    if callback is not None:
        body = {"type": callback, "data": body}
    files = payload.get("files")
    if not files:
        return MultipartParameters(payload=body, multipart=None, files=None)
    uploads = [discord.File(io.BytesIO(data), filename=name) for name, data in files]
    form: list[dict[str, Any]] = [{"name": "payload_json", "value": orjson.dumps(body).decode()}]
    form += [{"name": f"files[{index}]", "value": upload.fp, "filename": upload.filename,
              "content_type": "application/octet-stream"} for index, upload in enumerate(uploads)]
    return MultipartParameters(payload=None, multipart=form, files=uploads)


_LEAN: Final[weakref.WeakKeyDictionary[discord.Client, LeanSession]] = weakref.WeakKeyDictionary()


class BotTokenSession:
    """The session discord.py's ``HTTPClient`` is given once the lean client is installed.

    Its requests - the bot-token ones: table messages, DMs - are sent by the
    :class:`~.lean_http.LeanSession` (which hands anything it does not send
    itself, a file or a proxy, to aiohttp); discord.py keeps its rate-limit
    buckets, its global limit, its retries and its errors around each one, as
    for the interaction answers. Everything else (the gateway's websocket, the
    CDN, closing) is discord.py's aiohttp session itself.
    """

    def __init__(self, lean: LeanSession, session: Any) -> None:
        self.lean = lean
        self.session = session

    def request(self, method: str, url: str, **kwargs: Any) -> Any:
        return self.lean.request(method, url, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session, name)


def install_lean_http(client: discord.Client) -> LeanSession:
    """Send this client's interaction answers, view edits and bot-token requests through a
    :class:`~.lean_http.LeanSession` (``HTTP_CLIENT=lean``); everything it does not handle still goes
    through discord.py's aiohttp session."""
    aiohttp_session = _aiohttp_session(client)
    lean = _LEAN[client] = LeanSession(aiohttp_session, discord.http.Route.BASE, client.http.user_agent)
    client.http._HTTPClient__session = BotTokenSession(lean, aiohttp_session)  # type: ignore[attr-defined]
    return lean


async def close_lean_http(client: discord.Client) -> None:
    session = _LEAN.pop(client, None)
    if session is not None:
        await session.close()


def _aiohttp_session(client: discord.Client) -> Any:
    """The aiohttp session discord.py uses now (under the :class:`BotTokenSession` where installed)."""
    session = client.http._HTTPClient__session  # type: ignore[attr-defined]
    return session.session if isinstance(session, BotTokenSession) else session


def _installed(client: discord.Client) -> LeanSession | None:
    """The client's lean session, while it still falls back on the aiohttp session discord.py uses now."""
    lean = _LEAN.get(client)
    return lean if lean is not None and lean.fallback is _aiohttp_session(client) else None


def _lean(client: discord.Client, payload: Payload) -> LeanSession | None:
    """The lean session for ``payload`` (no proxy; files named plainly), else None (the adapter's path)."""
    files = payload.get("files")
    if client.http.proxy is not None or (files and not token_http.plain_filenames(files)):
        return None
    return _installed(client)


def _files(payload: Payload) -> token_http.Files:
    """The payload's files, (filename, bytes) each (none: an empty tuple)."""
    return payload.get("files") or ()


def _session(client: discord.Client) -> Any:
    """The session the webhook adapter is given: the lean one where installed, else discord.py's."""
    return _installed(client) or _aiohttp_session(client)


@quick_init
@dataclass(frozen=True, slots=True)
class ResponseToken:
    """What editing an interaction's response needs (its token is valid for 15 minutes)."""

    application_id: int
    token: str
    created: float  # time.monotonic() when it was received

    @classmethod
    def of(cls, interaction: discord.Interaction) -> ResponseToken:
        return cls(interaction.application_id, interaction.token, time.monotonic())

    def age(self) -> float:
        return time.monotonic() - self.created


async def answer_update(interaction: discord.Interaction, payload: Payload) -> None:
    """Answer a press by replacing its message with ``payload`` (callback type 7; if deferred, an edit)."""
    if interaction.response.is_done():
        await edit_response(interaction.client, ResponseToken.of(interaction), payload)
        return
    client = interaction.client
    http = client.http
    timings.answering(interaction.id)
    lean = _lean(client, payload)
    if lean is not None:
        await answer_press(lean, interaction.id, interaction.token, {"type": UPDATE_MESSAGE,
                                                                     "data": message_json(payload)},
                           files=_files(payload))
    else:
        with message_params(payload, callback=UPDATE_MESSAGE) as params:
            await async_context.get().create_interaction_response(
                interaction.id, interaction.token, session=_session(client),
                proxy=http.proxy, proxy_auth=http.proxy_auth, params=params,
            )
    interaction.response._response_type = InteractionResponseType.message_update


CHANNEL_MESSAGE: Final = InteractionResponseType.channel_message.value
"""Callback type 4: the answer is a new message (a command's reply, "My hand", a refusal)."""
EPHEMERAL: Final = discord.MessageFlags(ephemeral=True).value


async def answer_message(interaction: discord.Interaction, payload: Payload, *, ephemeral: bool) -> int | None:
    """Answer an interaction with a new message (callback type 4); returns the message's id, if Discord said.

    The body is ``InteractionResponse.send_message``'s for the same payload; our
    buttons are dynamic items, so there is no view to keep. Without the lean client, discord.py sends it.
    """
    lean = _lean(interaction.client, payload)
    if lean is None:
        response = await interaction.response.send_message(**send_args(payload), ephemeral=ephemeral)
        return response.message_id
    answer = await answer_press(lean, interaction.id, interaction.token, message_callback(payload, ephemeral=ephemeral),
                                answer=True, files=_files(payload))
    interaction.response._response_type = InteractionResponseType.channel_message
    return callback_message_id(answer)


def message_callback(payload: Payload, *, ephemeral: bool) -> dict[str, Any]:
    """The JSON body of a type-4 callback posting ``payload`` (its files go beside it, :func:`answer_message`)."""
    data = message_json(payload)
    if ephemeral:
        data["flags"] = EPHEMERAL
    return {"type": CHANNEL_MESSAGE, "data": data}


def callback_message_id(answer: Any) -> int | None:
    """The id of the message a callback made, from Discord's answer (``with_response``), if it says."""
    resource = answer.get("resource") if isinstance(answer, dict) else None
    message = resource.get("message") if isinstance(resource, dict) else None
    return int(message["id"]) if isinstance(message, dict) and "id" in message else None


async def defer_update(interaction: discord.Interaction) -> None:
    """Acknowledge a press now and answer it later by editing its message (callback type 6)."""
    if interaction.response.is_done():
        return
    timings.answering(interaction.id)
    lean = _lean(interaction.client, {})
    if lean is None:
        await interaction.response.defer()
        return
    await answer_press(lean, interaction.id, interaction.token, {"type": DEFERRED_UPDATE})
    interaction.response._response_type = InteractionResponseType.deferred_message_update


async def edit_response(client: discord.Client, token: ResponseToken, payload: Payload) -> None:
    """Replace an interaction's response (an ephemeral private view) with ``payload``."""
    lean = _lean(client, payload)
    if lean is not None:
        await edit_original(lean, token.application_id, token.token, message_json(payload), _files(payload))
        return
    http = client.http
    with message_params(payload) as params:
        await async_context.get().edit_original_interaction_response(
            token.application_id, token.token, session=_session(client),
            proxy=http.proxy, proxy_auth=http.proxy_auth,
            payload=params.payload, multipart=params.multipart, files=params.files,
        )


async def edit_message(client: discord.Client, channel_id: int, message_id: int, payload: Payload) -> None:
    """Edit one of the bot's messages (a DM, the table message) with ``payload`` (bot token)."""
    with message_params(payload) as params:
        await client.http.edit_message(channel_id, message_id, params=params)


async def send_message(client: discord.Client, channel_id: int, payload: Payload) -> int:
    """Post ``payload`` in a channel or DM (bot token); returns the new message's id.

    discord.py's ``Messageable.send`` would build a ``View`` of ``Button``s and ``Embed``s from the payload's
    dicts and parse the answer into a cached ``Message``: memory held by every DM waiting on the pace at a
    deal (memory per table), and CPU."""
    with message_params(payload) as params:
        data = await client.http.send_message(channel_id, params=params)
    return int(data["id"])


async def send_followup(client: discord.Client, token: ResponseToken, payload: Payload) -> int:
    """Post ``payload`` as a public followup of an interaction (its channel; not counted in the global limit).

    Returns the new message's id (:mod:`.carrier`)."""
    lean = _lean(client, payload)
    if lean is not None:
        sent = await token_http.send_followup(lean, token.application_id, token.token, message_json(payload),
                                              _files(payload))
        return int(sent["id"])
    http = client.http
    with message_params(payload) as params:
        data = await async_context.get().execute_webhook(
            token.application_id, token.token, session=_session(client),
            proxy=http.proxy, proxy_auth=http.proxy_auth,
            payload=params.payload, multipart=params.multipart, files=params.files, wait=True,
        )
    assert data is not None  # wait=True: Discord answers with the message
    return int(data["id"])


async def delete_followup(client: discord.Client, token: ResponseToken, message_id: int) -> None:
    """Delete a followup message of an interaction through its token (:mod:`.carrier`)."""
    http = client.http
    await async_context.get().delete_webhook_message(
        token.application_id, token.token, message_id, session=_session(client),
        proxy=http.proxy, proxy_auth=http.proxy_auth,
    )


async def edit_followup(client: discord.Client, token: ResponseToken, message_id: int, payload: Payload) -> None:
    """Edit a followup message of an interaction through its token (:mod:`.carrier`)."""
    lean = _lean(client, payload)
    if lean is not None:
        await token_http.edit_followup(lean, token.application_id, token.token, message_id, message_json(payload),
                                       _files(payload))
        return
    http = client.http
    with message_params(payload) as params:
        await async_context.get().edit_webhook_message(
            token.application_id, token.token, message_id, session=_session(client),
            proxy=http.proxy, proxy_auth=http.proxy_auth,
            payload=params.payload, multipart=params.multipart, files=params.files,
        )
