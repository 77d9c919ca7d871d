"""AI players only ever choose legal actions, over many random hands."""

from __future__ import annotations

import random

import pytest

from baloot import Hand, Phase, Rules, seat_view
from baloot.ai import LEVELS, make_player
from baloot.engine.match import shuffled_deck

VARIANTS = [
    Rules(),
    Rules(ashkal_on_ace=True, ashkal_round_two=True, third_round_on_ace=True, kawesh=True),
    Rules(declarer_leads=True, trump_sequence_priority=True, projects_multiply_fully=True),
]


def play_hand(levels: list[str], seed: int, rules: Rules, match_score: tuple[int, int]) -> Hand:
    rng = random.Random(seed)
    players = [make_player(level, budget_ms=1.0) for level in levels]
    hand = Hand(seed % 4, shuffled_deck(rng), rules, match_score)
    while hand.phase != Phase.FINISHED:
        seat = hand.to_move
        view = seat_view(hand, seat)
        action = players[seat].choose(view, rng)
        assert action in view.legal, f"{levels[seat]} chose {action} not in {view.legal}"
        hand.apply(action)
    return hand


@pytest.mark.parametrize("level", [lv for lv in LEVELS if lv != "hard"])
def test_fast_levels_play_only_legal_actions(level: str) -> None:
    contracts = set()
    for seed in range(300):
        rules = VARIANTS[seed % len(VARIANTS)]
        score = (120, 40) if seed % 5 == 0 else (0, 0)  # R4: a Sun double is possible
        hand = play_hand([level, "random", level, "random"], seed, rules, score)
        contracts.add(hand.contract)
    assert {"sun", "hokum"} <= contracts


def test_normal_against_itself_finishes_with_scores() -> None:
    finished = 0
    for seed in range(200):
        hand = play_hand(["normal"] * 4, seed, Rules(), (0, 0))
        if hand.result is not None:
            finished += 1
            assert sum(hand.result.card_points) in (130, 162)
    assert finished > 100


def test_hard_plays_only_legal_actions_with_a_tiny_budget() -> None:
    contracts = set()
    for seed in range(24):
        rules = VARIANTS[seed % len(VARIANTS)]
        hand = play_hand(["hard", "normal", "hard", "random"], seed, rules, (0, 0))
        contracts.add(hand.contract)
    assert "hokum" in contracts
