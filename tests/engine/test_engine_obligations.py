"""R5.1/R5.2 in one place: the legal-card mask and the refusal reasons agree.

``baloot.engine.play.obligations`` is the one definition of the play obligations;
``Hand.legal_actions`` and the refusal a player reads both derive from it.
Over many random states (hypothesis seeds random games under random rules, at
every card play) this checks that every card outside the legal mask has a
refusal reason, that no card inside it has one, that the reason names an
obligation that really applies (R5.1/R5.2), and that ``apply``
refuses exactly those cards with exactly that reason.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baloot import Action, ActionType, Hand, IllegalActionError, Phase, Rules
from baloot.engine.cards import ALL_CARDS, HIGHER_PLAIN, NO_TRUMP, SUIT_MASK, TRUMP_ORDER
from baloot.engine.error_codes import ErrorCode
from baloot.engine.play import (
    BEAT_TRUMP,
    FOLLOW_SUIT,
    HIGHER_TRUMP_NEEDED,
    LOCKED_LEAD,
    MUST_TRUMP,
    NOT_HELD,
    obligations,
    refusal,
    refusal_code,
)

RULES = st.builds(Rules, declarer_leads=st.booleans(), ashkal_round_two=st.booleans(), kawesh=st.booleans())


def _plays_of(legal: list[Action]) -> int:
    mask = 0
    for action in legal:
        if action.type is ActionType.PLAY:
            assert action.card is not None
            mask |= action.card.bit
    return mask


def _stronger_trump(card: int, than: int) -> bool:
    return TRUMP_ORDER[card & 7] > TRUMP_ORDER[than & 7]


def _check_reason(hand: Hand, seat: int, card: int, code: ErrorCode) -> None:
    """The reason names an R5 obligation that holds in this state (independent reading)."""
    held = hand.hands[seat]
    trump = hand.trump
    trick = hand.trick
    suit = card >> 3
    partner_winning = bool(trick) and (hand.winner_seat - seat) & 1 == 0
    if code == NOT_HELD:
        assert not held >> card & 1
        return
    assert held >> card & 1
    if code == LOCKED_LEAD:
        assert not trick and hand.locked and suit == trump and held & ~SUIT_MASK[trump]
        return
    assert trick, code
    led_suit = trick[0] >> 3
    if code == FOLLOW_SUIT:
        assert suit != led_suit and held & SUIT_MASK[led_suit]
        return
    assert trump != NO_TRUMP, "Sun (R5.1) has no duty beyond following suit"
    if code == BEAT_TRUMP:
        assert led_suit == trump == suit and not partner_winning
        assert not _stronger_trump(card, hand.best)
        assert any(_stronger_trump(c, hand.best) for c in range(trump * 8, trump * 8 + 8) if held >> c & 1)
        return
    assert led_suit != trump and not held & SUIT_MASK[led_suit]
    if code == MUST_TRUMP:
        assert suit != trump and held & SUIT_MASK[trump]
        if partner_winning:
            ekka = not HIGHER_PLAIN[trick[0]] & ~hand.played
            assert len(trick) == 2 and not ekka
        else:
            assert hand.best >> 3 != trump
        return
    assert code == HIGHER_TRUMP_NEEDED
    assert not partner_winning and hand.best >> 3 == trump
    assert suit != trump or not _stronger_trump(card, hand.best)
    return


def _check_state(hand: Hand) -> None:
    seat = hand.to_move
    held = hand.hands[seat]
    legal = _plays_of(hand.legal_actions())
    follow, follow_code, legal_from_rule, legal_code = obligations(hand, seat)
    assert legal == legal_from_rule
    assert legal and legal & follow == legal and follow & held == follow
    assert (follow_code is None) == (follow == held)
    assert (legal_code is None) == (legal == follow)
    for card in range(32):
        code = refusal_code(hand, seat, card)
        error = refusal(hand, seat, card)
        if legal >> card & 1:
            assert code is None and error is None
            continue
        assert code is not None and error is not None and str(error), (card, hand.actions)
        assert error.code == code
        _check_reason(hand, seat, card, code)
        with pytest.raises(IllegalActionError) as info:
            hand.apply(Action.play(seat, ALL_CARDS[card]))
        assert str(info.value) == str(error)
        assert (info.value.code, info.value.params) == (code, error.params)


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rules=RULES)
def test_every_refused_card_has_a_reason_and_no_legal_card_has_one(seed: int, rules: Rules) -> None:
    rng = random.Random(seed)
    deck = list(ALL_CARDS)
    plays = 0
    for n in range(4):
        rng.shuffle(deck)
        hand = Hand(n, deck, rules, rng.choice([(0, 0), (120, 40)]))
        while hand.phase is not Phase.FINISHED:
            if hand.phase is Phase.PLAYING:
                _check_state(hand)
                plays += 1
            legal = hand.legal_actions()
            hand.apply(legal[rng.randrange(len(legal))])
    assert plays == 0 or plays >= 32


def test_every_reason_is_met_over_seeded_games() -> None:
    """Seeded random games reach every R5 reason (so the property above is not vacuous)."""
    rng = random.Random(2024)
    deck = list(ALL_CARDS)
    seen: set[str] = set()
    for n in range(300):
        rng.shuffle(deck)
        hand = Hand(n & 3, deck, Rules(), (0, 0))
        while hand.phase is not Phase.FINISHED:
            legal = hand.legal_actions()
            if hand.phase is Phase.PLAYING:
                seat = hand.to_move
                seen.update(
                    code for card in range(32) if (code := refusal_code(hand, seat, card)) is not None
                )
            # Prefer locked doubles so that R5.2's locked lead is met too.
            locked = [a for a in legal if a.locked]
            hand.apply(locked[0] if locked and rng.random() < 0.5 else legal[rng.randrange(len(legal))])
    assert seen == {NOT_HELD, LOCKED_LEAD, FOLLOW_SUIT, BEAT_TRUMP, HIGHER_TRUMP_NEEDED, MUST_TRUMP}


def test_a_hand_of_only_trumps_must_still_over_trump_an_opponent() -> None:
    """R5.2: clubs led, an opponent trumped with A♥; holding only 8♥ J♥ Q♥, only J♥ beats it.

    (A regression: "nothing but trumps" was once treated as "free to play any card".)
    """
    from dataclasses import dataclass

    from baloot.engine.cards import Card, mask_of
    from baloot.engine.error_codes import ErrorCode
    from baloot.engine.play import obligations

    @dataclass
    class State:
        hands: list[int]
        trump: int
        trick: list[int]
        best: int
        winner_seat: int
        played: int
        locked: bool

    cards = [Card.parse(c) for c in ("8H", "JH", "QH")]
    led, ace = Card.parse("8C").index, Card.parse("AH").index
    state = State([0, mask_of(cards), 0, 0], 1, [led, ace], ace, 0, 0, False)
    follow, follow_code, legal, legal_code = obligations(state, 1)
    assert follow == mask_of(cards) and follow_code is None
    assert legal == Card.parse("JH").bit and legal_code is ErrorCode.HIGHER_TRUMP
    # every trump beats a plain winner: all three are legal and nothing is refused
    state.best, state.trick = led, [led]
    state.winner_seat = 0
    assert obligations(state, 1)[2:] == (mask_of(cards), None)
