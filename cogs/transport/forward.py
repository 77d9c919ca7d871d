"""A DM press forwarded between bot processes: what travels, and how the holder answers it.

The process that received the press sends :func:`forwarded_payload` (the
interaction's id, application id and token, user, locale, channel, message id
and the button's custom id: what ``discord.Interaction`` needs, not the whole
message). The holder rebuilds a ``discord.Interaction`` from it, marked as
already acknowledged (the receiver deferred it), and runs the same code as a
local press (:func:`cogs.buttons.press`): the same checks and refusals, the
view updated through the token (edits and followups, never a second callback).
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.enums import InteractionResponseType

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


def forwarded_interaction(client: discord.Client, payload: dict[str, Any]) -> discord.Interaction:
    """The press as a ``discord.Interaction`` of this process, already acknowledged (a deferred update)."""
    interaction: discord.Interaction = discord.Interaction(
        data=payload, state=client._connection  # type: ignore[arg-type]
    )
    interaction.response._response_type = InteractionResponseType.deferred_message_update
    return interaction
