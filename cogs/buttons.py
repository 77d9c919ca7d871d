"""Persistent buttons (ARCHITECTURE.md): ``DynamicItem``s rebuilt from their ``custom_id``.

An action button's id carries table, seat, version and action
(:mod:`baloot.render.custom_ids`), so a press works on any message, after any
restart. A press hands the action to the table service with its version and
answers by updating its own message with the player's fresh view (callback
type 7); a refused press gets a short private message and changes nothing.
The "My hand" button on the table message answers with a fresh ephemeral view.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Coroutine
from typing import Any, Final

import discord

from baloot.render import (
    ACTION_ID_TEMPLATE,
    LOBBY_ID_TEMPLATE,
    RESULT_ID_TEMPLATE,
    TABLE_ID_TEMPLATE,
    ActionId,
    LobbyId,
    Payload,
    decode_action_id,
    decode_lobby_id,
    decode_result_id,
    encode_action_id,
    encode_table_id,
    render_hand,
    render_result,
    render_text,
    table_info_from,
)
from baloot.render.custom_ids import PREFIX, CustomIdError
from baloot.tables import NoTableHere, PlayerHand, TableElsewhere, TableRestarting

from .presentation.emojis import CARD_EMOJIS
from .presentation.private import Shown, with_seat_picture
from .presentation.runtime import Runtime, runtime_of
from .replies import (
    BadInput,
    NotYourHand,
    answered,
    in_time,
    join_notice,
    left_notice,
    parse_id,
    remember_name,
    reply,
    reply_error,
    started_notice,
    tell_dms_closed,
    update,
    user_locale,
)
from .transport.forward import forwarded_interaction, forwarded_payload
from .transport.wire import defer_update

log = logging.getLogger("baloot.discord")


def hand_payload(runtime: Runtime, hand: PlayerHand, locale: str) -> tuple[Payload, Shown]:
    """A player's private view from the service's snapshot, and what it shows."""
    state = runtime.shown.get(hand.table_id)
    if state is None:
        raise NoTableHere("That table is no longer running.")
    if state.version == hand.version:  # the snapshot it was drawn from: its TableInfo is built once
        info = runtime.render_info(state, for_seat=hand.seat)
    else:
        info = table_info_from(state.info, deadline=hand.deadline, default_language=runtime.language_of(state))
    payload = render_hand(info, hand.view, hand.hand_no, locale, CARD_EMOJIS.json_by_card)
    return with_seat_picture(runtime, runtime.channel, payload, info, hand.view, locale), (hand.version, False)


async def press(interaction: discord.Interaction, action_id: ActionId) -> None:
    """A press on an action button of a private view."""
    runtime = runtime_of(interaction.client)
    locale = user_locale(interaction)
    user_id = interaction.user.id
    viewer = None
    shown: Shown | None = None
    try:
        table_id = parse_id(action_id.table_id)
        mine = runtime.service.table_of_user(user_id)
        seat = mine.seat_of(user_id) if mine is not None and mine.id == table_id else None
        if seat is not None and seat != action_id.seat:
            raise NotYourHand()
        viewer = runtime.private.begin(table_id, user_id, action_id.seat) if seat is not None else None
        if (mine is None and interaction.guild_id is None and runtime.service.forwarder is not None
                and not interaction.response.is_done()):
            # A DM press of someone not seated here: most likely at another process's table (issue 11).
            # Acknowledge it first, so that finding the table in storage never holds its first response.
            await defer_update(interaction)
        result = await in_time(
            interaction,
            runtime.service.act(table_id, user_id, action_id.action, action_id.version),
            ephemeral=True,
            update=True,
        )
        if result.hand is not None:
            payload, shown = hand_payload(runtime, result.hand, locale)
        else:  # the match is over: the final view, without buttons
            state = runtime.shown.get(table_id)
            rendered = None if state is None else runtime.private.render(state, action_id.seat, locale)
            payload, shown = rendered if rendered is not None else (render_text("error.match_over", locale), None)
        await update(interaction, payload)
    except TableElsewhere as exc:
        shown = None
        if not await forward_press(runtime, interaction, action_id, exc):
            await reply_error(interaction, exc)
    except Exception as exc:
        shown = None
        await reply_error(interaction, exc)
    finally:
        if viewer is not None:
            runtime.private.end(viewer, interaction if shown is not None else None, shown)
    await tell_dms_closed(interaction)


async def forward_press(runtime: Runtime, interaction: discord.Interaction, action_id: ActionId,
                        elsewhere: TableElsewhere) -> bool:
    """A DM press for a table another process holds (issue 11): acknowledged at once (a deferred update)
    and forwarded to the holder, which applies it and answers through the token. With no live holder,
    or none acknowledging in time, the answer is "the table is restarting" and nothing changed.
    False: not forwardable here (SQLite, a press in a server): answer ``elsewhere`` as before."""
    forwarder = runtime.service.forwarder
    if forwarder is None or interaction.guild_id is not None or elsewhere.guild_id is None:
        return False
    if not interaction.response.is_done():
        await defer_update(interaction)
    table_id = parse_id(action_id.table_id)
    if not await forwarder.forward(table_id, elsewhere.guild_id, forwarded_payload(interaction)):
        await reply_error(interaction, TableRestarting())
    return True


async def show_hand(interaction: discord.Interaction, table_id: int | None) -> None:
    """A fresh ephemeral private view ("My hand" or ``/baloot hand``); ``None``: this channel's table."""
    runtime = runtime_of(interaction.client)
    locale = user_locale(interaction)
    user_id = interaction.user.id
    service = runtime.service
    try:
        if table_id is None:
            hand = await in_time(interaction, service.my_hand_in(interaction.channel_id or 0, user_id), ephemeral=True)
        else:
            hand = await in_time(interaction, service.my_hand(table_id, user_id), ephemeral=True)
        viewer = runtime.private.begin(hand.table_id, user_id, hand.seat)
        shown: Shown | None = None
        try:
            payload, shown = hand_payload(runtime, hand, locale)
            await reply(interaction, payload, ephemeral=True)
        finally:
            runtime.private.end(viewer, interaction if shown is not None else None, shown)
    except Exception as exc:
        await reply_error(interaction, exc)
    await tell_dms_closed(interaction)


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ACTION_ID_TEMPLATE):
    """A button of a private view: one legal action of one seat at one version.

    The custom_id is decoded when pressed, inside the answered path: a
    malformed or forged one gets the private refusal, never silence (issue 14).
    """

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.raw_id = custom_id

    @classmethod
    def of(cls, action_id: ActionId) -> ActionButton:
        return cls(encode_action_id(action_id.table_id, action_id.seat, action_id.version, action_id.action))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActionButton:
        return cls(match.group(0))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answered(interaction, press_id(interaction, self.raw_id))


