"""Each seated player's private hand (issue 4): one message kept up to date, never spammed.

A player's view is refreshed when a hand is dealt, when their turn starts,
when an action was played for them, and at the end. It goes, in order of
preference:

1. through the player's latest interaction whose response is their private
   view (a press on their hand, "My hand", ``/baloot hand``) while its token
   is valid (15 minutes; we stop at :data:`TOKEN_LIFETIME`). This is the only
   way to edit an ephemeral message, and it does not count against the bot
   token's global rate limit;
2. else to their DM: one message, created once and then edited (bot token).

A DM refused with 403/50007 marks the seat's DMs closed in the service; the
player is told once, privately, on their next interaction, and plays with
the "My hand" button.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import discord

from baloot.errors import BalootError
from baloot.render import Payload, TableInfo, render_hand
from baloot.render.picture import table_picture
from baloot.view import SeatView

from .pacing import urgent
from .payloads import attach_picture, send_args
from .shown import TableState
from .wire import ResponseToken, edit_message, edit_response

if TYPE_CHECKING:
    from .runtime import Runtime

log = logging.getLogger("baloot.discord")

TOKEN_LIFETIME: Final = 14 * 60.0
"""Seconds an interaction token is still used for edits (Discord allows 15 minutes)."""
CANNOT_DM: Final = 50007

Shown = tuple[tuple[int, int], bool]
"""(version, closed) of the private view a player has in front of them."""


def with_seat_picture(runtime: Runtime, payload: Payload, info: TableInfo, view: SeatView, locale: str) -> Payload:
    """The private view with the table's picture from the player's own seat (issue 10; TABLE_PICTURES=all).

    Drawn from the public part of the seat's view only, like the channel's picture.
    """
    if runtime.pictures != "all" or view.public is None:
        return payload
    public = view.public
    return attach_picture(payload, lambda: table_picture(info, public, view.seat, locale))


@dataclass
class Viewer:
    """One seated player's private message(s)."""

    user_id: int
    table_id: int
    seat: int
    dm_closed: bool = False
    response: ResponseToken | None = None  # of the latest interaction whose response is this player's view
    dm_channel_id: int | None = None
    dm_message_id: int | None = None
    shown: Shown | None = None
    busy: int = 0  # presses being answered (their response shows the view)
    dirty: bool = False
    stale: bool = False  # redraw even at the same version (the player's language changed)
    tell_closed: bool = False  # DMs found closed: tell them on their next interaction
    task: asyncio.Task[None] | None = None

    def token_valid(self) -> bool:
        return self.response is not None and self.response.age() < TOKEN_LIFETIME


