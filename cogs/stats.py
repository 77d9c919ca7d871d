"""``/baloot leaderboard|stats|history|record``: thin calls into :mod:`baloot.stats`.

The commands join the ``/baloot`` group of :mod:`cogs.commands` (one command
tree for the whole game, as players expect); :func:`setup` adds them to that
group before ``bot.py`` syncs. The statistics recorder is registered on the
table service *first*, so a match is counted before the presenter announces
it, and it catches up at start-up with any result a crash left unrecorded.

Leaderboards, stats cards and histories are public, in the language of the
player who asked (the one they chose with ``/baloot language …
scope: me``, else their table's, else the server's, else their Discord
app's: :func:`cogs.replies.user_locale`); a page turned is drawn in the
presser's. A match's record file is sent privately unless ``public`` is
asked for. Refusals (unknown player or match, nothing played yet) are
private, in the same language. Leaderboard Previous/Next buttons are
DynamicItems whose custom_id carries guild, order, period and page. The
"Tournaments" order is the tournaments board: players by tournaments won,
then played (docs/tournaments.md), paged the same way.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from baloot.i18n import t
from baloot.render import Payload
from baloot.render.stats import (
    BOARD_ID_TEMPLATE,
    BoardId,
    record_filename,
    render_history,
    render_leaderboard,
    render_record,
    render_stats_card,
)
from baloot.stats import BoardSort, Period, StatsRecorder, StatsService
from baloot.stats.service import BadPage
from cogs.translator import cmd_str

from .items import add_items, remove_items
from .presentation.runtime import maybe_runtime, runtime_of
from .replies import answered, check_choice, check_id, in_time, remember_name, reply, update, user_locale
from .transport.payloads import message_args
from .transport.wire import discord_response, is_answered

log = logging.getLogger("baloot.discord.stats")

SORT_CHOICES = [app_commands.Choice(name=cmd_str(f"choice.sort.{s}"), value=s)
                for s in ("rating", "wins", "winrate", "tournaments")]
PERIOD_CHOICES = [app_commands.Choice(name=cmd_str(f"choice.period.{p}"), value=p) for p in ("week", "month", "all")]


def stats_of(client: discord.Client) -> StatsService:
    """The statistics service of the loaded :class:`StatsCog`."""
    # BotBase: a plain Bot and an AutoShardedBot (SHARD_COUNT) alike
    cog = client.get_cog(StatsCog.__cog_name__) if isinstance(client, commands.bot.BotBase) else None
    if not isinstance(cog, StatsCog):
        raise RuntimeError("the statistics cog is not loaded")
    return cog.stats


async def asker_language(interaction: discord.Interaction) -> str:
    """The language of the player who asked (:func:`~cogs.replies.user_locale`), with this server's
    setting read first (their choice, their table's, the server's, then their app's)."""
    await runtime_of(interaction.client).languages.load(interaction.guild_id or 0)
    return user_locale(interaction)


async def known_names(interaction: discord.Interaction, user_ids: Sequence[int | None],
                      player: discord.User | discord.Member | None) -> dict[int, str]:
    """Stored display names of ``user_ids``, the asker's and the named player's brought up to date."""
    await remember_name(interaction)
    if player is not None:
        await remember_name(interaction, player)
    return await runtime_of(interaction.client).service.storage.player_names([u for u in user_ids if u is not None])


async def board_payload(interaction: discord.Interaction, board: BoardId) -> Payload:
    found = await stats_of(interaction.client).leaderboard(board.guild_id, board.sort.value, board.period.value,
                                                           board.page)
    storage = runtime_of(interaction.client).service.storage
    names = await storage.player_names([e.user_id for e in found.page.entries])
    return render_leaderboard(found.page, found.server, await asker_language(interaction), names, found.tournaments)


@app_commands.command(name=cmd_str("cmd.leaderboard.name"), description=cmd_str("cmd.leaderboard.desc"))
@app_commands.rename(sort=cmd_str("opt.sort.name"), period=cmd_str("opt.period.name"))
@app_commands.describe(sort=cmd_str("opt.sort.desc"), period=cmd_str("opt.period.desc"))
@app_commands.choices(sort=SORT_CHOICES, period=PERIOD_CHOICES)
async def leaderboard(
    interaction: discord.Interaction,
    sort: app_commands.Choice[str] | None = None,
    period: app_commands.Choice[str] | None = None,
) -> None:
    """This server's players by rating (default), wins or win rate, or the tournaments board (tournaments won,
    then played); all time (default), this month or week."""
    user_locale(interaction)
    sort_by = check_choice(sort.value if sort else "rating", [s.value for s in BoardSort])
    since = check_choice(period.value if period else "all", [p.value for p in Period])
    board = BoardId(check_id(interaction.guild_id), BoardSort(sort_by), Period(since), 0, "n")
    payload = await in_time(interaction, board_payload(interaction, board), ephemeral=False)
    await reply(interaction, payload, ephemeral=False)


@app_commands.command(name=cmd_str("cmd.stats.name"), description=cmd_str("cmd.stats.desc"))
@app_commands.rename(player=cmd_str("opt.player.name"))
@app_commands.describe(player=cmd_str("opt.player.desc"))
async def stats(interaction: discord.Interaction, player: discord.User | None = None) -> None:
    """A player's card: rating, matches, hands, buying, Sun/Hokum, kaboots, doubles, best partner."""
    user_locale(interaction)
    user_id = check_id((player or interaction.user).id)
    payload = await in_time(interaction, stats_card(interaction, user_id, player), ephemeral=False)
    await reply(interaction, payload, ephemeral=False)


async def stats_card(interaction: discord.Interaction, user_id: int, player: discord.User | None) -> Payload:
    """A player's card: their figures in this server and their average accuracy over their latest reviewed
    matches (no line where none is reviewed or the bot offers no reviews)."""
    totals = await stats_of(interaction.client).player(check_id(interaction.guild_id), user_id)
    runtime = maybe_runtime(interaction.client)
    accuracy = None if runtime is None or runtime.reviews is None else await runtime.reviews.average_accuracy(user_id)
    names = await known_names(interaction, [user_id, totals.best_partner.user_id if totals.best_partner else None],
                              player)
    return render_stats_card(totals, await asker_language(interaction), names, accuracy)


@app_commands.command(name=cmd_str("cmd.history.name"), description=cmd_str("cmd.history.desc"))
@app_commands.rename(player=cmd_str("opt.player.name"))
@app_commands.describe(player=cmd_str("opt.player.desc"))
async def history(interaction: discord.Interaction, player: discord.User | None = None) -> None:
    """A player's latest matches with teams, score, date and rating change."""
    user_locale(interaction)
    user_id = check_id((player or interaction.user).id)
    payload = await in_time(interaction, history_payload(interaction, user_id, player), ephemeral=False)
    await reply(interaction, payload, ephemeral=False)


async def history_payload(interaction: discord.Interaction, user_id: int, player: discord.User | None) -> Payload:
    """A player's latest matches, every read and write it needs done (all of it inside :func:`in_time`)."""
    entries = await stats_of(interaction.client).history(check_id(interaction.guild_id), user_id)
    language = await asker_language(interaction)
    command = f"`/{t('cmd.baloot.name', language)} {t('cmd.record.name', language)}`"
    names = await known_names(interaction, [user_id, *(u for e in entries for u in e.users)], player)
    return render_history(user_id, entries, language, command, names)


@app_commands.command(name=cmd_str("cmd.record.name"), description=cmd_str("cmd.record.desc"))
@app_commands.rename(match=cmd_str("opt.match.name"), public=cmd_str("opt.public.name"))
@app_commands.describe(match=cmd_str("opt.match.desc"), public=cmd_str("opt.public.desc"))
async def record(interaction: discord.Interaction, match: app_commands.Range[int, 1, None],
                 public: bool | None = None) -> None:
    """The stored R10 record of a match of this server, as a JSON file: privately, or in the channel
    when ``public`` is asked for. How to check it from a terminal is in the README."""
    user_locale(interaction)
    match = check_id(match)
    ephemeral = not public
    text, language = await in_time(interaction, record_and_language(interaction, match), ephemeral=ephemeral)
    args = message_args(render_record(match, language))
    file = discord.File(io.BytesIO(text.encode("utf-8")), filename=record_filename(match))
    if not is_answered(interaction):
        await discord_response(interaction).send_message(
            content=args["content"], file=file, ephemeral=ephemeral, allowed_mentions=args["allowed_mentions"])
    else:
        await interaction.followup.send(content=args["content"], file=file, ephemeral=ephemeral,
                                        allowed_mentions=args["allowed_mentions"])


async def record_and_language(interaction: discord.Interaction, match: int) -> tuple[str, str]:
    """The stored record of ``match`` and the asker's language (both read inside :func:`in_time`)."""
    text = await stats_of(interaction.client).record(check_id(interaction.guild_id), match)
    return text, await asker_language(interaction)


COMMANDS: tuple[app_commands.Command[Any, ..., None], ...] = (leaderboard, stats, history, record)


class LeaderboardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BOARD_ID_TEMPLATE):
    """Previous/Next on a leaderboard: redraws the message at the page its custom_id names."""

    def __init__(self, board: BoardId) -> None:
        super().__init__(discord.ui.Button(custom_id=board.encode()))
        self.board = board

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LeaderboardButton:
        return cls(BoardId.decode(match.group(0)))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answered(interaction, self._turn_page(interaction))

    async def _turn_page(self, interaction: discord.Interaction) -> None:
        user_locale(interaction)
        if check_id(self.board.guild_id) != interaction.guild_id:
            raise BadPage("a leaderboard of another server")
        payload = await in_time(interaction, board_payload(interaction, self.board), ephemeral=True, update=True)
        await update(interaction, payload)


