"""R8: a match of a fixed number of deals (the table option ``deals``, R9) — a tournament round of N boards.

The match ends after exactly N hands, thrown-in hands included (every table of a duplicate round plays
the same N decks), with the higher total, whatever the target; level totals play one more hand at a time.
"""

from __future__ import annotations

import random

import pytest

from baloot.engine.actions import ActionType
from baloot.engine.errors import GameOverError, NotationError
from baloot.engine.match import Match
from baloot.engine.records import match_from_record
from baloot.engine.rules import Rules


def throw_in(match: Match, rng: random.Random) -> None:
    """Deal a hand and pass it out (R3.2): thrown in, nobody scores."""
    hand = match.deal(rng)
    while not hand.finished:
        match.apply(next(a for a in hand.legal_actions() if a.type == ActionType.PASS))
    assert hand.result is None


def play_out(match: Match, rng: random.Random) -> None:
    """Deal a hand and play it with random legal actions, never a Gahwa, never a pass-out."""
    hand = match.deal(rng)
    while not hand.finished:
        actions = [a for a in hand.legal_actions() if a.type != ActionType.GAHWA]
        bids = [a for a in actions if a.type in (ActionType.HOKUM, ActionType.SUN)]
        match.apply(rng.choice(bids or actions))


def test_a_four_deal_match_ends_after_exactly_four_hands_thrown_in_counted() -> None:
    """A target of 1 is passed after the first scored hand, yet the match goes on: only the deals count;
    the thrown-in second hand is one of the four."""
    for seed in range(20):
        rng = random.Random(seed)
        match = Match(Rules(target=1, deals=4), seed % 4)
        play_out(match, rng)
        assert max(match.score) > 1 and not match.finished
        throw_in(match, rng)
        play_out(match, rng)
        assert not match.finished
        play_out(match, rng)
        if match.score[0] == match.score[1]:
            continue  # played off below
        assert match.finished and len(match.hands) == 4
        assert match.winner == (0 if match.score[0] > match.score[1] else 1)
        with pytest.raises(GameOverError):
            match.deal(rng)


def test_level_totals_after_the_deals_play_one_more_hand_until_they_differ() -> None:
    rng = random.Random(7)
    match = Match(Rules(deals=2), 0)
    throw_in(match, rng)
    throw_in(match, rng)
    assert len(match.hands) == 2 and match.score == [0, 0] and not match.finished and match.needs_deal
    throw_in(match, rng)  # still level: another hand
    assert not match.finished
    play_out(match, rng)
    assert match.finished and len(match.hands) == 4
    assert match.winner == (0 if match.score[0] > match.score[1] else 1)


def test_a_deals_match_replays_from_its_record_to_the_same_end() -> None:
    """R10: the record carries ``deals``; a match to the target leaves it out (its record unchanged)."""
    rng = random.Random(3)
    match = Match(Rules(deals=3), 1)
    while not match.finished:
        play_out(match, rng)
    record = match.to_record()
    assert record["rules"]["deals"] == 3
    again = match_from_record(record)
    assert (again.winner, again.score, len(again.hands)) == (match.winner, match.score, len(match.hands))
    assert "deals" not in Rules().to_json()
    assert Rules.from_json(Rules(deals=5).to_json()) == Rules(deals=5)


@pytest.mark.parametrize("bad", [-1, True, 2.5, "4"])
def test_a_bad_deals_option_is_refused(bad: object) -> None:
    with pytest.raises(NotationError):
        Rules(deals=bad)  # type: ignore[arg-type]
