"""Rendered payloads sent as Discord's JSON (bot CPU per press).

discord.py's high-level calls (``InteractionResponse.edit_message``,
``Interaction.edit_original_response``, ``PartialMessage.edit``) turn our
payload's dicts into a ``View`` of ``Button`` objects and ``Embed`` objects,
back into dicts, and parse every answer into a ``Message``: on a button press
that was most of the bot's CPU (``scripts/bench_tables.py --profile``). The
hot paths - answering a press, refreshing a private view, editing the table
message - go through here instead: the body is built once from the payload's
dicts, and the answer is parsed only where its id is needed.

Requests through an interaction's token (answers, private views, the
carrier's followups) go on the bot's own aiohttp session
(:class:`.token_http.TokenHttp`); requests with the bot token go through
discord.py's ``HTTPClient`` (its public request methods: its buckets, global
limit and retries). A payload with files (a picture) is sent as the multipart
form discord.py's builders make (``payload_json``, ``files[n]``). A private
view is refreshed through a :class:`ResponseToken` (the few fields it needs)
instead of keeping the whole ``discord.Interaction`` of the player's last
press (memory per table).

discord.py does not know of the answers sent here, so
``interaction.response.is_done()`` stays False for them: :func:`is_answered`
and :func:`response_type` say what was answered, here or by discord.py
(marks in ``interaction.extras``, the dict discord.py keeps for the bot's
own use; no private attribute of discord.py is written). Project code uses
discord.py's ``interaction.response`` only through :func:`discord_response`,
so a press answered here never makes it (a reference cycle, see there).
``tests/test_wire.py`` checks the bodies against discord.py's own builders on
every payload shape we send.
"""

from __future__ import annotations

import io
import os
import time
import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

import discord
import orjson
from discord.enums import InteractionResponseType
from discord.http import MultipartParameters

from baloot.engine.quick_init import quick_init
from baloot.render import Payload

from . import timings
from .token_http import DEFAULT_ROAD, Files, TokenHttp

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


_ROADS: Final[weakref.WeakKeyDictionary[discord.Client, TokenHttp]] = weakref.WeakKeyDictionary()


def token_http(client: discord.Client) -> TokenHttp:
    """The client's road for requests through interaction tokens (made on first use; discord.py's proxy)."""
    road = _ROADS.get(client)
    if road is None:
        http = client.http
        kind = os.environ.get("TOKEN_HTTP_ROAD", "").strip() or DEFAULT_ROAD  # .env.example
        road = _ROADS[client] = TokenHttp(discord.http.Route.BASE, http.user_agent, proxy=http.proxy,
                                          proxy_auth=http.proxy_auth, road=kind)
    return road


async def close_token_http(client: discord.Client) -> None:
    road = _ROADS.pop(client, None)
    if road is not None:
        await road.close()


# -- what was answered ---------------------------------------------------------------------------------
ANSWERED: Final = "baloot.answered"
"""Key in ``interaction.extras`` (discord.py's dict for the bot's own data, which the library never touches)
of the callback type sent here: the mark lives and dies with the interaction."""
RESPONDING: Final = "baloot.responding"
"""Key in ``interaction.extras`` set once discord.py's own ``interaction.response`` is used
(:func:`discord_response`)."""


def discord_response(interaction: discord.Interaction) -> discord.InteractionResponse[Any]:
    """``interaction.response``, for the answers discord.py sends itself (a command's reply with a view or a
    file, a deferral, the Activity's launch); project code reaches it only through here.

    discord.py makes the response object on first use, and it points back at its interaction: a reference
    cycle that holds the interaction, its message, users and components (about 40 objects) until the cyclic
    collector runs. A press answered through the token never makes it, so all of it is freed by reference
    counting as soon as the press is handled (at 200 tables that took about 66,000 objects per 15 s of play
    off the young collections, whose pauses delayed the presses behind them: ``scripts/bench_tables.py``)."""
    interaction.extras[RESPONDING] = True
    return interaction.response


def _answered_now(interaction: discord.Interaction, callback: int) -> None:
    interaction.extras[ANSWERED] = callback


def response_type(interaction: discord.Interaction) -> int | None:
    """The callback type that answered ``interaction`` (here or by discord.py), None if not answered yet."""
    extras = interaction.extras
    mine: int | None = extras.get(ANSWERED)
    if mine is not None or RESPONDING not in extras:
        return mine
    theirs = interaction.response.type
    return None if theirs is None else theirs.value


def is_answered(interaction: discord.Interaction) -> bool:
    """Whether ``interaction`` has had its one response (any further answer is a followup or an edit)."""
    return response_type(interaction) is not None


def _files(payload: Payload) -> Files:
    """The payload's files, (filename, bytes) each (none: an empty tuple)."""
    return payload.get("files") or ()


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
    if is_answered(interaction):
        await edit_response(interaction.client, ResponseToken.of(interaction), payload)
        return
    timings.answering(interaction.id)
    await token_http(interaction.client).callback(
        interaction.id, interaction.token, {"type": UPDATE_MESSAGE, "data": message_json(payload)},
        files=_files(payload))
    _answered_now(interaction, UPDATE_MESSAGE)


