"""What the cogs share: the table service, the tables shown (snapshots), the presenters, the languages.

``bot.py`` builds one :class:`Runtime` in ``setup_hook`` and sets it as
``bot.runtime``; commands and buttons reach it with :func:`runtime_of`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord

from baloot.i18n import resolve_locale
from baloot.render import TableInfo as RenderInfo
from baloot.render import table_info_from
from baloot.tables import TableService

from .shown import ShownTables, TableState

if TYPE_CHECKING:
    from .channel import ChannelBoard
    from .private import PrivateHands


@dataclass
class Languages:
    """Channel languages (issue 4): the table's, else the server's setting, else the default.

    A server whose Discord locale is Arabic gets Arabic without a setting.
    """

    service: TableService
    client: discord.Client
    default: str = "en"
    _guilds: dict[int, str | None] = field(default_factory=dict)

    async def load(self, guild_id: int) -> None:
        """Read (once) the server's language setting from storage."""
        if guild_id not in self._guilds:
            self._guilds[guild_id] = (await self.service.guild_settings(guild_id)).language

    def set_guild(self, guild_id: int, language: str | None) -> None:
        self._guilds[guild_id] = language

    def channel(self, guild_id: int, table_language: str | None) -> str:
        """The language of channel messages of a table in ``guild_id``."""
        if table_language:
            return table_language
        chosen = self._guilds.get(guild_id)
        if chosen:
            return chosen
        guild = self.client.get_guild(guild_id)
        if guild is not None and resolve_locale(guild.preferred_locale) == "ar":
            return "ar"
        return self.default


@dataclass
class Runtime:
    """The Discord layer's shared objects (one per bot process)."""

    client: discord.Client
    service: TableService
    shown: ShownTables
    languages: Languages
    pictures: str = "channel"  # TABLE_PICTURES (issue 10): "channel", "all" or "off"
    channel: ChannelBoard = field(init=False)
    private: PrivateHands = field(init=False)

    def __post_init__(self) -> None:
        from .channel import ChannelBoard
        from .private import PrivateHands

        self.channel = ChannelBoard(self)
        self.private = PrivateHands(self)

    def language_of(self, state: TableState) -> str:
        return self.languages.channel(state.info.guild_id, state.info.language)

    def render_info(self, state: TableState, *, for_seat: int | None = None) -> RenderInfo:
        """The renderer's TableInfo; the deadline shows only where it applies (the seat to move)."""
        snapshot = state.snapshot
        deadline = snapshot.deadline if for_seat is None or for_seat == snapshot.to_move else None
        return table_info_from(
            snapshot.info,
            deadline=deadline,
            notice=state.notice if for_seat is None else None,
            default_language=self.language_of(state),
            dealer=snapshot.dealer,
        )


def runtime_of(client: discord.Client) -> Runtime:
    """The runtime ``bot.py`` attached to the client."""
    runtime = getattr(client, "runtime", None)
    if not isinstance(runtime, Runtime):
        raise RuntimeError("the Baloot runtime is not set up")
    return runtime
