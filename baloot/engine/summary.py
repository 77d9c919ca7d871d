"""Frozen summaries of a hand (R7, R11.6) and of a match (R8): R10's replay output as values.

:func:`summarize_hand` and :func:`summarize_match` read a finished or running
hand/match once and give immutable values that travel through the table
service's events and snapshots into rendering; ``to_json()`` is exactly R10's
replay output (``python -m baloot replay``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .bidding import Outcome
from .cards import SUITS
from .hand import Hand, Phase
from .match import Match
from .projects import ProjectType
from .quick_init import quick_init
from .scoring import GAHWA, counting_team


@quick_init
@dataclass(frozen=True, slots=True)
class ProjectScore:
    """One project that scored (R6.2: the winning team's), as R10's ``projects`` entry."""

    seat: int
    type: ProjectType
    value: int

    def to_json(self) -> dict[str, object]:
        return {"seat": self.seat, "type": self.type.value, "value": self.value}


@quick_init
@dataclass(frozen=True, slots=True)
class HandSummary:
    """One hand of R10's replay output (R11.6 for thrown-in and unfinished hands).

    The R10 fields (``dealer`` … ``score``) are those of the replay; the rest
    say how the score was reached (R7) for a scored hand: the winner, the
    declarers' team, the team whose units digit breaks a tie and the factor
    applied to projects.
    """

    dealer: int
    outcome: Outcome | None
    contract: str | None
    trump: int | None
    declarer: int | None
    level: int | None  # 1..4, 5 = Gahwa; None before play
    locked: bool | None
    card_points: tuple[int, int] | None
    game_points: tuple[int, int] | None
    projects: tuple[ProjectScore, ...] | None
    baloot: int | None  # team
    kaboot: int | None  # team
    score: tuple[int, int] | None
    winner: int | None = None
    declarers: int | None = None
    counting_team: int | None = None
    project_factor: int = 1

    @property
    def scored(self) -> bool:
        """A contract was played out and scored (R7)."""
        return self.outcome == Outcome.CONTRACT and self.score is not None

    @property
    def sun(self) -> bool:
        return self.contract == "sun"

    def to_json(self) -> dict[str, Any]:
        """The R10 replay object of this hand."""
        return {
            "dealer": self.dealer,
            "contract": self.contract,
            "trump": None if self.trump is None else SUITS[self.trump],
            "declarer": self.declarer,
            "level": None if self.level is None else ("gahwa" if self.level == GAHWA else self.level),
            "locked": self.locked,
            "card_points": None if self.card_points is None else list(self.card_points),
            "game_points": None if self.game_points is None else list(self.game_points),
            "projects": None if self.projects is None else [p.to_json() for p in self.projects],
            "baloot": self.baloot,
            "kaboot": self.kaboot,
            "score": None if self.score is None else list(self.score),
        }


def summarize_hand(hand: Hand) -> HandSummary:
    """The summary of ``hand`` as it stands (R7; R11.6 for thrown-in and unfinished hands)."""
    if hand.finished and hand.outcome != Outcome.CONTRACT:
        return HandSummary(
            dealer=hand.dealer, outcome=hand.outcome, contract=None, trump=None, declarer=None, level=1,
            locked=False, card_points=(0, 0), game_points=(0, 0), projects=(), baloot=None, kaboot=None,
            score=(0, 0),
        )
    taken = hand.taker is not None
    playing = hand.phase >= Phase.PLAYING
    result = hand.result
    if result is None:
        return HandSummary(
            dealer=hand.dealer, outcome=hand.outcome, contract=hand.contract if taken else None,
            trump=None if not taken or hand.sun else hand.trump, declarer=hand.taker,
            level=hand.level if playing else None, locked=hand.locked if playing else None,
            card_points=None, game_points=None, projects=None, baloot=None, kaboot=None, score=None,
        )
    raiser = None if hand.last_raiser is None else hand.last_raiser & 1
    factor = hand.level if hand.rules.projects_multiply_fully and hand.level >= 3 else (2 if hand.level > 1 else 1)
    return HandSummary(
        dealer=hand.dealer,
        outcome=hand.outcome,
        contract=hand.contract,
        trump=None if hand.sun else hand.trump,
        declarer=hand.taker,
        level=hand.level,
        locked=hand.locked,
        card_points=result.card_points,
        game_points=result.game_points,
        projects=tuple(ProjectScore(seat, p.type, p.value(hand.sun)) for seat, p in hand.winning_projects()),
        baloot=hand.baloot_team(),
        kaboot=result.kaboot,
        score=result.score,
        winner=result.winner,
        declarers=hand.declarers,
        counting_team=counting_team(hand.declarers, hand.level, raiser),
        project_factor=factor,
    )


@quick_init
@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A match so far (R8): each hand's summary, the score, the winner and the target; ``deals``: the number
    of deals of a match of fixed length (R8), 0 for a match to the target."""

    hands: tuple[HandSummary, ...]
    score: tuple[int, int]
    winner: int | None
    target: int
    deals: int = 0

    def score_after(self, index: int) -> tuple[int, int]:
        """The match score after hands ``0 .. index`` (from the hands' own scores, R8)."""
        a = b = 0
        for hand in self.hands[: index + 1]:
            score = hand.score or (0, 0)
            a, b = a + score[0], b + score[1]
        return a, b

    def to_json(self) -> dict[str, Any]:
        """R10's replay output."""
        return {"hands": [h.to_json() for h in self.hands], "score": list(self.score), "winner": self.winner}


def summarize_match(match: Match, finished: tuple[HandSummary, ...] = ()) -> MatchSummary:
    """The summary of ``match``; ``finished``: summaries already made of its first hands (kept as they are)."""
    kept = finished[: len(match.hands)]
    hands = kept + tuple(summarize_hand(h) for h in match.hands[len(kept):])
    return MatchSummary(hands, (match.score[0], match.score[1]), match.winner, match.rules.target,
                        match.rules.deals)
