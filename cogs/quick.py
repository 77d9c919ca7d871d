"""Quick match in Discord: ``/baloot quick``, its buttons, ``/baloot report`` (README "Quick match").

Adapters only: the queue, the matching and every check are the table
service's (:mod:`baloot.tables.quick`). What is Discord's is here: the
player's DMs must be open (a quick match is played there), so the queue
message is sent **before** the player is queued — a refusal (403/50007)
answers privately and queues nobody; and a queue the service refuses
deletes that message again.

**A partner is asked first** (``/baloot quick partner:``): nobody is queued
until they accept. A partner who is a bot, the asker themself, or already
queued or seated is refused at once (nothing sent). Otherwise the asker gets
a "waiting for X" DM and the partner a DM invitation with **Accept** and
**Decline**, valid for ``QUICK_INVITE_SECONDS`` (120 s by default). The
invitation lives in its buttons' custom ids (asker, server, the asker's DM
message, its end, the language), so whichever process gets the press (a DM
press reaches shard 0's) answers it, also after a restart: **Accept** before
the end queues both as one team (the two DM messages become their queue
messages); **Decline** tells the asker (their DM message is edited) and
queues nobody; a press after the end is refused privately. The asking
process waits out the invitation and, if it is still unanswered (its
buttons are still there), says so to both and queues nobody. After a restart
of the asking process that notice is not sent (no timer survives it): the
invitation's end is shown in both messages, and a late press is refused.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from baloot.engine.error_codes import ErrorCode
from baloot.engine.errors import BalootError
from baloot.render import Payload, render_text
from baloot.render.custom_ids import INVITE_ID_TEMPLATE, QUICK_ID_TEMPLATE
from baloot.render.quick import render_invite, render_invite_note, render_queue, render_queue_over
from baloot.tables import AlreadySeated, NoTableHere
from baloot.tables.errors import QueuedAlready
from baloot.tables.quick import QueueState

from .presentation.private import CANNOT_DM
from .presentation.queue import queue_payload
from .presentation.runtime import Runtime, runtime_of
from .replies import answered, in_time, remember_name, reply, update, user_locale
from .transport.wire import edit_message, send_message

log = logging.getLogger("baloot.discord")


class DmsClosed(BalootError):
    """The bot cannot send this player direct messages: a quick match cannot be played; nothing queued."""

    default_code = ErrorCode.DMS_CLOSED


class PartnerInvalid(BalootError):
    """The partner named is a bot or the asker themself: refused at once, nothing sent or queued."""

    default_code = ErrorCode.PARTNER_INVALID


class PartnerBusy(BalootError):
    """The partner named already waits in the queue or sits at a table: refused at once, nothing changed."""

    default_code = ErrorCode.PARTNER_BUSY


class PartnerDmsClosed(BalootError):
    """The bot cannot send the partner the invitation: refused, nothing queued."""

    default_code = ErrorCode.PARTNER_DMS_CLOSED


class InviteExpired(BalootError):
    """An invitation button pressed after the invitation's end: refused privately, nothing queued."""

    default_code = ErrorCode.INVITE_EXPIRED


_invite_tasks: set[asyncio.Task[None]] = set()
_INVITE_RE = re.compile(INVITE_ID_TEMPLATE)


async def _open_queue_message(runtime: Runtime, user_id: int, locale: str, name: str) -> tuple[int, int, Any]:
    """Send the player's queue message (before queueing them); :class:`DmsClosed` if their DMs are closed."""
    return await _open_dm(runtime, user_id, render_queue(0, [name], False, locale))


async def _open_dm(runtime: Runtime, user_id: int, payload: Payload) -> tuple[int, int, Any]:
    """Send ``payload`` to ``user_id``'s DMs: ``(channel, message, payload)``; :class:`DmsClosed` if closed."""
    client = runtime.client
    try:
        data = await client.http.start_private_message(user_id)
        channel_id = int(data["id"])
        message_id = await send_message(client, channel_id, payload)
    except discord.Forbidden as exc:
        if exc.code == CANNOT_DM:
            raise DmsClosed() from exc
        raise
    return channel_id, message_id, payload


