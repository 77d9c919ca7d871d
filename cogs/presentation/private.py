"""Each seated player's private hand: one message kept up to date, never spammed.

Every refresh says how far it may reach (:class:`Reach`), because the two ways
to a player's view cost differently:

1. the player's latest interaction whose response is their private view (a
   press on their hand, "My hand", ``/baloot hand``), while its token is valid
   (15 minutes; we stop at :data:`TOKEN_LIFETIME`). This is the only way to
   edit an ephemeral message, and it does not count against the bot token's
   global limit of 50 calls/s: every seated player's view follows every turn
   change through it (``Reach.TOKEN``), whether it is their turn or not;
2. their DM: one message, created once and then edited (bot token, counted).
   It is used when the token is not valid: for the player's own turn, an action
   played for them, a language change (``Reach.VIEW``), and for everybody at
   the moments worth a bot-token call - a completed trick (R5), a change of
   phase (bidding → doubling → play → hand over), a deal, the end
   (``Reach.EVERY``). Never per card.

A player who plays in an ephemeral "My hand" view while they also have a DM
keeps a DM that never shows buttons for a move already made: on their first
answer there, the DM is replaced by a short note, without cards or buttons,
saying plainly that play continues in "My hand" in the table's channel. It is
not edited again while that view's token is valid (no
bot-token edit per trick for players who play in the channel) except for a
language change and the end of the table, and becomes their live view again
once the token expires.

Sends are coalesced: one task per player, at most one send in flight; while it
runs, later refreshes only mark the view dirty and raise its reach.

A DM refused with 403/50007 marks the seat's DMs closed in the service; the
player is told once, privately, on their next interaction, and plays with
the "My hand" button.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Final

import discord

from baloot.engine.errors import BalootError
from baloot.engine.view import SeatView
from baloot.render import Payload, RenderInfo, render_hand, render_plays_elsewhere, render_table
from baloot.render.picture import table_picture
from baloot.render.review import match_accuracy_line, with_match_accuracy, with_review_button
from baloot.tables import StorageUnavailable
from baloot.tables.quick import is_quick

from ..transport.pacing import urgent
from ..transport.payloads import attach_picture
from ..transport.wire import ResponseToken, edit_message, edit_response, send_message
from .channel import FINALS_KEPT, SeatAccuracy, seat_names
from .emojis import CARD_EMOJIS
from .shown import TableState

if TYPE_CHECKING:
    from .channel import ChannelBoard
    from .shared import Shared

log = logging.getLogger("baloot.discord")

TOKEN_LIFETIME: Final = 14 * 60.0
"""Seconds an interaction token is still used for edits (Discord allows 15 minutes)."""
CANNOT_DM: Final = 50007
RETRY_DELAYS: Final = (1.0, 2.0, 5.0, 10.0, 30.0)
"""Seconds before each new try of a private view whose send failed for a passing reason (:func:`transient`)."""


def transient(exc: BaseException) -> bool:
    """A failure worth trying again: 429 after discord.py's own retries, a Discord 5xx, a network error."""
    if isinstance(exc, discord.HTTPException):
        return exc.status == 429 or exc.status >= 500
    return isinstance(exc, OSError | TimeoutError)

Shown = tuple[tuple[int, int], bool]
"""(version, closed) of the private view a player has in front of them."""
DmShown = tuple[Shown, bool]
"""What a player's DM message shows, and whether it is the copy without buttons ("play continues in My hand")."""


class Reach(IntEnum):
    """How far a refresh of a private view may go (the module's docstring)."""

    TOKEN = 0  # only through a valid interaction token (free of the global limit): a waiting player's turn change
    VIEW = 1  # else the DM: the player must see it (their turn, played for them, their language)
    EVERY = 2  # also the DM of a player playing in "My hand": a completed trick, a phase change, a deal, the end


def with_seat_picture(
    runtime: Shared, channel: ChannelBoard, payload: Payload, info: RenderInfo, view: SeatView, locale: str
) -> Payload:
    """The private view with the table's picture from the player's own seat (TABLE_PICTURES=all).

    Drawn from the public part of the seat's view only, like the channel's picture, and like it only while
    few enough tables are active (:meth:`.channel.ChannelBoard.pictures_drawn`): past that, four pictures
    per move would take more CPU than the rest of the bot. It is drawn here, in the answer's path, from
    kept tiles (about 1.4 ms; ``scripts/bench_pictures.py --tables 100``).
    """
    if runtime.pictures != "all" or view.public is None or not channel.pictures_drawn():
        return payload
    public = view.public
    return attach_picture(payload, lambda: table_picture(info, public, view.seat, locale))


