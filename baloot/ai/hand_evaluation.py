"""Hand evaluation for bidding (R3) and doubling (R4): rough trick counts.

The numbers are "expected tricks" on a simple scale: a sure winner counts
about 1, a card that wins only with help counts less. They only need to rank
hands sensibly; the thresholds that use them live with the bidding policy.
"""

from __future__ import annotations

from ..cards import RANK_9, RANK_A, RANK_J, RANK_K, RANK_T, SUIT_MASK


def _has(mask: int, suit: int, rank: int) -> bool:
    return bool(mask >> (suit * 8 + rank) & 1)


def sun_strength(mask: int) -> float:
    """Expected tricks of ``mask`` in Sun (R1.1 plain order A T K Q J 9 8 7)."""
    total = 0.0
    for suit in range(4):
        length = (mask & SUIT_MASK[suit]).bit_count()
        if not length:
            continue
        ace = _has(mask, suit, RANK_A)
        ten = _has(mask, suit, RANK_T)
        king = _has(mask, suit, RANK_K)
        if ace:
            total += 1.0
            if ten:
                total += 0.9
                if king:
                    total += 0.6
            elif king:
                total += 0.3
            if length >= 4:
                total += 0.4 * (length - 3)  # a long suit headed by the Ace runs
        elif ten:
            total += 0.45 if (king or length >= 3) else 0.15
        elif king and length >= 3:
            total += 0.2
    return total


def hokum_strength(mask: int, trump: int) -> float:
    """Expected tricks of ``mask`` in Hokum with ``trump`` (R1.1 trump order J 9 A T K Q 8 7)."""
    trumps = (mask & SUIT_MASK[trump]).bit_count()
    total = 0.0
    jack = _has(mask, trump, RANK_J)
    nine = _has(mask, trump, RANK_9)
    if jack:
        total += 1.0
    if nine:
        total += 0.9 if (jack or trumps >= 3) else 0.55
    if _has(mask, trump, RANK_A):
        total += 0.7 if (jack or nine) else 0.5
    if _has(mask, trump, RANK_T):
        total += 0.45
    others = trumps - sum(
        _has(mask, trump, r) for r in (RANK_J, RANK_9, RANK_A, RANK_T)
    )
    total += 0.35 * others
    if trumps >= 4:
        total += 0.3 * (trumps - 3)
    for suit in range(4):
        if suit == trump:
            continue
        length = (mask & SUIT_MASK[suit]).bit_count()
        if not length:
            if trumps >= 3:
                total += 0.25  # a void to ruff in
            continue
        if _has(mask, suit, RANK_A):
            total += 0.85
            if _has(mask, suit, RANK_T):
                total += 0.5
        elif _has(mask, suit, RANK_T) and _has(mask, suit, RANK_K):
            total += 0.3
    return total


def best_hokum_suit(mask: int, excluded_suit: int | None = None) -> tuple[int, float]:
    """The trump suit that makes ``mask`` strongest, and that strength."""
    best_suit, best = -1, -1.0
    for suit in range(4):
        if suit == excluded_suit:
            continue
        value = hokum_strength(mask, suit)
        if value > best:
            best_suit, best = suit, value
    return best_suit, best


def defence_strength(mask: int, trump: int | None) -> float:
    """A defender's expected tricks against a contract (R4 doubling): Sun if ``trump`` is None."""
    if trump is None:
        return sun_strength(mask)
    total = 0.0
    if _has(mask, trump, RANK_J):
        total += 1.0
    if _has(mask, trump, RANK_9):
        total += 0.8
    if _has(mask, trump, RANK_A):
        total += 0.5
    trumps = (mask & SUIT_MASK[trump]).bit_count()
    if trumps >= 3:
        total += 0.4 * (trumps - 2)
    for suit in range(4):
        if suit != trump and _has(mask, suit, RANK_A):
            total += 0.7
    return total
