"""The in-memory state of one table: its seats, its match (rebuilt from the record) and its lock.

Only the table service changes a :class:`LiveTable`, always under
``table.lock`` and only after storage has accepted the change.
"""

from __future__ import annotations

import asyncio
import random
from typing import TYPE_CHECKING, Any

from ..engine.hand import Hand
from ..engine.match import Match
from ..engine.rules import Rules
from ..engine.summary import HandSummary, MatchSummary, summarize_match
from ..engine.view import PublicView, SeatView, public_view, seat_view
from ..storage.leases import Fence
from ..storage.rows import MatchResult, ResultSeat, SeatRow, TableRow, TableStatus
from .errors import NotSeated
from .info import SeatInfo, TableInfo, Version
from .snapshot import HandSnapshot, SeatViews, TableSnapshot

if TYPE_CHECKING:
    from .waiting import WaitingTurn

Seats = list[SeatInfo | None]


def seat_info(row: SeatRow) -> SeatInfo:
    return SeatInfo(
        seat=row.seat,
        user_id=row.user_id,
        name=row.display_name,
        is_bot=row.is_bot,
        bot_level=row.bot_level,
        away=row.away,
        dm_closed=row.dm_closed,
        vacated=row.vacated,
    )


def seat_row(table_id: int, info: SeatInfo) -> SeatRow:
    return SeatRow(
        table_id=table_id,
        seat=info.seat,
        user_id=info.user_id,
        display_name=info.name,
        is_bot=info.is_bot,
        bot_level=info.bot_level,
        away=info.away,
        dm_closed=info.dm_closed,
        vacated=info.vacated,
    )


class _HandParts:
    """The parts of a snapshot built from one version of the hand (reused while it does not change)."""

    __slots__ = ("final", "hand", "match", "sheet", "version", "views")

    def __init__(
        self,
        version: Version,
        match: Match,
        hand: HandSnapshot,
        views: SeatViews,
        sheet: MatchSummary,
        final: HandSnapshot | None,
    ) -> None:
        self.version = version
        self.match = match
        self.hand = hand
        self.views = views
        self.sheet = sheet
        self.final = final  # the hand as it ended, if it has


