"""Game reviews of stored hands and matches: who may see them, computing them off the loop, keeping them.

**Who sees what.** A hand is reviewed only once it is over (a hand in progress,
or one a closed table left unfinished, is refused before anything is read of its
cards or computed). While its match runs, only someone who sat at the table
may review it; once the match is over (the table closed), anyone in its server.
A match of another server is not found. A quick-match table has no server (its
players come from several, :data:`~baloot.storage.quick.QUICK_GUILD_ID`) and a
request from the bot's DMs comes from none: there only someone who sat at the
table may review its hands, before and after its end. A thrown-in (R3.2) or annulled (R9)
hand has no decision to judge and is refused with that reason.

**Off the loop.** A review is computed part by part (the bidding, then each
trick: :mod:`baloot.review.parts`) in an executor: the bot's review pool, a
process pool whose workers run at the lowest CPU priority
(:func:`~baloot.tables.workers.review_pool`), so that a review never runs on the
event loop and a table's bots (in their own pool) always go first. Between
parts the caller's progress callback is told which part comes next.

**Kept.** A finished review is stored (:mod:`baloot.storage.reviews`), keyed by
hand and :data:`~baloot.review.REVIEWER_VERSION`; the next request reads it
back at once. Two requests for one hand at the same time share one computation.

**Matches.** :meth:`ReviewService.review_match` reviews every hand of a finished
match and stores each seat's accuracy (R8's match, the reviewer's mean over all
judged decisions); :meth:`ReviewService.start_auto` does that in the background,
one match at a time, for every match that finishes (``REVIEW_AUTO=0`` leaves it
off) and tells its listeners when a match's accuracy is ready.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from ..engine.error_codes import ErrorCode
from ..engine.hand import Hand
from ..engine.records import match_from_record
from ..review import DEFAULT_SAMPLES, REVIEWER_VERSION, Decision, HandReview, skip_reason
from ..review.parts import assemble, plan, review_part
from ..review.reviewer import hand_accuracy
from ..storage import Storage
from ..storage.quick import QUICK_GUILD_ID
from ..storage.reviews import AverageAccuracy, SeatAccuracy
from ..storage.rows import TableStatus
from .errors import ReviewRefused
from .events import MatchFinished, TableEvent
from .workers import ReviewBrake

log = logging.getLogger("baloot.reviews")

Progress = Callable[[int, int], Awaitable[None]]
"""Told before each part: (the trick about to be reviewed 0-7, or -1 for the bidding; the hand's number of tricks)."""
MatchReviewed = Callable[[int, list[SeatAccuracy]], Awaitable[None]]
"""Told when a match's accuracy is stored: (table id, each seat's accuracy)."""

_LIVE = (TableStatus.OPEN, TableStatus.PLAYING)
FINISHED_KEPT = 16
"""Matches that are over kept as read (:meth:`ReviewService._load`)."""


@dataclass(frozen=True, slots=True)
class ReviewedHand:
    """A hand's review with what showing it needs: the seats' names (R1 seats 0-3), the number of
    hands in the match, the table's server and language, and whether it was read back from storage."""

    table_id: int
    hand_no: int
    review: HandReview
    names: tuple[str, str, str, str]
    hands: int
    guild_id: int
    language: str | None
    stored: bool


@dataclass(frozen=True, slots=True)
class _Loaded:
    """A stored match read once for a request: its R10 record, replayed hands, seats and players."""

    record: dict[str, Any]
    hands: list[Hand]
    names: tuple[str, str, str, str]
    players: frozenset[int]
    guild_id: int
    language: str | None
    over: bool


class ReviewService:
    """Reviews of stored hands and matches (see the module). ``executor``: the review pool (None:
    the loop's default thread pool, for tests); ``samples``: sampled deals per judged decision;
    ``brake``: the review pool's brake (:meth:`make_way`), or None."""

    def __init__(self, storage: Storage, executor: Executor | None = None, *, samples: int = DEFAULT_SAMPLES,
                 seed: int = 0, brake: ReviewBrake | None = None) -> None:
        self.storage = storage
        self.executor = executor
        self.brake = brake
        self.samples = samples
        self.seed = seed
        self._running: dict[tuple[int, int], asyncio.Task[HandReview]] = {}
        self._progress: dict[tuple[int, int], list[Progress]] = {}
        self._queue: asyncio.Queue[int] = asyncio.Queue()
        self._auto: asyncio.Task[None] | None = None
        self._listeners: list[MatchReviewed] = []
        self.computed = 0  # parts computed since start (tests read it: a stored review computes none)
        self._finished: OrderedDict[int, _Loaded] = OrderedDict()  # matches over, latest read last

    def make_way(self) -> None:
        """An interaction came: the review workers pause while the bot answers it (:class:`.workers.ReviewBrake`;
        nothing without a brake)."""
        if self.brake is not None:
            self.brake.hold()

    # -- reading what may be shown ------------------------------------------------------------------
    async def _load(self, table_id: int, guild_id: int | None) -> _Loaded:
        """The match as stored, checked to be of the asking server. A match that is over never changes, so
        the last :data:`FINISHED_KEPT` read are kept: stepping through a review (each ◀ ▶ asks again) and a
        match's hands reviewed one after another read and replay it once, not at every request (about 10 ms
        of the event loop's time for a match of 15 hands)."""
        loaded = self._finished.get(table_id)
        if loaded is None:
            loaded = await self._read(table_id)
            if loaded is not None and loaded.over:
                self._finished[table_id] = loaded
                while len(self._finished) > FINISHED_KEPT:
                    self._finished.popitem(last=False)
        else:
            self._finished.move_to_end(table_id)
        if loaded is None or (guild_id is not None and loaded.guild_id not in (guild_id, QUICK_GUILD_ID)):
            raise ReviewRefused(f"no match {table_id} in this server", code=ErrorCode.REVIEW_NO_HAND)
        return loaded

    async def _read(self, table_id: int) -> _Loaded | None:
        """The match as stored (None: no such table)."""
        row = await self.storage.table(table_id)
        if row is None:
            return None
        seats = await self.storage.seats(table_id)
        stored = await self.storage.hands(table_id)
        record = {"format": "baloot-game/1", "rules": row.rules,
                  "hands": [{"dealer": h.dealer, "deck": h.deck, "actions": [a.action for a in h.actions]}
                            for h in stored]}
        players = {s.user_id for s in seats if s.user_id is not None and not s.is_bot}
        players |= {a.by_user_id for h in stored for a in h.actions if a.by_user_id is not None and not a.auto}
        names = ["", "", "", ""]
        for s in seats:
            names[s.seat] = s.display_name
        hands = list(match_from_record(record).hands) if stored else []
        return _Loaded(record, hands, (names[0], names[1], names[2], names[3]), frozenset(players), row.guild_id,
                       row.language, row.status not in _LIVE)

    async def hand_review(self, table_id: int, hand_no: int | None, user_id: int, guild_id: int | None,
                          progress: Progress | None = None) -> ReviewedHand:
        """The review of hand ``hand_no`` (0-based; None: the last finished one) of table ``table_id``'s match
        for ``user_id``, asked in ``guild_id`` (None: in the bot's DMs, where only the table's players may see
        it); raises :class:`ReviewRefused` (nothing computed) where it may not be shown (see the module). Read
        back if stored, else computed (``progress`` told before each part)."""
        loaded = await self._load(table_id, guild_id)
        if hand_no is None:  # the last finished hand with decisions (else the last hand, refused below)
            done = [n for n, h in enumerate(loaded.hands) if h.finished and skip_reason(h) is None]
            hand_no = done[-1] if done else len(loaded.hands) - 1
        if not 0 <= hand_no < len(loaded.hands):
            raise ReviewRefused(f"no hand {hand_no} in match {table_id}", code=ErrorCode.REVIEW_NO_HAND)
        played = loaded.hands[hand_no]
        if not played.finished:
            raise ReviewRefused("that hand is not over", code=ErrorCode.REVIEW_IN_PROGRESS)
        if user_id not in loaded.players:
            if not loaded.over:
                raise ReviewRefused("only the players of a running match review its hands",
                                    code=ErrorCode.REVIEW_NOT_AT_TABLE)
            if guild_id is None or loaded.guild_id == QUICK_GUILD_ID:  # no server to be "anyone in"
                raise ReviewRefused("only the players of that table review its hands",
                                    code=ErrorCode.REVIEW_NOT_A_PLAYER)
        if skip_reason(played) is not None:
            raise ReviewRefused("no decision to judge in that hand", code=ErrorCode.REVIEW_NOTHING)
        review, stored = await self._review(table_id, hand_no, loaded, progress)
        return ReviewedHand(table_id, hand_no, review, loaded.names, len(loaded.hands), loaded.guild_id,
                            loaded.language, stored)

    async def _stored(self, table_id: int, hand_no: int) -> HandReview | None:
        obj = await self.storage.reviews.hand_review(table_id, hand_no, REVIEWER_VERSION)
        if obj is None:
            return None
        try:
            return HandReview.from_json(obj)
        except (ValueError, KeyError, TypeError):  # another version's, or unreadable: computed again
            return None

    async def _review(self, table_id: int, hand_no: int, loaded: _Loaded,
                      progress: Progress | None) -> tuple[HandReview, bool]:
        found = await self._stored(table_id, hand_no)
        if found is not None:
            return found, True
        key = (table_id, hand_no)
        if progress is not None:
            self._progress.setdefault(key, []).append(progress)
        task = self._running.get(key)
        if task is None:
            task = self._running[key] = asyncio.create_task(self._compute(key, loaded), name="baloot-review")
            task.add_done_callback(lambda _: (self._running.pop(key, None), self._progress.pop(key, None)))
        return await asyncio.shield(task), False

    async def _compute(self, key: tuple[int, int], loaded: _Loaded) -> HandReview:
        table_id, hand_no = key
        played = loaded.hands[hand_no]
        parts = plan(played)
        tricks = max(1, sum(1 for p in parts if p.trick >= 0))
        loop = asyncio.get_running_loop()
        decisions: list[Decision] = []
        for part in parts:
            for told in list(self._progress.get(key, ())):
                try:
                    await told(part.trick, tricks)
                except Exception:  # a progress line that could not be edited never stops the review
                    log.warning("a review's progress line failed", exc_info=True)
            decisions += await loop.run_in_executor(self.executor, review_part, loaded.record, hand_no, part,
                                                    self.samples, self.seed)
            self.computed += 1
        kept = assemble(played, hand_no, decisions, self.seed).to_json()
        await self.storage.reviews.save_hand_review(table_id, hand_no, REVIEWER_VERSION, kept)
        return HandReview.from_json(kept)  # as stored (rounded): the first answer and every later one agree

    # -- matches --------------------------------------------------------------------------------------
    async def review_match(self, table_id: int) -> list[SeatAccuracy]:
        """Review every hand of a finished match (stored ones read back) and store each seat's accuracy;
        empty for a match that is not over or has no played hand."""
        done = await self.storage.reviews.match_accuracy(table_id, REVIEWER_VERSION)
        if done:
            return done
        loaded = await self._load(table_id, None)
        result = await self.storage.result(table_id)
        if not loaded.over or result is None:
            return []
        every: list[Decision] = []
        for hand_no, played in enumerate(loaded.hands):
            if skip_reason(played) is None:
                review, _ = await self._review(table_id, hand_no, loaded, None)
                every += review.decisions
        if not every:
            return []
        accuracy = hand_accuracy(every)
        users = {s.seat: (None if s.is_bot else s.user_id) for s in result.seats}
        seats = [SeatAccuracy(seat, users.get(seat), accuracy[seat]) for seat in range(4)]
        await self.storage.reviews.save_match_accuracy(table_id, REVIEWER_VERSION, seats)
        return await self.storage.reviews.match_accuracy(table_id, REVIEWER_VERSION)

    async def match_accuracy(self, table_id: int) -> list[SeatAccuracy]:
        """Each seat's stored accuracy in a reviewed match (empty: not reviewed yet)."""
        return await self.storage.reviews.match_accuracy(table_id, REVIEWER_VERSION)

    async def average_accuracy(self, user_id: int) -> AverageAccuracy | None:
        """A player's mean accuracy over their latest reviewed matches (:data:`~baloot.storage.RECENT_MATCHES`)."""
        return await self.storage.reviews.average_accuracy(user_id, REVIEWER_VERSION)

    # -- in the background ---------------------------------------------------------------------------
    def add_listener(self, listener: MatchReviewed) -> None:
        """Be told (table id, accuracy) when the background review of a match is stored."""
        self._listeners.append(listener)

    async def on_event(self, event: TableEvent) -> None:
        """A table service listener: a finished match (R8) is queued for its background review."""
        if isinstance(event, MatchFinished) and self._auto is not None:
            self._queue.put_nowait(event.table_id)

    @property
    def auto(self) -> bool:
        """Whether finished matches are reviewed in the background (:meth:`start_auto` was called)."""
        return self._auto is not None

    def start_auto(self) -> asyncio.Task[None]:
        """Review finished matches in the background, one at a time, in the review pool."""
        if self._auto is None:
            self._auto = asyncio.create_task(self._auto_forever(), name="baloot-review-auto")
        return self._auto

    async def _auto_forever(self) -> None:
        while True:
            table_id = await self._queue.get()
            try:
                seats = await self.review_match(table_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the background review of match %s failed", table_id)
                continue
            if seats:
                for listener in list(self._listeners):
                    try:
                        await listener(table_id, seats)
                    except Exception:
                        log.exception("a match-reviewed listener failed (match %s)", table_id)

    async def close(self) -> None:
        """Stop the background reviews and any review being computed."""
        tasks = [t for t in (self._auto, *self._running.values()) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._auto = None
