"""Bidding (R3), doubling (R4), the R9 bidding options and R11.1-R11.4, R11.9.

Unless said otherwise the dealer is seat 3, so p1 = 0, p2 = 1, p3 = 2, p4 = 3.
"""

from __future__ import annotations

import pytest
from engine_helpers import build_deck, fill_hands, legal_cards, new_hand, play, snapshot

from baloot import Action, ActionType, Hand, IllegalActionError, Match, Phase, Rules
from baloot.engine.bidding import Outcome
from baloot.engine.records import replay_summary
from baloot.engine.scoring import GAHWA

HANDS = fill_hands([("", ""), ("", ""), ("", ""), ("", "")])
# The up card: deck[20]. HANDS deal it to whoever holds it; build decks per taker below.
UP = "KD"  # not an Ace


def _hand(
    taker: int, up: str = UP, rules: Rules | None = None, dealer: int = 3, score: tuple[int, int] = (0, 0)
) -> Hand:
    """A deal in which ``taker`` will get the up card (the bidding must make it the taker)."""
    hands = fill_hands([((up if s == taker else ""), "") for s in range(4)])
    return Hand(dealer, build_deck(dealer, hands, up, taker), rules, score)


def _types(hand: Hand) -> set[str]:
    return {a.type.value for a in hand.legal_actions()}


# --- R3.1 round one --------------------------------------------------------------------


def test_r3_1_step_a_choices() -> None:
    """R3.1 step A: Pass/Hokum/Sun for all, Ashkal for p3 and p4 only; after a Hokum: Pass or Sun."""
    hand = _hand(0)
    assert _types(hand) == {"pass", "hokum", "sun"}
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match=r"R3\.1"):
        hand.apply(Action(0, ActionType.ASHKAL))
    assert snapshot(hand) == before
    play(hand, "0 pass")
    assert _types(hand) == {"pass", "hokum", "sun"}
    play(hand, "1 pass")
    assert _types(hand) == {"pass", "hokum", "sun", "ashkal"}
    play(hand, "2 hokum")
    assert _types(hand) == {"pass", "sun"}
    before = snapshot(hand)
    for bad in (ActionType.HOKUM, ActionType.ASHKAL):
        with pytest.raises(IllegalActionError, match=r"R3"):
            hand.apply(Action(3, bad))
        assert snapshot(hand) == before


def test_r3_1_sun_by_p1_ends_bidding_at_once() -> None:
    """R3.1: a Sun ends step A; with nobody earlier than p1 it stands at once."""
    hand = _hand(0)
    play(hand, "0 sun")
    assert hand.contract == "sun" and hand.taker == 0
    assert hand.phase == Phase.PLAYING  # no Sun double at 0:0 (R4, R11.1)
    assert hand.to_move == 0


def test_r3_1_step_b_earlier_sun_replaces_later_sun() -> None:
    """R3.1 step B: p3's Sun; p1 passes, p2 says Sun: p2 replaces p3 and takes; p4 never speaks."""
    hand = _hand(1)
    play(hand, "0 pass 1 pass 2 sun")
    assert hand.to_move == 0 and _types(hand) == {"pass", "sun"}
    play(hand, "0 pass")
    assert hand.to_move == 1 and _types(hand) == {"pass", "sun"}
    play(hand, "1 sun")
    assert hand.contract == "sun" and hand.taker == 1
    assert hand.up_card in {c.index for c in hand.hand_of(1)}


def test_r3_1_step_b_all_pass_sun_stands() -> None:
    """R3.1 step B: if every earlier player passes, X's Sun stands."""
    hand = _hand(3)
    play(hand, "0 pass 1 pass 2 pass 3 sun 0 pass 1 pass 2 pass")
    assert hand.contract == "sun" and hand.taker == 3


def test_r3_1_ashkal_partner_takes() -> None:
    """R3.1 Ashkal: a Sun in which the bidder's partner takes the up card (p3 -> p1)."""
    hand = _hand(0)
    play(hand, "0 pass 1 pass 2 ashkal 0 pass 1 pass")
    assert hand.contract == "sun" and hand.taker == 0
    assert len(hand.hand_of(0)) == 8 and hand.up_card in {c.index for c in hand.hand_of(0)}
    hand = _hand(1)
    play(hand, "0 pass 1 pass 2 pass 3 ashkal 0 pass 1 pass 2 pass")
    assert hand.taker == 1


