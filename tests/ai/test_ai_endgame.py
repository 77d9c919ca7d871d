"""The hard level's exact endgame: on random positions with three tricks or fewer
left, the mask search equals a brute-force minimax through the engine itself (R5 legality by
``Hand.legal_actions``, R7 score by ``Hand.result``)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baloot import Hand, Phase, Rules, seat_view
from baloot.ai import make_player
from baloot.ai.endgame import Endgame, leaf_value
from baloot.ai.hard import HardPlayer
from baloot.engine.match import shuffled_deck

RULES = [Rules(), Rules(projects_multiply_fully=True, baloot_stays_with_holder=True)]


def brute(hand: Hand, team: int) -> float:
    """Minimax over every legal action of every seat, through the engine."""
    if hand.phase is not Phase.PLAYING:
        return leaf_value(hand, team)
    values = []
    for action in hand.legal_actions():
        child = hand.clone()
        child.apply(action)
        values.append(brute(child, team))
    return max(values) if hand.to_move & 1 == team else min(values)


def endgame_position(seed: int, tricks_left: int) -> Hand | None:
    """A hand bid, doubled and played by normal and random seats until ``tricks_left`` remain."""
    rng = random.Random(seed)
    hand = Hand(rng.randrange(4), shuffled_deck(rng), RULES[seed % 2], (120, 30) if seed % 3 == 0 else (0, 0))
    players = [make_player("normal"), make_player("random")] * 2
    stop_in_trick = rng.randrange(4)
    while hand.phase is not Phase.FINISHED:
        if hand.phase is Phase.PLAYING and hand.trick_no == 8 - tricks_left and len(hand.trick) == stop_in_trick:
            return hand
        hand.apply(players[hand.to_move].choose(seat_view(hand, hand.to_move), rng))
    return None


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), tricks_left=st.integers(1, 3), team=st.integers(0, 1))
def test_endgame_value_is_the_engine_minimax(seed: int, tricks_left: int, team: int) -> None:
    hand = endgame_position(seed, tricks_left)
    if hand is None:  # thrown in
        return
    assert Endgame(hand, team).value(hand) == pytest.approx(brute(hand, team))


def test_endgame_refuses_a_position_before_projects_are_settled() -> None:
    hand = Hand(0, shuffled_deck(random.Random(3)), Rules(), (0, 0))
    with pytest.raises(ValueError, match="after the second trick"):
        Endgame(hand, 0)


def test_hard_with_the_endgame_plays_legal_cards_to_the_end() -> None:
    rng = random.Random(5)
    hard = HardPlayer(budget_ms=1e9, max_samples=4)
    for seed in range(6):
        hand = Hand(seed % 4, shuffled_deck(random.Random(seed)), Rules(), (0, 0))
        while hand.phase is not Phase.FINISHED:
            hand.apply(hard.choose(seat_view(hand, hand.to_move), rng))  # raises on an illegal action