async def press_id(interaction: discord.Interaction, custom_id: str) -> None:
    """:func:`press` of an action button's id, decoded here: a forged one is refused like any bad press."""
    await press(interaction, decode_action_id(custom_id))


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TABLE_ID_TEMPLATE):
    """A button on the table message ("My hand"; "Open table": the Activity, issue 32)."""

    def __init__(self, table_id: str, kind: str = "mine") -> None:
        super().__init__(discord.ui.Button(custom_id=encode_table_id(table_id, kind)))
        self.table_id = table_id
        self.kind = kind

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        return cls(match.group("table"), match.group("kind"))

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.kind == "open":  # issue 32: Discord launches the Activity, whose page joins this channel's table
            await interaction.response.launch_activity()
            return
        await answered(interaction, self._show(interaction))

    async def _show(self, interaction: discord.Interaction) -> None:
        await show_hand(interaction, parse_id(self.table_id))


async def lobby_press(interaction: discord.Interaction, lobby: LobbyId) -> None:
    """A press on a lobby button (issue 10): join (a team or seat), leave, add bots, start.

    The same service calls and replies as the slash commands; the lobby message is
    edited by the presenter when the seats change.
    """
    runtime = runtime_of(interaction.client)
    service = runtime.service
    user = interaction.user
    channel_id = interaction.channel_id or 0
    locale = user_locale(interaction)
    try:
        if service.table_info(channel_id).id != parse_id(lobby.table_id):
            raise NoTableHere()
        if lobby.op == "join":
            info = await in_time(interaction, service.join(channel_id, user.id, user.display_name,
                                                           seat=lobby.seat, team=lobby.team), ephemeral=True)
            await remember_name(interaction)
            await reply(interaction, join_notice(runtime, info, user.id, user.display_name, locale), ephemeral=True)
        elif lobby.op == "leave":
            await in_time(interaction, service.leave(channel_id, user.id), ephemeral=True)
            await reply(interaction, left_notice(user.display_name, locale), ephemeral=True)
        elif lobby.op == "bots":
            info = await in_time(interaction, service.fill_with_bots(channel_id, user.id, lobby.level or "normal"),
                                 ephemeral=True)
            await reply(interaction, render_text("notice.bots_added", locale, seated=info_seated(info)),
                        ephemeral=True)
        else:
            info = await in_time(interaction, service.start(channel_id, user.id), ephemeral=False)
            await reply(interaction, started_notice(runtime, info), ephemeral=False)
    except Exception as exc:
        await reply_error(interaction, exc)
    await tell_dms_closed(interaction)


