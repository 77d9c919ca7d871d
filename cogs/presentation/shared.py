"""What the table's views share: the service, the tables shown (snapshots), languages, carriers, pictures.

:class:`Shared` is what each view (the channel board, the private hands, the pings) is built
with; :class:`~cogs.presentation.runtime.Runtime` adds the views themselves. Kept apart so that
no view imports the runtime that builds it (no import circle, ``tests/test_layers.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import discord

from baloot.i18n import resolve_locale
from baloot.render import RenderInfo, table_info_from
from baloot.tables import TableService
from baloot.tables.reviews import ReviewService

from ..transport.carrier import Carriers
from .pictures import PictureProcess, PictureWorker
from .shown import ShownTables, TableState


@dataclass
class Languages:
    """Channel languages: the table's, else the server's setting, else the default.

    A server whose Discord locale is Arabic gets Arabic without a setting.
    """

    service: TableService
    client: discord.Client
    default: str = "en"
    _guilds: dict[int, str | None] = field(default_factory=dict)
    users: dict[int, str] = field(default_factory=dict)  # languages players chose for themselves

    async def load_saved(self) -> None:
        """Read every player's and every server's chosen language from storage (at start-up).

        A server's setting is known before any of its tables is created or resumed: help and errors
        in its channels follow it from the first command after a restart."""
        self.users = await self.service.storage.player_languages()
        self._guilds.update(await self.service.storage.guild_languages())

    async def set_user(self, user_id: int, language: str | None) -> None:
        """Store the language ``user_id`` chose for their private views, errors and help."""
        await self.service.storage.set_player_language(user_id, language)
        if language is None:
            self.users.pop(user_id, None)
        else:
            self.users[user_id] = language

    def chosen_table(self, guild_id: int, table_language: str | None) -> str | None:
        """A language chosen for a table: its own, else the server's setting; None if neither."""
        return table_language or self._guilds.get(guild_id) or None

    def viewer(self, user_id: int, guild_id: int, table_language: str | None, discord_locale: str | None) -> str:
        """The language of one player's private views, errors and help: the
        language they chose, else the table's (or its server's), else their Discord app's."""
        return (self.users.get(user_id) or self.chosen_table(guild_id, table_language)
                or discord_locale or self.default)

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
class Shared:
    """The Discord layer's shared objects (one per bot process), without the views."""

    client: discord.Client
    service: TableService
    shown: ShownTables
    languages: Languages
    pictures: str = "channel"  # TABLE_PICTURES: "channel", "all" or "off"
    reviews: ReviewService | None = None  # the game reviews (baloot.tables.reviews); None: not offered
    activity: bool = False  # the Activity is set up: table messages get an "Open table" button
    quick_invite_seconds: float = 120.0  # QUICK_INVITE_SECONDS: a quick-match partner's time to accept
    no_show_seconds: float = 600.0  # TOURNAMENT_NO_SHOW_MINUTES × 60: a tournament team never acting forfeits
    carriers: Carriers = field(init=False)
    drawer: PictureWorker = field(init=False)
    review_drawer: PictureProcess = field(init=False)  # the game reviews' pictures, in a process

    def __post_init__(self) -> None:
        self.carriers = Carriers()
        self.drawer = PictureWorker()
        self.review_drawer = PictureProcess()

    def language_of(self, state: TableState) -> str:
        return self.languages.channel(state.info.guild_id, state.info.language)

    def render_info(self, state: TableState, *, for_seat: int | None = None) -> RenderInfo:
        """The renderer's TableInfo; the deadline shows only where it applies (the seat to move), and not once
        the table is closed (then every view says so: :attr:`~.shown.TableState.closing`)."""
        snapshot = state.snapshot
        deadline = snapshot.deadline if for_seat is None or for_seat == snapshot.to_move else None
        notice = state.notice if for_seat is None else None
        language = self.language_of(state)
        # the snapshot's few variants (the seat to move, the others, the channel) are built once each
        infos = state.render_infos
        if infos is None or infos[0] is not snapshot:
            infos = state.render_infos = (snapshot, {})
        closed = state.closing
        if closed is not None:
            deadline = None  # closed: no turn runs out any more
        key = (deadline, notice, language, closed)
        info = infos[1].get(key)
        if info is None:
            info = infos[1][key] = table_info_from(
                snapshot.info, deadline=deadline, notice=notice, default_language=language, dealer=snapshot.dealer,
                closed=closed, activity=self.activity)
        return info
