"""How plausible a sampled deal is, given the bids everyone made (R3).

The hard level weights its samples with this: a seat that bid Hokum or Sun
probably had the strength the normal level asks for, and a seat that passed
while nobody had bid probably did not. Judged with the normal level's own
hand evaluation on the sampled first five cards plus the up card (R2).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action, ActionType
from .bidding_policy import NORMAL_STYLE
from .hand_evaluation import best_hokum_suit, hokum_strength, sun_strength

UNLIKELY = 0.3
"""Weight factor for a bid that the sampled hand does not explain."""


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
    for index, bid in enumerate(bids):
        seat = bid.seat
        round_two = index >= 4 and all(b.type is ActionType.PASS for b in bids[:4])
        if seat == me:
            standing = standing or bid.type is not ActionType.PASS
            continue
        cards = fives[seat] | up_bit
        atype = bid.type
        if atype is ActionType.PASS:
            if not standing:
                hokum = best_hokum_suit(cards, up_suit)[1] if round_two else hokum_strength(cards, up_suit)
                if hokum >= style.hokum + 0.4 or sun_strength(cards) >= style.sun + 0.4:
                    weight *= UNLIKELY
        elif atype is ActionType.HOKUM and bid.suit is None and not standing:
            hokum = best_hokum_suit(cards, up_suit)[1] if round_two else hokum_strength(cards, up_suit)
            if hokum < style.hokum - 0.5:
                weight *= UNLIKELY
        elif atype is ActionType.SUN and sun_strength(cards) < style.sun - 0.5:
            weight *= UNLIKELY
        if atype is not ActionType.PASS:
            standing = True
    return weight
