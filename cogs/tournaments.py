"""``/baloot tournament create|standings`` and the tournament message's buttons.

A thin adapter over :class:`baloot.tables.tournament_service.TournamentService`: every check is the
service's, every refusal (:class:`TournamentRefusal`) is answered privately in the presser's language
and changes nothing. The tournament message lists the field by display names and is edited whenever
the service announces a change; its buttons and the two private selects are ``DynamicItem``s whose
custom_id carries the tournament and the operation (:mod:`baloot.render.tournament_ids`), so they
work after a restart. Each table of a round opens in its own public thread of the tournament's
channel with its four players pinged; when a round ends, the standings and the next pairings are
posted as a picture (:mod:`baloot.render.standings_picture`).

Creating needs a server admin (Administrator or Manage Server) or a member with the organiser role an admin
names (``/baloot tournament organisers``); the organiser controls (Start, Pause / Resume, Drop a team, End)
need the tournament's creator, an admin or a member with that role. The service is built in
:meth:`TournamentCog.cog_load`, after the table service has resumed its tables, and resumes the
tournaments of this process's servers (tables a crash left unopened, results left unrecorded).
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Awaitable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from baloot.i18n import t
from baloot.render.standings_picture import render_standings
from baloot.render.tournament_ids import BUTTON_ID_TEMPLATE, DROP_ID_TEMPLATE, PARTNER_ID_TEMPLATE, TournamentId
from baloot.tables.tournament_errors import TournamentRefusal
from baloot.tables.tournament_service import (
    BOT_TEAM,
    TeamRow,
    TeamStatus,
    TournamentRow,
    TournamentService,
    TournamentStatus,
    TournamentUpdate,
)
from baloot.tournaments import BYE, Pairing
from cogs.translator import cmd_str

from .items import add_items, remove_items
from .presentation.runtime import runtime_of
from .replies import in_time, is_admin, remember_name, reply_error, user_locale
from .threads import ARCHIVE_MINUTES, THREAD_NAME_MAX
from .transport.wire import discord_response, is_answered

log = logging.getLogger("baloot.discord.tournaments")

FORMAT_CHOICES = [app_commands.Choice(name=cmd_str(f"choice.format.{f}"), value=f) for f in ("swiss", "knockout")]
NO_PINGS = discord.AllowedMentions.none()
ORGANISER_OPS = frozenset({"start", "pause", "drop", "end"})
"""The tournament message's buttons for the organiser (its creator, an admin or the organiser role)."""


def service_of(client: discord.Client) -> TournamentService:
    cog = client.get_cog(TournamentCog.__cog_name__) if isinstance(client, commands.bot.BotBase) else None
    if not isinstance(cog, TournamentCog) or cog.service is None:
        raise RuntimeError("the tournament cog is not loaded")
    return cog.service


def team_name(team: TeamRow | None, locale: str) -> str:
    if team is None:
        return t("tournament.standings.bots", locale)
    return team.name1 if team.name2 is None else f"{team.name1} & {team.name2}"


def language_of(row: TournamentRow) -> str:
    return row.language if row.language in ("en", "ar") else "en"


def message_embed(update: TournamentUpdate) -> discord.Embed:
    """The tournament message: name, format, status and the field by display names."""
    row, locale = update.tournament, language_of(update.tournament)
    if row.format == "knockout":
        kind = t("tournament.message.format.knockout", locale)
    elif row.rounds:
        kind = t("tournament.message.format.swiss", locale, rounds=row.rounds)
    else:
        kind = t("tournament.message.format.swiss_auto", locale)
    deals = row.rules.get("deals")
    if isinstance(deals, int) and deals > 0:
        kind += " · " + t("tournament.message.round_deals", locale, deals=deals)
        if deals >= 2:  # mirrored deals (docs/tournaments.md): the players are told, as bridge numbers its boards
            kind += " · " + t("tournament.message.round_mirrored", locale)
    teams = {team.id: team for team in update.teams}
    winner = team_name(teams.get(row.winner_team or 0), locale)
    status = t(f"tournament.message.status.{row.status.value}", locale, round=row.current_round, winner=winner)
    lines = []
    for team in update.teams:
        if team.status in (TeamStatus.WITHDRAWN,):
            continue
        note = ""
        if team.status == TeamStatus.PENDING:
            note = " " + t("tournament.message.pending", locale, name=team.name2 or "?")
        elif team.status == TeamStatus.ALONE:
            note = " " + t("tournament.message.alone", locale)
        elif team.status == TeamStatus.DROPPED:
            note = " ✖"
        lines.append(f"• {team_name(team, locale)}{note}")
    embed = discord.Embed(title=t("tournament.message.title", locale, name=row.name),
                          description=f"{kind} · {status}", colour=0xC8A24A)
    field = "\n".join(lines)[:1000] or t("tournament.message.nobody", locale)
    embed.add_field(name=t("tournament.message.field", locale, count=len(lines)), value=field, inline=False)
    return embed