def with_table(runtime: Shared, state: TableState, hand: Payload, info: RenderInfo, view: SeatView,
               locale: str) -> Payload:
    """A quick-match table has no channel: the table's public message (bids, tricks, scores, notices, the
    match's end) goes above the player's hand in their one DM message, and its picture always goes with it
    (from the player's own seat)."""
    sheet, public = state.snapshot.sheet, view.public
    if public is None or sheet is None:
        return hand
    table = render_table(runtime.render_info(state), public, sheet, locale, pictured=True)
    folded: Payload = {**hand, "embeds": [*table.get("embeds", []), *hand.get("embeds", [])][:10]}
    return attach_picture(folded, lambda: table_picture(info, public, view.seat, locale))


@dataclass(slots=True)
class Viewer:
    """One seated player's private message(s)."""

    user_id: int
    table_id: int
    seat: int
    dm_closed: bool = False
    response: ResponseToken | None = None  # of the latest interaction whose response is this player's view
    response_in_dm: bool = False  # that response is the DM message itself (a press in the DM)
    dm_channel_id: int | None = None
    dm_message_id: int | None = None
    shown: Shown | None = None  # what the token's response shows
    dm_shown: DmShown | None = None  # what the DM message shows
    dm_stored: bool = True  # the DM message's id is in storage (False: storage failed; tried again at each update)
    busy: int = 0  # presses being answered (their response shows the view)
    dirty: bool = False
    reach: Reach = Reach.TOKEN  # of the refreshes asked for since the last send
    stale: bool = False  # redraw even at the same version (the player's language changed)
    tell_closed: bool = False  # DMs found closed: tell them on their next interaction
    final: TableState | None = None  # the table closed: its last state, drawn once more after it is forgotten
    task: asyncio.Task[None] | None = None

    def token_valid(self) -> bool:
        return self.response is not None and self.response.age() < TOKEN_LIFETIME

    def plays_elsewhere(self) -> bool:
        """The player's live view is an ephemeral one, and they also have a DM message."""
        return self.token_valid() and not self.response_in_dm and self.dm_message_id is not None


