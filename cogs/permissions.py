"""What the bot needs in a channel to run a table there.

A table lives in channel messages the bot sends and edits itself (the table
message with its picture, hand-end notes, pings); an interaction reply needs
no permission, so without this check a lobby would appear and every later
message fail. ``/baloot create`` reads the bot's permissions in the channel
from the interaction (``app_permissions``, which Discord sends with every
interaction) and refuses with :class:`MissingPermissions`, naming exactly what
is missing, before anything is stored.

:func:`invite_permissions` is the set the invite link asks for (README).
"""

from __future__ import annotations

import discord

from baloot.engine.error_codes import PERMISSIONS, ErrorCode
from baloot.engine.errors import BalootError

THREAD_TYPES = frozenset({discord.ChannelType.public_thread, discord.ChannelType.private_thread,
                          discord.ChannelType.news_thread})


class MissingPermissions(BalootError):
    """The bot lacks channel permissions a table needs; ``missing`` names them (discord.py's names)."""

    default_code = ErrorCode.BOT_PERMISSIONS

    def __init__(self, missing: list[str]) -> None:
        super().__init__(f"missing channel permissions: {', '.join(missing)}",
                         params={"missing": ",".join(missing)})
        self.missing = missing


def needed(*, thread: bool, pictures: bool, new_thread: bool = False) -> list[str]:
    """The permissions a table needs, in :data:`~baloot.engine.error_codes.PERMISSIONS` order: in a thread
    Send Messages in Threads instead of Send Messages; Attach Files only when pictures are on;
    ``new_thread``: the table goes to a thread the bot opens, which also needs
    Create Public Threads (a thread inherits its channel's permissions)."""
    wanted = {"view_channel", "embed_links", "send_messages_in_threads" if thread or new_thread else "send_messages"}
    if pictures:
        wanted.add("attach_files")
    if new_thread:
        wanted.add("create_public_threads")
    return [name for name in PERMISSIONS if name in wanted]


def missing_permissions(
    granted: discord.Permissions, *, thread: bool, pictures: bool, new_thread: bool = False
) -> list[str]:
    """What of :func:`needed` ``granted`` lacks (an administrator lacks nothing)."""
    if granted.administrator:
        return []
    wanted = needed(thread=thread, pictures=pictures, new_thread=new_thread)
    return [name for name in wanted if not getattr(granted, name)]


def in_thread(interaction: discord.Interaction) -> bool:
    """The interaction came from a thread (a table there cannot open another thread)."""
    return getattr(interaction.channel, "type", None) in THREAD_TYPES


def check_channel(interaction: discord.Interaction, *, pictures: bool, new_thread: bool = False) -> None:
    """Raise :class:`MissingPermissions` unless the bot may run a table in the interaction's channel
    (``new_thread``: in a thread it opens there)."""
    missing = missing_permissions(interaction.app_permissions, thread=in_thread(interaction),
                                  pictures=pictures, new_thread=new_thread)
    if missing:
        raise MissingPermissions(missing)


def invite_permissions() -> discord.Permissions:
    """The permissions the invite link asks for: every one a table may need in a text channel or a
    thread (Create Public Threads for a table in its own thread), and Use External Emojis for the
    card-face emojis (application emojis) in messages."""
    return discord.Permissions(
        view_channel=True,
        send_messages=True,
        send_messages_in_threads=True,
        create_public_threads=True,
        embed_links=True,
        attach_files=True,
        use_external_emojis=True,
    )
