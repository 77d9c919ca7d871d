"""Swiss pairing: teams with equal scores meet, no rematch while avoidable, a bye once per team.

The matching is networkx's maximum-weight matching (the blossom algorithm, ``max_weight_matching``
with ``maxcardinality``); nothing of the search is written here. A round is paired in two steps:

1. **Score groups, top down** (fast, the usual Swiss brackets). With an odd field the bye goes to
   the lowest-ranked team that has had none. Then the teams are taken score group by score group,
   best first; a group, with the teams floated down from the group above, is one matching over
   the pairs that have not met. Every edge carries its two teams' priorities (floaters first, then
   the better-ranked), so the teams left over are the lowest-ranked, and they float down to the
   next group. Within a group the Dutch system is preferred: teams about half the group apart meet
   (the top half against the bottom half). Large groups are kept sparse: each team is joined to its
   neighbours in the standing and to those about half a group away.
2. **The whole field at once**, only when step 1 leaves a team unpaired (small fields, late
   rounds): one matching over every pair that has not met, with a bye node joined to the teams
   that have had no bye, weighted by score difference (squared). Only if even that cannot pair
   everyone are rematches allowed, each at a heavy cost, so there are as few as the field forces.

So a rematch happens only when no pairing without one exists, and a team has a second bye only
once every team has had one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence, Set

import networkx as nx

from .model import BYE, Pairing, TeamId

SCORE_WEIGHT = 1_000  # per (half point of score difference) squared, in the whole-field matching
REMATCH_COST = 10_000_000_000
BASE = 100_000_000_000
NEAR = 4  # in a large score group, each team is joined to the next NEAR teams
ACROSS = 6  # and to the teams within ACROSS of half a group away


def swiss_round_count(teams: int) -> int:
    """The default number of Swiss rounds: ⌈log2(teams)⌉ (at least 1)."""
    return max(1, math.ceil(math.log2(max(teams, 2))))


def swiss_pairings(
    ranking: Sequence[TeamId],
    scores: Mapping[TeamId, float],
    met: Set[frozenset[TeamId]],
    had_bye: Set[TeamId],
) -> list[Pairing]:
    """The next round's tables, best-placed first. ``ranking``: the teams, best first (the standing).

    ``scores``: each team's round points; ``met``: the pairs that have met (``frozenset({a, b})``);
    ``had_bye``: teams that have had a bye. Raises ValueError for fewer than two teams.

    The score groups are the round points: the teams are taken by score, best first, in the order of
    ``ranking`` within a score (a standing led by the duplicate rating need not be sorted by points).
    """
    teams = sorted(ranking, key=lambda team: -scores.get(team, 0.0))  # stable: the standing within a score
    if len(teams) < 2:
        raise ValueError("a Swiss round needs at least two teams")
    if len(set(teams)) != len(teams) or BYE in teams:
        raise ValueError("team ids must be distinct and not the bye id")
    rank = {team: i for i, team in enumerate(teams)}
    pairs = _by_score_groups(teams, scores, met, had_bye)
    if pairs is None:
        pairs = _whole_field(teams, rank, scores, met, had_bye, rematches=False)
    if pairs is None:
        pairs = _whole_field(teams, rank, scores, met, had_bye, rematches=True)
    assert pairs is not None
    return _tables(pairs, rank)


def _by_score_groups(
    teams: list[TeamId], scores: Mapping[TeamId, float], met: Set[frozenset[TeamId]], had_bye: Set[TeamId]
) -> list[tuple[TeamId, TeamId]] | None:
    """Step 1; None when some team is left unpaired."""
    pairs: list[tuple[TeamId, TeamId]] = []
    rest = list(teams)
    if len(rest) % 2:
        candidates = [t for t in rest if t not in had_bye] or rest
        bye = candidates[-1]
        rest.remove(bye)
        pairs.append((bye, BYE))
    groups: list[list[TeamId]] = []
    for team in rest:
        if groups and scores.get(groups[-1][0], 0.0) == scores.get(team, 0.0):
            groups[-1].append(team)
        else:
            groups.append([team])
    floaters: list[TeamId] = []
    for group in groups:
        bracket = floaters + group
        floating = len(floaters)
        floaters = [bracket.pop()] if len(bracket) % 2 else []  # the lowest-ranked floats down
        matched = _match_bracket(bracket, floating, met)
        pairs.extend(matched)
        done = {t for pair in matched for t in pair}
        floaters = [t for t in bracket if t not in done] + floaters
    return None if floaters else pairs


def _match_bracket(
    bracket: list[TeamId], floating: int, met: Set[frozenset[TeamId]]
) -> list[tuple[TeamId, TeamId]]:
    """One score group as one matching: its first ``floating`` teams (floated down from above) meet the
    group's best-placed teams first; the others the Dutch way (about half the group apart)."""
    n = len(bracket)
    if n < 2:
        return []
    half = (n - floating) // 2
    graph: nx.Graph[TeamId] = nx.Graph()
    graph.add_nodes_from(bracket)
    for i in range(n):
        for j in _partners(i, n, half, floating):
            a, b = bracket[i], bracket[j]
            if frozenset((a, b)) in met:
                continue
            if j < floating:  # two floaters: only when nothing better is left
                dutch = 1
            elif i < floating:  # a floater meets the group's best-placed team it can
                dutch = 4 * n - (j - floating)
            else:
                dutch = n - abs((j - i) - half)
            graph.add_edge(a, b, weight=dutch)
    return [(a, b) for a, b in nx.max_weight_matching(graph, maxcardinality=True)]