def test_r3_1_ashkal_overcalled_by_earlier_sun() -> None:
    """R3.1 step B applies to an Ashkal: p1 says Sun and takes."""
    hand = _hand(0)
    play(hand, "0 pass 1 pass 2 ashkal 0 sun")
    assert hand.contract == "sun" and hand.taker == 0
    hand = _hand(1)
    play(hand, "0 pass 1 pass 2 ashkal 0 pass 1 sun")
    assert hand.taker == 1


def test_r3_1_ashkal_not_on_ace_unless_option() -> None:
    """R3.1 / R11.2: no Ashkal when the up card is an Ace, unless ashkal_on_ace."""
    hand = _hand(0, up="AD")
    play(hand, "0 pass 1 pass")
    assert "ashkal" not in _types(hand)
    with pytest.raises(IllegalActionError, match=r"Ace.*R3\.1"):
        hand.apply(Action(2, ActionType.ASHKAL))
    hand = _hand(0, up="AD", rules=Rules(ashkal_on_ace=True))
    play(hand, "0 pass 1 pass")
    assert "ashkal" in _types(hand)
    play(hand, "2 ashkal 0 pass 1 pass")
    assert hand.taker == 0


def test_r3_1_hokum_overcalled_by_later_sun_then_hokum_bidder_takes_sun() -> None:
    """R3.1: p1 Hokum, p2 Sun (ends step A); step B asks p1 - the Hokum bidder,
    earlier than p2 - who says Sun and takes."""
    hand = _hand(0)
    play(hand, "0 hokum 1 sun")
    assert hand.to_move == 0 and _types(hand) == {"pass", "sun"}
    play(hand, "0 sun")
    assert hand.contract == "sun" and hand.taker == 0


def test_r3_1_source_example_north_overcalls() -> None:
    """Source bidding example: S deals; E, N, W pass, S Hokum; then (R3.1 step C, from p1)
    E passes and N says Sun: N takes. (N=0, W=1, S=2, E=3; p1 = E.)"""
    hands = fill_hands([("KD", ""), ("", ""), ("", ""), ("", "")])
    hand = Hand(2, build_deck(2, hands, "KD", 0))
    play(hand, "3 pass 0 pass 1 pass 2 hokum")
    assert hand.to_move == 3 and _types(hand) == {"pass", "sun"}
    play(hand, "3 pass 0 sun")
    assert hand.contract == "sun" and hand.taker == 0


def test_r3_1_step_c_hokum_by_p3_asks_p1_and_p2_then_confirm() -> None:
    """R3.1 step C: p3's Hokum; p4 passes; p1 then p2 are asked Sun or Pass; p3 confirms."""
    hand = _hand(2)
    play(hand, "0 pass 1 pass 2 hokum 3 pass")
    assert hand.to_move == 0 and _types(hand) == {"pass", "sun"}
    play(hand, "0 pass")
    assert hand.to_move == 1 and _types(hand) == {"pass", "sun"}
    play(hand, "1 pass")
    assert hand.to_move == 2 and _types(hand) == {"hokum", "sun"}
    before = snapshot(hand)
    with pytest.raises(IllegalActionError):
        hand.apply(Action(2, ActionType.PASS))
    assert snapshot(hand) == before
    play(hand, "2 hokum")
    assert hand.contract == "hokum" and hand.trump_suit == 2  # the up card's suit (D)
    assert hand.taker == 2 and hand.phase == Phase.DOUBLING


def test_r3_1_step_c_switch_to_sun() -> None:
    """R3.1 step C: the Hokum bidder may switch to Sun."""
    hand = _hand(2)
    play(hand, "0 pass 1 pass 2 hokum 3 pass 0 pass 1 pass 2 sun")
    assert hand.contract == "sun" and hand.taker == 2


def test_r3_1_step_c_earlier_sun_wins() -> None:
    """R3.1 step C: the first earlier player to say Sun takes the contract."""
    hand = _hand(1)
    play(hand, "0 pass 1 pass 2 hokum 3 pass 0 pass 1 sun")
    assert hand.contract == "sun" and hand.taker == 1


