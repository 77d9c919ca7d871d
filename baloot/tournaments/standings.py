"""The standings: the duplicate rating first, then round points, the duplicate matchpoints, Buchholz.

In a tournament of duplicate deals (every table of a round plays the same cards) the standings rank
by the comparison that takes the luck of the cards out, and only then by who won the matches:

1. the **duplicate rating** (:func:`baloot.tournaments.strength.duplicate_rating`): the points per
   deal a team made above the teams that held the same cards, the strength of the opponents it met
   taken out (0 = an average team; 0 for everyone before any deal is compared);
   A round a team forfeited counts as every deal of it lost by the clip against an average team;
2. round points: 1 for a round won (a match won, or the higher total of a round of fixed deals), ½ for
   a round tied, 0 for a round lost; a bye (no bot team to play) counts as a round won, and a team that
   forfeits (never showed, or dropped) loses the round;
3. the matchpoint percentage (docs/tournaments.md; 50 % for a team with no deal compared yet);
4. Buchholz: the sum of the round points of the teams met (byes count nothing);
5. the total score difference over the rounds played (R7 points, theirs subtracted);
6. the order of registration (the earlier first) — a tie that is left is a real tie.

Why the rating leads: a match's winner is decided by the cards as much as by the play (the two
teams of a table hold different cards), and matchpoints alone neither weigh the size of a result nor
take out the opponents that the Swiss pairing makes strong for strong teams; ``scripts/sim_tournaments.py``
measures each ranking against teams of known strength (docs/tournaments.md). Called without a rating
(:func:`standings` with ``rating=None``) the order starts at round points, as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .duplicate import DealResult, matchpoints
from .model import BYE, TeamId
from .strength import duplicate_rating


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
    """One team's line: its place (1 = first; equal lines share a place), round points and tie-breaks.

    ``rating``: the duplicate rating (points per deal above an average team; 0 without one)."""

    place: int
    team: TeamId
    points: float
    played: int
    won: int
    matchpoint_pct: float
    buchholz: float
    score_diff: int
    forfeits: int = 0  # rounds lost by forfeit (the team never showed)
    rating: float = 0.0


def opponents_met(outcomes: Iterable[RoundOutcome]) -> dict[tuple[int, TeamId], TeamId]:
    """Whom each team met in each round: ``{(round_no, team): opponent}`` (byes left out)."""
    met: dict[tuple[int, TeamId], TeamId] = {}
    for o in outcomes:
        if o.first != BYE and o.second != BYE:
            met[(o.round_no, o.first)], met[(o.round_no, o.second)] = o.second, o.first
    return met


def forfeited_deals(outcomes: Iterable[RoundOutcome], deals: Iterable[DealResult],
                    deals_per_round: int = 0) -> dict[tuple[int, TeamId], float]:
    """``{(round_no, team): deals}`` for each round a team forfeited: ``deals_per_round`` in a round of a
    fixed number of deals (R8), otherwise the mean number of deals a table played that round (a round to
    a target; every round's mean when no table of that round played, 1 when no deal was played at all)."""
    played: dict[tuple[int, TeamId], int] = {}
    for d in deals:
        played[(d.round_no, d.team)] = played.get((d.round_no, d.team), 0) + 1
    by_round: dict[int, list[int]] = {}
    for (round_no, _), count in played.items():
        by_round.setdefault(round_no, []).append(count)
    every = [c for counts in by_round.values() for c in counts]
    overall = sum(every) / len(every) if every else 1.0

    def weight(round_no: int) -> float:
        if deals_per_round > 0:
            return float(deals_per_round)
        counts = by_round.get(round_no)
        return sum(counts) / len(counts) if counts else overall

    out: dict[tuple[int, TeamId], float] = {}
    for o in outcomes:
        for team, lost in ((o.first, o.first_forfeit), (o.second, o.second_forfeit)):
            if lost and team != BYE:
                out[(o.round_no, team)] = weight(o.round_no)
    return out


def duplicate_standings(teams: Sequence[TeamId], outcomes: Sequence[RoundOutcome],
                        deals: Sequence[DealResult], *, deals_per_round: int = 0,
                        duplicated: bool = True) -> list[Standing]:
    """The standings of a duplicate tournament: :func:`standings` with the matchpoints and the duplicate
    rating computed from every deal result (``deals``) and the tables met (``outcomes``), a round forfeited
    counting every deal of it lost by the clip (:func:`forfeited_deals`; ``deals_per_round``: ``rules.deals``,
    0 for rounds to a target). ``duplicated`` False: the rating of the raw results (no par) and no
    matchpoints, for deals that were not shared (the simulation's random deals)."""
    rating = duplicate_rating(teams, deals, opponents_met(outcomes), duplicated=duplicated,
                              forfeits=forfeited_deals(outcomes, deals, deals_per_round))
    return standings(teams, outcomes, matchpoints(deals) if duplicated else {}, rating=rating)


def standings(
    teams: Sequence[TeamId],
    outcomes: Iterable[RoundOutcome],
    matchpoints: Mapping[TeamId, tuple[float, int]],
    *,
    rating: Mapping[TeamId, float] | None = None,
) -> list[Standing]:
    """Every team's standing, best first. ``teams`` in order of registration (the last tie-break).

    ``rating``: each team's duplicate rating, the first key (a team left out counts 0); ``None``: the
    order starts at round points (a tournament without duplicate deals)."""
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
    ratings = dict.fromkeys(teams, 0.0) if rating is None else {team: rating.get(team, 0.0) for team in teams}

    def pct(team: TeamId) -> float:
        got, most = matchpoints.get(team, (0.0, 0))
        return 100.0 * got / most if most else 50.0

    def buchholz(team: TeamId) -> float:
        return sum(points.get(o, 0.0) for o in opponents[team])

    keys = {t: (round(ratings[t], 6), points[t], round(pct(t), 6), buchholz(t), diff[t]) for t in teams}
    ranked = sorted(teams, key=lambda t: (tuple(-k for k in keys[t]), order[t]))
    lines: list[Standing] = []
    for i, team in enumerate(ranked):
        place = lines[-1].place if lines and keys[ranked[i - 1]] == keys[team] else i + 1
        lines.append(Standing(place, team, points[team], played[team], won[team], pct(team), buchholz(team),
                              diff[team], forfeits[team], ratings[team]))
    return lines