CHANNEL_MESSAGE: Final = InteractionResponseType.channel_message.value
"""Callback type 4: the answer is a new message (a command's reply, "My hand", a refusal)."""
EPHEMERAL: Final = discord.MessageFlags(ephemeral=True).value


async def answer_message(interaction: discord.Interaction, payload: Payload, *, ephemeral: bool) -> int | None:
    """Answer an interaction with a new message (callback type 4); returns the message's id, if Discord said.

    The body is ``InteractionResponse.send_message``'s for the same payload; our
    buttons are dynamic items, so there is no view to keep.
    """
    answer = await token_http(interaction.client).callback(
        interaction.id, interaction.token, message_callback(payload, ephemeral=ephemeral), answer=True,
        files=_files(payload))
    _answered_now(interaction, CHANNEL_MESSAGE)
    return callback_message_id(answer)


def message_callback(payload: Payload, *, ephemeral: bool) -> dict[str, Any]:
    """The JSON body of a type-4 callback posting ``payload`` (its files go beside it, :func:`answer_message`)."""
    data = message_json(payload)
    if ephemeral:
        data["flags"] = EPHEMERAL
    return {"type": CHANNEL_MESSAGE, "data": data}


def callback_message_id(answer: Any) -> int | None:
    """The id of the message a callback made, from Discord's answer (``with_response``), if it says."""
    resource = answer.get("resource") if isinstance(answer, Mapping) else None
    message = resource.get("message") if isinstance(resource, Mapping) else None
    return int(message["id"]) if isinstance(message, Mapping) and "id" in message else None


async def defer_update(interaction: discord.Interaction) -> None:
    """Acknowledge a press now and answer it later by editing its message (callback type 6)."""
    if is_answered(interaction):
        return
    timings.answering(interaction.id)
    await token_http(interaction.client).callback(interaction.id, interaction.token, {"type": DEFERRED_UPDATE})
    _answered_now(interaction, DEFERRED_UPDATE)


DEFERRED_MESSAGE: Final = InteractionResponseType.deferred_channel_message.value
"""Callback type 5: the answer comes later as the response's message ("<bot> is thinking…" until then)."""


async def defer_message(interaction: discord.Interaction, *, ephemeral: bool) -> None:
    """Acknowledge an interaction now and answer it later with a message (callback type 5, ``ephemeral``: seen
    by the asker only), on the interaction-token road as :func:`defer_update` is.

    When the database is slow, most commands of a burst are deferred within the same second (500 tables
    set up at once: about 400 in half a second); each through discord.py's ``InteractionResponse.defer``
    (its own aiohttp path) took long enough that the last ones reached Discord after its 3 s.
    """
    if is_answered(interaction):
        return
    await token_http(interaction.client).callback(interaction.id, interaction.token, deferral_body(ephemeral=ephemeral))
    _answered_now(interaction, DEFERRED_MESSAGE)


def deferral_body(*, ephemeral: bool) -> dict[str, Any]:
    """The body of a type-5 callback: ``InteractionResponse.defer(thinking=True, ephemeral=...)``'s."""
    return {"type": DEFERRED_MESSAGE, "data": {"flags": EPHEMERAL}} if ephemeral else {"type": DEFERRED_MESSAGE}


def deferred_elsewhere(interaction: discord.Interaction) -> None:
    """``interaction`` was acknowledged by another process with a deferred update (a forwarded press)."""
    _answered_now(interaction, DEFERRED_UPDATE)


async def edit_response(client: discord.Client, token: ResponseToken, payload: Payload) -> None:
    """Replace an interaction's response (an ephemeral private view) with ``payload``."""
    await token_http(client).patch_original(token.application_id, token.token, message_json(payload), _files(payload))


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


async def send_followup(client: discord.Client, token: ResponseToken, payload: Payload, *,
                        ephemeral: bool = False) -> int:
    """Post ``payload`` as a followup of an interaction (public: in its channel, not counted in the global
    limit; :mod:`.carrier`), or privately to its user (``ephemeral``). Returns the new message's id."""
    body = message_json(payload)
    if ephemeral:
        body["flags"] = EPHEMERAL
    sent = await token_http(client).post_followup(token.application_id, token.token, body, _files(payload))
    return int(sent["id"])


async def delete_followup(client: discord.Client, token: ResponseToken, message_id: int) -> None:
    """Delete a followup message of an interaction through its token (:mod:`.carrier`)."""
    await token_http(client).delete_followup_message(token.application_id, token.token, message_id)


async def edit_followup(client: discord.Client, token: ResponseToken, message_id: int, payload: Payload) -> None:
    """Edit a followup message of an interaction through its token (:mod:`.carrier`)."""
    await token_http(client).patch_followup(token.application_id, token.token, message_id, message_json(payload),
                                           _files(payload))
