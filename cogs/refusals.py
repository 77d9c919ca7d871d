"""Refusals that say what to do instead of only what failed.

:func:`cogs.replies.error_payload` asks :func:`pointed_refusal` first, for the two refusals a
player could not act on as worded:

- "There is no Baloot table in this channel." in the channel whose table plays in a thread
  (``/baloot create thread:True``): the answer links the thread;
- "It is not your turn.": the answer names the player to act (R1: the turn passes anticlockwise,
  and a player sees names at the table, not seat numbers).
"""

from __future__ import annotations

import discord

from baloot.engine.error_codes import ErrorCode
from baloot.engine.errors import BalootError
from baloot.render import Payload, render_text
from baloot.render.text import seat_name

from .presentation.runtime import Runtime


def table_thread(runtime: Runtime, guild_id: int, channel_id: int) -> int | None:
    """The thread of ``channel_id`` where a live table of ``guild_id`` plays, if any (Discord's cache
    holds a server's active threads: they come with the server at start-up and as they are opened)."""
    for info in runtime.service.tables():
        if info.guild_id != guild_id or info.channel_id == channel_id:
            continue
        thread = runtime.client.get_channel(info.channel_id)
        if isinstance(thread, discord.Thread) and thread.parent_id == channel_id:
            return info.channel_id
    return None


def to_act_name(runtime: Runtime, user_id: int, seat: int, locale: str) -> str | None:
    """The display name of ``seat`` at the table where ``user_id`` sits (None if they sit nowhere shown)."""
    mine = runtime.service.table_of_user(user_id)
    state = None if mine is None else runtime.shown.get(mine.id)
    if state is None or not 0 <= seat < 4:
        return None
    return seat_name(runtime.render_info(state), seat, locale, marks=False)


def pointed_refusal(interaction: discord.Interaction, exc: BaseException, locale: str) -> Payload | None:
    """The answer to ``exc`` that points somewhere (a thread, a player), or None for the usual one."""
    runtime = getattr(interaction.client, "runtime", None)
    if not isinstance(exc, BalootError) or not isinstance(runtime, Runtime):
        return None
    if exc.code is ErrorCode.NO_TABLE and interaction.guild_id is not None and interaction.channel_id is not None:
        thread = table_thread(runtime, interaction.guild_id, interaction.channel_id)
        if thread is not None:
            return render_text("error.table_in_thread", locale, thread=f"<#{thread}>")
    if exc.code is ErrorCode.NOT_YOUR_TURN and isinstance(exc.params.get("seat"), int):
        name = to_act_name(runtime, interaction.user.id, int(exc.params["seat"]), locale)
        if name is not None:
            return render_text("error.not_your_turn_name", locale, name=name)
    return None
