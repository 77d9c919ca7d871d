"""The table in the channel: one message per hand, edited as the hand goes on.

Changes are coalesced: an event marks a message dirty and a per-table task
renders and sends it after :data:`EDIT_DELAY`, and no sooner than
:data:`MIN_INTERVAL` after the table's previous edit, so a burst of events
(a trick, the end of a hand, a deal) makes one edit per message and a table
stays well under Discord's ~5 messages per 5 s per channel. With many tables
the interval widens (:func:`edit_interval`) so all edits together stay within
:data:`EDIT_BUDGET` requests per second of the bot token's global limit. Message ids are
stored through the service (``lobby``, ``hand:N``) so edits continue after a
restart. Everything is sent with the bot token; rendering reads the
service's published snapshots (:mod:`.shown`), never its live state.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Protocol

import discord

from baloot.render import (
    RESULT_ID_TEMPLATE,
    REVIEW_ID_TEMPLATE,
    Notice,
    Payload,
    render_lobby,
    render_notice,
    render_table,
)
from baloot.render.picture import table_picture
from baloot.render.review import match_accuracy_line, with_match_accuracy
from baloot.render.table import thrown_in_before
from baloot.tables import StorageUnavailable, TableError
from baloot.tables.quick import is_quick

from ..transport.pacing import share
from ..transport.wire import edit_message, send_message
from .shown import TableState

if TYPE_CHECKING:
    from baloot.engine.summary import MatchSummary
    from baloot.render import RenderInfo
    from baloot.tables import HandSnapshot
    from baloot.tables.info import TableInfo

    from .shared import Shared

log = logging.getLogger("baloot.discord")

EDIT_DELAY: Final = 0.25
"""Seconds a table waits after a change before editing, to gather a burst into one edit."""
MIN_INTERVAL: Final = 1.0
"""Seconds between two flushes of one table (at most ~5 edits in 5 s per channel)."""
EDIT_BUDGET: Final = 30.0
"""Channel edits per second the bot allows itself across all tables: 60% of Discord's global
limit of 50 bot-token requests per second, leaving room for new messages, DMs and notices."""


def edit_interval(active_tables: int, budget: float = EDIT_BUDGET) -> float:
    """Seconds between two edits of one table's message.

    One edit a second per table while the tables together stay within
    ``budget`` edits a second; with more tables the interval widens so the bot as a
    whole never exceeds it (each message then gathers more events per edit).
    """
    return max(MIN_INTERVAL, active_tables / budget)


def process_budget(requests_per_second: int) -> float:
    """This process's share of :data:`EDIT_BUDGET`, in proportion to its share of the global limit
    (:func:`cogs.transport.pacing.share`): with two processes each edits half as often a second, so that
    their tables' messages are edited as often as one process's would be."""
    return EDIT_BUDGET * min(1.0, requests_per_second / share((), None))
PICTURE_TABLES: Final = 100
"""Active tables (each has a channel board) above which table messages are sent without a picture."""
LOBBY: Final = "lobby"
FINALS_KEPT: Final = 1000
"""Finished matches whose last message is kept (:class:`FinalMessage`) until their background review is ready."""


def hand_key(hand_no: int) -> str:
    return f"hand:{hand_no}"


def _order(key: str) -> int:
    return -1 if key == LOBBY else int(key.split(":")[1])


_KEPT_AFTER_CLOSE: Final = (re.compile(RESULT_ID_TEMPLATE), re.compile(REVIEW_ID_TEMPLATE))


def details_only(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The buttons of a table message without "My hand": a finished hand's "Details" and "Review" only."""
    kept = [c for row in components for c in row.get("components", [])
            if any(p.fullmatch(c.get("custom_id", "")) for p in _KEPT_AFTER_CLOSE)]
    return [{"type": 1, "components": kept}] if kept else []


class SeatAccuracy(Protocol):
    """One seat's accuracy in a reviewed match, as the review service tells it (R1 seat 0-3, 0-100)."""

    @property
    def seat(self) -> int: ...

    @property
    def accuracy(self) -> float: ...


def seat_names(info: TableInfo) -> tuple[str, str, str, str]:
    """The names at seats 0-3 (R1) as the table shows them ("" for an empty seat)."""
    names = [s.name if s is not None else "" for s in info.seats]
    return names[0], names[1], names[2], names[3]


