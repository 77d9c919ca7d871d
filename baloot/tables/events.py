"""What the table service announces to its listeners (the Discord layer is one, a test another).

Every event is a frozen dataclass naming its table and channel, and carrying
the table's :class:`~.snapshot.TableSnapshot` published with it (set by the
announcer). Events of one table arrive in order, after what they report is
committed to storage.
Listeners run while the table's lock is held: they may read the service
(``public_view``, ``table_info``…) but must not act on the same table
(schedule a task for that instead).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from ..engine.actions import Action
from ..engine.cards import Card
from ..engine.hand import Phase
from ..engine.quick_init import quick_init
from ..engine.summary import HandSummary, MatchSummary
from .info import TableInfo, Version
from .snapshot import TableSnapshot


class EndReason(StrEnum):
    """Why a table closed."""

    FINISHED = "finished"  # the match was won (R8)
    CREATOR = "creator"
    ADMIN = "admin"
    VOTE = "vote"
    EMPTY = "empty"  # every human left
    FORFEIT = "forfeit"  # a tournament team never showed (docs/tournaments.md): its round is forfeited


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class TableEvent:
    table_id: int
    channel_id: int
    snapshot: TableSnapshot | None = field(default=None, compare=False, repr=False)  # set when announced


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class TableCreated(TableEvent):
    table: TableInfo


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class SeatsChanged(TableEvent):
    table: TableInfo


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class TableSettingsChanged(TableEvent):
    """The table's language changed."""

    table: TableInfo


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class HandStarted(TableEvent):
    """A new hand is dealt (R2): dealer and up card are public."""

    hand_no: int
    dealer: int
    up_card: Card
    version: Version
    match_score: tuple[int, int]


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class ActionApplied(TableEvent):
    """An accepted action, committed. ``auto``: played for the seat (timeout, away, left)."""

    hand_no: int
    index: int
    action: Action
    seat: int
    user_id: int | None
    auto: bool
    by_bot: bool
    version: Version  # after the action
    phase: Phase  # of the hand after the action
    to_move: int | None


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class TrickCompleted(TableEvent):
    """R5: the fourth card of a trick was played."""

    hand_no: int
    trick_no: int  # 1..8
    winner: int
    cards: tuple[tuple[int, Card], ...]
    tricks_won: tuple[int, int]
    card_points: tuple[int, int]


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class HandFinished(TableEvent):
    """A hand is over (played out, thrown in or annulled). ``summary`` is R10's replay hand."""

    hand_no: int
    summary: HandSummary
    hand_score: tuple[int, int]
    match_score: tuple[int, int]


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class MatchFinished(TableEvent):
    """R8: a team won; the result row is already stored. ``replay`` is R10's replay output."""

    winner: int
    score: tuple[int, int]
    replay: MatchSummary


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class TurnStarted(TableEvent):
    """A seat is to act; ``deadline`` is Unix time. ``played_for``: a bot or the service will act."""

    seat: int
    user_id: int | None
    deadline: float
    version: Version
    played_for: bool


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class TurnReminder(TableEvent):
    seat: int
    user_id: int | None
    deadline: float
    version: Version


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class TurnTimedOut(TableEvent):
    """The turn time ran out; ``action`` was played for the seat (an ActionApplied follows)."""

    seat: int
    user_id: int | None
    action: Action
    timeouts: int  # in a row


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerAway(TableEvent):
    seat: int
    user_id: int | None


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerBack(TableEvent):
    seat: int
    user_id: int | None


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class EndVoteCast(TableEvent):
    user_id: int
    votes: int
    needed: int


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class TableEnded(TableEvent):
    """The table closed (not by the match's end: that is :class:`MatchFinished`). ``by_user_id``: who closed it
    (the last voter of a vote, the last person to leave); ``votes`` of ``needed``: the vote that closed it.
    ``abandoned``: a match was under way, and is stored as abandoned. ``absent``: for a forfeit, the players
    of the team (or teams) that never showed."""

    reason: EndReason
    by_user_id: int | None
    match_score: tuple[int, int]
    votes: int = 0
    needed: int = 0
    abandoned: bool = False
    absent: tuple[int, ...] = ()


@quick_init
@dataclass(frozen=True, slots=True, kw_only=True)
class TableResumed(TableEvent):
    """The table was rebuilt from storage after a restart; its timers run again."""

    table: TableInfo