def message_view(row: TournamentRow) -> discord.ui.View:
    """The buttons: registration while registering, the organiser's controls until it is over."""
    locale = language_of(row)
    view = discord.ui.View(timeout=None)
    ops: list[tuple[str, discord.ButtonStyle]] = []
    if row.status == TournamentStatus.REGISTERING:
        ops += [("team", discord.ButtonStyle.primary), ("alone", discord.ButtonStyle.secondary),
                ("withdraw", discord.ButtonStyle.secondary), ("start", discord.ButtonStyle.success)]
    if row.status in (TournamentStatus.RUNNING, TournamentStatus.PAUSED):
        ops += [("pause", discord.ButtonStyle.secondary), ("drop", discord.ButtonStyle.secondary)]
    if row.status in (TournamentStatus.REGISTERING, TournamentStatus.RUNNING, TournamentStatus.PAUSED):
        ops.append(("end", discord.ButtonStyle.danger))
    for op, style in ops:
        view.add_item(TournamentButton(TournamentId(row.id, op), t(f"tournament.button.{op}", locale), style))
    return view


def picture_file(service: TournamentService, update: TournamentUpdate, pairings: list[Pairing]) -> discord.File:
    locale = language_of(update.tournament)
    names = {team.id: team_name(team, locale) for team in update.teams}
    names[BOT_TEAM] = t("tournament.standings.bots", locale)
    final = update.kind in ("finished", "ended")
    done_round = update.round_no if final else update.round_no - 1
    data = render_standings(update.tournament.name, done_round, final, list(update.standings), names, pairings,
                            locale)
    return discord.File(io.BytesIO(data), filename=f"tournament-{update.tournament.id}-round-{done_round}.png")