@dataclass(frozen=True, slots=True)
class FinalMessage:
    """A finished match's last message as sent (without its picture's file, which an edit keeps), and what its
    accuracy line needs: the names at seats 0-3 and the table's language."""

    channel_id: int
    message_id: int
    payload: Payload
    names: tuple[str, str, str, str]
    language: str


@dataclass(slots=True)
class Board:
    """The channel messages of one table and what needs sending."""

    messages: dict[str, int] = field(default_factory=dict)  # key -> message id
    dirty: set[str] = field(default_factory=set)
    held: set[str] = field(default_factory=set)  # changed by a card only, sent with the next moment (busy bot)
    task: asyncio.Task[None] | None = None
    last_flush: float = 0.0
    closing_shown: str | None = None  # the message last drawn saying the table closed


class ChannelBoard:
    """Keeps every table's channel messages up to date."""

    def __init__(self, runtime: Shared) -> None:
        self.runtime = runtime
        self.boards: dict[int, Board] = {}
        self._notices: set[asyncio.Task[None]] = set()
        self.edit_budget = EDIT_BUDGET  # this process's share (:func:`process_budget`; bot.py sets it)
        self.accuracy: dict[int, str] = {}  # table id -> its match's accuracy line, while its board is live
        self.finals: dict[int, FinalMessage] = {}  # finished matches awaiting their background review

    def board(self, table_id: int) -> Board:
        board = self.boards.get(table_id)
        if board is None:
            board = self.boards[table_id] = Board()
        return board

    def adopt(self, table_id: int, key: str, message_id: int) -> None:
        """Use an existing message for ``key`` (the /create reply, or one stored before a restart)."""
        self.board(table_id).messages[key] = message_id

    def touch(self, state: TableState, *keys: str, card: bool = False) -> None:
        """Mark messages of a table as changed; they are sent shortly, coalesced.

        ``card``: the change is a card played within a trick (or the turn passing
        with it). While the bot is busy (:meth:`busy`), such a change waits for
        the table's next moment - a completed trick (R5), a bid, a phase change,
        a deal, the end, a notice - so that the edits the budget allows show
        those exactly, instead of whatever state the widened
        interval happens to catch.
        """
        if is_quick(state.channel_id):
            return  # no channel: its public events are folded into each player's DM (private.py)
        board = self.board(state.table_id)
        if card and self.busy(state, board, keys):
            board.held.update(keys)
            return
        board.dirty.update(keys)
        board.dirty.update(board.held)
        board.held.clear()
        if board.task is None or board.task.done():
            self._start_flush(state, board)

    def busy(self, state: TableState, board: Board, keys: tuple[str, ...]) -> bool:
        """True when the bot runs more tables than one edit a second each fits in the bot token's budget.

        Then a card waits for the next moment even on a message carried by an
        interaction token (:mod:`.carrier`): those edits cost no rate limit, but
        each is a REST call of the bot's CPU, and with 500 tables one edit per
        card (34 a hand) against one per moment (about 9) made presses slower
        (``scripts/bench_tables.py --tables 500 --think 1.5 --play channel``).
        """
        return edit_interval(len(self.boards), self.edit_budget) > MIN_INTERVAL

    def carried(self, board: Board, keys: Iterable[str]) -> bool:
        """Every one of these messages exists and is edited through a valid interaction token (:mod:`.carrier`)."""
        carriers = self.runtime.carriers
        return all(key in board.messages and carriers.token_of(board.messages[key]) is not None for key in keys)

    def _start_flush(self, state: TableState, board: Board) -> None:
        board.task = task = asyncio.create_task(self._flush_soon(state, board), name=f"baloot-table-{state.table_id}")
        task.add_done_callback(lambda done: self._flush_ended(state, board, done))

    def _flush_ended(self, state: TableState, board: Board, task: asyncio.Task[None]) -> None:
        """The flusher's supervisor: one that ended on an error with edits pending starts again."""
        if task.cancelled() or board.task is not task:
            return
        board.task = None  # a finished flusher (and its coroutine) is not kept for every table
        exc = task.exception()
        if exc is not None:
            log.error("table %s: the channel flusher failed; starting it again", state.table_id, exc_info=exc)
            if board.dirty and self.boards.get(state.table_id) is board:
                self._start_flush(state, board)

    def fold(self, state: TableState, hand_no: int) -> None:
        """A new deal after thrown-in ones (R4) takes over their channel message.

        Everyone passed twice, so the deal passed on: instead of a new message per
        deal, hand ``hand_no`` edits the thrown-in hand's message, which then says
        in one line how many deals were thrown in (:func:`~baloot.render.table.thrown_in_before`).
        A thrown-in hand whose message was not sent yet is never sent.
        """
        sheet = state.snapshot.sheet
        if hand_no < 1 or sheet is None or not thrown_in_before(sheet, hand_no) or is_quick(state.channel_id):
            return
        board = self.board(state.table_id)
        previous, key = hand_key(hand_no - 1), hand_key(hand_no)
        board.dirty.discard(previous)
        board.held.discard(previous)
        state.shown(hand_no - 1)
        message_id = board.messages.pop(previous, None)
        if message_id is None or key in board.messages:
            return
        board.messages[key] = message_id
        self._later(self._remember(state, key, message_id))

    async def _remember(self, state: TableState, key: str, message_id: int) -> None:
        """Store which message shows ``key``, so that edits go on after a restart (a failure is only logged)."""
        try:
            await self.runtime.service.remember_message(state.table_id, key, state.channel_id, message_id)
        except StorageUnavailable as exc:  # kept in memory; only a restart would send it anew
            log.warning("table %s: could not remember message %s (%s)", state.table_id, key, exc)

    def _later(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._notices.add(task)
        task.add_done_callback(self._notices.discard)

    def closed(self, state: TableState) -> None:
        """The table closed: every message of it already in the channel (the lobby, each hand's) says so,
        without buttons but a finished hand's "Details", and no message is posted for it any more - not
        even one of a hand dealt just before the close. The latest goes first, then one a flush
        (:meth:`_flush_soon`), within the channel's pace."""
        board = self.board(state.table_id)
        if is_quick(state.channel_id):
            self._closed_done(state, board)
            return
        board.dirty.update(board.held)
        board.held.clear()
        board.dirty.intersection_update(board.messages)  # never sent: never sent now
        board.dirty.update(board.messages)  # every earlier message too: no "My hand" stays live on any
        if board.dirty and (board.task is None or board.task.done()):
            self._start_flush(state, board)
        elif not board.dirty and (board.task is None or board.task.done()):
            self._closed_done(state, board)

    def _closed_done(self, state: TableState, board: Board) -> None:
        self.boards.pop(state.table_id, None)
        self.accuracy.pop(state.table_id, None)
        self.runtime.carriers.forget(*board.messages.values())
        self.runtime.shown.forget(state.table_id)

    def finished(self, state: TableState) -> None:
        """The match ended (R8): its last hand's message shows the end, and every earlier message already in
        the channel loses "My hand" (keeping "Details"), one a flush like :meth:`closed`."""
        board = self.board(state.table_id)
        if is_quick(state.channel_id):  # no channel message: forgotten now (its DMs keep the last state)
            self._closed_done(state, board)
            return
        board.dirty.update(board.messages)
        self.touch_current(state)

    def touch_current(self, state: TableState, *, card: bool = False) -> None:
        """Mark the message of the current hand (or the lobby before the first deal)."""
        hand_no = state.hand_no
        self.touch(state, LOBBY if hand_no is None else hand_key(hand_no), card=card)

    async def _flush_soon(self, state: TableState, board: Board) -> None:
        while board.dirty or self._closing_unseen(state, board):
            # Messages edited through an interaction's token cost the global limit nothing: one
            # edit a second (Discord's per-channel pace), so every trick and bid shows however many tables run.
            carried = self.carried(board, board.dirty)
            interval = MIN_INTERVAL if carried else edit_interval(len(self.boards), self.edit_budget)
            wait = max(EDIT_DELAY, board.last_flush + interval - time.monotonic())
            await asyncio.sleep(wait)
            keys = sorted(board.dirty, key=_order, reverse=state.closed)
            board.dirty.clear()
            if state.closed:  # the close edits every message: the latest first, then one a flush (channel pace)
                board.dirty.update(keys[1:])
                keys = keys[:1]
            for key in keys:
                closing = state.closing is not None
                try:
                    await self._send(state, board, key)
                except Exception:
                    # Log and carry on: this message is tried again at the next flush.
                    log.exception("table %s: could not update %s; trying again", state.table_id, key)
                    board.dirty.add(key)
                    continue
                if closing and key == max(board.messages, key=_order):
                    board.closing_shown = key
                if key != LOBBY:
                    state.shown(_order(key))
            board.last_flush = time.monotonic()
        if state.closed:
            self._closed_done(state, board)

    @staticmethod
    def _closing_unseen(state: TableState, board: Board) -> bool:
        """The table closed, and its latest message was not drawn since: a message posted while the close
        arrived (drawn before it) is edited once more to say so."""
        if state.closing is None or not board.messages:
            return False
        latest = max(board.messages, key=_order)
        if board.closing_shown == latest:
            return False
        board.dirty.add(latest)
        return True

    def render(self, state: TableState, key: str) -> Payload | None:
        """The text of one of the table's messages, from the latest snapshot (public facts only)."""
        runtime = self.runtime
        language = runtime.language_of(state)
        if key == LOBBY:
            payload = render_lobby(runtime.render_info(state), state.info.rules, language,
                                   started=state.hand_no is not None)
            if state.closed:
                payload["components"] = []  # the match began: no more lobby buttons
            return payload
        shown = self._hand_shown(state, key)
        if shown is None:
            return None
        hand, sheet, info = shown
        # beside the picture the text keeps what the picture cannot show
        payload = render_table(info, hand.public, sheet, language, index=_order(key),
                               pictured=self.picture(state, key) is not None)
        if state.closed and state.closing is None:  # the match is over: its messages keep no "My hand"
            payload["components"] = details_only(payload["components"])
            line = self.accuracy.get(state.table_id)
            if line is not None and self._final(state, key):
                payload = with_match_accuracy(payload, line, language)
        return payload

    @staticmethod
    def _final(state: TableState, key: str) -> bool:
        """``key`` is the last hand's message of a finished match (R8)."""
        sheet = state.snapshot.sheet
        return (state.closed and state.closing is None and key != LOBBY and sheet is not None
                and _order(key) == len(sheet.hands) - 1)

    def _keep_final(self, state: TableState, key: str, message_id: int, payload: Payload) -> None:
        """Keep a finished match's last message as sent, for its accuracy line once the background review is
        ready (:meth:`match_reviewed`); not when the line is in it already or no background review runs."""
        reviews = self.runtime.reviews
        if (reviews is None or not reviews.auto or not self._final(state, key)
                or state.table_id in self.accuracy):
            return
        kept = {k: v for k, v in payload.items() if k != "files"}  # the edit keeps the picture as it is
        self.finals[state.table_id] = FinalMessage(state.channel_id, message_id, kept, seat_names(state.info),
                                                   self.runtime.language_of(state))
        while len(self.finals) > FINALS_KEPT:
            self.finals.pop(next(iter(self.finals)))

    async def match_reviewed(self, table_id: int, seats: Sequence[SeatAccuracy]) -> None:
        """A ReviewService listener: the background review of a finished match (R8) is ready, and its last
        message is edited once to show each player's accuracy (:func:`~baloot.render.review.match_accuracy_line`),
        in the table's language. While that message is still being sent, the line goes into its next edit."""
        accuracy = [s.accuracy for s in sorted(seats, key=lambda s: s.seat)]
        state, board = self.runtime.shown.get(table_id), self.boards.get(table_id)
        if state is not None and board is not None and state.closed and state.closing is None:
            if is_quick(state.channel_id):
                return
            language = self.runtime.language_of(state)
            self.accuracy[table_id] = match_accuracy_line(seat_names(state.info), accuracy, language)
            self.finals.pop(table_id, None)
            sheet = state.snapshot.sheet
            if sheet is not None and sheet.hands:
                self.touch(state, hand_key(len(sheet.hands) - 1))
            return
        final = self.finals.pop(table_id, None)
        if final is None:
            return
        line = match_accuracy_line(final.names, accuracy, final.language)
        try:
            await edit_message(self.runtime.client, final.channel_id, final.message_id,
                               with_match_accuracy(final.payload, line, final.language))
        except discord.HTTPException as exc:
            log.warning("table %s: could not show the match's accuracy (%s)", table_id, exc)

    def _hand_shown(self, state: TableState, key: str) -> tuple[HandSnapshot, MatchSummary, RenderInfo] | None:
        """The hand message ``key`` shows, the match so far and the names to show (None: nothing to show yet)."""
        hand_no = _order(key)
        hand = state.hand_at(hand_no)
        sheet = state.snapshot.sheet
        if hand is None or sheet is None or hand_no >= len(sheet.hands):
            return None
        # an earlier hand: no turn, no notice
        return hand, sheet, self.runtime.render_info(state, for_seat=None if hand_no == state.hand_no else -1)

    def pictures_drawn(self) -> bool:
        """Whether few enough tables are active for pictures (the channel's, and with TABLE_PICTURES=all the
        private views'): at most :data:`PICTURE_TABLES`."""
        return len(self.boards) <= PICTURE_TABLES

    def picture(self, state: TableState, key: str) -> Callable[[], bytes] | None:
        """What draws the picture of a hand's message, from the same snapshot as :meth:`render`.

        Refreshed with each edit while the bot is not busy: past PICTURE_TABLES
        active tables the messages go text only (a picture is about 1.4 ms of
        CPU, ``scripts/bench_pictures.py --tables 100``, and 13 per hand).
        """
        if key == LOBBY or self.runtime.pictures == "off" or not self.pictures_drawn():
            return None
        shown = self._hand_shown(state, key)
        if shown is None:
            return None
        hand, sheet, info = shown
        public, language, score = hand.public, self.runtime.language_of(state), sheet.score_after(_order(key))
        winner = sheet.winner if _order(key) == len(sheet.hands) - 1 else None  # the match's last picture (R8)
        return lambda: table_picture(info, public, None, language, score, winner)

    async def _stored(self, state: TableState, key: str) -> Payload | None:
        """An earlier hand's message at the close, that hand forgotten once its message was up to date
        (:meth:`.shown.TableState.shown`): drawn from the stored hands (None: not stored, or storage down)."""
        sheet = state.snapshot.sheet
        if key == LOBBY or sheet is None:
            return None
        try:
            stored = await self.runtime.service.stored_hand(state.table_id, _order(key))
        except (StorageUnavailable, TableError) as exc:  # its "My hand" stays; pressing it says the table closed
            log.warning("table %s: could not read hand %s to close its message (%s)", state.table_id, key, exc)
            return None
        if stored is None:
            return None
        payload = render_table(self.runtime.render_info(state, for_seat=-1), stored.public, sheet,
                               self.runtime.language_of(state), index=_order(key))
        payload["components"] = details_only(payload["components"])
        return payload

    async def _send(self, state: TableState, board: Board, key: str) -> None:
        payload = self.render(state, key)
        if payload is None and state.closed and key in board.messages:
            payload = await self._stored(state, key)
        if payload is None:
            return
        draw = self.picture(state, key)
        if draw is not None:  # drawn off the event loop (.pictures)
            payload = await self.runtime.drawer.attach(payload, draw)
        client, carriers = self.runtime.client, self.runtime.carriers
        message_id = board.messages.get(key)
        if message_id is None and state.closing is not None:
            return  # closed: nothing new is posted for the table
        try:
            if message_id is not None:
                # Through the token of the interaction that carried it while valid, else the bot token.
                if await carriers.edit(client, message_id, payload):
                    self._keep_final(state, key, message_id, payload)
                    return
                try:
                    await edit_message(client, state.channel_id, message_id, payload)
                    self._keep_final(state, key, message_id, payload)
                    return
                except discord.NotFound:
                    log.info("table %s: message %s is gone; sending a new one", state.table_id, key)
            sent_id = await carriers.send(client, state.channel_id, payload)
            if sent_id is None:
                sent_id = await send_message(client, state.channel_id, payload)
            board.messages[key] = sent_id
        except discord.HTTPException:
            log.exception("table %s: could not send %s", state.table_id, key)
            return
        self._keep_final(state, key, sent_id, payload)
        await self._remember(state, key, sent_id)

    def announce(self, state: TableState, notice: Notice) -> None:
        """A one-line message in the table's channel (a timeout, the table being back); through a channel
        interaction's token when one is fresh (:mod:`.carrier`), else the bot token. A quick-match table has no
        channel: the notice shows in each player's DM with the table (the snapshot's notice)."""
        if is_quick(state.channel_id):
            return
        payload = render_notice(self.runtime.render_info(state), notice, self.runtime.language_of(state))

        async def send() -> None:
            try:
                if await self.runtime.carriers.send(self.runtime.client, state.channel_id, payload) is None:
                    await send_message(self.runtime.client, state.channel_id, payload)  # no fresh token: the bot's
            except discord.HTTPException:
                log.exception("table %s: could not send a notice", state.table_id)

        self._later(send())

    async def close(self) -> None:
        """Cancel pending edits (shutdown)."""
        for task in [b.task for b in self.boards.values() if b.task is not None] + list(self._notices):
            task.cancel()