class PrivateHands:
    """Every seated player's private view, by user id (a user sits at one table at a time)."""

    def __init__(self, runtime: Shared, channel: ChannelBoard) -> None:
        self.runtime = runtime
        self.channel = channel
        self.viewers: dict[int, Viewer] = {}
        self.locales: dict[int, str] = {}
        self.accuracy: dict[int, list[float]] = {}  # quick table id -> each seat's accuracy in its match (R1 seats)
        self.awaiting: dict[int, list[Viewer]] = {}  # quick table id -> its final DM views, awaiting the accuracy

    # -- who is who ------------------------------------------------------------------------
    def viewer(self, table_id: int, user_id: int, seat: int) -> Viewer:
        viewer = self.viewers.get(user_id)
        if viewer is None or viewer.table_id != table_id:
            viewer = self.viewers[user_id] = Viewer(user_id, table_id, seat)
        viewer.seat = seat
        return viewer

    def adopt_dm(self, table_id: int, user_id: int, seat: int, channel_id: int, message_id: int) -> None:
        """A DM message stored before a restart."""
        viewer = self.viewer(table_id, user_id, seat)
        viewer.dm_channel_id, viewer.dm_message_id = channel_id, message_id

    def sync_seats(self, state: TableState) -> None:
        """Viewers for the people seated now (DMs closed as the service knows it)."""
        for info in state.info.seats:
            if info is not None and info.human and info.user_id is not None:
                viewer = self.viewer(state.table_id, info.user_id, info.seat)
                viewer.dm_closed = viewer.dm_closed or info.dm_closed

    def locale_of(self, user_id: int, state: TableState) -> str:
        """A player's language (:meth:`.shared.Languages.viewer`): chosen, else the table's, else their app's."""
        runtime = self.runtime
        return runtime.languages.viewer(user_id, state.info.guild_id, state.info.language,
                                        self.locales.get(user_id) or runtime.language_of(state))

    # -- refreshing --------------------------------------------------------------------------
    def refresh(self, state: TableState, seat: int, reach: Reach = Reach.VIEW) -> None:
        """Bring ``seat``'s private view up to date (soon; at most one send at a time per player).

        ``reach`` says which ways it may take (:class:`Reach`); refreshes asked
        for while a send is in flight are coalesced into one, at the widest reach.
        """
        info = state.info.seats[seat]
        if info is None or not info.human or info.user_id is None:
            return
        viewer = self.viewer(state.table_id, info.user_id, seat)
        viewer.dirty = True
        viewer.reach = max(viewer.reach, reach)
        self._kick(viewer)

    def redraw(self, state: TableState, *seats: int) -> None:
        """Redraw private views even though the game did not move (a language changed)."""
        for seat in seats or range(4):
            info = state.info.seats[seat]
            if info is not None and info.human and info.user_id is not None:
                self.viewer(state.table_id, info.user_id, seat).stale = True
                self.refresh(state, seat, Reach.EVERY)

    def closed(self, state: TableState) -> None:
        """The table closed: every private view of it says so, without buttons - its DM, and a
        "My hand" view while its token is valid - including a player who left it during the match."""
        for viewer in self.viewers.values():
            if viewer.table_id == state.table_id:
                viewer.final = state
                viewer.dirty = True
                viewer.reach = Reach.EVERY
                self._kick(viewer)

    def _kick(self, viewer: Viewer) -> None:
        if viewer.busy or (viewer.task is not None and not viewer.task.done()):
            return
        viewer.task = asyncio.create_task(self._run(viewer), name=f"baloot-private-{viewer.user_id}")

    def render(self, state: TableState, seat: int, locale: str, *,
               elsewhere: bool = False) -> tuple[Payload, Shown] | None:
        """The private view of ``seat`` from the latest snapshot, with what it shows.

        ``elsewhere``: the DM copy of a player who plays in "My hand" - no
        buttons, and a line saying where play continues.
        """
        view = state.view_of(seat)
        hand_no = state.hand_no
        version = state.version
        if view is None or hand_no is None or version is None:
            return None
        info = self.runtime.render_info(state, for_seat=seat)
        if elsewhere and not state.closed:
            return render_plays_elsewhere(info, seat, hand_no, f"<#{state.channel_id}>", locale), (version, False)
        rendered = render_hand(info, view, hand_no, locale, CARD_EMOJIS.json_by_card)
        if is_quick(state.channel_id):
            payload = with_table(self.runtime, state, rendered, info, view, locale)
        else:
            payload = with_seat_picture(self.runtime, self.channel, rendered, info, view, locale)
        if state.closed:
            payload["components"] = []
        if is_quick(state.channel_id):
            payload = self.with_review(state, payload, locale)
        return payload, (version, state.closed)

    def with_review(self, state: TableState, payload: Payload, locale: str) -> Payload:
        """A quick-match table's DM message (:func:`with_table`) with what a channel table's hand messages
        have: "Review hand N" for the newest finished hand, and at the match's end (R8) each player's accuracy
        once its background review is ready (:meth:`match_reviewed`). Only where the bot offers reviews."""
        sheet = state.snapshot.sheet
        if self.runtime.reviews is None or sheet is None:
            return payload
        payload = with_review_button(payload, state.table_id, sheet, locale)
        accuracy = self.accuracy.get(state.table_id)
        if accuracy is not None and state.closed and state.closing is None:
            names = seat_names(state.info)
            payload = with_match_accuracy(payload, match_accuracy_line(names, accuracy, locale), locale)
        return payload

    async def _run(self, viewer: Viewer) -> None:
        try:
            await self._send_while_dirty(viewer)
        finally:
            if viewer.task is asyncio.current_task():
                viewer.task = None  # a finished task (and its coroutine) is not kept for every seated player

    async def _send_while_dirty(self, viewer: Viewer) -> None:
        failures = 0
        while viewer.dirty and not viewer.busy:
            viewer.dirty = False
            reach, viewer.reach = viewer.reach, Reach.TOKEN
            stale, viewer.stale = viewer.stale, False
            state = self.runtime.shown.get(viewer.table_id) or viewer.final
            if state is None:
                return
            try:
                await self._bring_up(viewer, state, reach, stale)
                failures = 0
            except Exception as exc:
                if not transient(exc) or failures >= len(RETRY_DELAYS):
                    log.exception("private view of user %s failed", viewer.user_id)
                    continue
                # Rate limited past discord.py's own retries (a burst of deals), or Discord failing: the
                # player would never see their hand or their turn. Keep what was asked and try again.
                log.warning("private view of user %s failed (%s); retrying", viewer.user_id, exc)
                viewer.dirty = True
                viewer.reach = max(viewer.reach, reach)
                viewer.stale = viewer.stale or stale
                await asyncio.sleep(RETRY_DELAYS[failures])
                failures += 1
        if viewer.final is not None and not viewer.dirty and self.viewers.get(viewer.user_id) is viewer:
            del self.viewers[viewer.user_id]  # the closed table's last view is sent: nothing more to show
            if self._awaits_accuracy(viewer.final):  # but for the match's accuracy, once reviewed
                awaiting = self.awaiting.setdefault(viewer.table_id, [])
                awaiting.append(viewer)
                while len(self.awaiting) > FINALS_KEPT:
                    self.awaiting.pop(next(iter(self.awaiting)))

    def _awaits_accuracy(self, state: TableState) -> bool:
        """A quick-match table whose match ended (R8) and whose players' DMs will show its accuracy when the
        background review is ready (:meth:`match_reviewed`)."""
        reviews = self.runtime.reviews
        return (reviews is not None and reviews.auto and is_quick(state.channel_id) and state.closing is None
                and state.table_id not in self.accuracy)

    async def match_reviewed(self, table_id: int, seats: Sequence[SeatAccuracy]) -> None:
        """A ReviewService listener: the background review of a finished quick match (R8) is ready, and each
        player's DM message is drawn once more, with every player's accuracy under the final score (a channel
        table's last message shows it: :meth:`.channel.ChannelBoard.match_reviewed`)."""
        viewers = [v for v in self.viewers.values() if v.table_id == table_id and v.final is not None]
        viewers += self.awaiting.pop(table_id, [])
        if not viewers:
            return
        self.accuracy[table_id] = [s.accuracy for s in sorted(seats, key=lambda s: s.seat)]
        while len(self.accuracy) > FINALS_KEPT:
            self.accuracy.pop(next(iter(self.accuracy)))
        for viewer in viewers:
            viewer.stale = viewer.dirty = True
            viewer.reach = Reach.EVERY
            self._kick(viewer)

    async def _bring_up(self, viewer: Viewer, state: TableState, reach: Reach, stale: bool) -> None:
        """Send what ``reach`` allows of the latest snapshot, skipping what is already in front of the player."""
        if state.version is None:
            return
        current: Shown = (state.version, state.closed)
        locale: str | None = None

        def draw(elsewhere: bool = False) -> Payload | None:
            nonlocal locale
            locale = locale or self.locale_of(viewer.user_id, state)
            rendered = self.render(state, viewer.seat, locale, elsewhere=elsewhere)
            return None if rendered is None else rendered[0]

        if viewer.token_valid() and (stale or viewer.shown != current):
            payload = draw()
            if payload is None:
                return
            if await self._edit_token(viewer, payload):
                viewer.shown = current
                if viewer.response_in_dm:
                    viewer.dm_shown = (current, False)
            else:
                reach = max(reach, Reach.VIEW)  # refused: the DM takes over at once
        if viewer.plays_elsewhere():
            # Redrawn once (it shows no cards, so it never goes stale), and again only for a language change or
            # the end of the table (no bot-token edit per trick for channel players).
            if (reach < Reach.EVERY or viewer.dm_closed
                    or (viewer.dm_shown is not None and viewer.dm_shown[1] and not stale
                        and (not state.closed or viewer.dm_shown[0] == current))):
                return
            payload = draw(elsewhere=True)
            if payload is not None and await self._send_dm(viewer, payload):
                viewer.dm_shown = (current, True)
            return
        if viewer.token_valid() or reach < Reach.VIEW or viewer.dm_closed:
            return
        if viewer.dm_shown == (current, False) and not stale:
            return
        payload = draw()
        if payload is not None and await self._send_dm(viewer, payload):
            viewer.dm_shown = (current, False)

    async def _edit_token(self, viewer: Viewer, payload: Payload) -> bool:
        """Edit the response of the player's latest interaction; False (and forget the token) if refused."""
        assert viewer.response is not None
        try:
            await edit_response(self.runtime.client, viewer.response, payload)
            return True
        except discord.HTTPException as exc:
            log.info("user %s: interaction edit refused (%s); using DMs", viewer.user_id, exc.status)
            viewer.response = None
            viewer.response_in_dm = False
            return False

    async def _send_dm(self, viewer: Viewer, payload: Payload) -> bool:
        """The player's DM view (bot token): before the table message when the pace holds requests back."""
        with urgent():
            return await self._send_dm_now(viewer, payload)

    async def _send_dm_now(self, viewer: Viewer, payload: Payload) -> bool:
        client = self.runtime.client
        try:
            if viewer.dm_channel_id is not None and viewer.dm_message_id is not None:
                try:
                    await edit_message(client, viewer.dm_channel_id, viewer.dm_message_id, payload)
                    if not viewer.dm_stored:
                        await self._store_dm(viewer)
                    return True
                except discord.NotFound:
                    viewer.dm_message_id = None
            if viewer.dm_channel_id is None:
                data = await client.http.start_private_message(viewer.user_id)
                viewer.dm_channel_id = int(data["id"])
            sent_id = await send_message(client, viewer.dm_channel_id, payload)
        except discord.Forbidden as exc:
            if exc.code == CANNOT_DM:
                await self._dms_closed(viewer)
                return False
            raise
        viewer.dm_message_id = sent_id
        viewer.dm_stored = False
        await self._store_dm(viewer)
        return True

    async def _store_dm(self, viewer: Viewer) -> None:
        """Store the DM message's id, so that a restart edits it instead of sending another.

        A storage fault is a warning: the message is sent and kept in
        memory, and its id is stored at its next update.
        """
        if viewer.dm_channel_id is None or viewer.dm_message_id is None:
            return
        try:
            await self.runtime.service.remember_message(
                viewer.table_id, f"dm:{viewer.user_id}", viewer.dm_channel_id, viewer.dm_message_id
            )
        except StorageUnavailable as exc:
            log.warning("user %s: could not store their DM message (%s); trying again at its next update",
                        viewer.user_id, exc)
            return
        viewer.dm_stored = True

    async def _dms_closed(self, viewer: Viewer) -> None:
        viewer.dm_closed = True
        try:
            changed = await self.runtime.service.set_dm_closed(viewer.table_id, viewer.user_id)
        except BalootError:
            return  # the table closed or the player left meanwhile
        except StorageUnavailable as exc:  # known here until a restart; the player is told all the same
            log.warning("user %s: could not store that their DMs are closed (%s)", viewer.user_id, exc)
            changed = True
        viewer.tell_closed = viewer.tell_closed or changed
        log.info("user %s does not accept DMs; they play with 'My hand'", viewer.user_id)

    # -- presses and "My hand" ---------------------------------------------------------------------
    def begin(self, table_id: int, user_id: int, seat: int) -> Viewer:
        """A press by this player is being answered: hold back refreshes until it is."""
        viewer = self.viewer(table_id, user_id, seat)
        viewer.busy += 1
        return viewer

    def end(self, viewer: Viewer, interaction: discord.Interaction | None, shown: Shown | None) -> None:
        """The press was answered; ``interaction``'s response now shows version ``shown``.

        Answered in the DM itself, the DM shows it too. Answered in an ephemeral
        view while the DM is a live view (it may show buttons for the move just
        made), the DM is redrawn without buttons, saying where play continues.
        """
        viewer.busy = max(0, viewer.busy - 1)
        if interaction is not None and shown is not None:
            message = interaction.message
            viewer.response = ResponseToken.of(interaction)
            viewer.response_in_dm = message is not None and message.id == viewer.dm_message_id
            viewer.shown = shown
            if viewer.response_in_dm:
                viewer.dm_shown = (shown, False)
            elif viewer.dm_message_id is not None and (viewer.dm_shown is None or not viewer.dm_shown[1]):
                viewer.dirty = True
                viewer.reach = Reach.EVERY
        if viewer.dirty and self._up_to_date(viewer):
            viewer.dirty = False  # the answer showed the latest state: no task only to find nothing to send
            viewer.reach = Reach.TOKEN
        if viewer.dirty:
            self._kick(viewer)

    def _up_to_date(self, viewer: Viewer) -> bool:
        """Whether :meth:`_bring_up` would send nothing now: the player's live view is the response of a valid
        token showing the latest snapshot, and no DM copy waits to be redrawn (the press that was just
        answered, nearly always)."""
        if viewer.stale or viewer.final is not None or not viewer.token_valid() or viewer.plays_elsewhere():
            return False
        state = self.runtime.shown.get(viewer.table_id)
        return state is not None and state.version is not None and viewer.shown == (state.version, state.closed)

    def take_dm_notice(self, user_id: int) -> bool:
        """True once after this player's DMs were found closed (tell them now)."""
        viewer = self.viewers.get(user_id)
        if viewer is None or not viewer.tell_closed:
            return False
        viewer.tell_closed = False
        return True

    async def close(self) -> None:
        for viewer in self.viewers.values():
            if viewer.task is not None:
                viewer.task.cancel()
