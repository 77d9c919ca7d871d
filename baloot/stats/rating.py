"""Skill ratings with openskill's Plackett-Luce model: two teams, one result per match.

Each player has a ``mu`` (estimated skill) and ``sigma`` (its uncertainty);
a new player starts at openskill's defaults (25 and 25/3). After a counted
match both teams are rated from the match winner (R8): winners' ``mu`` go up,
losers' go down, everyone's ``sigma`` shrinks. Plackett-Luce with two teams
is the Bradley-Terry pairwise case; it is openskill's default model.

The shown rating is conservative — a player is probably at least this good:

    rating = 1000 + 40 × (mu − 3·sigma)

so a new player shows 1000 (mu − 3σ = 0) and climbs as matches shrink
their sigma; a strong regular reaches about 2000. Ratings are kept per server.

Recording rules applied here: a player who left the match early (left or
was away at the end) is rated as having lost, whatever their team did; a
seat played by a bot takes part with a fixed new-player rating that is never
stored (bot seats are only rated at all when the server opted in).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

MODEL: Final = PlackettLuce()
BASE: Final = 1000.0
SCALE: Final = 40.0


@dataclass(frozen=True, slots=True)
class Skill:
    """openskill's estimate of one player."""

    mu: float
    sigma: float

    @property
    def shown(self) -> float:
        """The conservative, friendly number (see the module docstring)."""
        return shown_rating(self.mu, self.sigma)


NEW_PLAYER: Final = Skill(MODEL.mu, MODEL.sigma)


def shown_rating(mu: float, sigma: float) -> float:
    """``1000 + 40 × (mu − 3σ)``: 1000 for a new player."""
    return BASE + SCALE * (mu - 3.0 * sigma)


def _rate(skills: Mapping[int, Skill], winner: int) -> dict[int, Skill]:
    teams = [[MODEL.rating(mu=skills[s].mu, sigma=skills[s].sigma) for s in (t, t + 2)] for t in (0, 1)]
    ranks = [0.0 if t == winner else 1.0 for t in (0, 1)]
    rated = MODEL.rate(teams, ranks=ranks)
    return {t + 2 * i: Skill(float(r.mu), float(r.sigma)) for t in (0, 1) for i, r in enumerate(rated[t])}


def rate_match(skills: Mapping[int, Skill], winner: int, left_early: frozenset[int] = frozenset()) -> dict[int, Skill]:
    """New skills of seats 0..3 after a match won by team ``winner``.

    ``skills`` holds every seat; ``left_early`` seats are rated as losers
    (their partner and the opponents are rated on the real result).
    """
    if set(skills) != {0, 1, 2, 3}:
        raise ValueError("a match is rated with all four seats")
    if winner not in (0, 1):
        raise ValueError(f"winner must be team 0 or 1, not {winner!r}")
    after = _rate(skills, winner)
    deserters = [s for s in left_early if s & 1 == winner]
    if deserters:
        as_losers = _rate(skills, 1 - winner)
        for seat in deserters:
            after[seat] = as_losers[seat]
    return after