class TournamentCog(commands.Cog):
    """Holds the tournament service; keeps every tournament message up to date."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.service: TournamentService | None = None

    async def cog_load(self) -> None:
        runtime = runtime_of(self.bot)
        service = TournamentService(runtime.service, runtime.service.storage, self.open_thread,
                                    greet=self.ping_players, no_show_seconds=runtime.no_show_seconds)
        service.listeners.append(self.on_update)
        self.service = service

    async def cog_unload(self) -> None:
        if self.service is not None:
            await self.service.close()  # the no-show watches; set again from the stored times on the next start

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After the table service resumed its tables (``setup_hook``): finish what a crash interrupted."""
        if self.service is not None:
            resumed = await self.service.resume()
            if resumed:
                log.info("resumed tournaments %s", resumed)

    async def open_thread(self, row: TournamentRow, round_no: int, pairing: Pairing) -> int:
        """A public thread of the tournament's channel for one table (the service stores it, then
        :meth:`ping_players`)."""
        name = f"{row.name} · {round_no}.{pairing.table_no + 1}"[:THREAD_NAME_MAX]
        data = await self.bot.http.start_thread_without_message(
            row.channel_id, name=name, auto_archive_duration=ARCHIVE_MINUTES,
            type=discord.ChannelType.public_thread.value, reason="Baloot tournament table")
        return int(data["id"])

    async def ping_players(self, row: TournamentRow, round_no: int, pairing: Pairing, thread_id: int) -> None:
        """The table's four players pinged in its thread."""
        locale = language_of(row)
        assert self.service is not None
        teams = {team.id: team for team in await self.service.store.teams(row.id)}

        def mention(team_id: int) -> str:
            team = teams.get(team_id)
            if team is None:
                return t("tournament.standings.bots", locale)
            return " & ".join(f"<@{u}>" for u in (team.player1, team.player2) if u is not None)

        text = t("tournament.round_table", locale, tournament=row.name, round=round_no, table=pairing.table_no + 1,
                 first=mention(pairing.first), second=mention(pairing.second))
        try:
            await self.bot.get_partial_messageable(thread_id).send(
                text, allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False))
        except discord.HTTPException:
            log.warning("could not ping the players of thread %s", thread_id, exc_info=True)

    async def on_update(self, update: TournamentUpdate) -> None:
        """Edit the tournament message; after a round (or at the end) post the standings picture."""
        row = update.tournament
        assert self.service is not None
        channel = self.bot.get_partial_messageable(row.channel_id)
        if row.message_id is not None:
            try:
                await channel.get_partial_message(row.message_id).edit(embed=message_embed(update),
                                                                       view=message_view(row))
            except discord.HTTPException:
                log.warning("could not edit the message of tournament %s", row.id, exc_info=True)
        locale = language_of(row)
        if update.kind == "round" and update.round_no > 1:
            bots = row.bots_allowed and row.format == "swiss"  # a knockout bye is never played
            pairings = [Pairing(s.table_no, s.first_team,
                                s.second_team if s.second_team != BYE else (BOT_TEAM if bots else BYE))
                        for s in update.tables]
            text = t("tournament.round_posted", locale, tournament=row.name, round=update.round_no - 1)
            await channel.send(text, file=picture_file(self.service, update, pairings), allowed_mentions=NO_PINGS)
        elif update.kind == "finished":
            teams = {team.id: team for team in update.teams}
            text = t("tournament.finished_posted", locale, tournament=row.name,
                     winner=team_name(teams.get(row.winner_team or 0), locale))
            await channel.send(text, file=picture_file(self.service, update, []), allowed_mentions=NO_PINGS)


Answer = tuple[str, discord.ui.View | None]
"""A press's private answer: its text, and the view under it (a select) or None."""


async def refuse_or(interaction: discord.Interaction, work: Awaitable[Answer | None], *, defer: bool = True) -> None:
    """Run ``work``, then answer privately with what it returns; a refusal is answered privately in the presser's
    language. ``defer``: work that outlasts :data:`~.replies.DEFER_AFTER` (opening a round's threads and tables,
    a busy database) is acknowledged first (:func:`~.replies.in_time`), so no press is past Discord's 3 s; the
    answer then follows it. Work that answers itself (a public message) is not deferred."""
    try:
        answer = await (in_time(interaction, work, ephemeral=True) if defer else work)
    except TournamentRefusal as refusal:
        answer = (t(refusal.key, user_locale(interaction), **refusal.params), None)
    except Exception as exc:
        await reply_error(interaction, exc)
        return
    if answer is not None:
        await private(interaction, *answer)


async def private(interaction: discord.Interaction, text: str, view: discord.ui.View | None = None) -> None:
    if is_answered(interaction):
        await interaction.followup.send(text, ephemeral=True, view=view or discord.utils.MISSING,
                                        allowed_mentions=NO_PINGS)
    else:
        await discord_response(interaction).send_message(text, ephemeral=True, view=view or discord.utils.MISSING,
                                                         allowed_mentions=NO_PINGS)


def display_name(user: discord.abc.User) -> str:
    return user.display_name[:60]


def has_role(interaction: discord.Interaction, role_id: int | None) -> bool:
    """The member who pressed holds ``role_id`` (None: no organiser role named, nobody holds it)."""
    member = interaction.user
    return role_id is not None and isinstance(member, discord.Member) and member.get_role(role_id) is not None


