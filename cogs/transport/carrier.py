"""Table messages carried by interaction tokens (spend the global rate limit on what matters).

Discord's global limit (50 requests/s per bot, all processes together) counts
bot-token calls only. An interaction's token (valid 15 minutes) may post
followup messages in the interaction's channel and edit them, and those calls
are not counted. When players play in the channel (the "My hand" button, a
press in that ephemeral view, a lobby button, a slash command), each of their
interactions there is a *carrier*: the table's next channel message is posted
as a public followup of the freshest carrier, and every later edit of that
message goes through the same token while it is valid. Only when no carrier is
fresh (players who play in their DMs, whose presses arrive in DM channels) or
the token has run out does the board fall back to the bot token.

Choices:

- A carrier is offered only once its interaction has been answered with a
  message or an update (callback types 4, 6, 7): a followup of a deferred
  "thinking" answer (type 5) would replace that answer.
- A new message is posted through a carrier at most :data:`CARRIER_AGE` old,
  so the message stays editable through its token for the rest of a hand
  (:data:`EDIT_LIFETIME` in all); after that, edits go back to the bot token.
- Nothing here is stored: after a restart the board edits with the bot token
  until the players' next interactions.
"""

from __future__ import annotations

import time
from typing import Final

import discord
from discord.enums import InteractionResponseType

from baloot.render import Payload

from .wire import ResponseToken, delete_followup, edit_followup, response_type, send_followup

CARRIER_AGE: Final = 5 * 60.0
"""Seconds an interaction may be old to carry a new table message (leaving 9 minutes of edits)."""
EDIT_LIFETIME: Final = 14 * 60.0
"""Seconds after its interaction that a carried message is still edited through the token (Discord: 15 min)."""
PRUNE_EVERY: Final = 1024
"""Offers between two sweeps of what expired (channels that went quiet, messages of ended tables)."""
ANSWERED: Final = frozenset({
    InteractionResponseType.channel_message.value,
    InteractionResponseType.deferred_message_update.value,
    InteractionResponseType.message_update.value,
})
"""Callback types after which a public followup is a new message (not the answer of a deferred one)."""


class Carriers:
    """The freshest answered interaction of each channel, and the token of each message it carried."""

    def __init__(self) -> None:
        self.by_channel: dict[int, ResponseToken] = {}
        self.by_message: dict[int, ResponseToken] = {}
        self._offers = 0

    def offer(self, interaction: discord.Interaction) -> None:
        """An interaction was answered: it may carry its channel's next table message."""
        if (interaction.guild_id is None or interaction.channel_id is None
                or response_type(interaction) not in ANSWERED):
            return
        self.by_channel[interaction.channel_id] = ResponseToken.of(interaction)
        self._offers += 1
        if self._offers % PRUNE_EVERY == 0:
            self.prune()

    def carrier(self, channel_id: int) -> ResponseToken | None:
        """A token fresh enough to post a new message in ``channel_id`` through it, if any."""
        token = self.by_channel.get(channel_id)
        if token is None or token.age() > CARRIER_AGE:
            self.by_channel.pop(channel_id, None)
            return None
        return token

    def token_of(self, message_id: int) -> ResponseToken | None:
        """The token a message was posted through, while it may still edit it."""
        token = self.by_message.get(message_id)
        if token is not None and token.age() > EDIT_LIFETIME:
            del self.by_message[message_id]
            return None
        return token

    def forget(self, *message_ids: int) -> None:
        for message_id in message_ids:
            self.by_message.pop(message_id, None)

    def prune(self) -> None:
        """Drop what can no longer carry or edit (called now and then; the dicts stay small)."""
        now = time.monotonic()
        self.by_channel = {c: t for c, t in self.by_channel.items() if now - t.created <= CARRIER_AGE}
        self.by_message = {m: t for m, t in self.by_message.items() if now - t.created <= EDIT_LIFETIME}

    async def send(self, client: discord.Client, channel_id: int, payload: Payload) -> int | None:
        """Post ``payload`` in the channel through its carrier; the message id, or None (use the bot token)."""
        token = self.carrier(channel_id)
        if token is None:
            return None
        try:
            message_id = await send_followup(client, token, payload)
        except discord.HTTPException:
            self.by_channel.pop(channel_id, None)  # expired or refused: the bot token sends it
            return None
        self.by_message[message_id] = token
        return message_id

    async def edit(self, client: discord.Client, message_id: int, payload: Payload) -> bool:
        """Edit a carried message through its token; False if it has none (any more): use the bot token."""
        token = self.token_of(message_id)
        if token is None:
            return False
        try:
            await edit_followup(client, token, message_id, payload)
        except discord.HTTPException:
            self.forget(message_id)
            return False
        return True

    async def delete(self, client: discord.Client, message_id: int) -> bool:
        """Delete a carried message through its token; False if it has none (any more): use the bot token."""
        token = self.token_of(message_id)
        if token is None:
            return False
        try:
            await delete_followup(client, token, message_id)
        except discord.NotFound:
            pass  # already gone
        except discord.HTTPException:
            return False
        self.forget(message_id)
        return True
