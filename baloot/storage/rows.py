"""The values the storage layer reads and writes: one frozen dataclass per kind of row.

They carry plain data (ids, text, JSON objects) and know no SQL; the table
service turns them into live state and back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class TableStatus(StrEnum):
    """Where a table stands: ``open`` (seating), ``playing``, or one of the closed states."""

    OPEN = "open"
    PLAYING = "playing"
    FINISHED = "finished"  # the match reached its target (R8)
    ENDED = "ended"  # closed by its creator, an admin or a vote
    ABANDONED = "abandoned"  # every human left

    @property
    def live(self) -> bool:
        """True while the table can still change (it is resumed after a restart)."""
        return self in (TableStatus.OPEN, TableStatus.PLAYING)


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's settings: channel language, whether matches with bots are rated, and the role whose
    members may create and run tournaments besides the admins (None: admins only)."""

    guild_id: int
    language: str | None = None
    ai_rated: bool = False
    organiser_role: int | None = None


@dataclass(frozen=True, slots=True)
class TableRow:
    """One row of ``tables``. ``rules`` is the R10 ``rules`` object."""

    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    status: TableStatus
    rules: dict[str, Any]
    turn_seconds: float
    language: str | None
    created_at: float
    started_at: float | None = None
    finished_at: float | None = None
    end_reason: str | None = None
    deal_seed: int | None = None  # a tournament table deals from its round's seed


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One occupied seat. A bot seat has ``is_bot`` and usually no user id.

    ``vacated`` marks a human who left a running match: the seat is played for
    them until they (or someone else) sit down again. ``end_vote``: its player
    voted to end the table (read only: written by :meth:`Storage.add_end_vote`,
    kept by :meth:`Storage.put_seats` while the same person keeps the seat).
    """

    table_id: int
    seat: int
    user_id: int | None
    display_name: str
    is_bot: bool = False
    bot_level: str | None = None
    away: bool = False
    dm_closed: bool = False
    vacated: bool = False
    end_vote: bool = False


@dataclass(frozen=True, slots=True)
class StoredAction:
    """One accepted action of a hand (``action`` is the R10 action object)."""

    hand_no: int
    idx: int
    action: dict[str, Any]
    by_user_id: int | None
    auto: bool
    created_at: float


@dataclass(frozen=True, slots=True)
class StoredHand:
    """One dealt hand with its deck (R2) and its accepted actions in order."""

    hand_no: int
    dealer: int
    deck: list[str]
    dealt_at: float
    actions: list[StoredAction] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class ResultSeat:
    """One seat of a match result: who sat there and how it went for them."""

    seat: int
    user_id: int | None
    is_bot: bool
    left_early: bool  # left the match or was away when it ended

    @property
    def team(self) -> int:
        """R1: seats 0 and 2 are team 0, seats 1 and 3 team 1."""
        return self.seat & 1


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished (or abandoned) match: the score, the winner and its R10 record."""

    table_id: int
    guild_id: int
    finished_at: float
    score: tuple[int, int]
    winner_team: int | None
    hands_played: int
    record: dict[str, Any]
    seats: tuple[ResultSeat, ...]
    abandoned: bool = False

    @property
    def has_bots(self) -> bool:
        return any(s.is_bot for s in self.seats)

    def user_ids(self) -> tuple[int | None, int | None, int | None, int | None]:
        """The user id at each seat 0..3 (``None`` for bots and empty seats)."""
        by_seat: dict[int, int | None] = {s.seat: s.user_id for s in self.seats}
        return (by_seat.get(0), by_seat.get(1), by_seat.get(2), by_seat.get(3))


@dataclass(frozen=True, slots=True)
class StoredMessage:
    """A message the bot keeps up to date (table message of a hand, a player's DM)."""

    key: str
    channel_id: int
    message_id: int