async def organiser_power(interaction: discord.Interaction, service: TournamentService, row: TournamentRow) -> bool:
    """Whether the presser may use the organiser controls beyond their own tournament: a server admin or a member
    with the organiser role (the service's ``is_admin``). Anyone else but the tournament's creator is refused,
    naming the role where one is set."""
    if is_admin(interaction):
        return True
    role_id = await service.organiser_role(row.guild_id)
    if has_role(interaction, role_id):
        return True
    if interaction.user.id != row.creator_id:
        if role_id is None:
            raise TournamentRefusal("tournament.organiser_only")
        raise TournamentRefusal("tournament.organiser_only_role", role=f"<@&{role_id}>")
    return False


class TournamentButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_ID_TEMPLATE):
    """A button of the tournament message (or the partner's Confirm)."""

    def __init__(self, tid: TournamentId, label: str = "", style: discord.ButtonStyle = discord.ButtonStyle.secondary
                 ) -> None:
        super().__init__(discord.ui.Button(custom_id=tid.encode(), label=label or tid.op, style=style))
        self.tid = tid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> TournamentButton:
        return cls(TournamentId.decode(match.group(0)))

    async def callback(self, interaction: discord.Interaction) -> None:
        await refuse_or(interaction, self.run(interaction))

    async def run(self, interaction: discord.Interaction) -> Answer:
        service = service_of(interaction.client)
        locale = user_locale(interaction)
        tid, user = self.tid.tournament_id, interaction.user
        await remember_name(interaction)
        row = await service.store.tournament(tid)
        if row is None or row.guild_id != interaction.guild_id:
            raise TournamentRefusal("tournament.unknown")
        op = self.tid.op
        admin = await organiser_power(interaction, service, row) if op in ORGANISER_OPS else False
        if op == "team":
            if row.status != TournamentStatus.REGISTERING:
                raise TournamentRefusal("tournament.closed")
            view = discord.ui.View(timeout=None)
            view.add_item(PartnerSelect(TournamentId(tid, "partner")))
            return t("tournament.pick_partner", locale), view
        if op == "drop":
            teams = [team for team in await service.store.teams(tid) if team.status == TeamStatus.ACTIVE]
            if not teams:
                raise TournamentRefusal("tournament.no_such_team")
            view = discord.ui.View(timeout=None)
            view.add_item(DropSelect(TournamentId(tid, "dropteam"), teams[:25], locale))
            return t("tournament.pick_drop", locale), view
        if op == "alone":
            await service.register_alone(tid, user.id, display_name(user))
        elif op == "withdraw":
            await service.withdraw(tid, user.id)
        elif op == "confirm":
            await service.confirm(tid, user.id)
        elif op == "start":
            await service.start(tid, user.id, is_admin=admin)
        elif op == "pause":
            if row.status == TournamentStatus.PAUSED:
                await service.resume_play(tid, user.id, is_admin=admin)
                op = "resumed"
            else:
                await service.pause(tid, user.id, is_admin=admin)
                op = "paused"
        elif op == "end":
            await service.end(tid, user.id, is_admin=admin)
        return t(f"tournament.done.{op}", locale), None


class PartnerSelect(discord.ui.DynamicItem[discord.ui.UserSelect[Any]], template=PARTNER_ID_TEMPLATE):
    """Discord's user select for the partner (built by :class:`TournamentButton`'s factory)."""

    def __init__(self, tid: TournamentId) -> None:
        super().__init__(discord.ui.UserSelect(custom_id=tid.encode(), min_values=1, max_values=1))
        self.tid = tid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PartnerSelect:
        return cls(TournamentId.decode(match.group(0)))

    async def callback(self, interaction: discord.Interaction) -> None:
        await refuse_or(interaction, self.run(interaction))

    async def run(self, interaction: discord.Interaction) -> Answer:
        service = service_of(interaction.client)
        locale = user_locale(interaction)
        picked = self.item.values[0] if self.item.values else None
        if picked is None:
            raise TournamentRefusal("tournament.partner_gone")
        in_guild = isinstance(picked, discord.Member) and picked.guild.id == interaction.guild_id
        user = interaction.user
        await service.register_team(self.tid.tournament_id, user.id, display_name(user), picked.id,
                                    display_name(picked), partner_is_bot=picked.bot, partner_in_guild=in_guild)
        row = await service.store.tournament(self.tid.tournament_id)
        assert row is not None
        view = discord.ui.View(timeout=None)
        view.add_item(TournamentButton(TournamentId(row.id, "confirm"),
                                       t("tournament.button.confirm", language_of(row)), discord.ButtonStyle.success))
        ask = t("tournament.confirm_ask", language_of(row), partner=f"<@{picked.id}>", name=display_name(user),
                tournament=row.name)
        await interaction.client.get_partial_messageable(row.channel_id).send(
            ask, view=view, allowed_mentions=discord.AllowedMentions(users=[picked], roles=False, everyone=False))
        return t("tournament.done.team", locale), None


class DropSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=DROP_ID_TEMPLATE):
    """The organiser's choice of the team to drop."""

    def __init__(self, tid: TournamentId, teams: list[TeamRow] | None = None, locale: str = "en") -> None:
        options = [discord.SelectOption(label=team_name(team, locale)[:100], value=str(team.id))
                   for team in teams or []] or [discord.SelectOption(label="-", value="0")]
        super().__init__(discord.ui.Select(custom_id=tid.encode(), options=options))
        self.tid = tid

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> DropSelect:
        return cls(TournamentId.decode(match.group(0)))

    async def callback(self, interaction: discord.Interaction) -> None:
        await refuse_or(interaction, self.run(interaction))

    async def run(self, interaction: discord.Interaction) -> Answer:
        service = service_of(interaction.client)
        row = await service.store.tournament(self.tid.tournament_id)
        if row is None or row.guild_id != interaction.guild_id:
            raise TournamentRefusal("tournament.unknown")
        power = await organiser_power(interaction, service, row)
        values = self.item.values
        if not values or not values[0].isdigit():
            raise TournamentRefusal("tournament.no_such_team")
        team_id = int(values[0])
        if team_id not in {team.id for team in await service.store.teams(self.tid.tournament_id)}:
            raise TournamentRefusal("tournament.no_such_team")
        await service.drop(self.tid.tournament_id, interaction.user.id, team_id, is_admin=power)
        return t("tournament.done.drop", user_locale(interaction)), None


tournament_group = app_commands.Group(name=cmd_str("cmd.tournament.name"), description=cmd_str("cmd.tournament.desc"))


@tournament_group.command(name=cmd_str("cmd.tournament.create.name"), description=cmd_str("cmd.tournament.create.desc"))
@app_commands.rename(title=cmd_str("opt.tournament_title.name"), format=cmd_str("opt.format.name"),
                     rounds=cmd_str("opt.rounds.name"), deals=cmd_str("opt.round_deals.name"),
                     target=cmd_str("opt.target.name"), turn_time=cmd_str("opt.turn_time.name"),
                     rated=cmd_str("opt.rated.name"),
                     bots_allowed=cmd_str("opt.bots_allowed.name"))
@app_commands.describe(title=cmd_str("opt.tournament_title.desc"), format=cmd_str("opt.format.desc"),
                       rounds=cmd_str("opt.rounds.desc"), deals=cmd_str("opt.round_deals.desc"),
                       target=cmd_str("opt.target.desc"), turn_time=cmd_str("opt.turn_time.desc"),
                       rated=cmd_str("opt.rated.desc"),
                       bots_allowed=cmd_str("opt.bots_allowed.desc"))
