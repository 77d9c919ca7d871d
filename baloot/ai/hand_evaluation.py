"""Hand evaluation for bidding (R3) and doubling (R4): rough trick counts.

The numbers are "expected tricks" on a simple scale: a sure winner counts
about 1, a card that wins only with help counts less. They only need to rank
hands sensibly; the thresholds that use them live with the bidding policy.
"""

from __future__ import annotations

from ..engine.cards import RANK_9, RANK_A, RANK_J, RANK_K, RANK_Q, RANK_T, SUIT_MASK
from ..engine.projects import best_projects


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
    others = trumps - sum(_has(mask, trump, r) for r in (RANK_J, RANK_9, RANK_A, RANK_T))
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


# Expected hand scores (R7) for the taker's team, in game points, fitted by least
# squares on 6,000 deals in which each seat in turn was made to take each
# contract (the others passing) and the hand was finished by four normal
# players (120,000 contracts; see ``python -m baloot arena`` for the checks).
# Strength is worth about 5.5 points a trick, a project (R6.1) about 1.8 times
# its value (it scores for the taker's team unless outranked, R6.2), a Baloot
# (R6.3) about 2. In Sun the team that does not lead the first trick (R5:
# p1 leads) does better by about 2.7 points.
HOKUM_BASE, HOKUM_PER_TRICK, HOKUM_PER_PROJECT, HOKUM_BALOOT = -13.3, 5.5, 1.8, 1.8
SUN_BASE, SUN_PER_TRICK, SUN_PER_PROJECT, SUN_NOT_LEADING = -19.2, 6.8, 1.5, 2.7


def project_points(mask: int, sun: bool, trump: int | None = None) -> int:
    """Game points (R6.1, before any multiplying) of the best projects in ``mask``'s cards."""
    return sum(p.value(sun) for p in best_projects(mask, sun, trump))


def has_baloot(mask: int, trump: int) -> bool:
    """King and Queen of trumps in one hand (R6.3)."""
    return _has(mask, trump, RANK_K) and _has(mask, trump, RANK_Q)


def hokum_score(mask: int, trump: int) -> float:
    """Expected R7 score difference for the taker's team if ``mask``'s holder takes Hokum in ``trump``.

    ``mask`` holds the cards known while bidding (the first five and the up card, R2).
    Counts trick strength (:func:`hokum_strength`), projects (R6.1) and Baloot (R6.3).
    """
    return (
        HOKUM_BASE
        + HOKUM_PER_TRICK * hokum_strength(mask, trump)
        + HOKUM_PER_PROJECT * project_points(mask, False, trump)
        + (HOKUM_BALOOT if has_baloot(mask, trump) else 0.0)
    )


def best_hokum_score(mask: int, excluded_suit: int | None = None) -> tuple[int, float]:
    """The trump suit (R3.2: other than ``excluded_suit``) with the best :func:`hokum_score`, and that score."""
    best_suit, best = -1, -1e9
    for suit in range(4):
        if suit == excluded_suit:
            continue
        value = hokum_score(mask, suit)
        if value > best:
            best_suit, best = suit, value
    return best_suit, best


def sun_score(mask: int, position: int) -> float:
    """Expected R7 score difference for the taker's team if the holder, at ``position`` (0 = p1), takes Sun.

    Counts trick strength (:func:`sun_strength`) and projects (R6.1, Sun values);
    p1 leads the first trick (R5), which costs the leading side.
    """
    return (
        SUN_BASE
        + SUN_PER_TRICK * sun_strength(mask)
        + SUN_PER_PROJECT * project_points(mask, True)
        + (SUN_NOT_LEADING if position & 1 else 0.0)
    )