def test_r3_1_p1_hokum_four_passes_confirm_or_switch() -> None:
    """R3.1: p1's Hokum, the other three pass: nobody is earlier, p1 confirms or switches."""
    hand = _hand(0)
    play(hand, "0 hokum 1 pass 2 pass 3 pass")
    assert hand.to_move == 0 and _types(hand) == {"hokum", "sun"}
    play(hand, "0 hokum")
    assert hand.contract == "hokum" and hand.trump_suit == 2
    hand = _hand(0)
    play(hand, "0 hokum 1 pass 2 pass 3 pass 0 sun")
    assert hand.contract == "sun" and hand.taker == 0


# --- R3.2 round two -----------------------------------------------------------------------


def test_r3_2_round_two_hokum_names_other_suit() -> None:
    """R3.2: round two; p2's Hokum, p3 and p4 pass (p1 passed and may not bid); p2 names
    a suit other than the up card's; the up card's suit and a missing suit are illegal."""
    hand = _hand(1)
    play(hand, "0 pass 1 pass 2 pass 3 pass")
    assert hand.to_move == 0 and _types(hand) == {"pass", "sun", "hokum"}
    play(hand, "0 pass 1 hokum")
    assert _types(hand) == {"pass", "sun"}
    play(hand, "2 pass 3 pass")
    assert hand.to_move == 1
    assert {(a.type.value, a.suit) for a in hand.legal_actions()} == {
        ("hokum", 0),
        ("hokum", 1),
        ("hokum", 3),
        ("sun", None),
    }
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match=r"R3\.2"):
        hand.apply(Action(1, ActionType.HOKUM, suit=2))  # D, the up card's suit
    assert snapshot(hand) == before
    with pytest.raises(IllegalActionError, match=r"R3\.2"):
        hand.apply(Action(1, ActionType.HOKUM))  # no suit (R11.4)
    assert snapshot(hand) == before
    play(hand, "1 hokum C")
    assert hand.contract == "hokum" and hand.trump_suit == 3 and hand.taker == 1


def test_r3_2_round_two_sun_ends_at_once() -> None:
    """R3.2: a Sun in round two ends the bidding at once."""
    hand = _hand(1)
    play(hand, "0 pass 1 pass 2 pass 3 pass 0 pass 1 sun")
    assert hand.contract == "sun" and hand.taker == 1 and hand.phase == Phase.PLAYING


def test_r3_2_round_two_sun_after_hokum() -> None:
    """R3.2: after a Hokum by X only later players speak; a Sun ends it."""
    hand = _hand(3)
    play(hand, "0 pass 1 pass 2 pass 3 pass 0 pass 1 hokum 2 pass 3 sun")
    assert hand.contract == "sun" and hand.taker == 3


def test_r3_2_round_two_switch_to_sun() -> None:
    """R3.2: the round-two Hokum bidder may switch to Sun."""
    hand = _hand(0)
    play(hand, "0 pass 1 pass 2 pass 3 pass 0 hokum 1 pass 2 pass 3 pass 0 sun")
    assert hand.contract == "sun" and hand.taker == 0


def test_r3_2_no_ashkal_in_round_two_unless_option() -> None:
    """R3.2 / R9 ashkal_round_two: Ashkal by p3/p4 in round two ends it at once (R11.2)."""
    hand = _hand(0)
    play(hand, "0 pass 1 pass 2 pass 3 pass 0 pass 1 pass")
    assert "ashkal" not in _types(hand)
    with pytest.raises(IllegalActionError, match=r"R3"):
        hand.apply(Action(2, ActionType.ASHKAL))
    hand = _hand(0, rules=Rules(ashkal_round_two=True))
    play(hand, "0 pass 1 pass 2 pass 3 pass 0 pass")
    assert "ashkal" not in _types(hand)  # p2 may not
    play(hand, "1 pass")
    assert "ashkal" in _types(hand)
    play(hand, "2 ashkal")
    assert hand.contract == "sun" and hand.taker == 0


def test_r3_2_ashkal_round_two_still_not_on_ace() -> None:
    """R11.2: Ashkal is never allowed on an Ace unless ashkal_on_ace, in either round."""
    hand = _hand(0, up="AD", rules=Rules(ashkal_round_two=True))
    play(hand, "0 pass 1 pass 2 pass 3 pass 0 pass 1 pass")
    assert "ashkal" not in _types(hand)