class LiveTable:
    """One open or playing table."""

    def __init__(self, row: TableRow, seats: list[SeatRow], match: Match | None, rng: random.Random) -> None:
        self.id = row.id
        self.guild_id = row.guild_id
        self.channel_id = row.channel_id
        self.creator_id = row.creator_id
        self.status = row.status
        self.rules = Rules.from_json(row.rules)
        self.turn_seconds = row.turn_seconds
        self.language = row.language
        self.seats: Seats = [None, None, None, None]
        for s in seats:
            self.seats[s.seat] = seat_info(s)
        self.match = match
        self.rng = rng
        self.deal_seed = row.deal_seed  # a tournament table: every deck from its round's seed
        # A seeded generator (tests) gets a second stream for bots, so their choices leave its decks
        # alone; the operating system's has no stream to disturb and no state to copy (2.9 KiB a table).
        self.bot_rng = rng if isinstance(rng, random.SystemRandom) else random.Random(rng.getrandbits(64))
        self.lock = asyncio.Lock()
        self.fence: Fence | None = None  # the shard lease its writes show; None: unfenced
        # votes to end the table, stored with the seats (a restart keeps them)
        self.end_votes: set[int] = {s.user_id for s in seats if s.end_vote and s.user_id is not None and not s.vacated}
        self.timeouts = [0, 0, 0, 0]  # timeouts in a row, per seat
        self.held: dict[int, int] = {}  # seat -> the hand its person left in: theirs alone until that hand ends
        self.turn_task: asyncio.Task[None] | WaitingTurn | None = None
        self.deadline: float | None = None  # Unix time the current turn times out
        self.published: TableSnapshot | None = None  # the latest snapshot (see publish)
        self._parts: _HandParts | None = None  # what the latest snapshot built from the hand, by version
        self._previous: HandSnapshot | None = None  # the hand before the current one, as it ended
        self._finished: tuple[HandSummary, ...] = ()  # summaries of finished hands (they no longer change)

    # -- the game ---------------------------------------------------------------
    @property
    def hand(self) -> Hand | None:
        return None if self.match is None else self.match.current

    @property
    def hand_no(self) -> int | None:
        return None if self.match is None or not self.match.hands else len(self.match.hands) - 1

    @property
    def version(self) -> Version | None:
        """(hand number, actions in it): changes with every accepted action and deal."""
        hand = self.hand
        hand_no = self.hand_no
        return None if hand is None or hand_no is None else (hand_no, len(hand.actions))

    @property
    def to_move(self) -> int | None:
        hand = self.hand
        if self.status != TableStatus.PLAYING or hand is None or hand.finished:
            return None
        return hand.to_move

    @property
    def match_score(self) -> tuple[int, int]:
        return (0, 0) if self.match is None else (self.match.score[0], self.match.score[1])

    def view_of(self, seat: int) -> SeatView | None:
        """``seat``'s private view (R: nothing hidden of other seats), or None before the deal."""
        hand = self.hand
        if hand is None:
            return None
        return seat_view(hand, seat, hand.match_score)

    def public_view(self) -> PublicView | None:
        """What everyone may see of the current hand (R2-R8's public facts), or None before the deal."""
        hand = self.hand
        return None if hand is None else public_view(hand, hand.match_score)

    # -- the published snapshot ------------------------------------------------------------
    def publish(self) -> TableSnapshot:
        """Freeze the table as it is now into :attr:`published` (call only when it is all committed).

        The hand's views and the match summary are rebuilt only when the
        version changed; seat changes, the deadline and votes are cheap.
        """
        parts = self._hand_parts()
        snapshot = TableSnapshot(
            info=self.info(),
            hand=None if parts is None else parts.hand,
            previous=self._previous,
            views=(None, None, None, None) if parts is None else parts.views,
            sheet=None if parts is None else parts.sheet,
            deadline=self.deadline,
        )
        self.published = snapshot
        return snapshot

    def _hand_parts(self) -> _HandParts | None:
        match, hand, hand_no, version = self.match, self.hand, self.hand_no, self.version
        if match is None or hand is None or hand_no is None or version is None:
            return None
        parts = self._parts
        if parts is not None and parts.version == version and parts.match is match:
            return parts
        if parts is not None and parts.hand.hand_no == hand_no - 1 and parts.final is not None:
            self._previous = parts.final
        elif self._previous is None or self._previous.hand_no != hand_no - 1:
            self._previous = self._hand_snapshot(match, hand_no - 1)
        earlier = None  # the same hand's previous public view: its completed tricks are reused
        if parts is not None and parts.match is match and parts.hand.hand_no == hand_no:
            earlier = parts.hand.public
        public = public_view(hand, hand.match_score, earlier)
        views: SeatViews = (
            seat_view(hand, 0, public=public),
            seat_view(hand, 1, public=public),
            seat_view(hand, 2, public=public),
            seat_view(hand, 3, public=public),
        )
        sheet = summarize_match(match, self._finished)
        done = len(match.hands) if hand.finished else len(match.hands) - 1
        self._finished = sheet.hands[:done]
        snap = HandSnapshot(hand_no, version, public)
        self._parts = _HandParts(version, match, snap, views, sheet, snap if hand.finished else None)
        return self._parts

    @staticmethod
    def _hand_snapshot(match: Match, hand_no: int) -> HandSnapshot | None:
        if hand_no < 0 or hand_no >= len(match.hands):
            return None
        hand = match.hands[hand_no]
        return HandSnapshot(hand_no, (hand_no, len(hand.actions)), public_view(hand, hand.match_score))

    # -- seats -------------------------------------------------------------------
    def seat_of(self, user_id: int) -> int | None:
        """The seat this user sits at now (a seat they left does not count)."""
        for info in self.seats:
            if info is not None and info.user_id == user_id and not info.vacated:
                return info.seat
        return None

    def seated(self, user_id: int) -> SeatInfo:
        """This user's seat; raises NotSeated if they sit at no seat of this table."""
        seat = self.seat_of(user_id)
        info = None if seat is None else self.seats[seat]
        if info is None:
            raise NotSeated()
        return info

    def humans(self) -> list[SeatInfo]:
        return [s for s in self.seats if s is not None and s.human]

    def info(self) -> TableInfo:
        s = self.seats
        return TableInfo(
            id=self.id,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            creator_id=self.creator_id,
            status=self.status,
            rules=self.rules,
            turn_seconds=self.turn_seconds,
            language=self.language,
            seats=(s[0], s[1], s[2], s[3]),
            version=self.version,
            match_score=self.match_score,
            to_move=self.to_move,
            end_votes=frozenset(self.end_votes),
        )

    def record(self) -> dict[str, Any]:
        """The R10 record of what was played (equal to what storage holds)."""
        return self.match.to_record() if self.match is not None else {"format": "baloot-game/1", "hands": []}

    def result(self, finished_at: float, *, abandoned: bool) -> MatchResult:
        """The result row of this match: score, winner, record and who sat where."""
        assert self.match is not None
        seats = tuple(
            ResultSeat(seat=s.seat, user_id=s.user_id, is_bot=s.is_bot, left_early=s.vacated or s.away)
            for s in self.seats
            if s is not None
        )
        return MatchResult(
            table_id=self.id,
            guild_id=self.guild_id,
            finished_at=finished_at,
            score=self.match_score,
            winner_team=None if abandoned else self.match.winner,
            hands_played=sum(1 for h in self.match.hands if h.finished),
            record=self.match.to_record(),
            seats=seats,
            abandoned=abandoned,
        )
