"""What one seat may know (ARCHITECTURE.md): its own hand and the public facts.

A :class:`SeatView` never holds another seat's hidden cards: it holds the up
card (face up from the deal, R2.2, and known to be the taker's once bidding
ends), the bids, the cards played, what kind of project each player declared,
and the cards of projects once they are shown (R6.2: the winning team's, after
the first trick; a seat always sees its own), and the score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .actions import Action, is_seat
from .bidding import Outcome
from .cards import ALL_CARDS, NO_TRUMP, Card
from .errors import NotationError
from .hand import Hand, Phase
from .projects import Project, ProjectType
from .rules import Rules


@dataclass(frozen=True, slots=True)
class TrickView:
    """A trick: the cards in play order as (seat, card), and its winner once complete."""

    leader: int
    cards: tuple[tuple[int, Card], ...]
    winner: int | None


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything ``seat`` may know about the current hand and match."""

    seat: int
    dealer: int
    phase: Phase
    to_move: int | None
    hand: tuple[Card, ...]
    up_card: Card  # the up card (R2.2): public, on the table, then in the taker's hand
    up_card_taker: int | None  # who took it once bidding ended
    bids: tuple[Action, ...]  # bidding actions in order (R3)
    doubling: tuple[Action, ...]  # the doubling chain (R4)
    contract: str | None
    trump: int | None
    taker: int | None
    level: int  # 1..4, 5 = Gahwa
    locked: bool
    declared: tuple[tuple[int, tuple[Project, ...]], ...]  # projects whose cards are shown (R6.2)
    announced: tuple[tuple[int, tuple[ProjectType, ...]], ...]  # every declaration, by kind (R6.2)
    project_team: int | None
    baloot_announced: int | None  # seat whose Baloot was announced (R6.3)
    tricks: tuple[TrickView, ...]  # completed tricks
    current_trick: TrickView | None
    card_points: tuple[int, int]  # in tricks taken so far
    tricks_won: tuple[int, int]
    match_score: tuple[int, int]
    legal: tuple[Action, ...]  # this seat's legal actions (empty if not its turn)
    outcome: Outcome | None
    hand_score: tuple[int, int] | None
    history: tuple[Action, ...]  # every action of the hand so far, in order (all public)
    rules: Rules

    @property
    def played(self) -> tuple[Card, ...]:
        """Every card played so far in this hand, completed tricks first."""
        cards = [c for t in self.tricks for _, c in t.cards]
        if self.current_trick is not None:
            cards.extend(c for _, c in self.current_trick.cards)
        return tuple(cards)


def _trick_view(leader: int, cards: Sequence[int], winner: int | None) -> TrickView:
    """A trick of card indices in play order from ``leader``, with each card's seat."""
    return TrickView(leader, tuple(((leader + i) & 3, ALL_CARDS[c]) for i, c in enumerate(cards)), winner)


def seat_view(hand: Hand, seat: int, match_score: tuple[int, int] | None = None) -> SeatView:
    """Build ``seat``'s view of ``hand`` (and the match score before it)."""
    if not is_seat(seat):
        raise NotationError(f"seat {seat!r} is not 0..3")
    actions = hand.actions
    n_bids = hand.bidding_length if hand.bidding_length is not None else len(actions)
    n_pre_play = hand.play_start if hand.play_start is not None else len(actions)
    bids = actions[:n_bids]
    doubling = actions[n_bids:n_pre_play]
    tricks = tuple(_trick_view(leader, cards, winner) for leader, winner, cards in hand.tricks_history)
    current = _trick_view(hand.leader, hand.trick, None) if hand.phase == Phase.PLAYING else None
    baloot = None
    if hand.baloot_holder is not None and hand.baloot_shown >= 2:
        baloot = hand.baloot_holder
    to_move = None if hand.finished else hand.to_move
    return SeatView(
        seat=seat,
        dealer=hand.dealer,
        phase=hand.phase,
        to_move=to_move,
        hand=tuple(hand.hand_of(seat)),
        up_card=ALL_CARDS[hand.up_card],
        up_card_taker=hand.taker,
        bids=tuple(bids),
        doubling=tuple(doubling),
        contract=hand.contract,
        trump=None if hand.trump == NO_TRUMP or hand.taker is None else hand.trump,
        taker=hand.taker,
        level=hand.level,
        locked=hand.locked,
        declared=shown_projects(hand, seat),
        announced=announced_projects(hand),
        project_team=hand.project_team,
        baloot_announced=baloot,
        tricks=tricks,
        current_trick=current,
        card_points=(hand.card_points[0], hand.card_points[1]),
        tricks_won=(hand.tricks_won[0], hand.tricks_won[1]),
        match_score=match_score if match_score is not None else hand.match_score,
        legal=tuple(hand.legal_actions()) if to_move == seat else (),
        outcome=hand.outcome,
        hand_score=hand.score,
        history=tuple(actions),
        rules=hand.rules,
    )


def shown_projects(hand: Hand, seat: int) -> tuple[tuple[int, tuple[Project, ...]], ...]:
    """Declared projects whose cards ``seat`` may see (R6.2).

    A seat sees its own declaration at once; after the first trick, the winning
    team shows its projects (including a second-trick show); the losing team's
    cards are never shown.
    """
    team = hand.project_team if hand.trick_no >= 1 else None
    return tuple(
        (s, projects)
        for s, projects in sorted(hand.declared.items())
        if s == seat or (team is not None and s & 1 == team)
    )


def announced_projects(hand: Hand) -> tuple[tuple[int, tuple[ProjectType, ...]], ...]:
    """Every declaration so far, by kind only (R6.2: declaring names the projects)."""
    return tuple((s, tuple(p.type for p in projects)) for s, projects in sorted(hand.declared.items()))
