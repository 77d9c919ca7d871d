"""AI players never read hidden information.

Positions come from random games. For each, a different full deal is built
that gives the seat exactly the same view (the other hands' hidden cards are
swapped consistently with it): the views must be equal and the AI, with the
same RNG seed, must choose the same action. The deal sampler that builds
those deals is the hard level's own, so this also checks that it reads only
the view.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baloot import Hand, Phase, Rules, SeatView, seat_view
from baloot.ai import make_player
from baloot.ai.deal_sampler import sample_hand
from baloot.ai.hard import HardPlayer
from baloot.ai.player import Player
from baloot.engine.match import shuffled_deck

RULES = [Rules(), Rules(ashkal_on_ace=True, ashkal_round_two=True, third_round_on_ace=True, kawesh=True)]


def position(seed: int, steps: int) -> tuple[Hand, SeatView]:
    """A random position: ``steps`` actions into a hand played by normal and random seats."""
    rng = random.Random(seed)
    rules = RULES[seed % 2]
    while True:
        hand = Hand(rng.randrange(4), shuffled_deck(rng), rules, (120, 30) if seed % 3 == 0 else (0, 0))
        players = [make_player("normal"), make_player("random")] * 2
        for _ in range(steps):
            if hand.phase == Phase.FINISHED:
                break
            hand.apply(players[hand.to_move].choose(seat_view(hand, hand.to_move), rng))
        if hand.phase != Phase.FINISHED:
            return hand, seat_view(hand, hand.to_move)
        steps //= 2


def players() -> dict[str, Player]:
    return {
        "easy": make_player("easy"),
        "normal": make_player("normal"),
        "hard": HardPlayer(budget_ms=1e9, max_samples=3),
    }


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), steps=st.integers(0, 50), swap_seed=st.integers(0, 10**9))
def test_swapping_hidden_cards_changes_nothing_the_ai_sees_or_does(seed: int, steps: int, swap_seed: int) -> None:
    hand, view = position(seed, steps)
    other = sample_hand(view, random.Random(swap_seed))
    assert other is not None, "a deal consistent with the view always exists (the real one)"
    seat = view.seat
    assert other.hands[seat] == hand.hands[seat]
    swapped = seat_view(other, seat)
    assert swapped == view
    for name, player in players().items():
        first = player.choose(view, random.Random(seed))
        again = player.choose(swapped, random.Random(seed))
        assert first == again, name
        assert first in view.legal


def test_swapped_deals_really_differ() -> None:
    """The swap is not a no-op: hidden cards do move between the other seats."""
    moved = 0
    for seed in range(40):
        hand, view = position(seed, 30)
        other = sample_hand(view, random.Random(seed + 1))
        assert other is not None
        moved += any(other.hands[s] != hand.hands[s] for s in range(4) if s != view.seat)
    assert moved >= 30


def test_a_hidden_project_is_sampled_below_the_shown_one_it_lost_to() -> None:
    """R6.2: seats 1 and 2 both announced a Fifty in Sun and only seat 1's is shown, so seat 2's lost the
    comparison; the sampler must give seat 2 a weaker Fifty (found by hypothesis: 4 deals in 100 failed)."""
    _, view = position(4847, 44)
    assert dict(view.announced)[2] and 2 not in dict(view.declared) and 1 in dict(view.declared)
    for seed in range(100):
        sample = sample_hand(view, random.Random(seed))
        assert sample is not None and seat_view(sample, view.seat) == view
