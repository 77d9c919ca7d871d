"""Quick match in Discord: ``/baloot quick``, its buttons, ``/baloot report`` (README "Quick match").

Adapters only: the queue, the matching and every check are the table
service's (:mod:`baloot.tables.quick`). What is Discord's is here: the
player's DMs must be open (a quick match is played there), so the queue
message is sent **before** the player is queued — a refusal (403/50007)
answers privately and queues nobody; and a queue the service refuses
deletes that message again.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from baloot.engine.error_codes import ErrorCode
from baloot.engine.errors import BalootError
from baloot.render import render_text
from baloot.render.custom_ids import QUICK_ID_TEMPLATE
from baloot.render.quick import render_queue, render_queue_over
from baloot.tables import AlreadySeated, NoTableHere

from .presentation.private import CANNOT_DM
from .presentation.queue import queue_payload
from .presentation.runtime import Runtime, runtime_of
from .replies import answered, in_time, remember_name, reply, update, user_locale
from .transport.wire import send_message

log = logging.getLogger("baloot.discord")


class DmsClosed(BalootError):
    """The bot cannot send this player direct messages: a quick match cannot be played; nothing queued."""

    default_code = ErrorCode.DMS_CLOSED


async def _open_queue_message(runtime: Runtime, user_id: int, locale: str, name: str) -> tuple[int, int, Any]:
    """Send the player's queue message (before queueing them); :class:`DmsClosed` if their DMs are closed."""
    client = runtime.client
    payload = render_queue(1, [name], False, locale)
    try:
        data = await client.http.start_private_message(user_id)
        channel_id = int(data["id"])
        message_id = await send_message(client, channel_id, payload)
    except discord.Forbidden as exc:
        if exc.code == CANNOT_DM:
            raise DmsClosed() from exc
        raise
    return channel_id, message_id, payload


async def join_queue(interaction: discord.Interaction, partner: discord.abc.User | None = None,
                     language: str | None = None) -> None:
    """``/baloot quick`` and the **Quick match** button: DMs checked by sending the queue message, then queued."""
    runtime = runtime_of(interaction.client)
    service = runtime.service
    locale = user_locale(interaction)
    user = interaction.user
    if interaction.guild_id is None:
        raise NoTableHere("Quick match is started from a server.")
    people = [(user.id, user.display_name), *([(partner.id, partner.display_name)] if partner is not None else [])]
    for uid, _ in people:  # what the service would refuse anyway, before any DM is sent
        if service.table_of_user(uid) is not None:
            raise AlreadySeated()
    opened = [(uid, await in_time(interaction, _open_queue_message(runtime, uid, locale, name), ephemeral=True))
              for uid, name in people]
    try:
        state = await in_time(interaction, service.queue_quick(
            interaction.guild_id, user.id, user.display_name,
            partner=None if partner is None else (partner.id, partner.display_name), language=language),
            ephemeral=True)
    except BaseException:
        for _, (channel_id, message_id, _payload) in opened:
            try:
                await runtime.client.http.delete_message(channel_id, message_id)
            except discord.HTTPException:
                log.info("could not delete a queue message of a refused queueing")
        raise
    for uid, (channel_id, message_id, payload) in opened:
        await service.set_queue_message(uid, channel_id, message_id)
        runtime.queue.track(uid, channel_id, message_id, locale, payload)
    await runtime.queue(state, ())
    await reply(interaction, render_text("quick.queued", locale), ephemeral=True)
    await remember_name(interaction)


async def leave_queue(interaction: discord.Interaction) -> None:
    """**Leave queue** (on the queue message): out of the queue, the message says so; a stale press is refused."""
    runtime = runtime_of(interaction.client)
    locale = user_locale(interaction)
    await in_time(interaction, runtime.service.leave_queue(interaction.user.id), ephemeral=True, update=True)
    runtime.queue.forget(interaction.user.id)
    await update(interaction, render_queue_over("quick.left", locale))


async def play_with_bots(interaction: discord.Interaction) -> None:
    """**Play now with bots**: the entry sits with bots at once (after the documented wait)."""
    runtime = runtime_of(interaction.client)
    locale = user_locale(interaction)
    await in_time(interaction, runtime.service.play_with_bots(interaction.user.id), ephemeral=True, update=True)
    runtime.queue.forget(interaction.user.id)
    await update(interaction, render_queue_over("quick.found", locale))


async def refresh_queue(interaction: discord.Interaction) -> None:
    """Redraw the presser's queue message (used after a refused press on it)."""
    runtime = runtime_of(interaction.client)
    state = await runtime.service.queue_state()
    await update(interaction, queue_payload(state, interaction.user.id, user_locale(interaction),
                                            runtime.service.quick_bots_after))


async def report(interaction: discord.Interaction, seat: int) -> None:
    """``/baloot report``: the presser reports the player of ``seat`` (1..4) at their quick-match table."""
    runtime = runtime_of(interaction.client)
    locale = user_locale(interaction)
    table = runtime.service.table_of_user(interaction.user.id)
    if table is None:
        raise NoTableHere()
    await in_time(interaction, runtime.service.report_player(table.id, interaction.user.id, seat - 1), ephemeral=True)
    await reply(interaction, render_text("quick.reported", locale), ephemeral=True)


class QuickButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=QUICK_ID_TEMPLATE):
    """A quick-match button: ``join`` (lobby, help), ``leave`` the queue, play now with ``bots``."""

    def __init__(self, op: str) -> None:
        super().__init__(discord.ui.Button(custom_id=f"bl:quick:{op}"))
        self.op = op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> QuickButton:
        return cls(match.group("op"))

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.op == "join":
            await answered(interaction, join_queue(interaction))
        elif self.op == "leave":
            await answered(interaction, leave_queue(interaction))
        else:
            await answered(interaction, play_with_bots(interaction))
