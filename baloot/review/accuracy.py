"""From points lost to labels, win chances and accuracy.

**Labels.** A judged decision's ``loss`` (points of this hand, R7, in the
reviewer's unit) is labelled at :data:`THRESHOLDS`: an *inaccuracy* from
:data:`INACCURACY` points, a *mistake* from :data:`MISTAKE`, a *blunder* from
:data:`BLUNDER`. Calibrated with ``python -m baloot review --bench`` on
duplicate matches of hard against easy bots and of random-card players
against easy bots (seed 0): the thresholds were chosen so that the hard bots,
the strongest player we have, are almost never called a blunder (0% of their
judged decisions) and rarely a mistake (0.4%), the easy bots a few times a
match (3% mistakes, 2% blunders) and a random-card player often (9% mistakes,
6% blunders; 3 match pairs each, 128 deals a decision): what a good player
means by the words. In units a player knows:
a Hokum hand is 16 game points and a Sun hand 26 (R7), so a blunder (12) is
most of a hand, a mistake (6) a trick with an Ace or Ten in it, an inaccuracy
(3) a few card points that changed the rounding.

**Win chances.** The chance that a team wins the match (R8) is modelled as the
normal chance that a random walk of hand score differences keeps its lead:
``P = Φ(D / (σ · √n))``, written with the logistic approximation
``1 / (1 + exp(-1.702 · D / (σ · √n)))``, where ``D`` is the team's match
score minus the other's after the hand, ``σ`` (:data:`HAND_SIGMA`) the
standard deviation of one hand's score difference, and ``n`` the expected
number of hands still to play: the mean distance of the two teams to the
target (R8, 152) divided by :data:`POINTS_PER_HAND`, the mean points a team
scores in a hand, at least 1. Both constants are measured on games between
the AI levels. A close match near the target makes a few points decisive; a
match at 0-0 makes them matter less, as a good player feels it.

**Accuracy.** Each judged decision's drop in win chance ``Δ`` (percentage
points, best option minus chosen) gives lichess's move accuracy
``103.1668100711649·e^(−0.04354415386753951·Δ) − 3.166924740191411``, clamped
to 0-100 (``AccuracyPercent`` in lila). A seat's accuracy for a hand or a
match is the mean over its judged decisions; forced ones (a single legal
action) do not count. A seat with no judged decision has 100.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Final

INACCURACY: Final = 3.0
MISTAKE: Final = 6.0
BLUNDER: Final = 12.0
THRESHOLDS: Final = ((BLUNDER, "blunder"), (MISTAKE, "mistake"), (INACCURACY, "inaccuracy"))
"""Points lost (R7) from which a decision is labelled, the worst first."""

HAND_SIGMA: Final = 17.0
"""Standard deviation of one hand's score difference between the teams (R7), in points: 16.9
measured on 565 hands of 40 normal-level matches (seed 7), thrown-in hands counted as 0."""

POINTS_PER_HAND: Final = 9.8
"""Mean points one team scores in one hand (R7), thrown-in hands included (the same games)."""

EPSILON: Final = 1e-6
"""Values closer than this are equal (the same play-outs give exactly equal means)."""


def label_for(loss: float) -> str | None:
    """The label of a decision that lost ``loss`` points, or None."""
    for threshold, name in THRESHOLDS:
        if loss >= threshold - EPSILON:
            return name
    return None


def win_chance(diff: float, score: tuple[int, int], team: int, target: int = 152) -> float:
    """The chance (0-1) that ``team`` wins the match (R8) when, with the match score ``score``
    before the hand, this hand adds ``diff`` to its lead."""
    lead = score[team] - score[1 - team] + diff
    remaining = ((target - score[0]) + (target - score[1])) / 2.0
    hands = max(1.0, remaining / POINTS_PER_HAND)
    x = 1.702 * lead / (HAND_SIGMA * math.sqrt(hands))
    if x < -60:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def win_drop(best: float, chosen: float, score: tuple[int, int], team: int, target: int = 152) -> float:
    """The drop in ``team``'s chance to win the match, in percentage points, of choosing a
    ``chosen``-valued action over a ``best``-valued one."""
    if best - chosen <= EPSILON:
        return 0.0
    return 100.0 * (win_chance(best, score, team, target) - win_chance(chosen, score, team, target))


def move_accuracy(drop: float) -> float:
    """lichess's ``AccuracyPercent`` of a move that lost ``drop`` win-percentage points."""
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * drop) - 3.166924740191411
    return min(100.0, max(0.0, raw))


def mean_accuracy(drops: Iterable[float]) -> float:
    """The mean move accuracy of ``drops``; 100 for none."""
    values = [move_accuracy(d) for d in drops]
    return sum(values) / len(values) if values else 100.0
