"""Rule-based bidding (R3) and doubling (R4) from a seat's view.

:class:`BiddingStyle` holds the thresholds, so the easy and normal levels
share the logic and differ only in how boldly they bid.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import Action, ActionType
from ..cards import RANK_A, RANK_T, mask_of
from ..view import SeatView
from .hand_evaluation import best_hokum_suit, defence_strength, hokum_strength, sun_strength

P, H, S, A = ActionType.PASS, ActionType.HOKUM, ActionType.SUN, ActionType.ASHKAL


@dataclass(frozen=True, slots=True)
class BiddingStyle:
    """Thresholds in expected tricks (see :mod:`hand_evaluation`)."""

    sun: float = 3.0  # bid Sun with six known cards (R3: the Sun bidder takes the up card)
    hokum: float = 2.8  # bid Hokum
    overcall_sun: float = 3.6  # Sun over a standing bid (R3.1 steps A to C)
    ashkal: float = 2.8  # Ashkal: a Sun hand without the up card (R3.1)
    double: float = 3.3  # a defender doubles (R4)
    triple: float = 5.2  # the declarer triples
    four: float = 4.6  # the doubler says Four
    gahwa: float = 7.0  # the declarer says Gahwa
    allow_ashkal: bool = True
    allow_round_two: bool = True


NORMAL_STYLE = BiddingStyle()
EASY_STYLE = BiddingStyle(
    sun=3.6, hokum=3.2, overcall_sun=99.0, ashkal=99.0, double=99.0, triple=99.0,
    four=99.0, gahwa=99.0, allow_ashkal=False, allow_round_two=False,
)


def _find(legal: tuple[Action, ...], atype: ActionType) -> Action | None:
    for action in legal:
        if action.type is atype:
            return action
    return None


def choose_bid(view: SeatView, style: BiddingStyle) -> Action:
    """R3: pick a bid from ``view.legal`` by hand strength."""
    legal = view.legal
    types = {a.type for a in legal}
    if ActionType.KAWESH in types:
        return next(a for a in legal if a.type is ActionType.KAWESH)  # R9: a hopeless first five
    up = view.up_card
    assert up is not None, "the up card is on the table while bidding (R2.2)"
    mine = mask_of(view.hand)
    with_up = mine | up.bit
    up_suit = up.suit
    sun_value = sun_strength(with_up)
    naming = [a for a in legal if a.type is H and a.suit is not None]
    if naming:  # R3.2: confirm naming a suit other than the up card's, or switch to Sun
        suit, value = best_hokum_suit(with_up, up_suit)
        if sun_value >= style.sun and sun_value * 1.6 >= value * 1.0 + 1.0:
            sun = _find(legal, S)
            if sun is not None:
                return sun
        return next(a for a in naming if a.suit == suit)
    bids = view.bids
    round_two = len(bids) >= 4 and all(b.type is P for b in bids[:4])
    standing = None
    for b in reversed(bids[4:] if round_two else bids):
        if b.type is not P:
            standing = b
            break
    if types == {H, S}:  # R3.1 step C: confirm the Hokum or switch to Sun
        hokum_value = hokum_strength(with_up, up_suit)
        if sun_value >= style.sun and sun_value >= hokum_value:
            return _find(legal, S) or legal[0]
        return _find(legal, H) or legal[0]
    partner_bid = standing is not None and (standing.seat - view.seat) % 4 == 2
    if H not in types:  # only Pass or Sun: a bid stands (R3.1 B/C, R3.2)
        need = style.overcall_sun + (0.6 if partner_bid else 0.0)
        if sun_value >= need and S in types:
            return _find(legal, S) or legal[0]
        return _find(legal, P) or legal[0]
    # Nobody has bid in this round: Pass, Hokum, Sun (and maybe Ashkal).
    if not round_two:
        hokum_value = hokum_strength(with_up, up_suit)
    elif style.allow_round_two:
        _, hokum_value = best_hokum_suit(with_up, up_suit)
    else:
        hokum_value = 0.0
    if round_two and not style.allow_round_two:
        sun_value = 0.0
    if sun_value >= style.sun and S in types:
        return _find(legal, S) or legal[0]
    if hokum_value >= style.hokum:
        return _find(legal, H) or legal[0]
    if (
        style.allow_ashkal
        and A in types
        and up.rank in (RANK_T, RANK_A)
        and sun_strength(mine) >= style.ashkal
    ):
        return _find(legal, A) or legal[0]
    return _find(legal, P) or legal[0]


def choose_double(view: SeatView, style: BiddingStyle) -> Action:
    """R4: Double, Triple, Four or Gahwa when the hand is strong enough, else pass."""
    legal = view.legal
    mine = mask_of(view.hand)
    types = {a.type for a in legal}
    pass_ = _find(legal, P) or legal[0]
    if ActionType.DOUBLE in types or ActionType.FOUR in types:
        value = defence_strength(mine, view.trump)
        need = style.double if ActionType.DOUBLE in types else style.four
        if value >= need:
            atype = ActionType.DOUBLE if ActionType.DOUBLE in types else ActionType.FOUR
            options = [a for a in legal if a.type is atype]
            locked = [a for a in options if a.locked]
            return (locked or options)[0]  # locked stops the declarers leading trumps (R5.2)
        return pass_
    if ActionType.TRIPLE in types or ActionType.GAHWA in types:
        value = sun_strength(mine) if view.trump is None else hokum_strength(mine, view.trump)
        need = style.triple if ActionType.TRIPLE in types else style.gahwa
        if value >= need:
            return next(a for a in legal if a.type in (ActionType.TRIPLE, ActionType.GAHWA))
        return pass_
    return pass_