class StatsCog(commands.Cog):
    """Holds the statistics service and registers the recorder on the table service."""

    def __init__(self, bot: commands.Bot, stats: StatsService, recorder: StatsRecorder) -> None:
        self.bot = bot
        self.stats = stats
        self.recorder = recorder

    async def cog_load(self) -> None:
        runtime_of(self.bot).service.add_listener(self.recorder.on_event, first=True)
        caught_up = await self.recorder.catch_up()
        if caught_up:
            log.info("recorded the statistics of %d earlier matches", caught_up)

    async def cog_unload(self) -> None:
        runtime_of(self.bot).service.remove_listener(self.recorder.on_event)


def baloot_group(bot: commands.Bot) -> app_commands.Group:
    """The ``/baloot`` group of :mod:`cogs.commands` (loaded before this extension)."""
    group = bot.tree.get_command("baloot")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("the /baloot group is not registered; load cogs.commands first")
    return group


ITEMS = (LeaderboardButton,)
"""The extension's ``DynamicItem``s (:func:`.items.add_items` in :func:`setup`)."""


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: the service, the recorder, the commands and the page buttons."""
    storage = runtime_of(bot).service.storage
    group = baloot_group(bot)
    await bot.add_cog(StatsCog(bot, StatsService(storage), StatsRecorder(storage)))
    for command in COMMANDS:
        group.add_command(command)
    add_items(bot, *ITEMS)


async def teardown(bot: commands.Bot) -> None:
    group = bot.tree.get_command("baloot")
    if isinstance(group, app_commands.Group):
        for command in COMMANDS:
            group.remove_command(command.name)
    remove_items(bot, *ITEMS)
