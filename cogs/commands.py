"""The ``/baloot`` slash commands: thin calls into the table service.

Names, descriptions, options and choices come from the message catalog
(:func:`~cogs.translator.cmd_str`), so Discord shows them in Arabic to
Arabic users. Replies about the user are private and in their locale; what
the whole table should read (a table opened, the match begins, the table
ends) is public and in the table's language. Every refusal is a private
message from the command tree's one error handler, :func:`cogs.replies.on_app_command_error`.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from baloot.engine.error_codes import ErrorCode
from baloot.engine.errors import BalootError
from baloot.render import Notice, render_lobby, render_notice, render_rules, render_score_sheet, render_text
from baloot.render.messages import render_last_leave
from baloot.tables import BOT_LEVELS, LastPlayer, NotAllowed
from baloot.tables.quick import is_quick
from cogs.translator import cmd_str

from . import quick
from .buttons import launch_table_page, show_hand
from .permissions import check_channel, in_thread
from .presentation.channel import LOBBY
from .presentation.runtime import Runtime, runtime_of
from .replies import (
    check_choice,
    check_id,
    in_time,
    is_admin,
    join_notice,
    left_notice,
    remember_name,
    reply,
    started_notice,
    tell_dms_closed,
    user_locale,
)
from .review import review_command
from .threads import drop_thread, open_thread, thread_name

TEAM_CHOICES = [app_commands.Choice(name=cmd_str(f"choice.team.{n}"), value=n - 1) for n in (1, 2)]
LANGUAGE_CHOICES = [app_commands.Choice(name=cmd_str(f"choice.language.{code}"), value=code) for code in ("en", "ar")]
SCOPE_CHOICES = [app_commands.Choice(name=cmd_str(f"choice.scope.{s}"), value=s) for s in ("table", "server", "me")]
LEVEL_CHOICES = [app_commands.Choice(name=cmd_str(f"choice.level.{lv}"), value=lv) for lv in BOT_LEVELS]
RULE_OPTIONS = (
    "ashkal_on_ace",
    "ashkal_round_two",
    "third_round_on_ace",
    "kawesh",
    "declarer_leads",
    "trump_sequence_priority",
    "projects_multiply_fully",
    "baloot_stays_with_holder",
    "sawa",
)


def _localized(*names: str) -> dict[str, Any]:
    return {name: cmd_str(f"opt.{name}.name") for name in names}


def _described(*names: str) -> dict[str, Any]:
    return {name: cmd_str(f"opt.{name}.desc") for name in names}


class BalootCommands(commands.Cog):
    """``/baloot create|join|leave|start|bots|hand|score|rules|end|language``."""

    baloot = app_commands.Group(
        name=cmd_str("cmd.baloot.name"), description=cmd_str("cmd.baloot.desc"), guild_only=True
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def runtime(self) -> Runtime:
        return runtime_of(self.bot)

    def channel_language(self, interaction: discord.Interaction) -> str:
        """The language of this channel's table (or of the server when there is none)."""
        guild_id = interaction.guild_id or 0
        try:
            table_language = self.runtime.service.table_info(interaction.channel_id or 0).language
        except BalootError:
            table_language = None
        return self.runtime.languages.channel(guild_id, table_language)

    # -- the table --------------------------------------------------------------------------------
    @baloot.command(name=cmd_str("cmd.create.name"), description=cmd_str("cmd.create.desc"))
    @app_commands.rename(**_localized("target", "turn_time", *RULE_OPTIONS, "thread"))
    @app_commands.describe(**_described("target", "turn_time", *RULE_OPTIONS, "thread"))
    async def create(
        self,
        interaction: discord.Interaction,
        target: app_commands.Range[int, 1, 1000] | None = None,
        turn_time: app_commands.Range[int, 5, 600] | None = None,
        ashkal_on_ace: bool | None = None,
        ashkal_round_two: bool | None = None,
        third_round_on_ace: bool | None = None,
        kawesh: bool | None = None,
        declarer_leads: bool | None = None,
        trump_sequence_priority: bool | None = None,
        projects_multiply_fully: bool | None = None,
        baloot_stays_with_holder: bool | None = None,
        sawa: bool | None = None,
        thread: bool | None = None,
    ) -> None:
        """Open a table in this channel with its options; the creator sits at seat 1.

        First the bot's own permissions in the channel: what is missing is
        named privately and nothing is created (:func:`cogs.permissions.check_channel`).
        ``thread``: the table goes to a new public thread of this channel
        (:mod:`cogs.threads`) and the channel gets one line linking to it; in a thread it plays there."""
        runtime = self.runtime
        user_locale(interaction)
        new_thread = bool(thread) and not in_thread(interaction)
        check_channel(interaction, pictures=runtime.pictures != "off", new_thread=new_thread)
        values = dict(zip(RULE_OPTIONS, (ashkal_on_ace, ashkal_round_two, third_round_on_ace, kawesh,
                                         declarer_leads, trump_sequence_priority, projects_multiply_fully,
                                         baloot_stays_with_holder, sawa), strict=True))
        rules: dict[str, object] = {k: v for k, v in values.items() if v is not None}
        if target is not None:
            rules["target"] = target
        guild_id, channel_id, user = interaction.guild_id or 0, interaction.channel_id or 0, interaction.user
        if new_thread:  # refuse what create would before a thread exists, so no empty thread is left
            runtime.service.check_create(guild_id, user.id)
            name = thread_name(user.display_name, self.channel_language(interaction))
            channel_id = await in_time(interaction, open_thread(interaction, name), ephemeral=False)
        try:
            info = await in_time(interaction, runtime.service.create(
                guild_id, channel_id, user.id, user.display_name, rules=rules or None, turn_seconds=turn_time,
            ), ephemeral=False)
        except BaseException:
            if new_thread:
                await drop_thread(interaction.client, channel_id)
            raise
        state = runtime.shown.track(runtime.service.snapshot(info.id))
        language = runtime.language_of(state)
        # The lobby's buttons say how to join: no command in the words (which would stay in the language
        # the table was created in).
        state.notice = Notice("notice.table_created", seat=0)
        if new_thread:
            # The lobby goes to the thread (bot token: this interaction answers in the channel),
            # and the channel says where the table is.
            runtime.channel.touch(state, LOBBY)
            link = Notice("notice.table_in_thread", seat=0, params=(("thread", f"<#{channel_id}>"),))
            await reply(interaction, render_notice(runtime.render_info(state), link, language), ephemeral=False)
            await remember_name(interaction)  # after the answer: a write that never holds it past Discord's 3 s
            return
        payload = render_lobby(runtime.render_info(state), info.rules, language)
        message_id = await reply(interaction, payload, ephemeral=False)
        if message_id is not None:
            runtime.channel.adopt(info.id, LOBBY, message_id)
            await runtime.service.remember_message(info.id, LOBBY, info.channel_id, message_id)
        await remember_name(interaction)

    @baloot.command(name=cmd_str("cmd.join.name"), description=cmd_str("cmd.join.desc"))
    @app_commands.rename(**_localized("seat", "team"))
    @app_commands.describe(**_described("seat", "team"))
    @app_commands.choices(team=TEAM_CHOICES)
    async def join(
        self,
        interaction: discord.Interaction,
        seat: app_commands.Range[int, 1, 4] | None = None,
        team: app_commands.Choice[int] | None = None,
    ) -> None:
        """Sit at a chosen seat (1–4), in a team, or at the first free seat."""
        locale = user_locale(interaction)
        info = await in_time(interaction, self.runtime.service.join(
            interaction.channel_id or 0, interaction.user.id, interaction.user.display_name,
            seat=None if seat is None else check_choice(seat, range(1, 5)) - 1,
            team=None if team is None else check_choice(team.value, (0, 1)),
        ), ephemeral=True)
        await reply(interaction, join_notice(self.runtime, info, interaction.user.id, interaction.user.display_name,
                                             locale), ephemeral=True)
        await remember_name(interaction)  # after the answer: a write that never holds it past Discord's 3 s

    @baloot.command(name=cmd_str("cmd.leave.name"), description=cmd_str("cmd.leave.desc"))
    async def leave(self, interaction: discord.Interaction) -> None:
        """Stand up (during a match a bot or the safe policy plays the seat until it is retaken).

        The last person at a table during its match is told first that leaving closes the table, with a
        button to do so; nothing changes until they press it."""
        locale = user_locale(interaction)
        channel_id = interaction.channel_id or 0
        service = self.runtime.service
        mine = service.table_of_user(interaction.user.id)
        if mine is not None and is_quick(mine.channel_id) and not service.has_table_in(channel_id):
            channel_id = mine.channel_id  # a quick-match table has no channel: leave it from any server's channel
        try:
            info = await in_time(interaction, service.leave(channel_id, interaction.user.id), ephemeral=True)
        except LastPlayer:
            table = self.runtime.service.table_info(channel_id)
            await reply(interaction, render_last_leave(str(table.id), locale), ephemeral=True)
            return
        await reply(interaction, left_notice(interaction.user.display_name, locale, info), ephemeral=True)

    # -- quick match (cogs/quick.py) ----------------------------------------------------------------
    @baloot.command(name=cmd_str("cmd.quick.name"), description=cmd_str("cmd.quick.desc"))
    @app_commands.rename(**_localized("partner", "language"))
    @app_commands.describe(**_described("partner", "language"))
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def quick(self, interaction: discord.Interaction, partner: discord.Member | None = None,
                    language: app_commands.Choice[str] | None = None) -> None:
        """Wait for a quick match with players of every server (R9 default rules), played in DMs."""
        await quick.join_queue(interaction, partner, None if language is None else language.value)

    @baloot.command(name=cmd_str("cmd.report.name"), description=cmd_str("cmd.report.desc"))
    @app_commands.rename(**_localized("reported"))
    @app_commands.describe(**_described("reported"))
    async def report(self, interaction: discord.Interaction, reported: app_commands.Range[int, 1, 4]) -> None:
        """Report the player of a seat at your quick-match table (stored with the table's record)."""
        await quick.report(interaction, reported)

    @baloot.command(name=cmd_str("cmd.start.name"), description=cmd_str("cmd.start.desc"))
    async def start(self, interaction: discord.Interaction) -> None:
        """Deal the first hand once four are seated."""
        runtime = self.runtime
        user_locale(interaction)
        info = await in_time(interaction, runtime.service.start(interaction.channel_id or 0, interaction.user.id),
                             ephemeral=False)
        await reply(interaction, started_notice(runtime, info), ephemeral=False)
        await tell_dms_closed(interaction)

    @baloot.command(name=cmd_str("cmd.fill.name"), description=cmd_str("cmd.fill.desc"))
    @app_commands.rename(**_localized("level"))
    @app_commands.describe(**_described("level"))
    @app_commands.choices(level=LEVEL_CHOICES)
    async def fill(self, interaction: discord.Interaction, level: app_commands.Choice[str] | None = None) -> None:
        """Seat bots of a level in every empty seat, before the match starts."""
        runtime = self.runtime
        locale = user_locale(interaction)
        info = await in_time(interaction, runtime.service.fill_with_bots(
            interaction.channel_id or 0, interaction.user.id,
            "normal" if level is None else check_choice(level.value, BOT_LEVELS)
        ), ephemeral=True)
        state = runtime.shown.track(runtime.service.snapshot(info.id))
        payload = render_lobby(runtime.render_info(state), info.rules, locale)
        payload["components"] = []  # a private copy: the buttons are on the channel's lobby message
        await reply(interaction, payload, ephemeral=True)

    @baloot.command(name=cmd_str("cmd.end.name"), description=cmd_str("cmd.end.desc"))
    async def end(self, interaction: discord.Interaction) -> None:
        """End the table: its creator or an admin at once, else a vote of the seated players."""
        user_locale(interaction)
        language = self.channel_language(interaction)
        result = await in_time(interaction, self.runtime.service.end(
            interaction.channel_id or 0, interaction.user.id, is_admin=is_admin(interaction)
        ), ephemeral=False)
        mention = interaction.user.mention
        if result.ended and result.by_vote:  # a vote closed it, not its last voter
            payload = render_text("notice.ended_vote", language, votes=result.votes, needed=result.needed)
        elif result.ended:
            payload = render_text("notice.ended", language, name=mention)
        else:
            payload = render_text("notice.vote_end", language, name=mention, votes=result.votes, needed=result.needed)
        await reply(interaction, payload, ephemeral=False)

    @baloot.command(name=cmd_str("cmd.language.name"), description=cmd_str("cmd.language.desc"))
    @app_commands.rename(**_localized("language", "scope"))
    @app_commands.describe(**_described("language", "scope"))
    @app_commands.choices(language=LANGUAGE_CHOICES, scope=SCOPE_CHOICES)
    async def language(
        self,
        interaction: discord.Interaction,
        language: app_commands.Choice[str],
        scope: app_commands.Choice[str] | None = None,
    ) -> None:
        """Set the language of this table (its creator or an admin), of the server (admins), or
        one's own (scope "me": private views, errors and help)."""
        runtime = self.runtime
        user_locale(interaction)
        code = check_choice(language.value, ("en", "ar"))
        if scope is not None:
            check_choice(scope.value, ("table", "server", "me"))
        if scope is not None and scope.value == "me":
            await runtime.languages.set_user(interaction.user.id, code)
            mine = runtime.service.table_of_user(interaction.user.id)
            state = None if mine is None else runtime.shown.get(mine.id)
            seat = None if mine is None else mine.seat_of(interaction.user.id)
            if state is not None and seat is not None and state.hand_no is not None:
                runtime.private.redraw(state, seat)
        elif scope is not None and scope.value == "server":
            if not is_admin(interaction):
                raise NotAllowed("Only a server admin can set the server's language.", code=ErrorCode.ADMIN_ONLY)
            await runtime.service.set_guild_language(interaction.guild_id or 0, code)
            runtime.languages.set_guild(interaction.guild_id or 0, code)
            for state in runtime.shown.tables.values():
                if state.info.guild_id == interaction.guild_id and not state.closed:
                    runtime.channel.touch_current(state)
                    if state.hand_no is not None:
                        runtime.private.redraw(state)
        else:
            await runtime.service.set_language(
                interaction.channel_id or 0, interaction.user.id, code, is_admin=is_admin(interaction)
            )
        await reply(interaction, render_text("notice.language_set", code), ephemeral=True)

    # -- reading ------------------------------------------------------------------------------------
    @baloot.command(name=cmd_str("cmd.hand.name"), description=cmd_str("cmd.hand.desc"))
    async def hand(self, interaction: discord.Interaction) -> None:
        """Your cards and buttons, privately (always a fresh reply)."""
        await show_hand(interaction, None)

    @baloot.command(name=cmd_str("cmd.play.name"), description=cmd_str("cmd.play.desc"))
    async def play(self, interaction: discord.Interaction) -> None:
        """Open this channel's table as a live page inside Discord: Discord launches the
        application's Activity (interaction callback LAUNCH_ACTIVITY), whose page joins the channel's table."""
        await launch_table_page(interaction)

    @baloot.command(name=cmd_str("cmd.score.name"), description=cmd_str("cmd.score.desc"))
    async def score(self, interaction: discord.Interaction) -> None:
        """The score sheet of the match so far."""
        runtime = self.runtime
        locale = user_locale(interaction)
        channel_id = interaction.channel_id or 0
        sheet = runtime.service.score_sheet(channel_id)
        table_id = runtime.service.table_info(channel_id).id
        state = runtime.shown.get(table_id) or runtime.shown.track(runtime.service.snapshot(table_id))
        await reply(interaction, render_score_sheet(runtime.render_info(state), sheet, locale), ephemeral=True)

    @baloot.command(name=cmd_str("cmd.review.name"), description=cmd_str("cmd.review.desc"))
    @app_commands.rename(match=cmd_str("opt.match.name"), hand=cmd_str("opt.review_hand.name"))
    @app_commands.describe(match=cmd_str("opt.match.desc"), hand=cmd_str("opt.review_hand.desc"))
    async def review(self, interaction: discord.Interaction,
                     match: app_commands.Range[int, 1, None] | None = None,
                     hand: app_commands.Range[int, 1, 999] | None = None) -> None:
        """A finished hand's game review, privately (:mod:`cogs.review`)."""
        await review_command(interaction, None if match is None else check_id(match), hand)

    @baloot.command(name=cmd_str("cmd.rules.name"), description=cmd_str("cmd.rules.desc"))
    async def rules(self, interaction: discord.Interaction) -> None:
        """The rules in short (with this table's target when there is one)."""
        runtime = self.runtime
        locale = user_locale(interaction)
        try:
            table_rules = runtime.service.table_info(interaction.channel_id or 0).rules
        except BalootError:
            table_rules = None
        await reply(interaction, render_rules(locale, table_rules), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point (``bot.load_extension("cogs.commands")``)."""
    await bot.add_cog(BalootCommands(bot))
