"""Duplicate deals, matchpoints and standings."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from baloot.engine.cards import ALL_CARDS
from baloot.tournaments import (
    BYE,
    DealResult,
    RoundOutcome,
    deal_deck,
    duplicate_standings,
    first_dealer,
    matchpoints,
    opponents_met,
    standings,
    team_seats,
)


def test_same_seed_same_deals_and_new_seed_new_deals() -> None:
    assert deal_deck(7, 0) == deal_deck(7, 0)
    assert sorted(deal_deck(7, 3)) == sorted(ALL_CARDS)
    assert deal_deck(7, 0) != deal_deck(7, 1)
    assert deal_deck(7, 0) != deal_deck(8, 0)
    assert first_dealer(7) == 3 and first_dealer(8) == 0


def test_tables_alternate_sides() -> None:
    assert [team_seats(k) for k in range(4)] == [(0, 1), (1, 0), (0, 1), (1, 0)]


def test_matchpoints_compare_only_same_cards() -> None:
    # Round 1, deal 0: side 0 held by teams 1, 3, 5; side 1 by 2, 4, 6.
    results = [
        DealResult(1, 0, 1, 0, 50), DealResult(1, 0, 3, 0, 10), DealResult(1, 0, 5, 0, 10),
        DealResult(1, 0, 2, 1, -50), DealResult(1, 0, 4, 1, -10), DealResult(1, 0, 6, 1, -10),
        DealResult(1, 1, 1, 0, 0),  # deal 1 played at one table only: compares nothing
    ]
    mp = matchpoints(results)
    assert mp[1] == (2.0, 2)  # beat both
    assert mp[3] == (0.5, 2) and mp[5] == (0.5, 2)  # lost to 1, tied each other
    assert mp[2] == (0.0, 2) and mp[4] == (1.5, 2)


@given(st.lists(st.integers(-300, 300), min_size=2, max_size=12))
def test_matchpoints_share_the_total(diffs: list[int]) -> None:
    results = [DealResult(1, 0, team, 0, diff) for team, diff in enumerate(diffs, start=1)]
    mp = matchpoints(results)
    n = len(diffs)
    assert sum(got for got, _ in mp.values()) == n * (n - 1) / 2
    assert all(most == n - 1 for _, most in mp.values())
    best = max(range(n), key=lambda i: diffs[i])
    assert mp[best + 1][0] == max(got for got, _ in mp.values())


def test_standings_points_then_matchpoints_then_buchholz() -> None:
    # no rating given (a tournament without duplicate deals): round points lead
    teams = [1, 2, 3, 4, 5]
    outcomes = [
        RoundOutcome(1, 1, 2, 1.0, 0.0, 152, 80), RoundOutcome(1, 3, 4, 1.0, 0.0, 152, 100),
        RoundOutcome(1, 5, BYE, 1.0, 0.0),
        RoundOutcome(2, 1, 3, 1.0, 0.0, 152, 140), RoundOutcome(2, 5, 2, 0.5, 0.5, 100, 100),
        RoundOutcome(2, 4, BYE, 1.0, 0.0),
    ]
    mp = {1: (6.0, 8), 2: (2.0, 8), 3: (5.0, 8), 4: (3.0, 8), 5: (4.0, 8)}
    lines = standings(teams, outcomes, mp)
    assert [line.team for line in lines] == [1, 5, 3, 4, 2]
    assert [line.points for line in lines] == [2.0, 1.5, 1.0, 1.0, 0.5]
    assert lines[0].won == 2 and lines[0].played == 2 and lines[0].score_diff == 84
    assert lines[2].matchpoint_pct == 62.5 and lines[3].matchpoint_pct == 37.5
    assert lines[0].buchholz == 0.5 + 1.0  # met 2 (0.5) and 3 (1.0); byes count nothing


def test_equal_lines_share_a_place() -> None:
    lines = standings([1, 2, 3], [], {})
    assert [line.place for line in lines] == [1, 1, 1]
    assert [line.team for line in lines] == [1, 2, 3] and lines[0].matchpoint_pct == 50.0


def test_rating_leads_then_round_points() -> None:
    """The duplicate rating is the first key; equal ratings fall back to round points, then matchpoints."""
    outcomes = [RoundOutcome(1, 1, 2, 1.0, 0.0, 152, 80), RoundOutcome(1, 3, 4, 1.0, 0.0, 152, 100)]
    mp = {1: (1.0, 2), 2: (1.0, 2), 3: (1.0, 2), 4: (1.0, 2)}
    lines = standings([1, 2, 3, 4], outcomes, mp, rating={1: -2.0, 2: 4.0, 3: -2.0, 4: 0.0})
    assert [line.team for line in lines] == [2, 4, 1, 3]  # 2 lost its match but made more of the cards
    assert [line.rating for line in lines] == [4.0, 0.0, -2.0, -2.0]
    assert lines[2].score_diff > lines[3].score_diff  # 1 and 3: same rating, points, MP, Buchholz
    assert standings([1, 2, 3, 4], outcomes, mp, rating={}) == standings([1, 2, 3, 4], outcomes, mp)


def test_opponents_met_leaves_byes_out() -> None:
    outcomes = [RoundOutcome(1, 1, 2, 1.0, 0.0), RoundOutcome(1, 3, BYE, 1.0, 0.0), RoundOutcome(2, 3, 1, 0.0, 1.0)]
    assert opponents_met(outcomes) == {(1, 1): 2, (1, 2): 1, (2, 3): 1, (2, 1): 3}


def test_duplicate_standings_rank_the_play_not_the_cards() -> None:
    """One deal, two tables, the same cards (worth about 40 to seats 0 and 2). Team 1 (seats 0/2 at
    table 0) won its match by 30 where team 4 (seats 0/2 at table 1) made 50 with the same cards; team 2
    lost by 30 where team 3 lost by 50 with the same cards. Team 2 played its cards better than team 1
    and is placed above it, though it lost its match; round points first placed 1 above 2."""
    outcomes = [RoundOutcome(1, 1, 2, 1.0, 0.0, 30, 0), RoundOutcome(1, 3, 4, 0.0, 1.0, 0, 50)]
    deals = [DealResult(1, 0, 1, 0, 30), DealResult(1, 0, 2, 1, -30),
             DealResult(1, 0, 3, 1, -50), DealResult(1, 0, 4, 0, 50)]
    lines = duplicate_standings([1, 2, 3, 4], outcomes, deals)
    assert [line.team for line in lines] == [4, 2, 1, 3]
    assert lines[0].rating > 0 and lines[1].rating > 0 > lines[2].rating
    assert [line.points for line in lines] == [1.0, 0.0, 1.0, 0.0]
    old = standings([1, 2, 3, 4], outcomes, matchpoints(deals))
    assert [line.team for line in old] == [4, 1, 2, 3]  # the order before the rating led
