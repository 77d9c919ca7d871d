"""The duplicate rating (baloot/tournaments/strength.py): par removes what the cards gave, the
least-squares fit removes the opponents' strength."""

from __future__ import annotations

import pytest

from baloot.tournaments import DealResult
from baloot.tournaments.strength import duplicate_rating, massey, par_deviations


def test_par_removes_what_the_cards_gave() -> None:
    # one deal, four teams on side 0: the cards are worth +40 to side 0; team 1 made 10 more than par
    results = [DealResult(1, 0, team, 0, diff) for team, diff in ((1, 50), (2, 40), (3, 35), (4, 35))]
    deviations = {r.team: d for r, d in par_deviations(results)}
    assert deviations == {1: 10.0, 2: 0.0, 3: -5.0, 4: -5.0}
    assert par_deviations([DealResult(1, 0, 9, 1, 80)]) == []  # held at one table: compares nothing


def test_a_gahwa_is_clipped() -> None:
    results = [DealResult(1, 0, 1, 0, 152), DealResult(1, 0, 2, 0, 0)]
    assert {r.team: d for r, d in par_deviations(results, clip=60)} == {1: 60, 2: -60}


def test_massey_recovers_ratings_and_takes_out_the_opponents() -> None:
    truth = {1: 3.0, 2: 1.0, 3: -1.0, 4: -3.0}
    games = [(a, b, truth[a] - truth[b], 4) for a, b in ((1, 2), (3, 4), (1, 3), (2, 4), (1, 4))]
    got = massey(list(truth), games)
    assert got == pytest.approx(truth)


def test_duplicate_rating_takes_out_the_cards_and_the_opponents() -> None:
    """Results = the difference in strength + what the cards gave (the same at every table): the rating
    finds the strengths, whoever met whom (8 teams, 3 rounds: enough tables for every comparison)."""
    truth = {1: 9.0, 2: 6.0, 3: 4.0, 4: 1.0, 5: 0.0, 6: -3.0, 7: -7.0, 8: -10.0}
    rounds = {1: [(1, 2), (3, 4), (5, 6), (7, 8)], 2: [(1, 3), (2, 4), (5, 7), (6, 8)],
              3: [(1, 5), (2, 6), (3, 7), (4, 8)]}
    results, opponents = [], {}
    for round_no, pairs in rounds.items():
        for hand in range(4):
            cards = 30 if hand % 2 else -20  # what the deck gives seats 0 and 2 on this deal
            for table, (a, b) in enumerate(pairs):
                side = table % 2
                diff = int(truth[a] - truth[b]) + (cards if side == 0 else -cards)
                results += [DealResult(round_no, hand, a, side, diff), DealResult(round_no, hand, b, 1 - side, -diff)]
                opponents[(round_no, a)], opponents[(round_no, b)] = b, a
    rating = duplicate_rating(list(truth), results, opponents)
    assert rating == pytest.approx({t: v - sum(truth.values()) / 8 for t, v in truth.items()}, abs=1e-6)
    # without par the cards stay in: the raw results rank the teams wrongly here
    raw = duplicate_rating(list(truth), results, opponents, duplicated=False)
    assert raw != pytest.approx(rating, abs=0.5)
