"""What the table may know (:class:`PublicView`) and what one seat may know (:class:`SeatView`).

A :class:`SeatView` never holds another seat's hidden cards: it holds the up
card (face up from the deal, R2.2, and known to be the taker's once bidding
ends), the bids, the cards played, what kind of project each player declared,
and the cards of projects once they are shown (R6.2: the winning team's, after
the first trick; a seat always sees its own), and the score.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

from .actions import Action, is_seat
from .bidding import Outcome
from .cards import ALL_CARDS, NO_TRUMP, Card
from .errors import NotationError
from .hand import Hand, Phase
from .projects import Project, ProjectType
from .quick_init import quick_init
from .rules import Rules

Seat: TypeAlias = int
"""A seat number 0..3 (R1: team = seat % 2)."""


@quick_init
@dataclass(frozen=True, slots=True)
class TrickView:
    """A trick: the cards in play order as (seat, card), and its winner once complete."""

    leader: int
    cards: tuple[tuple[int, Card], ...]
    winner: int | None


@quick_init
@dataclass(frozen=True, slots=True)
class PublicView:
    """Everything a spectator at the table may know about the current hand and match.

    Exactly the public facts of docs/rules.md: the dealer (R1), the up card (R2.2:
    face up on the table, then known to be in the taker's hand), the bids (R3)
    and the doubling chain (R4), the contract, every card played and each
    trick's winner (R5), what kind of project each player declared and, after
    the first trick, the cards of the winning team's projects (R6.2: the
    losing team's cards are never shown), Baloot once announced (R6.3), the
    cards a Sawa claim showed (R12) and the scores (R7, R8). It holds no card
    that is still hidden in a hand.
    """

    dealer: Seat
    phase: Phase
    to_move: Seat | None
    up_card: Card  # the up card (R2.2): public, on the table, then in the taker's hand
    up_card_taker: Seat | None  # who took it once bidding ended
    bids: tuple[Action, ...]  # bidding actions in order (R3)
    doubling: tuple[Action, ...]  # the doubling chain (R4)
    contract: str | None
    trump: int | None
    taker: Seat | None
    level: int  # 1..4, 5 = Gahwa
    locked: bool
    shown: tuple[tuple[Seat, tuple[Project, ...]], ...]  # the winning team's projects, after trick 1 (R6.2)
    announced: tuple[tuple[Seat, tuple[ProjectType, ...]], ...]  # every declaration, by kind (R6.2)
    project_team: int | None
    baloot_announced: Seat | None  # seat whose Baloot was announced (R6.3)
    tricks: tuple[TrickView, ...]  # completed tricks
    current_trick: TrickView | None
    card_points: tuple[int, int]  # in tricks taken so far
    tricks_won: tuple[int, int]
    match_score: tuple[int, int]
    outcome: Outcome | None
    hand_score: tuple[int, int] | None
    history: tuple[Action, ...]  # every action of the hand so far, in order (all public)
    rules: Rules
    sawa: tuple[Seat, tuple[Card, ...]] | None = None  # R12: the claimant and the cards the claim showed

    @property
    def played(self) -> tuple[Card, ...]:
        """Every card played so far in this hand, completed tricks first."""
        return _played(self.tricks, self.current_trick)


@quick_init
@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything ``seat`` may know: the :class:`PublicView`, its own cards and its own projects.

    The public fields are copied from ``public`` (the same values), so code
    that reads a seat's view needs no second lookup.
    """

    seat: Seat
    dealer: Seat
    phase: Phase
    to_move: Seat | None
    hand: tuple[Card, ...]
    up_card: Card  # the up card (R2.2): public, on the table, then in the taker's hand
    up_card_taker: Seat | None  # who took it once bidding ended
    bids: tuple[Action, ...]  # bidding actions in order (R3)
    doubling: tuple[Action, ...]  # the doubling chain (R4)
    contract: str | None
    trump: int | None
    taker: Seat | None
    level: int  # 1..4, 5 = Gahwa
    locked: bool
    declared: tuple[tuple[Seat, tuple[Project, ...]], ...]  # projects whose cards this seat sees (R6.2)
    announced: tuple[tuple[Seat, tuple[ProjectType, ...]], ...]  # every declaration, by kind (R6.2)
    project_team: int | None
    baloot_announced: Seat | None  # seat whose Baloot was announced (R6.3)
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
    public: PublicView | None = None  # the public part (None only for views built field by field)

    @property
    def played(self) -> tuple[Card, ...]:
        """Every card played so far in this hand, completed tricks first."""
        return _played(self.tricks, self.current_trick)


def _played(tricks: tuple[TrickView, ...], current: TrickView | None) -> tuple[Card, ...]:
    cards = [c for t in tricks for _, c in t.cards]
    if current is not None:
        cards.extend(c for _, c in current.cards)
    return tuple(cards)


def _trick_view(leader: int, cards: Sequence[int], winner: int | None) -> TrickView:
    """A trick of card indices in play order from ``leader``, with each card's seat."""
    return TrickView(leader, tuple(((leader + i) & 3, ALL_CARDS[c]) for i, c in enumerate(cards)), winner)


def public_view(hand: Hand, match_score: tuple[int, int] | None = None,
                earlier: PublicView | None = None) -> PublicView:
    """What everyone at the table may know of ``hand`` (and the match score before it).

    ``earlier``: a public view of the same hand at an earlier action, whose
    completed tricks (R5: they never change once taken) are reused rather than
    drawn again (one public view per accepted action).
    """
    actions = hand.actions
    n_bids = hand.bidding_length if hand.bidding_length is not None else len(actions)
    n_pre_play = hand.play_start if hand.play_start is not None else len(actions)
    tricks = _completed_tricks(hand, earlier)
    current = _trick_view(hand.leader, hand.trick, None) if hand.phase == Phase.PLAYING else None
    baloot = None
    if hand.baloot_holder is not None and hand.baloot_shown >= 2:
        baloot = hand.baloot_holder
    return PublicView(
        dealer=hand.dealer,
        phase=hand.phase,
        to_move=None if hand.finished else hand.to_move,
        up_card=ALL_CARDS[hand.up_card],
        up_card_taker=hand.taker,
        bids=tuple(actions[:n_bids]),
        doubling=tuple(actions[n_bids:n_pre_play]),
        contract=hand.contract,
        trump=None if hand.trump == NO_TRUMP or hand.taker is None else hand.trump,
        taker=hand.taker,
        level=hand.level,
        locked=hand.locked,
        shown=shown_projects(hand, None),
        announced=announced_projects(hand),
        project_team=hand.project_team,
        baloot_announced=baloot,
        tricks=tricks,
        current_trick=current,
        card_points=(hand.card_points[0], hand.card_points[1]),
        tricks_won=(hand.tricks_won[0], hand.tricks_won[1]),
        match_score=match_score if match_score is not None else hand.match_score,
        outcome=hand.outcome,
        hand_score=hand.score,
        history=tuple(actions),
        rules=hand.rules,
        sawa=None if hand.sawa_by is None else (hand.sawa_by, tuple(hand.hand_of(hand.sawa_by))),
    )


def _completed_tricks(hand: Hand, earlier: PublicView | None) -> tuple[TrickView, ...]:
    history = hand.tricks_history
    kept: tuple[TrickView, ...] = ()
    if earlier is not None and len(earlier.tricks) <= len(history):
        kept = earlier.tricks
        for trick, (leader, winner, cards) in zip(kept, history, strict=False):
            if trick.leader != leader or trick.winner != winner or len(trick.cards) != len(cards):
                kept = ()  # not an earlier state of this hand after all
                break
    if len(kept) == len(history):
        return kept
    return kept + tuple(_trick_view(leader, cards, winner) for leader, winner, cards in history[len(kept):])


def seat_view(
    hand: Hand, seat: int, match_score: tuple[int, int] | None = None, public: PublicView | None = None
) -> SeatView:
    """Build ``seat``'s view of ``hand``: ``public`` (built here if not given) plus what only it knows."""
    if not is_seat(seat):
        raise NotationError(f"seat {seat!r} is not 0..3")
    p = public if public is not None else public_view(hand, match_score)
    return SeatView(
        seat=seat,
        dealer=p.dealer,
        phase=p.phase,
        to_move=p.to_move,
        hand=tuple(hand.hand_of(seat)),
        up_card=p.up_card,
        up_card_taker=p.up_card_taker,
        bids=p.bids,
        doubling=p.doubling,
        contract=p.contract,
        trump=p.trump,
        taker=p.taker,
        level=p.level,
        locked=p.locked,
        declared=shown_projects(hand, seat),
        announced=p.announced,
        project_team=p.project_team,
        baloot_announced=p.baloot_announced,
        tricks=p.tricks,
        current_trick=p.current_trick,
        card_points=p.card_points,
        tricks_won=p.tricks_won,
        match_score=p.match_score,
        legal=tuple(hand.legal_actions()) if p.to_move == seat else (),
        outcome=p.outcome,
        hand_score=p.hand_score,
        history=p.history,
        rules=p.rules,
        public=p,
    )


def shown_projects(hand: Hand, seat: int | None) -> tuple[tuple[int, tuple[Project, ...]], ...]:
    """Declared projects whose cards ``seat`` may see (R6.2); ``None``: what everyone sees.

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