def _partners(i: int, n: int, half: int, floating: int) -> Iterable[int]:
    """The later teams of a bracket joined to team ``i``: all in a small bracket, else a sparse set."""
    if n <= 48 or i < floating:
        return range(i + 1, n)
    near = range(i + 1, min(n, i + 1 + NEAR))
    across = range(max(i + 1 + NEAR, i + half - ACROSS), min(n, i + half + ACROSS + 1))
    return [*near, *across]


def _whole_field(
    teams: list[TeamId],
    rank: Mapping[TeamId, int],
    scores: Mapping[TeamId, float],
    met: Set[frozenset[TeamId]],
    had_bye: Set[TeamId],
    *,
    rematches: bool,
) -> list[tuple[TeamId, TeamId]] | None:
    """Step 2; None when some team is left unpaired (never with ``rematches``)."""
    n = len(teams)
    graph: nx.Graph[TeamId] = nx.Graph()
    graph.add_nodes_from(teams)
    for i, a in enumerate(teams):
        for j in range(i + 1, n):
            b = teams[j]
            rematch = frozenset((a, b)) in met
            if rematch and not rematches:
                continue
            diff = round(2 * abs(scores.get(a, 0.0) - scores.get(b, 0.0)))
            graph.add_edge(a, b, weight=BASE - SCORE_WEIGHT * diff * diff - (j - i) - REMATCH_COST * rematch)
    if n % 2:
        for team in [t for t in teams if t not in had_bye] or teams:
            graph.add_edge(BYE, team, weight=BASE - SCORE_WEIGHT * (n - 1 - rank[team]))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if len(matching) < (n + 1) // 2:
        return None
    return [(b, a) if a == BYE else (a, b) for a, b in matching]


def _tables(pairs: Iterable[tuple[TeamId, TeamId]], rank: Mapping[TeamId, int]) -> list[Pairing]:
    ordered: list[tuple[TeamId, TeamId]] = []
    for a, b in pairs:
        if b == BYE:
            ordered.append((a, BYE))
        else:
            ordered.append((a, b) if rank[a] < rank[b] else (b, a))
    ordered.sort(key=lambda p: (p[1] == BYE, rank[p[0]]))
    return [Pairing(i, first, second) for i, (first, second) in enumerate(ordered)]
