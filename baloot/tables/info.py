"""Snapshots the table service returns: frozen values a renderer can use without locks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.quick_init import quick_init
from ..engine.rules import Rules
from ..engine.summary import MatchSummary
from ..engine.view import PublicView, SeatView
from ..storage.rows import TableStatus

Version = tuple[int, int]
"""(hand number, number of actions in that hand): what a button was drawn for."""


@quick_init
@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits at a seat (R1: team = seat % 2) and how they are doing."""

    seat: int
    user_id: int | None
    name: str
    is_bot: bool = False
    bot_level: str | None = None
    away: bool = False
    dm_closed: bool = False
    vacated: bool = False  # a human who left a running match; played for them

    @property
    def team(self) -> int:
        return self.seat & 1

    @property
    def human(self) -> bool:
        """A person sits here now (not a bot, not left)."""
        return not self.is_bot and not self.vacated and self.user_id is not None

    @property
    def played_for(self) -> bool:
        """The seat is played without waiting for a person (a bot, away or left)."""
        return self.is_bot or self.away or self.vacated


@quick_init
@dataclass(frozen=True, slots=True)
class TableInfo:
    """A table as the service knows it now."""

    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    status: TableStatus
    rules: Rules
    turn_seconds: float
    language: str | None
    seats: tuple[SeatInfo | None, SeatInfo | None, SeatInfo | None, SeatInfo | None]
    version: Version | None  # None until the first deal
    match_score: tuple[int, int]
    to_move: int | None
    end_votes: frozenset[int] = frozenset()

    def seat_of(self, user_id: int) -> int | None:
        """The seat where this user sits now (not counting a seat they left)."""
        for info in self.seats:
            if info is not None and info.user_id == user_id and not info.vacated:
                return info.seat
        return None

    @property
    def full(self) -> bool:
        return all(s is not None for s in self.seats)

    @property
    def humans(self) -> tuple[SeatInfo, ...]:
        return tuple(s for s in self.seats if s is not None and s.human)


@quick_init
@dataclass(frozen=True, slots=True)
class PlayerHand:
    """A seated player's private view with what a button needs in its ``custom_id``."""

    table_id: int
    seat: int
    hand_no: int
    version: Version
    view: SeatView
    deadline: float | None  # Unix time when this seat's turn times out, if it is their turn


@quick_init
@dataclass(frozen=True, slots=True)
class ActResult:
    """What an accepted action did, for the reply to the press that made it."""

    table_id: int
    action_json: dict[str, Any]
    version: Version  # the version right after the action (before any new deal)
    hand_finished: bool
    match_finished: bool
    hand: PlayerHand | None  # the actor's fresh view (None once the match is over)


@quick_init
@dataclass(frozen=True, slots=True)
class EndResult:
    """The outcome of an ``end`` request: ended now, or a vote recorded."""

    ended: bool
    votes: int
    needed: int
    by_vote: bool = False  # ended by the vote of the seated (not by its creator or an admin)


@quick_init
@dataclass(frozen=True, slots=True)
class StoredHand:
    """A hand as stored, for its "Details" after the table closed: the table (names, language),
    the hand's public view and the match's summary."""

    table: TableInfo
    public: PublicView
    sheet: MatchSummary
