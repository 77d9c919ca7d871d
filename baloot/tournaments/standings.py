"""The standings: round points first, then the duplicate comparison, then Buchholz.

Round points: 1 for a round won (a match won, or the higher total of a round of fixed deals), ½ for
a round tied, 0 for a round lost; a bye (no bot team to play) counts as a round won, and a team that
forfeits (never showed, or dropped) loses the round. Ties in round points are broken, in order, by:

1. the matchpoint percentage of the duplicate comparison (docs/tournaments.md; 50 % for a team with
   no deal compared yet);
2. Buchholz: the sum of the round points of the teams met (byes count nothing);
3. the total score difference over the rounds played (R7 points, theirs subtracted);
4. the order of registration (the earlier first) — a tie that is left is a real tie.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .model import BYE, TeamId


@dataclass(frozen=True, slots=True)
class RoundOutcome:
    """What one table of a round came to: ``first``/``second`` teams, their round points and points."""

    round_no: int
    first: TeamId
    second: TeamId  # BYE for a bye
    first_points: float  # round points: 1, ½ or 0
    second_points: float
    first_score: int = 0  # the match (or deals') points, R7/R8
    second_score: int = 0
    first_forfeit: bool = False  # the team never showed and lost the round by forfeit (docs/tournaments.md)
    second_forfeit: bool = False


@dataclass(frozen=True, slots=True)
class Standing:
    """One team's line: its place (1 = first; equal lines share a place), round points and tie-breaks."""

    place: int
    team: TeamId
    points: float
    played: int
    won: int
    matchpoint_pct: float
    buchholz: float
    score_diff: int
    forfeits: int = 0  # rounds lost by forfeit (the team never showed)


def standings(
    teams: Sequence[TeamId],
    outcomes: Iterable[RoundOutcome],
    matchpoints: Mapping[TeamId, tuple[float, int]],
) -> list[Standing]:
    """Every team's standing, best first. ``teams`` in order of registration (the last tie-break)."""
    points = dict.fromkeys(teams, 0.0)
    played = dict.fromkeys(teams, 0)
    won = dict.fromkeys(teams, 0)
    diff = dict.fromkeys(teams, 0)
    forfeits = dict.fromkeys(teams, 0)
    opponents: dict[TeamId, list[TeamId]] = {team: [] for team in teams}
    for o in outcomes:
        for team, other, pts, mine, theirs, lost in (
                (o.first, o.second, o.first_points, o.first_score, o.second_score, o.first_forfeit),
                (o.second, o.first, o.second_points, o.second_score, o.first_score, o.second_forfeit)):
            if team == BYE or team not in points:
                continue
            forfeits[team] += lost
            points[team] += pts
            played[team] += 1
            won[team] += pts == 1.0
            diff[team] += mine - theirs
            if other != BYE:
                opponents[team].append(other)
    order = {team: i for i, team in enumerate(teams)}

    def pct(team: TeamId) -> float:
        got, most = matchpoints.get(team, (0.0, 0))
        return 100.0 * got / most if most else 50.0

    def buchholz(team: TeamId) -> float:
        return sum(points.get(o, 0.0) for o in opponents[team])

    keys = {t: (points[t], round(pct(t), 6), buchholz(t), diff[t]) for t in teams}
    ranked = sorted(teams, key=lambda t: (tuple(-k for k in keys[t]), order[t]))
    lines: list[Standing] = []
    for i, team in enumerate(ranked):
        place = lines[-1].place if lines and keys[ranked[i - 1]] == keys[team] else i + 1
        lines.append(Standing(place, team, points[team], played[team], won[team], pct(team), buchholz(team),
                              diff[team], forfeits[team]))
    return lines