def test_r3_2_all_pass_thrown_in() -> None:
    """R3.2: eight passes throw the hand in: finished, no contract, no score."""
    hand = _hand(0)
    play(hand, "0 pass 1 pass 2 pass 3 pass 0 pass 1 pass 2 pass 3 pass")
    assert hand.finished and hand.outcome == Outcome.THROWN_IN
    assert hand.contract is None and hand.score == (0, 0)
    assert hand.legal_actions() == []
    with pytest.raises(IllegalActionError):
        hand.apply(Action(0, ActionType.PASS))


def test_r1_thrown_in_deal_passes_right_and_r11_6_output() -> None:
    """R1/R3.2/R8: after a throw-in the next dealer is d+1 and the score is unchanged;
    R11.6: the replay output of a thrown-in hand."""
    match = Match(Rules(), 3)
    match.deal(build_deck(3, HANDS, UP))
    play(match, "0 pass 1 pass 2 pass 3 pass 0 pass 1 pass 2 pass 3 pass")
    assert match.needs_deal and match.next_dealer == 0
    assert match.score == [0, 0] and match.winner is None
    summary = replay_summary(match)
    assert summary == {
        "hands": [
            {
                "dealer": 3,
                "contract": None,
                "trump": None,
                "declarer": None,
                "level": 1,
                "locked": False,
                "card_points": [0, 0],
                "game_points": [0, 0],
                "projects": [],
                "baloot": None,
                "kaboot": None,
                "score": [0, 0],
            }
        ],
        "score": [0, 0],
        "winner": None,
    }
    hand2 = match.deal(build_deck(0, HANDS, UP))
    assert hand2.dealer == 0 and hand2.to_move == 1


def test_r9_third_round_on_ace() -> None:
    """R9 third_round_on_ace / R11.2: after eight passes with an Ace up, p1 alone may bid
    Sun, or Hokum and at once name a suit (not the up card's)."""
    eight = "0 pass 1 pass 2 pass 3 pass 0 pass 1 pass 2 pass 3 pass"
    hand = _hand(0, up="AD", rules=Rules(third_round_on_ace=True))
    play(hand, eight)
    assert not hand.finished and hand.to_move == 0
    assert _types(hand) == {"pass", "sun", "hokum"}
    play(hand, "0 hokum")
    assert hand.to_move == 0
    assert {a.suit for a in hand.legal_actions() if a.type is ActionType.HOKUM} == {0, 1, 3}
    play(hand, "0 hokum S")
    assert hand.contract == "hokum" and hand.trump_suit == 0 and hand.taker == 0
    hand = _hand(0, up="AD", rules=Rules(third_round_on_ace=True))
    play(hand, eight + " 0 pass")
    assert hand.finished and hand.outcome == Outcome.THROWN_IN
    hand = _hand(0, up="AD", rules=Rules(third_round_on_ace=True))
    play(hand, eight + " 0 sun")
    assert hand.contract == "sun"
    # not an Ace, or the option off: thrown in after eight passes
    for up, rules in (("KD", Rules(third_round_on_ace=True)), ("AD", Rules())):
        hand = _hand(0, up=up, rules=rules)
        play(hand, eight)
        assert hand.finished and hand.outcome == Outcome.THROWN_IN


# --- R9 kawesh ------------------------------------------------------------------------------


def _kawesh_hand(rules: Rules) -> Match:
    # p2 (seat 1) gets first five 7S 8S 9S 7H 9C: all 7/8/9.
    hands = fill_hands([("KD", ""), ("7S 8S 9S 7H 9C", ""), ("", ""), ("", "")])
    match = Match(rules, 3)
    match.deal(build_deck(3, hands, "KD", 0))
    return match


def test_r9_kawesh_annuls_hand() -> None:
    """R9 kawesh / R11.2: in step A of round one, a player whose first five are all 7/8/9
    may annul the hand: no score, the deal passes (R11.6 output)."""
    match = _kawesh_hand(Rules(kawesh=True))
    hand = match.hands[0]
    assert "kawesh" not in _types(hand)  # seat 0's first five are not all low
    play(match, "0 pass")
    assert "kawesh" in _types(hand)
    play(match, "1 kawesh")
    assert hand.finished and hand.outcome == Outcome.ANNULLED
    assert match.score == [0, 0] and match.next_dealer == 0
    out = replay_summary(match)["hands"][0]
    assert out["contract"] is None and out["level"] == 1 and out["score"] == [0, 0]
    assert out["projects"] == [] and out["locked"] is False


