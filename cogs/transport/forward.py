"""A DM press forwarded between bot processes: what travels, and how the holder answers it.

The process that received the press sends :func:`forwarded_payload` (the
interaction's id, application id and token, user, locale, channel, message id
and the button's custom id: what ``discord.Interaction`` needs, not the whole
message). The holder rebuilds the press from it (:class:`ForwardedPress`), marked as
already acknowledged (the receiver deferred it), and runs the same code as a
local press (:func:`cogs.buttons.press`): the same checks and refusals, the
view updated through the token (edits and followups, never a second callback).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any, cast

import discord
from discord.enums import try_enum

from .wire import deferred_elsewhere

log = logging.getLogger("baloot.discord")


def forwarded_payload(interaction: discord.Interaction) -> dict[str, Any]:
    """The part of a DM button press's gateway payload the holder needs to answer it."""
    data: Any = interaction.data or {}
    user = interaction.user
    payload: dict[str, Any] = {
        "id": str(interaction.id),
        "application_id": str(interaction.application_id),
        "type": interaction.type.value,
        "token": interaction.token,
        "version": interaction.version,
        "locale": str(interaction.locale),
        "attachment_size_limit": interaction.filesize_limit,
        "user": {"id": str(user.id), "username": user.name, "discriminator": user.discriminator,
                 "global_name": user.global_name, "avatar": None},
        "data": {"custom_id": str(data.get("custom_id", "")), "component_type": 2},
    }
    channel = interaction.channel_id
    if channel is not None:
        payload["channel_id"] = str(channel)
        payload["channel"] = {"id": str(channel), "type": discord.ChannelType.private.value}
    message = interaction.message
    if message is not None:
        payload["message"] = {
            "id": str(message.id), "channel_id": str(message.channel.id), "type": 0, "content": "",
            "author": {"id": str(interaction.application_id), "username": "bot", "discriminator": "0",
                       "avatar": None, "bot": True},
            "attachments": [], "embeds": [], "mentions": [], "mention_roles": [], "mention_everyone": False,
            "pinned": False, "tts": False, "timestamp": message.created_at.isoformat(), "edited_timestamp": None,
            "flags": 0, "components": [],
        }
    return payload


class _Who:
    """The presser, as far as a press reads them (their id and names)."""

    __slots__ = ("discriminator", "display_name", "global_name", "id", "name")

    def __init__(self, data: dict[str, Any]) -> None:
        self.id = int(data["id"])
        self.name = str(data.get("username") or "")
        self.discriminator = str(data.get("discriminator") or "0")
        self.global_name = data.get("global_name")
        self.display_name = str(self.global_name or self.name)


class ForwardedPress:
    """A press another process received and forwarded, with what a press reads of a
    ``discord.Interaction``: ids, token, user, locale, channel, the pressed message's id, the component.

    discord.py builds an ``Interaction`` only from its gateway state, which has no public constructor
    (no private attribute read), so the press is handed to :func:`cogs.buttons.press` as this
    stand-in; everything it answers goes through the token (:mod:`.wire`), never discord.py's response.
    """

    __slots__ = ("application_id", "channel", "channel_id", "client", "data", "extras", "guild", "guild_id", "id",
                 "locale", "message", "permissions", "token", "type", "user")

    def __init__(self, client: discord.Client, payload: dict[str, Any]) -> None:
        self.client = client
        self.id = int(payload["id"])
        self.application_id = int(payload["application_id"])
        self.token = str(payload["token"])
        self.type = discord.InteractionType.component
        self.locale = try_enum(discord.Locale, payload.get("locale") or "en-US")  # Arabic has no member
        self.user = _Who(payload["user"])
        self.data = payload.get("data") or {}
        self.guild = None
        self.guild_id = None  # a DM press: only those are forwarded
        self.permissions = discord.Permissions.none()
        channel_id = payload.get("channel_id")
        self.channel_id = int(channel_id) if channel_id is not None else None
        self.channel = None if self.channel_id is None else client.get_partial_messageable(
            self.channel_id, type=discord.ChannelType.private)
        message = payload.get("message")
        self.message = None if not message or self.channel is None else self.channel.get_partial_message(
            int(message["id"]))
        self.extras: dict[Any, Any] = {}  # as on an Interaction: the bot's own marks (wire.deferred_elsewhere)

    @property
    def created_at(self) -> datetime:
        """When Discord created the press (its id's time), as ``Interaction.created_at`` says it."""
        return discord.utils.snowflake_time(self.id)


def forwarded_interaction(client: discord.Client, payload: dict[str, Any]) -> discord.Interaction:
    """The press as this process answers it (through its token), already acknowledged (a deferred update)."""
    press = cast(discord.Interaction, ForwardedPress(client, payload))
    deferred_elsewhere(press)
    return press
