"""Every AI level claims Sawa whenever it is legal (R12), and the hard level's rollouts handle it."""

from __future__ import annotations

import random

import pytest
from engine_helpers import play, sun_by_p1
from test_engine_sawa import SUN_TOP, SUN_TOP_TRICKS

from baloot import ActionType, Hand, Phase, Rules, seat_view
from baloot.ai import LEVELS, make_player
from baloot.ai.card_play import CardChooser
from baloot.ai.rollout import play_out
from baloot.engine.actions import SAWA_ACTIONS
from baloot.engine.match import shuffled_deck


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_claims_at_a_certain_position(level: str) -> None:
    hand = sun_by_p1(SUN_TOP, "QH")
    play(hand, SUN_TOP_TRICKS)
    view = seat_view(hand, 0)
    assert SAWA_ACTIONS[0] in view.legal
    assert make_player(level, budget_ms=5.0).choose(view, random.Random(1)) is SAWA_ACTIONS[0]


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_claims_whenever_it_may_in_random_hands(level: str) -> None:
    """Four seats of ``level`` play seeded hands; at every decision where Sawa is legal it is chosen."""
    rng = random.Random(12)
    players = [make_player(level, budget_ms=1.0) for _ in range(4)]
    offered = 0
    hands = 6 if level == "hard" else 60
    for i in range(hands):
        hand = Hand(i % 4, shuffled_deck(rng), Rules(), (0, 0))
        while hand.phase is not Phase.FINISHED:
            view = seat_view(hand, hand.to_move)
            action = players[hand.to_move].choose(view, rng)
            assert action in view.legal
            if SAWA_ACTIONS[hand.to_move] in view.legal:
                offered += 1
                assert action is SAWA_ACTIONS[hand.to_move], (level, view.hand)
            hand.apply(action)
    assert offered > 0, level


def test_rollouts_claim_and_end_the_hand() -> None:
    hand = sun_by_p1(SUN_TOP, "QH")
    play(hand, SUN_TOP_TRICKS)
    play_out(hand, CardChooser())
    assert hand.finished and hand.sawa_by == 0
    assert hand.score == (44, 0)


def test_rollouts_without_sawa_play_every_card() -> None:
    hand = sun_by_p1(SUN_TOP, "QH", Rules(sawa=False))
    play(hand, SUN_TOP_TRICKS)
    play_out(hand, CardChooser())
    assert hand.finished and hand.sawa_by is None
    assert sum(1 for a in hand.actions if a.type is ActionType.PLAY) == 32


def test_arena_counts_claims_per_side(capsys: pytest.CaptureFixture[str]) -> None:
    from baloot.tools.arena import Tally, main, play_deal_pairs

    tally = play_deal_pairs("normal", "random", 0, 20, seed=5, budget_ms=None)
    assert sum(tally.sawa) > 0
    assert sum(tally.sawa) <= len(tally.hand_diffs)
    both = Tally()
    both.merge(tally)
    both.merge(tally)
    assert both.sawa == [2 * tally.sawa[0], 2 * tally.sawa[1]]
    assert main(["--a", "normal", "--b", "random", "--hands", "20", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert f"Sawa claims (R12): A {tally.sawa[0]}, B {tally.sawa[1]} (in 40 hands)" in out
