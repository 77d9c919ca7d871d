"""A table in its own thread (less noise in the channel).

``/baloot create thread:True`` in a text channel opens a public thread there
and puts the table in it: the lobby, the table messages, the hand ends and the
turn pings all go to the thread, and the channel keeps one line that links to
it. A thread is a channel of its own to the bot (the table service keys tables
by channel id), so nothing else changes; a player pinged in the thread is
added to it by Discord. The bot may open the thread only with Create Public
Threads and post in it only with Send Messages in Threads, both checked before
anything is created (:func:`cogs.permissions.check_channel`).
"""

from __future__ import annotations

import logging
from typing import Final

import discord

from baloot.engine.error_codes import ErrorCode
from baloot.engine.errors import BalootError
from baloot.i18n import t

from .permissions import MissingPermissions

log = logging.getLogger("baloot.discord")

THREAD_NAME_MAX: Final = 100
"""Discord's limit on a channel's name."""
ARCHIVE_MINUTES: Final = 1440
"""A thread nobody writes in for a day is archived by Discord (a table ends long before)."""


class ThreadFailed(BalootError):
    """Discord refused to open the table's thread (e.g. too many active threads); nothing was created."""

    default_code = ErrorCode.THREAD_FAILED


def thread_name(creator: str, language: str) -> str:
    """The thread's name: "Baloot · <creator>" in the table's language, within Discord's 100 characters."""
    name = " ".join(t("table.thread_name", language, name=creator).split())
    return name[:THREAD_NAME_MAX]


async def open_thread(interaction: discord.Interaction, name: str) -> int:
    """Open a public thread in the interaction's channel; its id. Raises :class:`MissingPermissions`
    if Discord says the bot may not, :class:`ThreadFailed` for any other refusal."""
    try:
        data = await interaction.client.http.start_thread_without_message(
            interaction.channel_id or 0,
            name=name,
            auto_archive_duration=ARCHIVE_MINUTES,
            type=discord.ChannelType.public_thread.value,
            reason="Baloot table",
        )
    except discord.Forbidden as exc:
        raise MissingPermissions(["create_public_threads"]) from exc
    except discord.HTTPException as exc:
        log.warning("could not open a thread in channel %s: %s", interaction.channel_id, exc)
        raise ThreadFailed("Discord refused to open the thread") from exc
    return int(data["id"])


async def drop_thread(client: discord.Client, thread_id: int) -> None:
    """Best effort: remove a thread opened for a table that was then refused (a race with another
    command of the same user); deleting needs Manage Threads, so a refusal is only logged."""
    try:
        await client.http.delete_channel(thread_id, reason="Baloot table not opened")
    except discord.HTTPException as exc:
        log.info("could not remove the unused thread %s: %s", thread_id, exc)
