"""How plausible a sampled deal is, given the bids everyone made (R3).

The hard level weights its samples with this: a seat that bid Hokum or Sun
probably had the expected score the normal level asks for, and a seat that
passed while nobody had bid probably did not. Judged with the normal level's
own evaluation (:func:`~baloot.ai.hand_evaluation.hokum_score`,
:func:`~baloot.ai.hand_evaluation.sun_score`) on the sampled first five cards
plus the up card (R2).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.actions import Action, ActionType
from .bidding_policy import NORMAL_STYLE
from .hand_evaluation import best_hokum_score, hokum_score, sun_score

UNLIKELY = 0.3
"""Weight factor for a bid that the sampled hand does not explain."""

MARGIN = 2.5
"""Expected game points (R7) a hand may miss the threshold by and still explain the bid."""


def first_fives(dealer: int, deck: Sequence[int]) -> list[int]:
    """Each seat's first five cards as masks (R2.1: packets of 3 then 2 from p1)."""
    fives = [0, 0, 0, 0]
    for i in range(4):
        seat = (dealer + 1 + i) % 4
        for c in (*deck[3 * i : 3 * i + 3], *deck[12 + 2 * i : 14 + 2 * i]):
            fives[seat] |= 1 << c
    return fives


def bid_weight(bids: Sequence[Action], dealer: int, deck: Sequence[int], me: int) -> float:
    """A factor in (0, 1]: how well the sampled deal explains the other seats' bids."""
    fives = first_fives(dealer, deck)
    up = deck[20]
    up_bit, up_suit = 1 << up, up >> 3
    style = NORMAL_STYLE
    weight = 1.0
    standing = False
    round_two = False
    for index, bid in enumerate(bids):
        if index == 4 and not standing:
            round_two = True  # R3.2: all four passed in round one
        seat = bid.seat
        atype = bid.type
        if seat != me:
            cards = fives[seat] | up_bit
            position = (seat - dealer - 1) % 4
            if atype is ActionType.PASS and not standing:
                hokum = best_hokum_score(cards, up_suit)[1] if round_two else hokum_score(cards, up_suit)
                need = (style.last_two if position == 3 else style.open_two) if round_two else style.open
                if max(hokum, sun_score(cards, position)) >= need + MARGIN:
                    weight *= UNLIKELY
            elif atype is ActionType.HOKUM and bid.suit is None and not standing:
                hokum = best_hokum_score(cards, up_suit)[1] if round_two else hokum_score(cards, up_suit)
                need = (style.last_two if position == 3 else style.open_two) if round_two else style.open
                if hokum < need - MARGIN:
                    weight *= UNLIKELY
            elif atype is ActionType.SUN and sun_score(cards, position) < min(style.open, style.overcall) - MARGIN:
                weight *= UNLIKELY
        if atype is not ActionType.PASS:
            standing = True
    return weight
