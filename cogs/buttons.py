"""Persistent buttons (docs/architecture.md): ``DynamicItem``s rebuilt from their ``custom_id``.

An action button's id carries table, seat, version and action
(:mod:`baloot.render.custom_ids`), so a press works on any message, after any
restart. A press hands the action to the table service with its version and
answers by updating its own message with the player's fresh view (callback
type 7); a refused press gets a short private message and changes nothing.
The "My hand" button on the table message answers with a fresh ephemeral view.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Final

import discord

from baloot.engine.error_codes import ErrorCode
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
from baloot.tables import NoTableHere, PlayerHand, TableElsewhere, TableError, TableRestarting
from baloot.tables.quick import is_quick

from .items import item_templates
from .presentation.emojis import CARD_EMOJIS
from .presentation.private import Shown, with_seat_picture, with_table
from .presentation.runtime import Runtime, maybe_runtime, runtime_of
from .quick import InviteButton, QuickButton
from .replies import (
    BadInput,
    SlowNotice,
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
from .review import ReviewButton
from .transport.forward import forwarded_interaction, forwarded_payload
from .transport.wire import defer_update, discord_response, is_answered

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
    if is_quick(state.channel_id):  # no channel: the table's public message and picture go with the hand
        folded = with_table(runtime, state, payload, info, hand.view, locale)
        return runtime.private.with_review(state, folded, locale), (hand.version, False)
    return with_seat_picture(runtime, runtime.channel, payload, info, hand.view, locale), (hand.version, False)


async def press(interaction: discord.Interaction, action_id: ActionId) -> None:
    """A press on an action button of a private view."""
    runtime = runtime_of(interaction.client)
    locale = user_locale(interaction)
    user_id = interaction.user.id
    viewer = None
    shown: Shown | None = None
    slow = SlowNotice(interaction, locale)
    try:
        table_id = parse_id(action_id.table_id)
        mine = runtime.service.table_of_user(user_id)
        seat = mine.seat_of(user_id) if mine is not None and mine.id == table_id else None
        # another seat's button is refused by the service ("not your hand"), which knows the seats
        viewer = runtime.private.begin(table_id, user_id, seat) if seat is not None and seat == action_id.seat else None
        if (mine is None and interaction.guild_id is None and runtime.service.forwarder is not None
                and not is_answered(interaction)):
            # A DM press of someone not seated here: most likely at another process's table.
            # Acknowledge it first, so that finding the table in storage never holds its first response.
            await defer_update(interaction)
        result = await in_time(
            interaction,
            runtime.service.act(table_id, user_id, action_id.action, action_id.version),
            ephemeral=True,
            update=True,
            slow=slow,
        )
        await slow.applied()  # stored: a "saving is delayed" notice says the move was applied
        if result.hand is not None:
            payload, shown = hand_payload(runtime, result.hand, locale)
        else:  # the match is over: the final view, without buttons
            # (a quick-match table is forgotten at its end: its players' views keep its last state)
            state = runtime.shown.get(table_id) or (None if viewer is None else viewer.final)
            rendered = None if state is None else runtime.private.render(state, action_id.seat, locale)
            payload, shown = rendered if rendered is not None else (render_text("error.match_over", locale), None)
        await update(interaction, payload)
    except TableElsewhere as exc:
        shown = None
        if await forward_press(runtime, interaction, action_id, exc):
            await slow.withdraw()
        elif not await slow.refused(exc):
            await reply_error(interaction, exc)
    except Exception as exc:
        shown = None
        if not await slow.refused(exc):  # a "saving is delayed" notice says it was refused
            await reply_error(interaction, exc)
    finally:
        if viewer is not None:
            runtime.private.end(viewer, interaction if shown is not None else None, shown)
    await tell_dms_closed(interaction)


async def forward_press(runtime: Runtime, interaction: discord.Interaction, action_id: ActionId,
                        elsewhere: TableElsewhere) -> bool:
    """A DM press for a table another process holds: acknowledged at once (a deferred update)
    and forwarded to the holder, which applies it and answers through the token. With no live holder,
    or none acknowledging in time, the answer is "the table is restarting" and nothing changed.
    False: not forwardable here (SQLite, a press in a server): answer ``elsewhere`` as before."""
    forwarder = runtime.service.forwarder
    if forwarder is None or interaction.guild_id is not None or elsewhere.guild_id is None:
        return False
    await defer_update(interaction)  # nothing if already acknowledged
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
    malformed or forged one gets the private refusal, never silence.
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
    """A button on the table message ("My hand"; "Open table": the Activity)."""

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
        if self.kind == "open":  # Discord launches the Activity, whose page joins this channel's table
            await launch_table_page(interaction)
            return
        await answered(interaction, self._show(interaction))

    async def _show(self, interaction: discord.Interaction) -> None:
        await show_hand(interaction, parse_id(self.table_id))


async def launch_table_page(interaction: discord.Interaction) -> None:
    """Open the channel's table as the live page inside Discord: the interaction is answered with
    LAUNCH_ACTIVITY and Discord starts the application's Activity, whose page signs in and joins this
    channel's table. A bot that serves no Activity (no WEB_PORT and DISCORD_CLIENT_SECRET) says so
    privately instead (also to an old "Open table" button from when it served one)."""
    runtime = maybe_runtime(interaction.client)
    if runtime is None or not runtime.activity:
        await reply(interaction, render_text("web.activity_off", user_locale(interaction)), ephemeral=True)
        return
    await discord_response(interaction).launch_activity()


async def lobby_press(interaction: discord.Interaction, lobby: LobbyId) -> None:
    """A press on a lobby button: join (a team or seat), leave, add bots, start.

    The same service calls and replies as the slash commands; the lobby message is
    edited by the presenter when the seats change.
    """
    runtime = runtime_of(interaction.client)
    service = runtime.service
    user = interaction.user
    channel_id = interaction.channel_id or 0
    locale = user_locale(interaction)
    try:
        mine = service.table_of_user(user.id)
        if (lobby.op == "quit" and mine is not None and is_quick(mine.channel_id)
                and mine.id == parse_id(lobby.table_id)):
            channel_id = mine.channel_id  # the last person leaving a quick-match table (it has no channel)
        wanted = parse_id(lobby.table_id)
        if service.table_id_in(channel_id) != wanted:
            await service.check_running(wanted)  # closed, finished, never was: say which
            raise NoTableHere()
        if lobby.op == "join":
            info = await in_time(interaction, service.join(channel_id, user.id, user.display_name,
                                                           seat=lobby.seat, team=lobby.team), ephemeral=True)
            await reply(interaction, join_notice(runtime, info, user.id, user.display_name, locale), ephemeral=True)
            await remember_name(interaction)  # after the answer: a write that never holds it past Discord's 3 s
        elif lobby.op in ("leave", "quit"):  # quit: the last person, told that leaving closes the table
            left = await in_time(interaction, service.leave(channel_id, user.id, close_if_last=lobby.op == "quit"),
                                 ephemeral=True)
            await reply(interaction, left_notice(user.display_name, locale, left), ephemeral=True)
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
    malformed or forged id gets the private refusal.
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
    """A finished hand's full R7 breakdown, privately, in the presser's language."""
    runtime = runtime_of(interaction.client)
    locale = user_locale(interaction)
    state = runtime.shown.get(table_id)
    if state is not None and interaction.guild_id is not None and state.info.guild_id != interaction.guild_id:
        raise TableError(f"table {table_id} is another server's", code=ErrorCode.FOREIGN_TABLE)
    sheet = None if state is None else state.snapshot.sheet
    if state is not None and sheet is not None and hand_no < len(sheet.hands):
        hand = state.hand_at(hand_no)
        payload = render_result(runtime.render_info(state, for_seat=-1), None if hand is None else hand.public,
                                sheet, hand_no, locale)
    else:  # the table closed, or runs in another process: from the stored hands, as long as the message lives
        stored = await runtime.service.stored_hand(table_id, hand_no)  # NoTableHere: a forged table id
        if stored is not None and interaction.guild_id is not None and stored.table.guild_id != interaction.guild_id:
            raise TableError(f"table {table_id} is another server's", code=ErrorCode.FOREIGN_TABLE)
        if stored is None:
            raise TableError(f"hand {hand_no} of table {table_id} is not stored", code=ErrorCode.NO_DETAILS,
                             params={"hand": hand_no + 1})
        info = table_info_from(stored.table, default_language=runtime.languages.channel(
            stored.table.guild_id, stored.table.language))
        payload = render_result(info, stored.public, stored.sheet, hand_no, locale)
    if payload is None:  # thrown in (R4), or still being played
        raise TableError(f"hand {hand_no} of table {table_id} has no result", code=ErrorCode.NO_DETAILS,
                         params={"hand": hand_no + 1})
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


DYNAMIC_ITEMS = (TableButton, LobbyButton, ResultButton, ReviewButton, QuickButton, InviteButton)
"""What ``bot.py`` registers in ``setup_hook`` (:func:`.items.add_items`): discord.py's view store runs them
(the item's ``interaction_check``, and only for an id on the pressed message). An action press, the hot
path, is taken by :func:`on_press` instead (no ``View`` rebuilt from its message per press)."""

_ACTION: Final = re.compile(ACTION_ID_TEMPLATE)
"""The action buttons' ids: no registered item, the listener's own (the hot path)."""


def on_message(message: discord.Message | None, custom_id: str) -> bool:
    """Whether a button with ``custom_id`` is on ``message`` (in its rows, or in a container's)."""
    if message is None:
        return False
    stack: list[Any] = list(message.components)
    while stack:
        component = stack.pop()
        if getattr(component, "custom_id", None) == custom_id:
            return True
        stack.extend(getattr(component, "children", ()))
    return False


async def refuse_unknown(custom_id: str) -> None:
    """A press on a component that is none of the bot's (a retired version's button, a forged id), or an
    action id that is not on the message it was pressed on."""
    raise BadInput(f"no button of this bot has the id {custom_id[:100]!r} here")


async def on_press(interaction: discord.Interaction) -> None:
    """The ``on_interaction`` listener (``bot.py`` adds it): a press on an action button of a private view.

    discord.py dispatches every interaction to its listeners after its own
    dispatch (presses arrive through discord.py's public dispatch).
    An action button (nearly every interaction) is no registered
    ``DynamicItem``, so discord.py does not rebuild the pressed message as a
    ``View`` to find it (bot CPU per press); it runs here, if the id
    is on the pressed message (what discord.py's view store checks), as
    :meth:`ActionButton.callback` would. A press on a component no item of
    this bot takes - which discord.py would drop unanswered, and Discord then
    shows "This interaction failed" - gets the private "not a valid action"
    (:class:`~.replies.BadInput`): an id none of the bot's templates takes,
    or one that is not on the message it was pressed on (discord.py's view
    store drops those). The other buttons are discord.py's
    (:data:`DYNAMIC_ITEMS`, and each extension's ``ITEMS``), their templates
    those registered on this client (:func:`.items.item_templates`).

    Every interaction, whatever it is, first has the review workers pause while
    the bot answers it (:meth:`~baloot.tables.reviews.ReviewService.make_way`).
    """
    runtime = maybe_runtime(interaction.client)
    if runtime is not None and runtime.reviews is not None:
        runtime.reviews.make_way()  # every interaction: the review workers pause while it is answered
    if interaction.type is not discord.InteractionType.component:
        return
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    if _ACTION.fullmatch(custom_id) is not None:
        if on_message(interaction.message, custom_id):
            await answered(interaction, press_id(interaction, custom_id))
            return
    elif (any(pattern.fullmatch(custom_id) for pattern in item_templates(interaction.client))
          and on_message(interaction.message, custom_id)):
        return  # a registered DynamicItem: discord.py runs it
    log.debug("a press on a component no item takes here (%r) is refused", custom_id[:100])
    await answered(interaction, refuse_unknown(custom_id))


async def apply_forwarded(client: discord.Client, payload: dict[str, Any]) -> None:
    """Apply a press another process forwarded here, as a local press (answers through its token)."""
    try:
        interaction = forwarded_interaction(client, payload)
        custom_id = str(payload["data"]["custom_id"])
    except Exception:
        log.exception("could not rebuild a forwarded press")
        return
    await ActionButton(custom_id).callback(interaction)