def info_seated(info: object) -> int:
    """How many seats of a service table are taken."""
    return sum(1 for s in getattr(info, "seats", ()) if s is not None)


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=LOBBY_ID_TEMPLATE):
    """A button on the lobby message: join, leave, add bots, start.

    Decoded when pressed, inside the answered path (numbers range-checked): a
    malformed or forged id gets the private refusal (issue 14).
    """

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.raw_id = custom_id

    @classmethod
    def of(cls, lobby: LobbyId) -> LobbyButton:
        return cls(lobby.encode())

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        return cls(match.group(0))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answered(interaction, self._press(interaction))

    async def _press(self, interaction: discord.Interaction) -> None:
        await lobby_press(interaction, decode_lobby_id(self.raw_id))


async def show_result(interaction: discord.Interaction, table_id: int, hand_no: int) -> None:
    """A finished hand's full R7 breakdown, privately, in the presser's language (issue 10 item 6)."""
    runtime = runtime_of(interaction.client)
    state = runtime.shown.get(table_id)
    if state is None:
        raise NoTableHere("That table is no longer running.")
    sheet = state.snapshot.sheet
    hand = state.hand_at(hand_no)
    payload = None if sheet is None else render_result(
        runtime.render_info(state, for_seat=-1), None if hand is None else hand.public, sheet, hand_no,
        user_locale(interaction))
    if payload is None:
        raise CustomIdError(f"hand {hand_no} of table {table_id} has no result")
    await reply(interaction, payload, ephemeral=True)


class ResultButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=RESULT_ID_TEMPLATE):
    """"Details" on a finished hand's table message: its R7 breakdown, answered privately."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.raw_id = custom_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ResultButton:
        return cls(match.group(0))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answered(interaction, self._show(interaction))

    async def _show(self, interaction: discord.Interaction) -> None:
        table_id, hand_no = decode_result_id(self.raw_id)
        await show_result(interaction, parse_id(table_id), hand_no)


DYNAMIC_ITEMS = (ActionButton, TableButton, LobbyButton, ResultButton)
"""What ``bot.py`` registers in ``setup_hook`` (``bot.add_dynamic_items``)."""


_PRESSED_MESSAGE_KEYS: Final = ("id", "channel_id", "guild_id", "author", "content", "timestamp", "edited_timestamp",
                                 "type", "flags", "webhook_id", "application_id", "tts", "pinned", "mention_everyone")
"""What discord.py is given of the message one of our other buttons (lobby, "My hand", a result's details) was
pressed on: its plain fields (Discord also sends its mentions, reactions and ``interaction_metadata`` with a user
object, each parsed into objects nothing reads). An action press gets no ``Message`` at all
(:func:`pressed_interaction`)."""


def pressed_interaction(state: Any, data: Any, message: Any) -> discord.Interaction:
    """The ``discord.Interaction`` of a press on an action button, without the objects nothing reads.

    discord.py would build the pressed message into a ``Message`` (its author,
    timestamps, flags and some twenty more fields) and, in a DM, the channel
    into a ``DMChannel`` with its recipients. A press reads only the message's
    id and channel (:mod:`.private`, :mod:`.forward`), so they are given as a
    ``PartialMessage`` on the channel (a ``PartialMessageable`` in a DM; a server
    channel is resolved by discord.py as before).
    """
    channel = data.get("channel") or {}
    dm = channel.get("type") == discord.ChannelType.private.value and "id" in channel
    interaction: discord.Interaction = discord.Interaction(
        data={key: value for key, value in data.items()  # type: ignore[arg-type]
              if key != "message" and not (dm and key == "channel")},
        state=state)
    client = state._get_client()
    if dm:
        interaction.channel = client.get_partial_messageable(int(channel["id"]), type=discord.ChannelType.private)
    try:
        pressed = discord.PartialMessage(channel=interaction.channel, id=int(message["id"]))  # type: ignore[arg-type]
    except (TypeError, AttributeError):  # no channel, or one a message cannot be in: the id it was sent in
        where = client.get_partial_messageable(int(message.get("channel_id") or channel.get("id") or 0),
                                               guild_id=interaction.guild_id)
        pressed = discord.PartialMessage(channel=where, id=int(message["id"]))
    interaction.message = pressed  # type: ignore[assignment]
    return interaction


async def _refuse_unknown(custom_id: str) -> None:
    """A press on a component that is none of the bot's (a retired version's button, a forged id)."""
    raise BadInput(f"no button of this bot has the id {custom_id[:100]!r}")


def claimed(store: Any, data: Any, custom_id: str, message: Any) -> bool:
    """Whether discord.py's view store will run something for this component press: a registered
    ``DynamicItem`` whose template matches the whole id, or an item of a stored view (of the pressed
    message, or a persistent one). Otherwise discord.py drops the press without an answer
    (``ViewStore.dispatch_view`` at the pinned version), and Discord shows "This interaction failed"."""
    if any(pattern.fullmatch(custom_id) for pattern in store._dynamic_items):
        return True
    key = (data.get("data", {}).get("component_type"), custom_id)
    try:
        message_id: int | None = int(message["id"])
    except (KeyError, TypeError, ValueError):
        message_id = None
    views = store._views
    return key in views.get(message_id, {}) or key in views.get(None, {})


def dispatch_presses_directly(client: discord.Client) -> None:
    """Run a press on one of our buttons without rebuilding its message as a discord.py ``View`` (issue 9).

    A press on an action button (the hot path, nearly every interaction) is
    taken from the gateway's ``INTERACTION_CREATE`` before discord.py's view
    store: its ``Interaction`` is built by :func:`pressed_interaction` and its
    answer (:func:`press_id` inside :func:`answered`, exactly what the item's
    callback would run) is a task of its own, as discord.py would make it,
    with the same logging of a failure. The ``interaction`` event is still
    dispatched. No ``DynamicItem``, ``Button`` or ``View`` is built for it.

    Our other buttons (lobby, "My hand", a result's details) go through the
    view store, minus one step (``ViewStore.schedule_dynamic_item_call``,
    discord.py's internal API at the version pinned in ``requirements.txt``):
    discord.py first turns the whole message's components into a ``View`` of
    ``Button``s (``View.from_message``) only to find the pressed one, which our
    items never read: they are rebuilt from the ``custom_id`` alone. For the
    same reason the pressed message is handed to discord.py without its embeds
    and buttons. Other dynamic items keep discord.py's path. A press that no
    item would take (:func:`claimed`: a retired version's button, a tampered
    id), which discord.py would drop unanswered, gets the private "not a valid
    action" (:class:`~.replies.BadInput`). Checked end to end by every
    ``tests/test_bot_*`` press, ``tests/bot/test_bot_faults.py`` and
    ``tests/cogs/test_buttons_dispatch.py``.
    """
    store = client._connection._view_store
    original = store.schedule_dynamic_item_call

    async def schedule(component_type: int, factory: type[discord.ui.DynamicItem[Any]],
                       interaction: discord.Interaction, custom_id: str, match: re.Match[str]) -> None:
        if factory not in DYNAMIC_ITEMS or interaction.message is None:
            await original(component_type, factory, interaction, custom_id, match)
            return
        try:
            pressed = discord.ui.Button[Any](custom_id=custom_id)  # what the item is made from (unused by ours)
            item = await factory.from_custom_id(interaction, pressed, match)
        except Exception:
            log.exception("Ignoring exception in dynamic item creation for %r", factory)
            return
        try:
            await item.callback(interaction)
        except Exception:
            log.exception("Ignoring exception in dynamic item callback for %r", item)

    store.schedule_dynamic_item_call = schedule  # type: ignore[method-assign]

    state = client._connection
    parse = state.parsers["INTERACTION_CREATE"]
    ours = f"{PREFIX}:"
    action = re.compile(ACTION_ID_TEMPLATE)  # ActionButton's template, matched as discord.py matches it (whole)
    running: set[asyncio.Task[None]] = set()

    async def run(interaction: discord.Interaction, custom_id: str) -> None:
        try:
            await answered(interaction, press_id(interaction, custom_id))
        except Exception:
            log.exception("Ignoring exception in dynamic item callback for %r", ActionButton)

    async def refuse(interaction: discord.Interaction, custom_id: str) -> None:
        log.debug("a press on a component no item takes (%r) is refused", custom_id[:100])
        await answered(interaction, _refuse_unknown(custom_id))

    def spawn(work: Coroutine[Any, Any, None], interaction: discord.Interaction) -> None:
        task = asyncio.create_task(work, name="baloot-press")
        running.add(task)
        task.add_done_callback(running.discard)
        state.dispatch("interaction", interaction)

    def parse_interaction_create(data: Any) -> None:
        message: Any = data.get("message") if data.get("type") == 3 else None
        if not message:
            parse(data)
            return
        custom_id = str(data.get("data", {}).get("custom_id", ""))
        ours_id = custom_id.startswith(ours)
        if ours_id and action.fullmatch(custom_id) is not None:
            spawn(run(interaction := pressed_interaction(state, data, message), custom_id), interaction)
        elif not claimed(store, data, custom_id, message):  # discord.py would drop it: Discord says "failed"
            spawn(refuse(interaction := pressed_interaction(state, data, message), custom_id), interaction)
        elif not ours_id:
            parse(data)
        else:  # the pressed message's plain fields: discord.py parses them into a ``Message`` nothing else reads
            kept = {key: message[key] for key in _PRESSED_MESSAGE_KEYS if key in message}
            parse({**data, "message": {**kept, "embeds": [], "components": [], "attachments": []}})

    state.parsers["INTERACTION_CREATE"] = parse_interaction_create


async def apply_forwarded(client: discord.Client, payload: dict[str, Any]) -> None:
    """Apply a press another process forwarded here, as a local press (answers through its token)."""
    try:
        interaction = forwarded_interaction(client, payload)
        custom_id = str(payload["data"]["custom_id"])
    except Exception:
        log.exception("could not rebuild a forwarded press")
        return
    await ActionButton(custom_id).callback(interaction)
