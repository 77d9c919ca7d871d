"""A match (R8): hands in sequence until a team reaches the target (or a fixed number of deals), and its
record (R10)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .actions import Action, is_seat
from .cards import ALL_CARDS, Card
from .error_codes import ErrorCode
from .errors import GameOverError, IllegalActionError, NotationError
from .hand import Hand
from .rules import Rules
from .vocab import Seat

RECORD_FORMAT = "baloot-game/1"


def shuffled_deck(rng: random.Random) -> list[Card]:
    """A shuffled pack (R2); randomness comes from the caller."""
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    return deck


class Match:
    """A match of hands (R8). Deal each hand with :meth:`deal` (deck given or shuffled)."""

    def __init__(self, rules: Rules | None = None, first_dealer: Seat = 0) -> None:
        if not is_seat(first_dealer):
            raise NotationError(f"dealer {first_dealer!r} is not 0..3", code=ErrorCode.BAD_SEAT)
        self.rules = rules or Rules()
        self.first_dealer = first_dealer
        self.hands: list[Hand] = []
        self.score = [0, 0]
        self.winner: int | None = None

    # -- state -------------------------------------------------------------------
    @property
    def current(self) -> Hand | None:
        """The hand being played, or the last one once the match is over."""
        return self.hands[-1] if self.hands else None

    @property
    def next_dealer(self) -> Seat:
        """R1: the deal passes to the right after every hand, thrown-in or not."""
        return self.first_dealer if not self.hands else (self.hands[-1].dealer + 1) % 4

    @property
    def needs_deal(self) -> bool:
        """True when a new hand must be dealt before anyone can act."""
        return self.winner is None and (not self.hands or self.hands[-1].finished)

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def deal(self, deck: Sequence[Card] | random.Random) -> Hand:
        """Start the next hand with this deck (or one shuffled with this RNG)."""
        if self.winner is not None:
            raise GameOverError("The match is over (R8).", code=ErrorCode.MATCH_OVER)
        if self.hands and not self.hands[-1].finished:
            raise IllegalActionError("The current hand is not finished yet (R10).", code=ErrorCode.HAND_NOT_FINISHED)
        cards = shuffled_deck(deck) if isinstance(deck, random.Random) else deck
        hand = Hand(self.next_dealer, cards, self.rules, (self.score[0], self.score[1]))
        self.hands.append(hand)
        return hand

    def legal_actions(self) -> list[Action]:
        """The current hand's legal actions; empty between hands and after the match."""
        hand = self.current
        if hand is None or self.winner is not None:
            return []
        return hand.legal_actions()

    def apply(self, action: Action) -> None:
        """Apply an action to the current hand and settle the match when it ends (R8)."""
        hand = self.current
        if self.winner is not None:
            raise GameOverError("The match is over (R8).", code=ErrorCode.MATCH_OVER)
        if hand is None or hand.finished:
            raise GameOverError(
                "This hand is over; the next hand has not been dealt (R11.5).", code=ErrorCode.HAND_OVER
            )
        hand.apply(action)
        if hand.finished:
            self._settle(hand)

    def _settle(self, hand: Hand) -> None:
        """R8: add the hand's score; a team at the target with more points wins. A match of ``rules.deals``
        deals ends after that many hands, thrown-in ones included, with the higher total; level totals play
        one more hand at a time until they differ. A Gahwa won wins at once either way."""
        result = hand.result
        if result is not None:
            if result.gahwa_winner is not None:
                self.winner = result.gahwa_winner
                return
            self.score[0] += result.score[0]
            self.score[1] += result.score[1]
        a, b = self.score
        if self.rules.deals:
            if len(self.hands) >= self.rules.deals and a != b:
                self.winner = 0 if a > b else 1
        elif max(a, b) >= self.rules.target and a != b:
            self.winner = 0 if a > b else 1

    # -- records (R10) -------------------------------------------------------------
    def to_record(self) -> dict[str, Any]:
        """The R10 game record of everything played so far."""
        return {
            "format": RECORD_FORMAT,
            "rules": self.rules.to_json(),
            "hands": [
                {
                    "dealer": h.dealer,
                    "deck": [c.text for c in h.deck],
                    "actions": [a.to_json() for a in h.actions],
                }
                for h in self.hands
            ],
        }
