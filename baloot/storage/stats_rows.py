"""Values of the statistics and ratings tables (migration 4): frozen rows, no SQL.

The facts are derived from finished matches' R10 records by :mod:`baloot.stats`;
these classes are what it writes and what the queries return.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum


class Period(StrEnum):
    """A leaderboard period: the current ISO week or calendar month (UTC), or all time."""

    WEEK = "week"
    MONTH = "month"
    ALL = "all"


class BoardSort(StrEnum):
    """How a leaderboard is ordered; ``TOURNAMENTS``: the tournaments board (tournaments won, then played)."""

    RATING = "rating"
    WINS = "wins"
    WIN_RATE = "winrate"
    TOURNAMENTS = "tournaments"


@dataclass(frozen=True, slots=True)
class HandFactRow:
    """One hand of a finished match as the R10 replay tells it (R7 outcome, R4 raises).

    ``contract`` is None for a thrown-in or annulled hand; ``level`` is 1..4,
    5 for Gahwa; ``winner_team`` is R7's winner of the hand (None when
    thrown in). ``*_seat`` name who said Double, Triple, Four and Gahwa,
    ``sawa_seat`` who claimed Sawa (R12).
    """

    hand_no: int
    contract: str | None
    trump: str | None
    declarer: int | None
    level: int
    winner_team: int | None
    kaboot_team: int | None
    baloot_team: int | None
    score: tuple[int, int]
    double_seat: int | None = None
    triple_seat: int | None = None
    four_seat: int | None = None
    gahwa_seat: int | None = None
    sawa_seat: int | None = None


@dataclass(frozen=True, slots=True)
class Tally:
    """Counters of one player over some matches; added column by column into the period rows.

    ``hands`` counts played hands (a contract was made); ``bought`` the hands
    the player took, ``bought_made`` those their team then won; ``doubles``
    the hands where they said Double, Triple or Four; ``gahwas`` where they
    said Gahwa; ``points`` the sum of their team's hand scores (R7); ``sawas``
    the hands they ended by claiming Sawa (R12, migration 5).
    """

    matches: int = 0
    wins: int = 0
    abandons: int = 0
    hands: int = 0
    hands_won: int = 0
    bought: int = 0
    bought_made: int = 0
    sun_hands: int = 0
    sun_won: int = 0
    hokum_hands: int = 0
    hokum_won: int = 0
    kaboots_for: int = 0
    kaboots_against: int = 0
    doubles: int = 0
    doubles_won: int = 0
    gahwas: int = 0
    gahwas_won: int = 0
    points: int = 0
    sawas: int = 0

    @classmethod
    def columns(cls) -> tuple[str, ...]:
        """The counter names, in order (each is a column of ``player_period_stats``)."""
        return tuple(f.name for f in fields(cls))

    def values(self) -> tuple[int, ...]:
        return tuple(int(getattr(self, name)) for name in self.columns())

    def __add__(self, other: Tally) -> Tally:
        return Tally(*(a + b for a, b in zip(self.values(), other.values(), strict=True)))


@dataclass(frozen=True, slots=True)
class ServerTally:
    """Counters of a server over some matches (``guild_period_stats``)."""

    matches: int = 0
    hands: int = 0
    sun_hands: int = 0
    hokum_hands: int = 0
    kaboots: int = 0
    doubled_hands: int = 0
    gahwas: int = 0
    sawas: int = 0  # hands ended by a Sawa claim (R12)

    @classmethod
    def columns(cls) -> tuple[str, ...]:
        """The counter names, in order (each is a column of ``guild_period_stats``)."""
        return tuple(f.name for f in fields(cls))


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's skill in a server: openskill's ``mu`` and ``sigma`` and the shown rating."""

    user_id: int
    mu: float
    sigma: float
    rating: float
    rated_matches: int


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One player's rating before and after one match (``rating_history``)."""

    user_id: int
    before: RatingRow
    after: RatingRow
    left_early: bool


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    """One line of a leaderboard: place (1-based), player and figures of the period (on the tournaments
    board ``matches`` and ``wins`` count tournaments played and won)."""

    place: int
    user_id: int
    matches: int
    wins: int
    win_rate: float
    rating: float | None


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    """One page of a leaderboard; ``total`` is the number of players listed on all pages."""

    guild_id: int
    sort: BoardSort
    period: Period
    page: int
    page_size: int
    total: int
    entries: tuple[LeaderboardEntry, ...]
    min_matches: int

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.page_size))


@dataclass(frozen=True, slots=True)
class Partner:
    """A partner of a player: matches played together and won together."""

    user_id: int
    matches: int
    wins: int


@dataclass(frozen=True, slots=True)
class PlayerTotals:
    """What a stats card shows: all-time counters, rating, place, best partner, and the tournaments the player
    played and won in the server."""

    guild_id: int
    user_id: int
    tally: Tally
    rating: RatingRow | None
    rating_place: int | None
    rated_players: int
    last_change: float | None
    best_partner: Partner | None
    last_played: float
    tournaments: int = 0
    tournaments_won: int = 0


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One match in a player's history: who sat where, the score, when, and the rating change."""

    table_id: int
    finished_at: float
    score: tuple[int, int]
    winner_team: int | None
    seat: int
    users: tuple[int | None, int | None, int | None, int | None]
    abandoned: bool
    left_early: bool
    rating_change: float | None

    @property
    def team(self) -> int:
        return self.seat & 1

    @property
    def won(self) -> bool:
        return self.winner_team is not None and self.winner_team == self.team and not self.left_early
