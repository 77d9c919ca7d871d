"""The duplicate rating: how much better than the field a team played the same cards, its
opponents' strength taken out.

1. **Against par.** For each deal, the teams that held the same cards (same round, hand and seats,
   :func:`baloot.tournaments.matchpoints`' groups) are compared with their mean: a team's *deviation*
   is its result (its hand score minus its opponents', R7) minus that mean. The luck of the cards is
   gone: the same cards score the same on average. A Gahwa won (the whole target, R8) would swamp
   every other deal, so each deviation is clipped to ±:data:`CLIP` points (as bridge's IMP scale
   compresses big swings).
2. **Opponents taken out.** At a table, a team's deviations are also the opposite of its opponents'
   (a hand's points go to one team or the other), so a team that met strong teams (the Swiss
   pairing's aim) looks worse than it is. The rating is the least-squares solution (``numpy.linalg``)
   of ``deviation(A vs B) = (r_A − r_B) − par's share of the other tables' gaps`` over every table of
   the tournament, with the ratings summing to 0 (a Massey rating, on duplicate deviations).

3. **A forfeit is scored.** A team that forfeits a round (never showed, docs/tournaments.md) plays no deal,
   so it would keep the rating of the rounds it played; instead each deal of that round counts as lost
   by :data:`CLIP` against an average team: the team's rating is the mean, per deal, of its fitted rating
   over the deals it played and −:data:`CLIP` over the deals it forfeited. This is applied after the fit,
   so nobody else's rating moves: its opponent gets nothing from that round (as for a bye), and the teams
   it met earlier are not judged against a rating it earned by being absent.

The rating is in points per deal above an average team. With random (not duplicated) deals the
same fit on the raw results (no par) is the best one can do; ``scripts/sim_tournaments.py``
compares the two.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from .duplicate import DealResult
from .model import TeamId

CLIP = 60
"""The largest deviation of one deal counted, in points (a Sun hand is 26 game points ×2 doubled …)."""


def par_deviations(results: Iterable[DealResult], *, clip: int = CLIP) -> list[tuple[DealResult, float]]:
    """Each result with its deviation from the mean of the teams that held the same cards (clipped).

    A deal held by only one team compares nothing and is left out."""
    groups: dict[tuple[int, int, int], list[DealResult]] = defaultdict(list)
    for result in results:
        groups[(result.round_no, result.hand_no, result.side)].append(result)
    out: list[tuple[DealResult, float]] = []
    for group in groups.values():
        if len(group) < 2:
            continue
        par = sum(r.diff for r in group) / len(group)
        out.extend((r, max(-clip, min(clip, r.diff - par))) for r in group)
    return out


def massey(teams: Sequence[TeamId], games: Iterable[tuple[TeamId, TeamId, float, int]]) -> dict[TeamId, float]:
    """Least-squares ratings from ``(a, b, margin of a over b per deal, deals)``: ``r_a − r_b ≈ margin``,
    each game weighted by its deals; the ratings sum to 0. Teams without a game get 0."""
    index = {team: i for i, team in enumerate(teams)}
    rows: list[list[float]] = []
    values: list[float] = []
    for a, b, margin, deals in games:
        if a not in index or b not in index or deals <= 0:
            continue
        weight = float(np.sqrt(deals))
        row = [0.0] * len(teams)
        row[index[a]], row[index[b]] = weight, -weight
        rows.append(row)
        values.append(weight * margin)
    if not rows:
        return dict.fromkeys(teams, 0.0)
    rows.append([1.0] * len(teams))  # the ratings sum to 0
    values.append(0.0)
    solution, *_ = np.linalg.lstsq(np.array(rows), np.array(values), rcond=None)
    return {team: float(solution[index[team]]) for team in teams}


def duplicate_rating(teams: Sequence[TeamId], results: Iterable[DealResult],
                     opponents: Mapping[tuple[int, TeamId], TeamId], *, duplicated: bool = True,
                     clip: int = CLIP, forfeits: Mapping[tuple[int, TeamId], float] | None = None,
                     ) -> dict[TeamId, float]:
    """Each team's rating (points per deal above an average team), from its deal results.

    ``opponents[(round_no, team)]``: whom the team met that round. ``duplicated``: compare with par
    (every table of a round played the same cards); False: the raw results, clipped the same way.
    ``forfeits[(round_no, team)]``: the deals of a round the team forfeited (step 3 above), each
    averaged into the team's own rating as −``clip``.

    With par, the model of a deviation is ``(r_A − r_B) − mean over the group of (r_X − r_opp(X))``
    (par is the mean of the same cards' results, so it holds the other tables' strength gaps too);
    each team's round is one row of the least-squares fit: its mean deviation over the round's deals,
    with its mean coefficients, weighted by the square root of the deals."""
    index = {team: i for i, team in enumerate(teams)}
    listed = [r for r in results if r.team in index and opponents.get((r.round_no, r.team)) in index]
    groups: dict[tuple[int, int, int], list[DealResult]] = defaultdict(list)
    for result in listed:
        groups[(result.round_no, result.hand_no, result.side)].append(result)
    rows: dict[tuple[int, TeamId], tuple[np.ndarray, list[float]]] = {}
    for group in groups.values():
        if duplicated and len(group) < 2:
            continue
        par = sum(r.diff for r in group) / len(group) if duplicated else 0.0
        share = np.zeros(len(teams))
        if duplicated:
            for other in group:
                share[index[other.team]] += 1 / len(group)
                share[index[opponents[(other.round_no, other.team)]]] -= 1 / len(group)
        for result in group:
            coefficients = -share.copy()
            coefficients[index[result.team]] += 1
            coefficients[index[opponents[(result.round_no, result.team)]]] -= 1
            key = (result.round_no, result.team)
            total, values = rows.get(key, (np.zeros(len(teams)), []))
            values.append(max(-clip, min(clip, result.diff - par)))
            rows[key] = (total + coefficients, values)
    lost: dict[TeamId, float] = defaultdict(float)
    for (_, team), deals in (forfeits or {}).items():
        if team in index and deals > 0:
            lost[team] += deals
    if not rows or len(teams) < 2:
        return {team: -float(clip) if team in lost else 0.0 for team in teams}
    matrix, target = [], []
    for total, values in rows.values():
        weight = float(np.sqrt(len(values)))
        matrix.append(weight * total / len(values))
        target.append(weight * sum(values) / len(values))
    # the ratings sum to 0 exactly (0 = an average team, what a forfeit is measured against): solved in an
    # orthonormal basis of the vectors summing to 0
    basis = np.linalg.svd(np.ones((1, len(teams))))[2][1:].T
    coordinates, *_ = np.linalg.lstsq(np.array(matrix) @ basis, np.array(target), rcond=None)
    solution = basis @ coordinates
    rating = {team: float(solution[index[team]]) for team in teams}
    played: dict[TeamId, int] = defaultdict(int)
    for key, (_, values) in rows.items():
        played[key[1]] += len(values)
    for team, deals in lost.items():  # step 3: after the fit, the team's own rating only
        rating[team] = (rating[team] * played[team] - clip * deals) / (played[team] + deals)
    return rating
