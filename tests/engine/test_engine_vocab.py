"""The engine's typed vocabulary: Contract, Seat, CardMask, the bidding steps."""

from __future__ import annotations

import json
import random

from baloot import ALL_CARDS, Contract, Hand, Match, Phase, Rules, replay_summary
from baloot.engine.bidding import _APPLY_BY_STAGE, Bidding, Outcome, Stage


def test_contract_values_are_the_r10_strings() -> None:
    assert [c.value for c in Contract] == ["sun", "hokum"]
    assert isinstance(Contract.SUN, str) and f"{Contract.SUN}_hands" == "sun_hands"  # string uses keep working
    assert Contract("hokum") is Contract.HOKUM
    assert json.dumps({"contract": Contract.HOKUM}) == '{"contract": "hokum"}'


def test_every_bidding_stage_has_its_step() -> None:
    """R3: Bidding.apply dispatches on the stage; one step per Stage value, in order."""
    assert len(_APPLY_BY_STAGE) == len(Stage)
    assert _APPLY_BY_STAGE[Stage.ROUND1_B] is _APPLY_BY_STAGE[Stage.ROUND1_C] is Bidding._round1_earlier
    assert _APPLY_BY_STAGE[Stage.ROUND2] is _APPLY_BY_STAGE[Stage.ROUND3] is Bidding._round2


def test_hands_carry_a_contract_or_none() -> None:
    """R3: a contract is a Contract once bidding makes one; None while bidding and when thrown in."""
    rng = random.Random(3)
    seen: set[object] = set()
    rules = Rules(kawesh=True, third_round_on_ace=True)
    for n in range(200):
        match = Match(rules, n % 4)
        hand = match.deal(rng)
        assert hand.contract is None and hand.bidding.contract is None
        while not hand.finished:
            legal = hand.legal_actions()
            passes = [a for a in legal if a.type.value == "pass"]
            if hand.phase is Phase.BIDDING and passes and rng.random() < 0.8:
                match.apply(passes[0])  # thrown-in hands (R3.2) come now and then
            else:
                match.apply(legal[rng.randrange(len(legal))])
            if hand.phase is Phase.BIDDING:
                assert hand.contract is None
        if hand.outcome is Outcome.CONTRACT:
            assert isinstance(hand.contract, Contract) and hand.contract is hand.bidding.contract
            assert hand.sun == (hand.contract is Contract.SUN)
            assert (hand.trump_suit is None) == (hand.contract is Contract.SUN)
        else:
            assert hand.contract is None and not hand.sun
        seen.add(hand.contract)
        summary = json.loads(json.dumps(replay_summary(match)))
        assert summary["hands"][0]["contract"] == (None if hand.contract is None else hand.contract.value)
    assert seen == {None, Contract.SUN, Contract.HOKUM}


def test_a_hand_dealt_from_a_list_of_cards_types_its_masks() -> None:
    hand = Hand(0, ALL_CARDS)
    assert all(isinstance(mask, int) for mask in hand.hands)
    assert sum(mask.bit_count() for mask in hand.hands) == 20
