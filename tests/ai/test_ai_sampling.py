"""The hard level's deductions and deal sampler.

Deductions must be sound (the real deal always satisfies them) and samples
must respect them: the seat's own cards, every card played and by whom, the
voids shown by failing to follow suit, and R5.2's trump obligations.
"""

from __future__ import annotations

import random

from baloot import Hand, Phase, Rules, SeatView, seat_view
from baloot.ai import make_player
from baloot.ai.deal_sampler import STOCK, sample_hand, sample_holdings
from baloot.ai.knowledge import infer
from baloot.engine.cards import BEATS, SUIT_MASK
from baloot.engine.match import shuffled_deck


def position(seed: int, steps: int) -> tuple[Hand, SeatView]:
    """A random position ``steps`` actions into a hand of normal and random seats."""
    rng = random.Random(seed)
    while True:
        hand = Hand(rng.randrange(4), shuffled_deck(rng), Rules(third_round_on_ace=True, ashkal_round_two=True))
        players = [make_player("normal"), make_player("random")] * 2
        for _ in range(steps):
            if hand.phase == Phase.FINISHED:
                break
            hand.apply(players[hand.to_move].choose(seat_view(hand, hand.to_move), rng))
        if hand.phase != Phase.FINISHED:
            return hand, seat_view(hand, hand.to_move)
        steps //= 2


def positions(count: int, seed: int = 0) -> list[tuple[Hand, SeatView]]:
    rng = random.Random(seed)
    return [position(rng.randrange(10**9), rng.randrange(10, 45)) for _ in range(count)]


def test_deductions_are_sound_and_samples_respect_them() -> None:
    failures = trials = 0
    voids_checked = 0
    for hand, view in positions(250):
        k = infer(view)
        for s in range(4):
            assert hand.hands[s] & ~k.allowed[s] == 0, "the real hand breaks a deduction"
            assert k.known[s] & ~hand.hands[s] == 0, "a 'known' card is not really held"
        for trial in range(5):
            trials += 1
            sample = sample_hand(view, random.Random(trial), k, tries=1)
            if sample is None:
                failures += 1
                continue
            assert sample.hands[k.seat] == hand.hands[k.seat]
            assert sample.actions == hand.actions  # same history, so same cards played by the same seats
            for s in range(4):
                assert sample.hands[s] & ~k.allowed[s] == 0
                for suit in range(4):
                    if k.void(s, suit):
                        voids_checked += 1
                        assert not sample.hands[s] & SUIT_MASK[suit]
    # Rejections left: a declarer's other possible projects (R6.1), the round-one taker's trump (R2.4),
    # and declarations known only by kind (R6.2: the losing team's cards are never shown).
    assert failures < 0.08 * trials
    assert voids_checked > 100


def test_a_seat_that_did_not_follow_gets_no_card_of_that_suit() -> None:
    """R5: failing to follow suit shows a void; samples never give that suit back."""
    found = 0
    for _hand, view in positions(200, seed=3):
        for trick in view.tricks:
            led = trick.cards[0][1].suit
            for s, card in trick.cards[1:]:
                if card.suit != led and s != view.seat:
                    found += 1
                    for trial in range(3):
                        sample = sample_hand(view, random.Random(trial))
                        assert sample is not None
                        assert not sample.hands[s] & SUIT_MASK[led]
    assert found > 50


def test_r52_not_trumping_an_opponents_card_shows_no_trumps() -> None:
    """R5.2: in Hokum, a player who neither follows nor trumps while an opponent
    wins with a plain card holds no trump; samples give them none."""
    found = 0
    for _hand, view in positions(300, seed=5):
        trump = view.trump
        if trump is None:
            continue
        for trick in view.tricks:
            (leader, led), rest = trick.cards[0], trick.cards[1:]
            if led.suit == trump:
                continue
            winner, best = leader, led
            for s, card in rest:
                opponent_winning = (winner - s) & 1 == 1
                if (
                    card.suit not in (led.suit, trump)
                    and opponent_winning
                    and best.suit != trump
                    and s != view.seat
                ):
                    found += 1
                    for trial in range(3):
                        sample = sample_hand(view, random.Random(trial))
                        assert sample is not None
                        assert not sample.hands[s] & SUIT_MASK[trump]
                if BEATS[(trump * 32 + best.index) * 32 + card.index]:
                    winner, best = s, card
    assert found >= 2


def test_bidding_samples_keep_the_up_card_on_the_table() -> None:
    rng = random.Random(11)
    for _ in range(50):
        hand = Hand(rng.randrange(4), shuffled_deck(rng))
        view = seat_view(hand, hand.to_move)
        k = infer(view)
        holdings = sample_holdings(k, rng)
        assert holdings is not None
        up = view.up_card
        assert up is not None
        assert all(not h & up.bit for h in holdings)
        assert [h.bit_count() for h in holdings] == [5, 5, 5, 5, 11]
        assert holdings[STOCK] & hand.hands[k.seat] == 0
