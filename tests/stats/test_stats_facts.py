"""Per-hand facts and per-seat tallies from R10 records with known answers; periods."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from stats_helpers import gahwa_match, kaboot_match, three_hand_match

from baloot.engine.errors import RecordError
from baloot.stats import Period, match_facts, period_key, period_start, seat_tally
from baloot.stats.facts import server_tally
from baloot.storage.stats_rows import Tally


def test_kaboot_under_a_locked_double() -> None:
    facts = match_facts(kaboot_match())
    assert facts.winner == 0 and facts.score == (74, 0)
    (hand,) = facts.hands
    assert (hand.contract, hand.declarer, hand.level, hand.kaboot_team, hand.double_seat) == ("hokum", 0, 2, 0, 1)
    assert seat_tally(facts, 0) == Tally(matches=1, wins=1, hands=1, hands_won=1, bought=1, bought_made=1,
                                         hokum_hands=1, hokum_won=1, kaboots_for=1, points=74)
    assert seat_tally(facts, 1) == Tally(matches=1, hands=1, hokum_hands=1, kaboots_against=1, doubles=1)
    assert seat_tally(facts, 2).bought == 0 and seat_tally(facts, 2).kaboots_for == 1


def test_gahwa_chain_counts_each_raiser() -> None:
    facts = match_facts(gahwa_match())
    (hand,) = facts.hands
    assert (hand.double_seat, hand.triple_seat, hand.four_seat, hand.gahwa_seat) == (1, 0, 1, 0)
    declarer, doubler = seat_tally(facts, 0), seat_tally(facts, 1)
    assert (declarer.doubles, declarer.doubles_won, declarer.gahwas, declarer.gahwas_won) == (1, 1, 1, 1)
    assert (doubler.doubles, doubler.doubles_won, doubler.gahwas) == (1, 0, 0)
    assert declarer.points == 0  # a Gahwa hand scores nothing; it wins the match (R7, R8)
    assert server_tally(facts).gahwas == 1 and server_tally(facts).doubled_hands == 1


def test_thrown_in_hand_is_not_played_and_sun_hokum_split() -> None:
    facts = match_facts(three_hand_match())
    assert facts.winner == 1 and facts.score == (0, 60)
    assert [h.contract for h in facts.hands] == [None, "sun", "hokum"]
    assert seat_tally(facts, 3) == Tally(matches=1, wins=1, hands=2, hands_won=2, bought=1, bought_made=1,
                                         sun_hands=1, sun_won=1, hokum_hands=1, hokum_won=1, kaboots_for=1,
                                         points=60)
    assert seat_tally(facts, 0) == Tally(matches=1, hands=2, bought=1, sun_hands=1, hokum_hands=1,
                                         kaboots_against=1)
    assert server_tally(facts).hands == 2 and server_tally(facts).sun_hands == 1


def test_a_leaver_is_never_credited_with_the_win() -> None:
    facts = match_facts(three_hand_match())
    stayed, left = seat_tally(facts, 1), seat_tally(facts, 1, left_early=True)
    assert (stayed.wins, stayed.abandons) == (1, 0)
    assert (left.wins, left.abandons, left.matches, left.hands_won) == (0, 1, 1, 2)


def test_a_record_that_does_not_replay_is_refused() -> None:
    record = kaboot_match()
    record["hands"][0]["dealer"] = 7
    with pytest.raises(RecordError):
        match_facts(record)


def ts(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> float:
    return datetime(year, month, day, hour, minute, second, tzinfo=UTC).timestamp()


def test_weeks_start_on_monday_and_months_on_the_first_utc() -> None:
    sunday_night = ts(2024, 3, 3, 23, 59, 59)  # a Sunday
    monday = ts(2024, 3, 4)
    assert period_key(Period.WEEK, sunday_night) != period_key(Period.WEEK, monday)
    assert period_key(Period.WEEK, monday) == period_key(Period.WEEK, ts(2024, 3, 10, 23, 59))
    assert period_start(Period.WEEK, ts(2024, 3, 6, 12)) == monday
    assert period_key(Period.MONTH, ts(2024, 2, 29, 23, 59)) != period_key(Period.MONTH, ts(2024, 3, 1))
    assert period_start(Period.MONTH, ts(2024, 3, 31, 5)) == ts(2024, 3, 1)
    assert period_key(Period.ALL, 0.0) == period_key(Period.ALL, monday) == 0
    assert period_start(Period.ALL, monday) is None
