"""The duplicate rating (baloot/tournaments/strength.py): par removes what the cards gave, the
least-squares fit removes the opponents' strength."""

from __future__ import annotations

import pytest

from baloot.tournaments import DealResult, RoundOutcome, duplicate_standings, opponents_met, team_seats
from baloot.tournaments.standings import forfeited_deals
from baloot.tournaments.strength import CLIP, duplicate_rating, massey, par_deviations


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


ROUNDS = [[(1, 5), (2, 6), (3, 7), (4, 8)], [(1, 3), (2, 4), (5, 7), (6, 8)], [(1, 4), (2, 3), (5, 8), (6, 7)]]


def _forfeit_field() -> tuple[list[RoundOutcome], list[DealResult]]:
    """Eight teams, three rounds (:data:`ROUNDS`) of two deals, every deal level, except in round 3: team 1
    forfeits against team 4, and team 2 loses to team 3 by 2 a deal where the other tables were level."""
    outcomes, deals = [], []
    for round_no, tables in enumerate(ROUNDS, 1):
        for table_no, (a, b) in enumerate(tables):
            if (round_no, a) == (3, 1):
                outcomes.append(RoundOutcome(round_no, a, b, 0.0, 1.0, first_forfeit=True))
                continue
            side, _ = team_seats(table_no)
            diff = -2 if (round_no, a) == (3, 2) else 0
            outcomes.append(RoundOutcome(round_no, a, b, float(diff == 0), float(diff < 0), 2 * diff, -2 * diff))
            for board in (0, 1):
                deals += [DealResult(round_no, board, a, side, diff), DealResult(round_no, board, b, 1 - side, -diff)]
    return outcomes, deals


def test_a_forfeit_ranks_below_a_narrow_loss() -> None:
    """A team that forfeits a round is rated as if it lost every deal of it by the clip against an average
    team; an otherwise identical team that played and lost narrowly is placed above it. (Before, the forfeit
    compared no deal and team 1 kept the rating of its good round 1, above team 2's.)"""
    outcomes, deals = _forfeit_field()
    lines = duplicate_standings(list(range(1, 9)), outcomes, deals, deals_per_round=2)
    place = {line.team: line.place for line in lines}
    rating = {line.team: line.rating for line in lines}
    assert place[2] < place[1]
    assert rating[1] < -CLIP / 4 and rating[1] < rating[2]
    assert next(line for line in lines if line.team == 1).forfeits == 1


def test_a_forfeit_weighs_like_the_rounds_deals_and_gives_the_opponent_nothing() -> None:
    outcomes, deals = _forfeit_field()
    assert forfeited_deals(outcomes, deals, 4) == {(3, 1): 4.0}
    assert forfeited_deals(outcomes, deals) == {(3, 1): 2.0}  # a round to a target: the mean deals a table played
    uneven = [d for d in deals if not (d.round_no == 3 and d.team in (5, 8) and d.hand_no == 1)]
    assert forfeited_deals(outcomes, uneven) == {(3, 1): pytest.approx(5 / 3)}  # tables of 2, 1 and 2 deals
    teams = list(range(1, 9))
    met = opponents_met(outcomes)
    none = duplicate_rating(teams, deals, met)
    forfeited = duplicate_rating(teams, deals, met, forfeits={(3, 1): 2.0})
    assert forfeited[1] == pytest.approx((none[1] * 4 - CLIP * 2) / 6)  # 4 deals played, 2 forfeited
    assert forfeited[1] < -CLIP / 4 < none[1]
    # team 4, whose opponent forfeited, gets no row for that round, as for a bye: its rating is the same
    # whether the forfeit's table is listed or not
    bye = [o for o in outcomes if not (o.round_no == 3 and o.first == 1)]
    assert duplicate_rating(teams, deals, opponents_met(bye), forfeits={(3, 1): 2.0}) == \
        pytest.approx(forfeited, abs=1e-9)


def test_a_forfeit_moves_no_other_teams_rating() -> None:
    """The forfeit is averaged into the absent team's own rating after the fit: the teams it met before it
    left are not judged against a rating it earned by being absent (a least-squares row for the forfeit
    dragged its earlier, level opponents down with it), and its last opponent gains nothing."""
    outcomes, deals = _forfeit_field()
    teams = list(range(1, 9))
    met = opponents_met(outcomes)
    none = duplicate_rating(teams, deals, met)
    forfeited = duplicate_rating(teams, deals, met, forfeits={(3, 1): 2.0})
    assert {t: r for t, r in forfeited.items() if t != 1} == pytest.approx({t: r for t, r in none.items() if t != 1},
                                                                         abs=1e-9)
    assert duplicate_rating(teams, [], {}, forfeits={(3, 1): 2.0}) == {t: -float(CLIP) if t == 1 else 0.0
                                                                       for t in teams}
