"""Answering interactions: in time, in the user's locale, privately when it is about them.

Every interaction gets its first response within Discord's 3 s:
:func:`in_time` defers when the work is not done after :data:`DEFER_AFTER`.
A press deferred that way shows the player nothing until its answer, so a
press still not saved after :data:`SLOW_AFTER` is told so privately
(:class:`SlowNotice`), and that message then says whether
the move was applied or refused.
Every failure is answered by one path, :func:`reply_error`: a
short ephemeral message in the user's locale saying what happened and that
nothing changed — a refusal (a :class:`~baloot.engine.errors.BalootError`), a
storage fault (:class:`~baloot.storage.StorageUnavailable`: "try again in a
moment") or an unexpected exception (an apology, logged once with the
table, user and component). Application commands reach it through the
tree's ``on_error`` (:func:`install_error_handler`); components through
:func:`answered`, which wraps every DynamicItem callback. Ids and choices
read from a component or an option are checked (:func:`parse_id`,
:func:`check_id`, :func:`check_choice`) before any query.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Collection
from typing import Any, Final, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from baloot.engine.errors import BalootError
from baloot.i18n import resolve_locale, t
from baloot.render import Payload, render_error, render_text
from baloot.render.messages import render_left
from baloot.render.text import display_name, seat_name
from baloot.tables import StorageUnavailable, TableInfo

from .interaction_clock import CLOCK
from .presentation.runtime import Runtime, maybe_runtime
from .refusals import pointed_refusal
from .transport.wire import (
    ResponseToken,
    answer_message,
    answer_update,
    defer_message,
    defer_update,
    delete_followup,
    edit_followup,
    is_answered,
    send_followup,
)

log = logging.getLogger("baloot.discord")
T = TypeVar("T")

DEFER_AFTER: Final = 2.0
"""Age (seconds since Discord created it) at which an interaction still at work is deferred (Discord wants
its first answer within 3 s of that moment; :mod:`cogs.interaction_clock`)."""

SLOW_AFTER: Final = 4.0
"""Seconds after which a press whose work is still running is told privately that saving is delayed."""

ID_MAX: Final = 2**63 - 1
"""The largest id storage holds (a signed 64-bit integer, as SQLite and PostgreSQL's bigint)."""


class BadInput(BalootError):
    """An id, option or choice that no real client sends (forged, out of range, missing)."""

    catalog_key = "error.bad_input"


def parse_id(text: str) -> int:
    """An id from a component id: ASCII digits, 1 .. :data:`ID_MAX`; raises BadInput."""
    if not (text.isascii() and text.isdigit()) or len(text) > 19:
        raise BadInput(f"not an id: {text[:40]!r}")
    return check_id(int(text))


def check_id(value: object) -> int:
    """An id from an option (or already parsed): an int in 1 .. :data:`ID_MAX`; raises BadInput."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= ID_MAX:
        raise BadInput(f"id out of range: {str(value)[:40]}")
    return value


def check_choice(value: T, allowed: Collection[T]) -> T:
    """A command option's value that must be one of its choices; raises BadInput."""
    if value not in allowed:
        raise BadInput(f"not one of the choices: {str(value)[:40]!r}")
    return value


def user_locale(interaction: discord.Interaction) -> str:
    """The language to answer this user in: the one they chose with
    ``/baloot language`` (scope "me"), else their table's (or this channel's table's, or its
    server's setting), else their Discord app's. Their Discord locale is remembered for their DMs."""
    locale = resolve_locale(interaction.locale)
    runtime = maybe_runtime(interaction.client)
    if runtime is None:
        return locale
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
    """Store a user's current display name for leaderboards and stats; never fails."""
    runtime = maybe_runtime(interaction.client)
    if runtime is None:
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


async def in_time(interaction: discord.Interaction, work: Awaitable[T], *, ephemeral: bool, update: bool = False,
                  slow: SlowNotice | None = None) -> T:
    """Await ``work``; if the interaction is :data:`DEFER_AFTER` old before it is done, defer the interaction first.

    The age counts from when Discord created the interaction (:func:`defer_delay`): the time it waited before
    this work began (a busy event loop, a command's earlier steps) counts too.

    ``update``: a button press whose answer edits its own message (a deferred update).
    ``slow``: if the work takes longer than :data:`SLOW_AFTER`, post that notice privately (once
    deferred); the caller then settles it with the outcome (:meth:`SlowNotice.applied`,
    :meth:`SlowNotice.refused`).
    """
    deferral: asyncio.Task[Any] | None = None
    loop = asyncio.get_running_loop()
    timer: asyncio.TimerHandle | None = None

    def too_long() -> None:  # a timer on the loop: the work is awaited in this task, not a task of its own
        nonlocal deferral, timer
        if not is_answered(interaction):
            deferral = asyncio.ensure_future(
                defer_update(interaction) if update else defer_message(interaction, ephemeral=ephemeral))
        if slow is not None:  # one timer at a time (most presses end before the first): the slow one follows
            timer = loop.call_later(SLOW_AFTER - DEFER_AFTER, still_running)

    def still_running() -> None:
        if slow is not None:
            slow.post(deferral)

    timer = loop.call_later(defer_delay(interaction), too_long)
    try:
        return await work
    finally:
        timer.cancel()  # the one pending, whichever it is
        if deferral is not None:
            await deferral  # the answer must not race the deferral (its failure is this press's)
        if slow is not None:
            await slow.posted()  # the outcome edits the notice: it must be there first


def defer_delay(interaction: discord.Interaction) -> float:
    """Seconds until ``interaction`` is :data:`DEFER_AFTER` old (by its id's time; 0 if it already is)."""
    return CLOCK.time_left(interaction, DEFER_AFTER)


class SlowNotice:
    """A slow press's private word that saving is delayed, then its outcome.

    A press whose work outlasts :data:`DEFER_AFTER` is acknowledged by a deferred update, and
    Discord shows the player nothing until the answer. Its work waits for the database (another
    program holding SQLite's write lock: every write waits its turn, up to the busy timeout each),
    so after :data:`SLOW_AFTER` :func:`in_time` posts this notice ("saving your move is delayed") as a
    private followup. The press then turns it into its outcome: :meth:`applied` (the move is stored)
    or :meth:`refused` (the refusal in the player's words, the same text :func:`reply_error` sends).
    """

    def __init__(self, interaction: discord.Interaction, locale: str) -> None:
        self.interaction = interaction
        self.locale = locale
        self.message_id: int | None = None
        self._posting: asyncio.Task[None] | None = None

    def post(self, deferral: Awaitable[Any] | None) -> None:
        """Post the notice once ``deferral`` (the acknowledgement it follows) is done; from a loop timer."""
        if self._posting is None:
            self._posting = asyncio.ensure_future(self._post(deferral))

    async def _post(self, deferral: Awaitable[Any] | None) -> None:
        try:
            if deferral is not None:
                await deferral
        except Exception:  # in_time raises the deferral's failure as the press's own
            return
        if not is_answered(self.interaction):  # acknowledged here or by discord.py (wire.is_answered)
            return
        try:
            self.message_id = await reply(self.interaction, render_text("notice.move_delayed", self.locale),
                                          ephemeral=True)
        except discord.HTTPException:
            log.warning("could not tell user %s that saving is delayed", self.interaction.user.id, exc_info=True)

    async def posted(self) -> None:
        """Wait until the notice, if one is on its way, is posted (or failed to be)."""
        if self._posting is not None:
            await self._posting

    def _take(self) -> int | None:
        message_id, self.message_id = self.message_id, None
        return message_id

    async def applied(self) -> None:
        """The move is stored: the notice, if posted, says so."""
        await self.posted()
        message_id = self._take()
        if message_id is None:
            return
        try:
            await edit_followup(self.interaction.client, ResponseToken.of(self.interaction), message_id,
                                render_text("notice.move_applied", self.locale))
        except discord.HTTPException:
            log.warning("could not tell user %s that their move was applied", self.interaction.user.id, exc_info=True)

    async def refused(self, exc: BaseException) -> bool:
        """The press failed with ``exc``: the notice, if posted, becomes its private answer (as
        :func:`reply_error` would send it). False: no notice was posted (or it could not be edited), so
        the caller answers with :func:`reply_error` as usual."""
        await self.posted()
        if self.message_id is None or (isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_INTERACTION):
            return False
        message_id = self._take()
        assert message_id is not None
        try:
            await edit_followup(self.interaction.client, ResponseToken.of(self.interaction), message_id,
                                error_payload(self.interaction, exc))
        except discord.HTTPException:
            log.warning("could not tell user %s that their move was refused", self.interaction.user.id, exc_info=True)
            return False
        return True

    async def withdraw(self) -> None:
        """The press is answered another way (forwarded to another process): the notice goes."""
        await self.posted()
        message_id = self._take()
        if message_id is None:
            return
        try:
            await delete_followup(self.interaction.client, ResponseToken.of(self.interaction), message_id)
        except discord.HTTPException:
            log.warning("could not delete the delay notice of user %s", self.interaction.user.id, exc_info=True)


async def reply(interaction: discord.Interaction, payload: Payload, *, ephemeral: bool) -> int | None:
    """Send ``payload`` as the response (or a followup if deferred); returns the message id."""
    if not is_answered(interaction):
        return await answer_message(interaction, payload, ephemeral=ephemeral)
    return await send_followup(interaction.client, ResponseToken.of(interaction), payload, ephemeral=ephemeral)


async def update(interaction: discord.Interaction, payload: Payload) -> None:
    """Answer a press by editing the message it was on (callback type 7); its files replace the old ones."""
    await answer_update(interaction, payload)


def _context(interaction: discord.Interaction) -> tuple[str, int, str]:
    """(table id or "-", user id, component id or command name) for the log."""
    data: Any = interaction.data or {}
    component = str(data.get("custom_id") or "/" + str(data.get("name") or "?"))[:100]
    table = "-"
    runtime = maybe_runtime(interaction.client)
    if runtime is not None:
        try:
            table = str(runtime.service.table_info(interaction.channel_id or 0).id)
        except Exception:
            table = "-"
    return table, interaction.user.id, component


def error_payload(interaction: discord.Interaction, exc: BaseException) -> Payload:
    """The private answer to a failure in the player's language (:func:`user_locale`), logging what is
    not a refusal (unexpected errors once, in full)."""
    try:
        locale = user_locale(interaction)
    except Exception:  # answering must not fail on the way to the language
        locale = resolve_locale(interaction.locale)
    if isinstance(exc, BalootError):
        return pointed_refusal(interaction, exc, locale) or render_error(exc, locale)
    table, user, component = _context(interaction)
    if isinstance(exc, StorageUnavailable):
        log.warning("storage unavailable (%s): table %s, user %s, component %s", exc.reason, table, user, component)
        return render_text("error.storage_unavailable", locale)
    log.error("interaction failed: table %s, user %s, component %s", table, user, component, exc_info=exc)
    return render_text("error.internal", locale)


UNKNOWN_INTERACTION: Final = 10062
"""Discord's code for an interaction answered after its 3 s (or already answered elsewhere)."""


async def reply_error(interaction: discord.Interaction, exc: BaseException) -> None:
    """The short private message for a refused command or press, a storage fault or a bug.

    Not for an answer that came too late for Discord (10062): another answer would be
    refused too. What the press did is stored, and its views follow by the usual ways.
    """
    if isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_INTERACTION:
        table, user, component = _context(interaction)
        log.warning("answered too late for Discord (10062): table %s, user %s, component %s", table, user, component)
        return
    try:
        await reply(interaction, error_payload(interaction, exc), ephemeral=True)
    except discord.HTTPException:
        log.exception("could not answer an interaction with an error")


def carry(interaction: discord.Interaction) -> None:
    """An answered interaction in a channel may carry the table's next message there (:mod:`.carrier`)."""
    runtime = maybe_runtime(interaction.client)
    if runtime is not None:
        runtime.carriers.offer(interaction)


async def answered(interaction: discord.Interaction, work: Awaitable[None]) -> None:
    """Await a component's work; whatever it raises is answered privately (:func:`reply_error`)."""
    try:
        await work
    except Exception as exc:
        await reply_error(interaction, exc)
    carry(interaction)


async def on_app_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """The command tree's one error handler: every failed command is answered privately."""
    if isinstance(error, app_commands.CommandInvokeError):
        await reply_error(interaction, error.original)
    elif isinstance(error, app_commands.TransformerError | app_commands.CommandSignatureMismatch
                    | app_commands.CommandNotFound | app_commands.CheckFailure):
        await reply_error(interaction, BadInput(str(error)))
    else:
        await reply_error(interaction, error)


def install_error_handler(tree: app_commands.CommandTree[Any]) -> None:
    """Make :func:`on_app_command_error` the tree's ``on_error`` (``bot.py`` calls it in ``setup_hook``),
    and let every answered command carry its channel's next table message (:func:`carry`)."""
    tree.error(on_app_command_error)

    async def on_app_command_completion(interaction: discord.Interaction, command: object) -> None:
        carry(interaction)

    # BotBase: commands.Bot and commands.AutoShardedBot (a sharded process; not a Bot subclass)
    if isinstance(tree.client, commands.bot.BotBase):
        tree.client.add_listener(on_app_command_completion)


async def tell_dms_closed(interaction: discord.Interaction) -> None:
    """Once after a player's DMs were found closed: say so privately, with what to do instead."""
    runtime = maybe_runtime(interaction.client)
    if runtime is None or not runtime.private.take_dm_notice(interaction.user.id):
        return
    payload = render_text("notice.dms_closed", user_locale(interaction))
    try:
        await reply(interaction, payload, ephemeral=True)
    except discord.HTTPException:
        log.exception("could not tell user %s that their DMs are closed", interaction.user.id)


def join_notice(runtime: Runtime, info: TableInfo, user_id: int, raw_name: str, locale: str) -> Payload:
    """The private answer to a join (command or lobby button): the seat, and the partner by name once
    seated, else the team's number. ``raw_name``: the joiner's name as Discord gives it."""
    name = display_name(raw_name, locale)
    where = info.seat_of(user_id)
    assert where is not None
    seat_text = t("seat.number", locale, n=where + 1)
    partner = (where + 2) % 4
    if info.seats[partner] is not None:
        state = runtime.shown.get(info.id) or runtime.shown.track(runtime.service.snapshot(info.id))
        partner_name = seat_name(runtime.render_info(state), partner, locale)
        return render_text("notice.joined_with", locale, name=name, seat=seat_text, partner=partner_name)
    return render_text("notice.joined", locale, name=name, seat=seat_text,
                       team=t("team.number", locale, n=(where & 1) + 1))


def left_notice(raw_name: str, locale: str, info: TableInfo | None = None) -> Payload:
    """The private answer to a leave (command or lobby button), naming who stood up, and saying so when
    that closed the table (no one was left), with its match recorded as abandoned if one ran."""
    live = info is None or info.status.live
    bots = info is not None and any(s is not None and s.is_bot for s in info.seats)
    return render_left(display_name(raw_name, locale), live, info is not None and info.version is not None, locale,
                       bots=bots)


def started_notice(runtime: Runtime, info: TableInfo) -> Payload:
    """The channel's answer to a start (command or lobby button): who deals first, in the table's language.

    The dealer's name goes through :func:`~baloot.render.text.seat_name` like every name in a
    public message: cut, markdown-escaped and isolated, so a name with a direction override or a
    mention cannot turn or ping the rest of the line; a bot is named in the table's language (``بوت 4``)."""
    state = runtime.shown.track(runtime.service.snapshot(info.id))
    language = runtime.language_of(state)
    dealer = seat_name(runtime.render_info(state), state.snapshot.dealer or 0, language)  # a bot as in the text
    return render_text("notice.started", language, name=dealer)