async def join_queue(interaction: discord.Interaction, partner: discord.abc.User | None = None,
                     language: str | None = None) -> None:
    """``/baloot quick`` and the **Quick match** button: DMs checked by sending the queue message, then queued."""
    runtime = runtime_of(interaction.client)
    service = runtime.service
    locale = user_locale(interaction)
    user = interaction.user
    if interaction.guild_id is None:
        raise NoTableHere("Quick match is started from a server.")
    if partner is not None:
        await invite_partner(interaction, partner, language)
        return
    people = [(user.id, user.display_name), *([(partner.id, partner.display_name)] if partner is not None else [])]
    for uid, _ in people:  # what the service would refuse anyway, before any DM is sent
        if service.table_of_user(uid) is not None:
            raise AlreadySeated()
    opened = [(uid, await in_time(interaction, _open_queue_message(runtime, uid, locale, name), ephemeral=True))
              for uid, name in people]
    try:
        state = await in_time(interaction, service.queue_quick(
            interaction.guild_id, user.id, user.display_name,
            partner=None if partner is None else (partner.id, partner.display_name), language=language),
            ephemeral=True)
    except BaseException:
        for _, (channel_id, message_id, _payload) in opened:
            try:
                await runtime.client.http.delete_message(channel_id, message_id)
            except discord.HTTPException:
                log.info("could not delete a queue message of a refused queueing")
        raise
    for uid, (channel_id, message_id, payload) in opened:
        runtime.queue.track(uid, channel_id, message_id, locale, payload)
    # Answered first: the writes and edits below wait for the database and the global limit, and the answer
    # must not wait for them past Discord's 3 s (the queueing itself is stored already).
    await reply(interaction, render_text("quick.queued", locale), ephemeral=True)
    for uid, (channel_id, message_id, _payload) in opened:
        await service.set_queue_message(uid, channel_id, message_id)
    await runtime.queue(state, ())
    await remember_name(interaction)


async def invite_partner(interaction: discord.Interaction, partner: discord.abc.User,
                         language: str | None) -> None:
    """Ask ``partner`` (a DM with **Accept** / **Decline**) before queueing anyone; refusals first."""
    runtime = runtime_of(interaction.client)
    service = runtime.service
    locale = user_locale(interaction)
    user = interaction.user
    assert interaction.guild_id is not None
    if partner.bot or partner.id == user.id:
        raise PartnerInvalid()
    if service.table_of_user(user.id) is not None:
        raise AlreadySeated()
    state = await in_time(interaction, service.queue_state(), ephemeral=True)
    if state.entry_of(user.id):
        raise QueuedAlready()
    if service.table_of_user(partner.id) is not None or state.entry_of(partner.id):
        raise PartnerBusy()
    until = int(time.time() + runtime.quick_invite_seconds)
    when = f"<t:{until}:R>"
    asker_channel, asker_message, _ = await in_time(interaction, _open_dm(
        runtime, user.id, render_invite_note("quick.invite_waiting", locale, name=partner.display_name,
                                             until=when)), ephemeral=True)
    try:
        invite = render_invite(user.display_name, user.id, interaction.guild_id, asker_message, until, language,
                               locale)
        partner_channel, partner_message, _ = await in_time(interaction, _open_dm(runtime, partner.id, invite),
                                                            ephemeral=True)
    except DmsClosed as exc:
        await _delete_quietly(runtime, asker_channel, asker_message)
        raise PartnerDmsClosed() from exc
    except BaseException:
        await _delete_quietly(runtime, asker_channel, asker_message)
        raise
    task = asyncio.create_task(_expire_invite(runtime, until, (asker_channel, asker_message),
                                              (partner_channel, partner_message), partner.display_name, locale),
                               name=f"baloot-invite-{user.id}")
    _invite_tasks.add(task)
    task.add_done_callback(_invite_tasks.discard)
    await reply(interaction, render_text("quick.invite_sent", locale, name=partner.display_name), ephemeral=True)
    await remember_name(interaction)


async def _delete_quietly(runtime: Runtime, channel_id: int, message_id: int) -> None:
    try:
        await runtime.client.http.delete_message(channel_id, message_id)
    except discord.HTTPException:
        log.info("could not delete a quick-match DM of a refused invitation")


async def _expire_invite(runtime: Runtime, until: int, asker: tuple[int, int], partner: tuple[int, int],
                         partner_name: str, locale: str) -> None:
    """At the invitation's end (plus a short grace for a press in flight): if its Accept / Decline are still
    there it was not answered — both messages say so; nobody was queued. Answered, by whichever process got the
    press, it shows something else: declined (no buttons) or accepted (the partner's queue message, whose
    buttons are the queue's) - left as it is."""
    await asyncio.sleep(max(0.0, until - time.time()) + 2.0)
    try:
        data = await runtime.client.http.get_message(*partner)
        if not _invite_buttons(data.get("components") or []):
            return  # answered (accepted or declined), by whichever process got the press
        await edit_message(runtime.client, *partner, render_invite_note("quick.invite_over", locale))
        await edit_message(runtime.client, *asker, render_invite_note("quick.invite_expired", locale,
                                                                       name=partner_name))
    except discord.HTTPException as exc:
        log.info("quick-match invitation not closed (%s)", exc.status)


def _invite_buttons(components: Sequence[Mapping[str, Any]]) -> bool:
    """The message's buttons (Discord's JSON) are an invitation's Accept / Decline."""
    return any(_INVITE_RE.fullmatch(str(c.get("custom_id", ""))) for row in components
               for c in row.get("components", []))