class PrivateHands:
    """Every seated player's private view, by user id (a user sits at one table at a time)."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.viewers: dict[int, Viewer] = {}
        self.locales: dict[int, str] = {}

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
        """A player's language (:meth:`~cogs.runtime.Languages.viewer`): chosen, else the table's, else their app's."""
        runtime = self.runtime
        return runtime.languages.viewer(user_id, state.info.guild_id, state.info.language,
                                        self.locales.get(user_id) or runtime.language_of(state))

    # -- refreshing --------------------------------------------------------------------------
    def refresh(self, state: TableState, seat: int) -> None:
        """Bring ``seat``'s private view up to date (soon; at most one send at a time per player)."""
        info = state.info.seats[seat]
        if info is None or not info.human or info.user_id is None:
            return
        viewer = self.viewer(state.table_id, info.user_id, seat)
        viewer.dirty = True
        self._kick(viewer)

    def redraw(self, state: TableState, *seats: int) -> None:
        """Redraw private views even though the game did not move (a language changed)."""
        for seat in seats or range(4):
            info = state.info.seats[seat]
            if info is not None and info.human and info.user_id is not None:
                self.viewer(state.table_id, info.user_id, seat).stale = True
                self.refresh(state, seat)

    def _kick(self, viewer: Viewer) -> None:
        if viewer.busy or (viewer.task is not None and not viewer.task.done()):
            return
        viewer.task = asyncio.create_task(self._run(viewer), name=f"baloot-private-{viewer.user_id}")

    def render(self, state: TableState, seat: int, locale: str) -> tuple[Payload, Shown] | None:
        """The private view of ``seat`` from the latest snapshot, with what it shows."""
        view = state.view_of(seat)
        hand_no = state.hand_no
        version = state.version
        if view is None or hand_no is None or version is None:
            return None
        info = self.runtime.render_info(state, for_seat=seat)
        payload = with_seat_picture(self.runtime, render_hand(info, view, hand_no, locale), info, view, locale)
        if state.closed:
            payload["components"] = []
        return payload, (version, state.closed)

    async def _run(self, viewer: Viewer) -> None:
        while viewer.dirty and not viewer.busy:
            viewer.dirty = False
            state = self.runtime.shown.get(viewer.table_id)
            if state is None:
                return
            if (state.version, state.closed) == viewer.shown and not viewer.stale:
                continue  # already in front of them (e.g. the answer to their own press): nothing to render
            viewer.stale = False
            rendered = self.render(state, viewer.seat, self.locale_of(viewer.user_id, state))
            if rendered is None:
                continue
            payload, shown = rendered
            try:
                if await self._send(viewer, payload):
                    viewer.shown = shown
            except Exception:
                log.exception("private view of user %s failed", viewer.user_id)

    async def _send(self, viewer: Viewer, payload: Payload) -> bool:
        if viewer.token_valid():
            assert viewer.response is not None
            try:
                await edit_response(self.runtime.client, viewer.response, payload)
                return True
            except discord.HTTPException as exc:
                log.info("user %s: interaction edit refused (%s); using DMs", viewer.user_id, exc.status)
                viewer.response = None
        if viewer.dm_closed:
            return False
        with urgent():  # a player's own view goes before the table message when the pace holds requests back
            return await self._send_dm(viewer, payload)

    async def _send_dm(self, viewer: Viewer, payload: Payload) -> bool:
        client = self.runtime.client
        try:
            if viewer.dm_channel_id is not None and viewer.dm_message_id is not None:
                try:
                    await edit_message(client, viewer.dm_channel_id, viewer.dm_message_id, payload)
                    return True
                except discord.NotFound:
                    viewer.dm_message_id = None
            if viewer.dm_channel_id is None:
                data = await client.http.start_private_message(viewer.user_id)
                viewer.dm_channel_id = int(data["id"])
            channel = client.get_partial_messageable(viewer.dm_channel_id, type=discord.ChannelType.private)
            sent = await channel.send(**send_args(payload))
        except discord.Forbidden as exc:
            if exc.code == CANNOT_DM:
                await self._dms_closed(viewer)
                return False
            raise
        viewer.dm_message_id = sent.id
        await self.runtime.service.remember_message(
            viewer.table_id, f"dm:{viewer.user_id}", viewer.dm_channel_id, sent.id
        )
        return True

    async def _dms_closed(self, viewer: Viewer) -> None:
        viewer.dm_closed = True
        try:
            changed = await self.runtime.service.set_dm_closed(viewer.table_id, viewer.user_id)
        except BalootError:
            return  # the table closed or the player left meanwhile
        viewer.tell_closed = viewer.tell_closed or changed
        log.info("user %s does not accept DMs; they play with 'My hand'", viewer.user_id)

    # -- presses and "My hand" ---------------------------------------------------------------------
    def begin(self, table_id: int, user_id: int, seat: int) -> Viewer:
        """A press by this player is being answered: hold back refreshes until it is."""
        viewer = self.viewer(table_id, user_id, seat)
        viewer.busy += 1
        return viewer

    def end(self, viewer: Viewer, interaction: discord.Interaction | None, shown: Shown | None) -> None:
        """The press was answered; ``interaction``'s response now shows version ``shown``."""
        viewer.busy = max(0, viewer.busy - 1)
        if interaction is not None and shown is not None:
            viewer.response = ResponseToken.of(interaction)
            viewer.shown = shown
        if viewer.dirty:
            self._kick(viewer)

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
