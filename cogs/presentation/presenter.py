"""The Discord layer's listener on the table service: events → table message and private hands.

Events of one table arrive in order, after what they report is stored, while
the table's lock is held (:mod:`baloot.tables.events`), each with the
snapshot the service published for it; this listener only keeps the latest
snapshot (:mod:`.shown`) and marks what to send — the sending happens in
tasks of :mod:`.channel` and :mod:`.private`. Private views are refreshed at
the end of a burst (the ``TurnStarted`` that closes every accepted action, or
the end of the match or table), so that a player never sees a half-dealt hand.

Every seated player's private view follows every turn change:
the seat to act and a seat played for may be reached by DM
(:attr:`~.private.Reach.VIEW`); the waiting seats through their interaction
token only (:attr:`~.private.Reach.TOKEN`, free of the bot token's global
limit), and by DM too at a completed trick (R5), a change of phase, a deal and
the end (:attr:`~.private.Reach.EVERY`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from baloot.i18n import t
from baloot.render import Notice
from baloot.render.text import timestamp
from baloot.tables import TableInfo
from baloot.tables.events import (
    ActionApplied,
    EndReason,
    HandFinished,
    HandStarted,
    MatchFinished,
    PlayerAway,
    PlayerBack,
    SeatsChanged,
    TableCreated,
    TableEnded,
    TableEvent,
    TableResumed,
    TableSettingsChanged,
    TrickCompleted,
    TurnReminder,
    TurnStarted,
    TurnTimedOut,
)
from baloot.tables.quick import is_quick

from .channel import LOBBY, hand_key
from .pings import PING
from .private import Reach
from .shown import TableState

if TYPE_CHECKING:
    from .runtime import Runtime

log = logging.getLogger("baloot.discord")


def seat_notice(old: TableInfo, new: TableInfo, language: str) -> Notice | None:
    """Who sat down or stood up between two snapshots (``notice.joined`` / ``notice.left``)."""
    for seat in range(4):
        before, after = old.seats[seat], new.seats[seat]
        if after is not None and after.human and (before is None or before.user_id != after.user_id
                                                  or not before.human):
            if new.seats[(seat + 2) % 4] is not None:  # name the partner rather than "Team n"
                return Notice("notice.joined_with", seat=seat,
                              params=(("seat", t("seat.number", language, n=seat + 1)),))
            return Notice("notice.joined", seat=seat, params=(
                ("seat", t("seat.number", language, n=seat + 1)),
                ("team", t("team.number", language, n=(seat & 1) + 1)),
            ))
        if before is not None and before.human and (after is None or not after.human):
            return Notice("notice.left", params=(("name", before.name),))
    return None


def phase_of(state: TableState) -> tuple[int, int] | None:
    """The current hand and its phase (an engine ``Phase``, an int), as last published (None before the deal)."""
    hand = state.snapshot.hand
    return None if hand is None else (hand.hand_no, hand.public.phase)


def playing(state: TableState) -> bool:
    """The current hand is in its card play (R5): a move there is a card, held back while the bot is busy."""
    hand = state.snapshot.hand
    return hand is not None and hand.public.current_trick is not None  # a trick is on the table only then


class Presenter:
    """Turns table events into channel edits and private refreshes."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self._pending: dict[int, dict[int, Reach]] = {}  # table id -> seats whose private view to refresh, how far

    async def __call__(self, event: TableEvent) -> None:
        runtime = self.runtime
        snapshot = event.snapshot
        state = runtime.shown.get(event.table_id)
        if isinstance(event, TableCreated | TableResumed):
            if snapshot is None:
                return
            state = runtime.shown.track(snapshot)
            await runtime.languages.load(state.info.guild_id)
            runtime.private.sync_seats(state)
            if isinstance(event, TableResumed):
                await self._resumed(state)
            return
        if state is None:
            log.debug("event %s for an unknown table %s", type(event).__name__, event.table_id)
            return
        if state.closed:  # nothing is posted or edited for a closed table but its closing
            log.debug("event %s for the closed table %s", type(event).__name__, event.table_id)
            return
        before = state.info
        phase = phase_of(state)
        if snapshot is not None:
            state.update(snapshot)
        if phase is not None and phase_of(state) not in (phase, None):
            self._later(state, *range(4), reach=Reach.EVERY)  # bidding → doubling → play → over
            runtime.channel.touch_current(state)
        await self._on(state, event, before)
        if is_quick(state.channel_id) and isinstance(event, TurnTimedOut | TurnReminder | PlayerAway | PlayerBack
                                                     | SeatsChanged):
            self._later(state)  # what the channel would have shown, shown in the DMs (at the turn's start)
            if not isinstance(event, TurnTimedOut):
                self._flush_private(state)

    async def _resumed(self, state: TableState) -> None:
        runtime = self.runtime
        for stored in (await runtime.service.messages(state.table_id)).values():
            if stored.key == LOBBY or stored.key.startswith("hand:"):
                runtime.channel.adopt(state.table_id, stored.key, stored.message_id)
            elif stored.key == PING:
                runtime.pings.adopt(state.table_id, stored.message_id)
            elif stored.key.startswith("dm:"):
                user_id = int(stored.key[3:])
                seat = state.info.seat_of(user_id)
                if seat is not None:
                    runtime.private.adopt_dm(state.table_id, user_id, seat, stored.channel_id, stored.message_id)
        state.notice = Notice("notice.resumed")
        runtime.channel.announce(state, state.notice)
        runtime.channel.touch_current(state)

    def _later(self, state: TableState, *seats: int, reach: Reach = Reach.VIEW) -> None:
        if is_quick(state.channel_id):
            # no channel: each player's DM is their table message too, so it follows every public event
            reach, seats = Reach.EVERY, tuple(range(4))
        pending = self._pending.setdefault(state.table_id, {})
        for seat in seats:
            pending[seat] = max(pending.get(seat, Reach.TOKEN), reach)

    def _flush_private(self, state: TableState) -> None:
        for seat, reach in sorted(self._pending.pop(state.table_id, {}).items()):
            self.runtime.private.refresh(state, seat, reach)

    async def _on(self, state: TableState, event: TableEvent, before: TableInfo) -> None:
        runtime = self.runtime
        channel = runtime.channel
        if isinstance(event, SeatsChanged | TableSettingsChanged):
            if isinstance(event, SeatsChanged):
                state.notice = seat_notice(before, event.table, runtime.language_of(state)) or state.notice
            runtime.private.sync_seats(state)
            if isinstance(event, TableSettingsChanged) and state.hand_no is not None:
                runtime.private.redraw(state)  # the table's language may have changed
            channel.touch_current(state)
        elif isinstance(event, HandStarted):
            state.notice = None
            self._later(state, *range(4), reach=Reach.EVERY)
            lobby = event.hand_no == 0 and LOBBY in channel.board(state.table_id).messages
            channel.fold(state, event.hand_no)  # after a thrown-in deal: its message, not a new one
            channel.touch(state, *((LOBBY,) if lobby else ()), hand_key(event.hand_no))
        elif isinstance(event, ActionApplied):
            if event.auto:
                self._later(state, event.seat)
            elif state.notice is not None and state.notice.key in ("notice.timed_out", "notice.reminder"):
                state.notice = None
            channel.touch(state, hand_key(event.hand_no), card=playing(state))
        elif isinstance(event, TrickCompleted):
            self._later(state, *range(4), reach=Reach.EVERY)  # R5: everyone sees the trick and who took it
            channel.touch(state, hand_key(event.hand_no))
        elif isinstance(event, HandFinished):
            self._later(state, *range(4), reach=Reach.EVERY)
            channel.touch(state, hand_key(event.hand_no))
        elif isinstance(event, MatchFinished):
            state.closed = True
            await runtime.pings.closed(state)
            self._later(state, *range(4), reach=Reach.EVERY)
            self._flush_private(state)
            if is_quick(state.channel_id):  # its DMs are its only messages: each is drawn once more, then forgotten
                runtime.private.closed(state)
            channel.finished(state)
        elif isinstance(event, TurnStarted):
            self._later(state, *range(4), reach=Reach.TOKEN)  # whose turn it is, in every view
            if not event.played_for:
                self._later(state, event.seat)
                runtime.pings.turn(state, event.seat)
            self._flush_private(state)
            channel.touch_current(state, card=playing(state))
        elif isinstance(event, TurnReminder):
            # "time runs out <t:…:R>" once: the timestamp counts down itself
            state.notice = Notice("notice.reminder", seat=event.seat, params=(
                ("deadline", timestamp(event.deadline)),
            ))
            channel.touch_current(state)
        elif isinstance(event, TurnTimedOut):
            state.notice = Notice("notice.timed_out", seat=event.seat, action=event.action)
            channel.announce(state, state.notice)
        elif isinstance(event, PlayerAway | PlayerBack):
            state.notice = Notice("notice.away" if isinstance(event, PlayerAway) else "notice.back", seat=event.seat)
            channel.touch_current(state)
        elif isinstance(event, TableEnded):
            await self._ended(state, event)

    async def _ended(self, state: TableState, event: TableEnded) -> None:
        """Every view of the table says it is closed, and by whom or how, with no buttons: the
        table message (the latest one already in the channel: none is posted now), every private view
        (the DMs, and "My hand" views while their token is valid), and the turn ping is deleted."""
        state.closed = True
        state.closing = closing_notice(event, state.info)
        state.notice = None
        self._pending.pop(state.table_id, None)
        await self.runtime.pings.closed(state)
        self.runtime.private.closed(state)
        self.runtime.channel.closed(state)


def closing_notice(event: TableEnded, info: TableInfo) -> Notice:
    """The line every view of a closed table shows: by whom (creator, admin), by a vote (how many of how many),
    or that its last person left."""
    if event.reason == EndReason.VOTE:
        return Notice("notice.ended_vote", params=(("votes", event.votes), ("needed", event.needed)))
    who = None if event.by_user_id is None else f"<@{event.by_user_id}>"
    if event.reason == EndReason.EMPTY:
        if who is None:
            return Notice("notice.ended_empty_nobody")
        key = "notice.ended_empty_match" if event.abandoned else "notice.ended_empty"
        return Notice(key, params=(("name", who),))
    if who is None:
        return Notice("notice.ended_nobody")
    return Notice("notice.ended", params=(("name", who),))