async def answer_invite(interaction: discord.Interaction, accept: bool, asker_id: int, guild_id: int,
                        asker_message: int, until: int, language: str | None) -> None:
    """**Accept** / **Decline** on an invitation (pressed by the partner, in their DMs)."""
    runtime = runtime_of(interaction.client)
    service = runtime.service
    locale = user_locale(interaction)
    partner = interaction.user
    if time.time() > until:
        raise InviteExpired()
    assert interaction.message is not None and interaction.channel_id is not None
    partner_message = (interaction.channel_id, interaction.message.id)

    async def answered_invite() -> tuple[Payload, QueueState | None]:
        """Everything the answer waits for (the asker's DM, the queue's writes): inside :func:`in_time`."""
        data = await runtime.client.http.start_private_message(asker_id)
        asker_channel = int(data["id"])
        if not accept:
            await edit_message(runtime.client, asker_channel, asker_message,
                               render_invite_note("quick.invite_declined", locale, name=partner.display_name))
            return render_invite_note("quick.invite_you_declined", locale), None
        asker = await runtime.client.fetch_user(asker_id)
        state = await service.queue_quick(
            guild_id, asker_id, asker.display_name, partner=(partner.id, partner.display_name), language=language)
        await service.set_queue_message(asker_id, asker_channel, asker_message)
        runtime.queue.track(asker_id, asker_channel, asker_message, locale, {})
        await service.set_queue_message(partner.id, *partner_message)
        mine = queue_payload(state, partner.id, locale, service.quick_bots_after)
        runtime.queue.track(partner.id, *partner_message, locale, mine)
        return mine, state

    payload, state = await in_time(interaction, answered_invite(), ephemeral=True, update=True)
    await update(interaction, payload)
    if state is not None:
        await runtime.queue(state, ())


async def leave_queue(interaction: discord.Interaction) -> None:
    """**Leave queue** (on the queue message): out of the queue, the message says so; a stale press is refused."""
    runtime = runtime_of(interaction.client)
    locale = user_locale(interaction)
    await in_time(interaction, runtime.service.leave_queue(interaction.user.id), ephemeral=True, update=True)
    runtime.queue.forget(interaction.user.id)
    await update(interaction, render_queue_over("quick.left", locale))


async def play_with_bots(interaction: discord.Interaction) -> None:
    """**Play now with bots**: the entry sits with bots at once (after the documented wait)."""
    runtime = runtime_of(interaction.client)
    locale = user_locale(interaction)
    await in_time(interaction, runtime.service.play_with_bots(interaction.user.id), ephemeral=True, update=True)
    runtime.queue.forget(interaction.user.id)
    await update(interaction, render_queue_over("quick.found", locale))


async def refresh_queue(interaction: discord.Interaction) -> None:
    """Redraw the presser's queue message (used after a refused press on it)."""
    runtime = runtime_of(interaction.client)
    state = await runtime.service.queue_state()
    await update(interaction, queue_payload(state, interaction.user.id, user_locale(interaction),
                                            runtime.service.quick_bots_after))


async def report(interaction: discord.Interaction, seat: int) -> None:
    """``/baloot report``: the presser reports the player of ``seat`` (1..4) at their quick-match table."""
    runtime = runtime_of(interaction.client)
    locale = user_locale(interaction)
    table = runtime.service.table_of_user(interaction.user.id)
    if table is None:
        raise NoTableHere()
    await in_time(interaction, runtime.service.report_player(table.id, interaction.user.id, seat - 1), ephemeral=True)
    await reply(interaction, render_text("quick.reported", locale), ephemeral=True)


class InviteButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=INVITE_ID_TEMPLATE):
    """**Accept** / **Decline** on a quick-match partner invitation; the invitation is in the custom id."""

    def __init__(self, op: str, asker: int, guild: int, message: int, until: int, language: str | None) -> None:
        lang = language or "-"
        super().__init__(discord.ui.Button(custom_id=f"bl:quick:{op}:{asker}:{guild}:{message}:{until}:{lang}"))
        self.op, self.asker, self.guild, self.message = op, asker, guild, message
        self.until, self.language = until, language

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> InviteButton:
        lang = match.group("lang")
        return cls(match.group("op"), int(match.group("asker")), int(match.group("guild")),
                   int(match.group("message")), int(match.group("until")), None if lang == "-" else lang)

    async def callback(self, interaction: discord.Interaction) -> None:
        await answered(interaction, answer_invite(interaction, self.op == "accept", self.asker, self.guild,
                                                  self.message, self.until, self.language))


class QuickButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=QUICK_ID_TEMPLATE):
    """A quick-match button: ``join`` (lobby, help), ``leave`` the queue, play now with ``bots``."""

    def __init__(self, op: str) -> None:
        super().__init__(discord.ui.Button(custom_id=f"bl:quick:{op}"))
        self.op = op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> QuickButton:
        return cls(match.group("op"))

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.op == "join":
            await answered(interaction, join_queue(interaction))
        elif self.op == "leave":
            await answered(interaction, leave_queue(interaction))
        else:
            await answered(interaction, play_with_bots(interaction))