def test_r9_kawesh_only_step_a_and_only_with_option() -> None:
    """R11.2: not in round two; R9: not without the option."""
    match = _kawesh_hand(Rules(kawesh=True))
    hand = match.hands[0]
    play(match, "0 pass 1 pass 2 pass 3 pass 0 pass")
    assert "kawesh" not in _types(hand)
    with pytest.raises(IllegalActionError, match=r"R11\.2"):
        match.apply(Action(1, ActionType.KAWESH))
    match = _kawesh_hand(Rules())
    play(match, "0 pass")
    with pytest.raises(IllegalActionError, match=r"R9"):
        match.apply(Action(1, ActionType.KAWESH))
    # still in step A after a Hokum stands
    match = _kawesh_hand(Rules(kawesh=True))
    play(match, "0 hokum")
    assert "kawesh" in _types(match.hands[0])


# --- R4 doubling -----------------------------------------------------------------------------


def _hokum_to_doubling(dealer: int = 3, taker_pos: int = 0) -> Hand:
    """Hokum confirmed by the player at position ``taker_pos`` (0 = p1)."""
    taker = (dealer + 1 + taker_pos) % 4
    hand = _hand(taker, dealer=dealer)
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    script = []
    for i, seat in enumerate(order):
        script.append(f"{seat} {'hokum' if i == taker_pos else 'pass'}")
    script += [f"{seat} pass" for seat in order[:taker_pos]]  # step C: earlier players pass
    script.append(f"{taker} hokum")
    play(hand, " ".join(script))
    assert hand.phase == Phase.DOUBLING and hand.taker == taker
    return hand


def test_r4_defenders_asked_earlier_first_and_explicit_passes() -> None:
    """R4 / R11.1: the defender earlier in p1..p4 order is asked first (dealer 1: p1=2,
    p2=3, p3=0; taker seat 0 -> defenders 3 (p2) then 1 (p4)); both answer explicitly."""
    hand = _hokum_to_doubling(dealer=1, taker_pos=2)
    assert hand.to_move == 3
    assert {(a.type.value, a.locked) for a in hand.legal_actions()} == {
        ("pass", None),
        ("double", True),
        ("double", False),
    }
    before = snapshot(hand)
    card = hand.hand_of(3)[0]
    with pytest.raises(IllegalActionError, match=r"R4"):
        hand.apply(Action.play(3, card))  # R11.1: an explicit answer is needed
    assert snapshot(hand) == before
    play(hand, "3 pass")
    assert hand.to_move == 1 and Phase(hand.phase) == Phase.DOUBLING
    play(hand, "1 pass")
    assert Phase(hand.phase) == Phase.PLAYING and hand.level == 1 and not hand.locked
    assert hand.to_move == 2  # p1 leads (R5)


def test_r4_chain_double_triple_four_gahwa() -> None:
    """R4: Double (locked) -> Triple (open) -> Four (locked) -> Gahwa (open); the doubler
    (here the second defender) is the one asked for Four."""
    hand = _hokum_to_doubling()
    play(hand, "1 pass 3 double locked")
    assert hand.level == 2 and hand.locked and hand.to_move == 0
    assert _types(hand) == {"pass", "triple"}
    play(hand, "0 triple")
    assert hand.level == 3 and not hand.locked and hand.to_move == 3
    assert {(a.type.value, a.locked) for a in hand.legal_actions()} == {
        ("pass", None),
        ("four", True),
        ("four", False),
    }
    play(hand, "3 four locked")
    assert hand.level == 4 and hand.locked and hand.to_move == 0
    assert _types(hand) == {"pass", "gahwa"}
    play(hand, "0 gahwa")
    assert hand.level == GAHWA and not hand.locked and hand.phase == Phase.PLAYING
    assert hand.last_raiser == 0


@pytest.mark.parametrize(
    ("script", "level", "locked", "raiser"),
    [
        ("1 double locked 0 pass", 2, True, 1),
        ("1 double open 0 pass", 2, False, 1),
        ("1 double locked 0 triple 1 pass", 3, False, 0),
        ("1 double open 0 triple 1 four locked 0 pass", 4, True, 1),
        ("1 double locked 0 triple 1 four open 0 pass", 4, False, 1),
        ("1 pass 3 pass", 1, False, None),
    ],
)
def test_r4_levels_and_lock(script: str, level: int, locked: bool, raiser: int | None) -> None:
    """R4: play is locked only at level 2 or 4 when that Double/Four chose locked."""
    hand = _hokum_to_doubling()
    play(hand, script)
    assert hand.phase == Phase.PLAYING
    assert (hand.level, hand.locked, hand.last_raiser) == (level, locked, raiser)