@app_commands.choices(format=FORMAT_CHOICES)
async def create(interaction: discord.Interaction, title: app_commands.Range[str, 1, 80],
                 format: app_commands.Choice[str] | None = None,
                 rounds: app_commands.Range[int, 1, 20] | None = None,
                 deals: app_commands.Range[int, 0, 16] | None = None,
                 target: app_commands.Range[int, 1, 1000] | None = None,
                 turn_time: app_commands.Range[int, 10, 600] | None = None,
                 rated: bool | None = None, bots_allowed: bool | None = None) -> None:
    """A server admin, or a member with the organiser role, creates a tournament; its message is posted in this
    channel. A round is a match to ``target`` (R9's match target, default 152) at every table."""
    locale = user_locale(interaction)

    async def work() -> None:
        service = service_of(interaction.client)
        if not is_admin(interaction):
            role_id = await service.organiser_role(interaction.guild_id or 0)
            if not has_role(interaction, role_id):
                if role_id is None:
                    raise TournamentRefusal("tournament.create_denied")
                raise TournamentRefusal("tournament.create_denied_role", role=f"<@&{role_id}>")
        row = await service.create(interaction.guild_id or 0, interaction.channel_id or 0, interaction.user.id, title,
                                   format=format.value if format else "swiss", rounds=rounds,
                                   rules=None if target is None else {"target": target},
                                   turn_seconds=float(turn_time or 60), rated=True if rated is None else rated,
                                   bots_allowed=True if bots_allowed is None else bots_allowed, language=locale,
                                   deals=deals or 0)
        update = TournamentUpdate(row, (), "field", 0, (), ())
        await discord_response(interaction).send_message(embed=message_embed(update), view=message_view(row))
        sent = await interaction.original_response()
        await service.store.set_message(row.id, sent.id)

    await refuse_or(interaction, work(), defer=False)  # the answer is the public tournament message


@tournament_group.command(name=cmd_str("cmd.tournament.organisers.name"),
                          description=cmd_str("cmd.tournament.organisers.desc"))
@app_commands.rename(role=cmd_str("opt.organiser_role.name"))
@app_commands.describe(role=cmd_str("opt.organiser_role.desc"))
async def organisers(interaction: discord.Interaction, role: discord.Role | None = None) -> None:
    """A server admin names the role whose members may create and run tournaments here; without a role, clears it
    (admins only again). Anyone else is refused privately and nothing changes."""
    locale = user_locale(interaction)

    async def work() -> Answer:
        service = service_of(interaction.client)
        admin = is_admin(interaction)
        if admin and role is not None and role.is_default():
            raise TournamentRefusal("tournament.role_everyone")
        await service.set_organiser_role(interaction.guild_id or 0, None if role is None else role.id, is_admin=admin)
        if role is None:
            return t("tournament.done.role_cleared", locale), None
        return t("tournament.done.role", locale, role=role.mention), None

    await refuse_or(interaction, work())


@tournament_group.command(name=cmd_str("cmd.tournament.standings.name"),
                          description=cmd_str("cmd.tournament.standings.desc"))
async def standings(interaction: discord.Interaction) -> None:
    """The standings of this server's latest tournament, as a picture, for anyone."""
    locale = user_locale(interaction)

    async def work() -> None:
        service = service_of(interaction.client)
        rows = await service.store.in_guild(interaction.guild_id or 0)
        if not rows:
            raise TournamentRefusal("tournament.none")
        row = max(rows, key=lambda r: r.id)
        row, lines, teams = await service.standings(row.id)
        over = row.status in (TournamentStatus.FINISHED, TournamentStatus.ENDED)
        names = {team.id: team_name(team, locale) for team in teams}
        data = render_standings(row.name, row.current_round, over, lines, names, [], locale)
        await discord_response(interaction).send_message(
            file=discord.File(io.BytesIO(data), filename="standings.png"))

    await refuse_or(interaction, work(), defer=False)  # the answer is the public picture


ITEMS = (TournamentButton, PartnerSelect, DropSelect)
"""The extension's ``DynamicItem``s (:func:`.items.add_items` in :func:`setup`)."""


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: the service, ``/baloot tournament`` and the buttons."""
    from .stats import baloot_group

    await bot.add_cog(TournamentCog(bot))
    baloot_group(bot).add_command(tournament_group)
    add_items(bot, *ITEMS)


async def teardown(bot: commands.Bot) -> None:
    group = bot.tree.get_command("baloot")
    if isinstance(group, app_commands.Group):
        group.remove_command(tournament_group.name)
    remove_items(bot, *ITEMS)
