"""Answering interactions: in time, in the user's locale, privately when it is about them.

Every interaction gets its first response within Discord's 3 s:
:func:`in_time` defers when the work is not done after :data:`DEFER_AFTER`.
Errors become a short ephemeral message from :func:`baloot.render.render_error`
in the user's locale (:func:`reply_error`); nothing in the game changed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Final, TypeVar

import discord

from baloot.errors import BalootError
from baloot.i18n import resolve_locale
from baloot.render import Payload, render_error, render_text

from .payloads import edit_args, message_args, send_args
from .runtime import Runtime, runtime_of

log = logging.getLogger("baloot.discord")
T = TypeVar("T")

DEFER_AFTER: Final = 2.0
"""Seconds of work after which an interaction is deferred (Discord wants an answer within 3 s)."""


class NotYourHand(BalootError):
    """A press on a button of another seat's hand."""

    catalog_key = "error.not_your_hand"


def user_locale(interaction: discord.Interaction) -> str:
    """The language to answer this user in (issue 10, item 3): the one they chose with
    ``/baloot language`` (scope "me"), else their table's (or this channel's table's, or its
    server's setting), else their Discord app's. Their Discord locale is remembered for their DMs."""
    locale = resolve_locale(interaction.locale)
    if not isinstance(getattr(interaction.client, "runtime", None), Runtime):
        return locale
    runtime = runtime_of(interaction.client)
    user_id = interaction.user.id
    runtime.private.locales[user_id] = locale
    table = runtime.service.table_of_user(user_id)
    if table is None:
        try:
            table = runtime.service.table_info(interaction.channel_id or 0)
        except BalootError:
            table = None
    guild_id = table.guild_id if table is not None else interaction.guild_id or 0
    chosen = runtime.languages.viewer(user_id, guild_id, None if table is None else table.language, locale)
    return resolve_locale(chosen)


async def remember_name(interaction: discord.Interaction, user: discord.abc.User | None = None) -> None:
    """Store a user's current display name for leaderboards and stats (issue 10, item 8); never fails."""
    runtime = getattr(interaction.client, "runtime", None)
    if not isinstance(runtime, Runtime):
        return
    who = user or interaction.user
    try:
        await runtime.service.storage.remember_player_names([(who.id, who.display_name)])
    except Exception:  # a best-effort write: the command itself succeeded
        log.warning("could not store the display name of user %s", who.id, exc_info=True)


def is_admin(interaction: discord.Interaction) -> bool:
    """A server admin (Administrator or Manage Server) in this channel."""
    perms = interaction.permissions
    return perms.administrator or perms.manage_guild


async def in_time(interaction: discord.Interaction, work: Awaitable[T], *, ephemeral: bool, update: bool = False) -> T:
    """Await ``work``; if it takes longer than :data:`DEFER_AFTER`, defer the interaction first.

    ``update``: a button press whose answer edits its own message (a deferred update).
    """
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not done and not interaction.response.is_done():
        if update:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    return await task


async def reply(interaction: discord.Interaction, payload: Payload, *, ephemeral: bool) -> int | None:
    """Send ``payload`` as the response (or a followup if deferred); returns the message id."""
    args = send_args(payload)
    if not interaction.response.is_done():
        response = await interaction.response.send_message(**args, ephemeral=ephemeral)
        return response.message_id
    sent = await interaction.followup.send(
        content=args["content"], embeds=args["embeds"], view=args["view"],
        allowed_mentions=args["allowed_mentions"], ephemeral=ephemeral, wait=True,
        files=args.get("files", discord.utils.MISSING),
    )
    return int(sent.id)


async def update(interaction: discord.Interaction, payload: Payload) -> None:
    """Answer a press by editing the message it was on (callback type 7); its files replace the old ones."""
    args = edit_args(payload)
    if not interaction.response.is_done():
        await interaction.response.edit_message(**args)
    else:
        await interaction.edit_original_response(**args)


async def reply_error(interaction: discord.Interaction, exc: BaseException) -> None:
    """The short private message for a refused command or press."""
    if not isinstance(exc, BalootError):
        log.error("interaction failed", exc_info=exc)
    try:
        await reply(interaction, render_error(exc, user_locale(interaction)), ephemeral=True)
    except discord.HTTPException:
        log.exception("could not answer an interaction with an error")


async def tell_dms_closed(interaction: discord.Interaction) -> None:
    """Once after a player's DMs were found closed: say so privately, with what to do instead."""
    runtime = getattr(interaction.client, "runtime", None)
    if runtime is None or not runtime_of(interaction.client).private.take_dm_notice(interaction.user.id):
        return
    payload = render_text("notice.dms_closed", user_locale(interaction))
    try:
        await interaction.followup.send(**message_args(payload), ephemeral=True)
    except discord.HTTPException:
        log.exception("could not tell user %s that their DMs are closed", interaction.user.id)