def test_r11_4_hokum_double_or_four_without_locked_illegal() -> None:
    """R11.4: a Hokum double or four without ``locked`` is illegal."""
    hand = _hokum_to_doubling()
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match=r"R11\.4"):
        hand.apply(Action(1, ActionType.DOUBLE))
    assert snapshot(hand) == before
    play(hand, "1 double open 0 triple")
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match=r"R11\.4"):
        hand.apply(Action(1, ActionType.FOUR))
    assert snapshot(hand) == before


def test_r4_only_the_right_player_may_raise() -> None:
    """R4: the other defender may not Four; the declarer's partner may not Triple."""
    hand = _hokum_to_doubling()
    play(hand, "1 double open")
    with pytest.raises(IllegalActionError):
        hand.apply(Action(2, ActionType.TRIPLE))
    play(hand, "0 triple")
    with pytest.raises(IllegalActionError):
        hand.apply(Action(3, ActionType.FOUR, locked=True))


def _sun_hand(score: tuple[int, int]) -> Hand:
    hand = _hand(1, score=score)
    play(hand, "0 pass 1 sun 0 pass")
    return hand


@pytest.mark.parametrize(
    ("score", "allowed"),
    [
        ((101, 99), True),
        ((99, 101), True),
        ((150, 0), True),
        ((100, 50), False),  # R11.9: exactly 100 prevents it
        ((120, 100), False),
        ((120, 110), False),
        ((50, 60), False),
        ((0, 0), False),
    ],
)
def test_r4_sun_double_only_when_one_above_100_other_below(score: tuple[int, int], allowed: bool) -> None:
    """R4 / R11.9: a Sun may be doubled only if one team has > 100 and the other < 100;
    otherwise there is no doubling step at all (R11.1)."""
    hand = _sun_hand(score)
    assert hand.contract == "sun"
    if allowed:
        assert hand.phase == Phase.DOUBLING
        assert hand.to_move == 0  # defenders 0 (p1) and 2 (p3)
        assert {(a.type.value, a.locked) for a in hand.legal_actions()} == {("pass", None), ("double", None)}
    else:
        assert hand.phase == Phase.PLAYING
        with pytest.raises(IllegalActionError):
            hand.apply(Action(0, ActionType.DOUBLE))


def test_r4_sun_double_nothing_follows_never_locked() -> None:
    """R4: nothing follows a Sun double and Sun is never locked; R11.4: locked true is illegal."""
    hand = _sun_hand((120, 30))
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match=r"R11\.4"):
        hand.apply(Action(0, ActionType.DOUBLE, locked=True))
    assert snapshot(hand) == before
    play(hand, "0 pass 2 double")
    assert hand.phase == Phase.PLAYING and hand.level == 2 and not hand.locked
    assert hand.last_raiser == 2
    assert legal_cards(hand)  # p1 leads at once


def test_r4_sun_double_via_match_score() -> None:
    """R4: the match score before the hand decides the Sun double."""
    match = Match(Rules(), 3)
    match.score = [130, 40]
    hand = match.deal(build_deck(3, fill_hands([("", ""), (UP, ""), ("", ""), ("", "")]), UP, 1))
    play(match, "0 pass 1 sun 0 pass")
    assert hand.phase == Phase.DOUBLING


def test_new_hand_helper_matches_r2_deal() -> None:
    """R2: the deck builder deals exactly the intended hands (first five, then the rest)."""
    hands = fill_hands([("", ""), ("", ""), ("KD", ""), ("", "")])
    hand = new_hand(0, hands, "KD", 2)  # dealer 0: p1 = 1
    for seat in range(4):
        intended = hands[seat].split()
        first_five = [c for c in intended if c != "KD"][:5]
        assert {c.text for c in hand.hand_of(seat)} == set(first_five)
    play(hand, "1 pass 2 hokum 3 pass 0 pass 1 pass 2 hokum")
    for seat in range(4):
        assert {c.text for c in hand.hand_of(seat)} == set(hands[seat].split())
