"""The quick-match matcher (baloot/tables/matching.py): balanced teams, nobody matched twice."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baloot.stats.rating import MODEL as RATING_MODEL
from baloot.tables import matching
from baloot.tables.matching import Entry, Player, balance_allowed, best_teams, find_matches, spread_allowed


def alone(user_id: int, mu: float = 25.0, at: float = 0.0, sigma: float = 5.0) -> Entry:
    return Entry((Player(user_id, mu, sigma),), at)


def pair(a: int, b: int, mu: float = 25.0, at: float = 0.0) -> Entry:
    return Entry((Player(a, mu, 5.0), Player(b, mu, 5.0)), at)


def test_the_model_is_the_ratings_model() -> None:
    assert (matching.MODEL.mu, matching.MODEL.sigma, matching.MODEL.beta) == (
        RATING_MODEL.mu, RATING_MODEL.sigma, RATING_MODEL.beta)


def test_four_alone_are_split_into_the_balanced_teams() -> None:
    # 35 and 15 together against 25 and 25 is even; 35 with 25 against 25 with 15 is not.
    queue = [alone(1, 35.0), alone(2, 25.0), alone(3, 15.0), alone(4, 25.0)]
    [match] = find_matches(queue, now=100.0)
    team0, team1 = {match.seats[0].user_id, match.seats[2].user_id}, {match.seats[1].user_id, match.seats[3].user_id}
    assert {frozenset(team0), frozenset(team1)} == {frozenset({1, 3}), frozenset({2, 4})}
    assert match.win_chance == pytest.approx(0.5, abs=1e-9)


def test_three_are_not_a_match_and_a_pair_stays_one_team() -> None:
    assert find_matches([alone(1), alone(2), alone(3)], now=0.0) == []
    [match] = find_matches([pair(1, 2, 30.0), alone(3, 30.0), alone(4, 30.0)], now=0.0)
    seat = {p.user_id: i for i, p in enumerate(match.seats)}
    assert seat[1] % 2 == seat[2] % 2  # partners sit across
    assert seat[3] % 2 == seat[4] % 2


def test_far_apart_players_wait_until_the_spread_has_widened() -> None:
    queue = [alone(1, 40.0, at=0.0), alone(2, 40.0, at=0.0), alone(3, 20.0, at=0.0), alone(4, 20.0, at=0.0)]
    # spread 800 points: refused at first, accepted once the anchor has waited long enough
    assert find_matches(queue, now=10.0) == []
    [match] = find_matches(queue, now=matching.OPEN_AFTER)
    assert match.win_chance == pytest.approx(0.5, abs=0.01)  # the strong are split up


def test_unbalanced_pairs_wait_for_the_balance_to_widen() -> None:
    queue = [pair(1, 2, 30.0, at=0.0), pair(3, 4, 22.0, at=0.0)]  # 320 points apart: within the early spread
    assert find_matches(queue, now=30.0) == []  # fits the spread at 30 s but the pairs are too uneven
    [match] = find_matches(queue, now=matching.OPEN_AFTER)
    assert abs(match.win_chance - 0.5) > matching.BALANCE_START


def test_the_schedule_widens_with_time() -> None:
    assert spread_allowed(0) == matching.SPREAD_START
    assert spread_allowed(10) < spread_allowed(20) < spread_allowed(matching.OPEN_AFTER) == float("inf")
    assert balance_allowed(0) == balance_allowed(matching.BALANCE_WIDENS_AFTER) == matching.BALANCE_START
    assert balance_allowed(matching.BALANCE_WIDENS_AFTER + 15) > matching.BALANCE_START
    assert balance_allowed(matching.OPEN_AFTER) == 0.5


def test_a_user_twice_in_the_queue_is_refused() -> None:
    with pytest.raises(ValueError):
        find_matches([alone(1), pair(2, 1)], now=0.0)
    with pytest.raises(ValueError):
        Entry((Player(1), Player(1)), 0.0)


def test_best_teams_is_the_most_balanced_split() -> None:
    entries = [alone(1, 30.0), alone(2, 28.0), alone(3, 22.0), alone(4, 20.0)]
    match = best_teams(entries)
    others = [best_teams([entries[0], e, *[x for x in entries[1:] if x is not e]]) for e in entries[1:]]
    assert all(abs(match.win_chance - 0.5) <= abs(o.win_chance - 0.5) + 1e-12 for o in others)


users = st.integers(min_value=1, max_value=60)


@st.composite
def queues(draw: st.DrawFn) -> list[Entry]:
    ids = draw(st.lists(users, unique=True, min_size=0, max_size=24))
    entries: list[Entry] = []
    i = 0
    while i < len(ids):
        mu = draw(st.floats(min_value=10.0, max_value=40.0))
        at = draw(st.floats(min_value=0.0, max_value=120.0))
        if i + 1 < len(ids) and draw(st.booleans()):
            entries.append(Entry((Player(ids[i], mu, 4.0), Player(ids[i + 1], mu + 1.0, 6.0)), at))
            i += 2
        else:
            entries.append(Entry((Player(ids[i], mu, draw(st.floats(min_value=1.0, max_value=8.4))),), at))
            i += 1
    return entries


@settings(max_examples=60, deadline=None)
@given(queues(), st.floats(min_value=0.0, max_value=200.0))
def test_no_player_is_matched_twice_and_every_match_fits_its_anchor(queue: list[Entry], later: float) -> None:
    now = 120.0 + later
    matches = find_matches(queue, now)
    players = [u for m in matches for u in m.user_ids]
    assert len(players) == len(set(players))  # never twice
    queued = {p.user_id for e in queue for p in e.players}
    assert set(players) <= queued
    for match in matches:
        assert len(set(match.user_ids)) == 4
        for entry in match.entries:  # a pair sits as one team
            if len(entry.players) == 2:
                a, b = (match.user_ids.index(p.user_id) for p in entry.players)
                assert a % 2 == b % 2
        anchor = min(match.entries, key=lambda e: (e.queued_at, e.key))
        waited = now - anchor.queued_at
        assert abs(match.win_chance - 0.5) <= balance_allowed(waited) + 1e-9
        assert match.spread <= spread_allowed(waited)
        # the teams chosen are the most balanced split of these players
        assert abs(match.win_chance - 0.5) <= abs(best_teams(match.entries).win_chance - 0.5) + 1e-12


@settings(max_examples=40, deadline=None)
@given(queues())
def test_everyone_long_waiting_is_matched_but_at_most_three_players(queue: list[Entry]) -> None:
    matches = find_matches(queue, now=1000.0)  # everyone has waited past OPEN_AFTER
    matched = {u for m in matches for u in m.user_ids}
    left = [e for e in queue if e.key not in matched]
    alone_left = sum(1 for e in left if len(e.players) == 1)
    pairs_left = sum(1 for e in left if len(e.players) == 2)
    # whatever is left cannot make four players of a legal shape
    assert not (pairs_left >= 2 or (pairs_left >= 1 and alone_left >= 2) or alone_left >= 4)
