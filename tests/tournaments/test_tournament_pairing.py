"""Swiss and knockout pairing: equal scores meet, no rematch while avoidable, byes once."""

from __future__ import annotations

import itertools
import math
import random

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baloot.tournaments import (
    BYE,
    Pairing,
    bracket_order,
    knockout_first_round,
    knockout_next_round,
    swiss_pairings,
    swiss_round_count,
)


def rematch_free_exists(teams: list[int], met: set[frozenset[int]], had_bye: set[int]) -> bool:
    """Independently: is there a pairing of ``teams`` (a bye to a team without one if odd) with no rematch?"""
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(teams)
    graph.add_edges_from((a, b) for a, b in itertools.combinations(teams, 2) if frozenset((a, b)) not in met)
    if len(teams) % 2:
        graph.add_edges_from((BYE, t) for t in teams if t not in had_bye)
    return len(nx.max_weight_matching(graph, maxcardinality=True)) == (len(teams) + 1) // 2


def play_swiss(n: int, rounds: int, rng: random.Random) -> list[tuple[list[Pairing], bool]]:
    """A Swiss tournament of ``n`` teams with random results; each round and whether it could avoid rematches."""
    teams = list(range(1, n + 1))
    scores = dict.fromkeys(teams, 0.0)
    met: set[frozenset[int]] = set()
    had_bye: set[int] = set()
    played = []
    for _ in range(rounds):
        ranking = sorted(teams, key=lambda t: (-scores[t], t))
        avoidable = rematch_free_exists(teams, met, had_bye)
        tables = swiss_pairings(ranking, scores, met, had_bye)
        played.append((tables, avoidable))
        for table in tables:
            if table.bye:
                assert table.first not in had_bye or len(had_bye) == n
                had_bye.add(table.first)
                scores[table.first] += 1
                continue
            met.add(frozenset((table.first, table.second)))
            outcome = rng.choice((0.0, 0.5, 1.0))
            scores[table.first] += outcome
            scores[table.second] += 1 - outcome
    return played


@settings(max_examples=40, deadline=None)
@given(n=st.integers(min_value=16, max_value=40), seed=st.integers(0, 2**32))
def test_no_rematch_while_avoidable_and_byes_once(n: int, seed: int) -> None:
    rounds = math.ceil(math.log2(n))
    byes: list[int] = []
    met: set[frozenset[int]] = set()
    for tables, avoidable in play_swiss(n, rounds, random.Random(seed)):
        pairs = {frozenset((t.first, t.second)) for t in tables if not t.bye}
        assert avoidable, "16+ teams over ceil(log2) rounds can always avoid rematches"
        assert not pairs & met
        met |= pairs
        seen = [t for table in tables for t in (table.first, table.second) if t != BYE]
        assert sorted(seen) == list(range(1, n + 1)), "every team plays exactly once a round"
        byes += [table.first for table in tables if table.bye]
        assert len([table for table in tables if table.bye]) == n % 2
    assert len(byes) == len(set(byes)), "a bye at most once per team"


@settings(max_examples=40, deadline=None)
@given(n=st.integers(min_value=2, max_value=24), rounds=st.integers(1, 8), seed=st.integers(0, 2**32))
def test_rematch_only_when_unavoidable(n: int, rounds: int, seed: int) -> None:
    met: set[frozenset[int]] = set()
    for tables, avoidable in play_swiss(n, rounds, random.Random(seed)):
        pairs = {frozenset((t.first, t.second)) for t in tables if not t.bye}
        if avoidable:
            assert not pairs & met
        met |= pairs


def test_equal_scores_meet_top_half_against_bottom_half() -> None:
    teams = list(range(1, 9))
    scores = {1: 1.0, 2: 1.0, 3: 1.0, 4: 1.0, 5: 0.0, 6: 0.0, 7: 0.0, 8: 0.0}
    tables = swiss_pairings(teams, scores, {frozenset((1, 5)), frozenset((2, 6)), frozenset((3, 7)),
                                            frozenset((4, 8))}, set())
    assert [(t.first, t.second) for t in tables] == [(1, 3), (2, 4), (5, 7), (6, 8)]


def test_score_groups_when_the_standing_is_not_sorted_by_points() -> None:
    """A standing led by the duplicate rating interleaves the scores: the groups are still the round
    points, ordered within by the standing (before, each run of equal scores was its own group)."""
    ranking = [5, 1, 6, 2, 7, 3, 8, 4]  # rating order; 1-4 won round 1, 5-8 lost
    scores = {1: 1.0, 2: 1.0, 3: 1.0, 4: 1.0, 5: 0.0, 6: 0.0, 7: 0.0, 8: 0.0}
    met = {frozenset((1, 5)), frozenset((2, 6)), frozenset((3, 7)), frozenset((4, 8))}
    tables = swiss_pairings(ranking, scores, met, set())
    assert [(t.first, t.second) for t in tables] == [(1, 3), (2, 4), (5, 7), (6, 8)]


def test_odd_group_floats_its_lowest_team_down() -> None:
    teams = [1, 2, 3, 4, 5, 6]
    scores = {1: 2.0, 2: 2.0, 3: 2.0, 4: 1.0, 5: 1.0, 6: 1.0}
    tables = swiss_pairings(teams, scores, set(), set())
    assert {frozenset((t.first, t.second)) for t in tables} == {frozenset((1, 2)), frozenset((3, 4)),
                                                               frozenset((5, 6))}


def test_bye_to_lowest_team_without_one() -> None:
    tables = swiss_pairings([1, 2, 3, 4, 5], dict.fromkeys(range(1, 6), 0.0), set(), {5})
    assert tables[-1] == Pairing(2, 4, BYE)


def test_round_count_and_refusals() -> None:
    assert [swiss_round_count(n) for n in (2, 3, 8, 9, 16, 1024)] == [1, 2, 3, 4, 4, 10]
    with pytest.raises(ValueError):
        swiss_pairings([1], {1: 0.0}, set(), set())
    with pytest.raises(ValueError):
        swiss_pairings([1, 1], {1: 0.0}, set(), set())


def test_knockout_byes_to_top_seeds_and_bracket() -> None:
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    first = knockout_first_round([10, 20, 30, 40, 50, 60])  # six teams: seeds 1 and 2 have byes
    assert [(p.first, p.second) for p in first] == [(10, BYE), (40, 50), (20, BYE), (30, 60)]
    second = knockout_next_round(first, {1: 50, 3: 30})
    assert [(p.first, p.second) for p in second] == [(10, 50), (20, 30)]
    final = knockout_next_round(second, {0: 10, 1: 30})
    assert [(p.first, p.second) for p in final] == [(10, 30)]
    with pytest.raises(ValueError):
        knockout_next_round(final, {0: 10})
