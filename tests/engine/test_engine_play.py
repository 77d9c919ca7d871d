"""Card play (R5): R5.1 Sun, every R5.2 Hokum obligation, Ekka, the
locked lead, trick winners, the last-trick bonus and the 162/130 totals.

Seats: dealer 3, so p1 = seat 0 leads the first trick (R5). Hearts are trump
in the Hokum scenarios (the up card is a heart taken by seat 0).
"""

from __future__ import annotations

import random

import pytest
from engine_helpers import (
    build_deck,
    fill_hands,
    hokum_by_p1,
    legal_cards,
    play,
    random_game,
    snapshot,
    sun_by_p1,
    trick_points_independent,
)

from baloot import Action, Hand, IllegalActionError, NotYourTurnError, Phase, Rules
from baloot.engine.actions import ActionType

# --- the source's Hokum play example ("Rules of Play", hearts trump) -----------
# N=0, W=1, S=2, E=3. Six tricks are played so that the remaining cards are
#   N: KC QC   W: TC 7C   S: QH 9D   E: TD KD   (the source's position)
# T1 N AS W 7S S 8S E 9S; T2 N TS W JS S QS E KS; T3 N AC W 8C S 9C E JC;
# T4 N AD W 7D S 8D E JD; T5 N JH W 7H S 8H E 9H; T6 N AH W TH S KH E QD.
SOURCE_HANDS = [
    "AH AS TS AC AD JH KC QC",  # N (seat 0) takes the up card AH: Hokum in hearts
    "7S JS 8C 7D 7H TH TC 7C",  # W
    "8S QS 9C 8D 8H KH QH 9D",  # S
    "9S KS JC JD 9H QD TD KD",  # E
]
SIX_TRICKS = (
    "0 AS 1 7S 2 8S 3 9S  0 TS 1 JS 2 QS 3 KS  0 AC 1 8C 2 9C 3 JC "
    "0 AD 1 7D 2 8D 3 JD  0 JH 1 7H 2 8H 3 9H  0 AH 1 TH 2 KH 3 QD"
)


def _source_position(hands: list[str], six_tricks: str) -> Hand:
    hand = hokum_by_p1(hands, "AH")
    play(hand, six_tricks)
    assert hand.trick_no == 6 and hand.to_move == 0
    return hand


def test_r5_2_source_example_south_must_trump_with_qh() -> None:
    """R5.2 (source example): N leads KC (not an Ekka: TC is unplayed), W plays 7C;
    South, partner winning as 3rd player, cannot follow and must trump with QH."""
    hand = _source_position(SOURCE_HANDS, SIX_TRICKS)
    assert {c.text for c in hand.hand_of(2)} == {"QH", "9D"}
    play(hand, "0 KC 1 7C")
    assert legal_cards(hand) == {"QH"}
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match=r"R5\.2"):
        hand.apply(Action.play(2, "9D"))
    assert snapshot(hand) == before
    play(hand, "2 QH 3 KD")
    # South won trick 7 with the trump, leads 9D; East wins the last trick with TD.
    assert hand.to_move == 2
    before_last = hand.card_points[:]
    play(hand, "2 9D 3 TD 0 QC 1 TC")
    assert hand.finished
    assert hand.tricks_history[-1][1] == 3
    # R1.1: 9D 0 + TD 10 + QC 3 + TC 10 = 23, plus 10 for the last trick.
    assert hand.card_points[1] - before_last[1] == 33
    assert hand.card_points[0] == before_last[0]
    assert sum(hand.card_points) == 162


def test_r5_2_source_example_with_ten_played_is_an_ekka() -> None:
    """R5.2 Ekka: the same position but with TC played earlier (W plays TC to the
    AC in trick 3), KC is the highest club unplayed, so South may discard."""
    hands = list(SOURCE_HANDS)
    hands[1] = "7S JS TC 7D 7H TH 8C 7C"
    six = SIX_TRICKS.replace("0 AC 1 8C", "0 AC 1 TC")
    hand = _source_position(hands, six)
    play(hand, "0 KC 1 7C")
    assert legal_cards(hand) == {"QH", "9D"}
    play(hand, "2 9D")  # accepted: the discard is legal after an Ekka
    assert len(hand.trick) == 3


# --- R5.2 obligations in trick 1 -----------------------------------------------


def test_r5_2_trump_led_must_beat_opponent_any_trump_for_partner() -> None:
    """R5.2 trump led: the 2nd must beat the opponent's 9H (only JH does); the 3rd
    cannot beat JH so any trump; the 4th's partner wins, so any trump."""
    hands = fill_hands([("9H AH", "H"), ("JH 7H", "H"), ("TH 8H", "H"), ("KH QH", "H")])
    hand = hokum_by_p1(hands, "AH")
    play(hand, "0 9H")
    assert legal_cards(hand) == {"JH"}
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match=r"R5\.2") as exc:
        hand.apply(Action.play(1, "7H"))
    assert "beat" in str(exc.value)
    assert snapshot(hand) == before
    play(hand, "1 JH")
    assert legal_cards(hand) == {"TH", "8H"}
    play(hand, "2 8H")
    assert legal_cards(hand) == {"KH", "QH"}


def test_r5_2_trump_led_4th_must_overtrump_opponent() -> None:
    """R5.2 trump led: the 4th player, opponent (3rd) winning with TH, must beat it."""
    hands = fill_hands([("7H AH JH", "H"), ("8H", "H"), ("TH", "H"), ("9H KH QH", "H")])
    hand = hokum_by_p1(hands, "AH")
    play(hand, "0 7H 1 8H 2 TH")
    assert legal_cards(hand) == {"9H"}


def test_r5_2_trump_led_no_trump_anything() -> None:
    """R5.2 trump led, holding no trump: any card."""
    hands = fill_hands([("7H AH", "H"), ("", "H"), ("", ""), ("", "")])
    hand = hokum_by_p1(hands, "AH")
    play(hand, "0 7H")
    assert legal_cards(hand) == {c.text for c in hand.hand_of(1)}
    assert len(legal_cards(hand)) == 8


def test_r5_2_non_trump_led_follow_any_card_of_suit() -> None:
    """R5.2: a non-trump led and you can follow: any card of that suit (no need to beat)."""
    hands = fill_hands([("KS AH", "S"), ("7S AS", "S"), ("", ""), ("", "")])
    hand = hokum_by_p1(hands, "AH")
    play(hand, "0 KS")
    assert legal_cards(hand) == {"7S", "AS"}


def test_r5_2_opponent_winning_with_non_trump_any_trump() -> None:
    """R5.2: cannot follow, an opponent wins with a non-trump: any trump (not only a high one)."""
    hands = fill_hands([("7S AH TH QH", "H"), ("8H KH", "SH"), ("7H JH", "SH"), ("9H", "H")])
    hand = hokum_by_p1(hands, "AH")
    play(hand, "0 7S")
    assert legal_cards(hand) == {"8H", "KH"}
    play(hand, "1 8H")
    # Opponent (seat 1) wins with a trump: must play a higher trump (JH), 7H is not allowed.
    assert legal_cards(hand) == {"JH"}
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match=r"R5\.2"):
        hand.apply(Action.play(2, "7H"))
    assert snapshot(hand) == before
    play(hand, "2 JH")
    # Seat 3 holds spades: following suit comes first, even with 9H in hand.
    assert legal_cards(hand) == {c.text for c in hand.hand_of(3) if c.text[1] == "S"}


def test_r5_2_partner_winning_third_not_ekka_must_trump() -> None:
    """R5.2: as 3rd player with the partner's lead winning and no Ekka, must trump."""
    hands = fill_hands([("KS AH", "S"), ("7S", "S"), ("7H 8H", "SH"), ("", "")])
    hand = hokum_by_p1(hands, "AH")
    play(hand, "0 KS 1 7S")
    assert legal_cards(hand) == {"7H", "8H"}
    before = snapshot(hand)
    other = next(c.text for c in hand.hand_of(2) if c.text[1] != "H")
    with pytest.raises(IllegalActionError, match=r"R5\.2"):
        hand.apply(Action.play(2, other))
    assert snapshot(hand) == before


def test_r5_2_partner_winning_third_ace_lead_is_ekka_anything() -> None:
    """R5.2: an Ace led is always an Ekka: the 3rd player who cannot follow may play anything."""
    hands = fill_hands([("AS AH", "S"), ("7S", "S"), ("7H 8H", "SH"), ("", "")])
    hand = hokum_by_p1(hands, "AH")
    play(hand, "0 AS 1 7S")
    assert legal_cards(hand) == {c.text for c in hand.hand_of(2)}


def test_r5_2_partner_winning_fourth_anything() -> None:
    """R5.2: as 4th player with the partner (2nd) winning, anything even holding trumps."""
    hands = fill_hands([("7S AH", "S"), ("AS", ""), ("8S", ""), ("7H 8H", "S")])
    hand = hokum_by_p1(hands, "AH")
    play(hand, "0 7S 1 AS 2 8S")
    assert legal_cards(hand) == {c.text for c in hand.hand_of(3)}


def test_r5_2_partner_trumped_fourth_anything() -> None:
    """R5.2: the partner (2nd) is winning with a trump; the 4th may play anything."""
    hands = fill_hands([("7S AH", ""), ("7H", "S"), ("8S", ""), ("8H 9H", "S")])
    hand = hokum_by_p1(hands, "AH")
    play(hand, "0 7S 1 7H 2 8S")
    assert legal_cards(hand) == {c.text for c in hand.hand_of(3)}


def test_r5_2_cannot_follow_no_trump_anything() -> None:
    """R5.2: cannot follow and no trump: any card."""
    hands = fill_hands([("7S AH", "S"), ("", "SH"), ("", ""), ("", "")])
    hand = hokum_by_p1(hands, "AH")
    play(hand, "0 7S")
    assert legal_cards(hand) == {c.text for c in hand.hand_of(1)}


def test_r5_2_must_follow_suit_error_names_rule_and_changes_nothing() -> None:
    """R5: following suit is compulsory; the refusal names the rule."""
    hands = fill_hands([("7S AH", "S"), ("8S 7H", ""), ("", ""), ("", "")])
    hand = hokum_by_p1(hands, "AH")
    play(hand, "0 7S")
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match=r"follow suit.*R5"):
        hand.apply(Action.play(1, "7H"))
    assert snapshot(hand) == before
    with pytest.raises(NotYourTurnError):
        hand.apply(Action.play(2, hand.hand_of(2)[0]))
    assert snapshot(hand) == before
    with pytest.raises(IllegalActionError):
        hand.apply(Action.play(1, "AH"))  # not in seat 1's hand
    assert snapshot(hand) == before


# --- the locked lead ----------------------------------------------------------------


def test_r5_2_locked_no_trump_lead_unless_only_trumps() -> None:
    """R5.2 / R4: in a locked hand (Double locked) a trump may not be led while the
    leader holds other cards."""
    hands = fill_hands([("AH JH 9H 7S", "H"), ("", ""), ("", ""), ("", "")])
    hand = hokum_by_p1(hands, "AH", doubling="1 double locked 0 pass")
    assert hand.locked and hand.level == 2
    assert legal_cards(hand) == {c.text for c in hand.hand_of(0) if c.text[1] != "H"}
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match=r"locked.*R5\.2"):
        hand.apply(Action.play(0, "JH"))
    assert snapshot(hand) == before


def test_r5_2_locked_lead_with_only_trumps_allowed() -> None:
    """R5.2: holding only trumps, the leader may lead one even when locked."""
    hands = fill_hands([("AH JH 9H TH KH QH 8H 7H", ""), ("", ""), ("", ""), ("", "")])
    hand = hokum_by_p1(hands, "AH", doubling="1 double locked 0 pass")
    assert legal_cards(hand) == {c.text for c in hand.hand_of(0)}


def test_r5_2_open_double_allows_trump_lead() -> None:
    """R4: an open Double does not lock: trumps may be led."""
    hands = fill_hands([("AH JH 9H 7S", "H"), ("", ""), ("", ""), ("", "")])
    hand = hokum_by_p1(hands, "AH", doubling="1 double open 0 pass")
    assert not hand.locked
    assert "JH" in legal_cards(hand)


def test_r4_triple_unlocks() -> None:
    """R4: Triple is always open, even after a locked Double."""
    hands = fill_hands([("AH JH 9H 7S", "H"), ("", ""), ("", ""), ("", "")])
    hand = hokum_by_p1(hands, "AH", doubling="1 double locked 0 triple 1 pass")
    assert hand.level == 3 and not hand.locked
    assert "JH" in legal_cards(hand)


# --- Sun (R5.1) and trick winners ----------------------------------------------------


def test_r5_1_sun_follow_suit_else_anything() -> None:
    """R5.1: in Sun follow suit if you can, otherwise anything (no trumping duty)."""
    hands = fill_hands([("7S AH", "S"), ("KS AS", "S"), ("", "S"), ("", "")])
    hand = sun_by_p1(hands, "AH")
    assert hand.phase == Phase.PLAYING and hand.sun
    play(hand, "0 7S")
    assert legal_cards(hand) == {"KS", "AS"}
    play(hand, "1 KS")
    assert legal_cards(hand) == {c.text for c in hand.hand_of(2)}


def test_r5_trick_winner_highest_of_suit_led() -> None:
    """R5 / R1.1: with no trump in the trick the highest card of the suit led wins
    (T beats K in plain order; an off-suit Ace does not win)."""
    hands = fill_hands([("KS AH", ""), ("TS", ""), ("AD", "S"), ("7S", "")])
    hand = sun_by_p1(hands, "AH")
    play(hand, "0 KS 1 TS 2 AD 3 7S")
    assert hand.tricks_history[0][1] == 1
    assert hand.to_move == 1
    assert hand.card_points == [0, 4 + 10 + 11]


def test_r5_trick_winner_trump_order() -> None:
    """R1.1 trump order J 9 A T K Q 8 7: 9H beats AH and TH, JH beats 9H."""
    hands = fill_hands([("TH AH", ""), ("9H", "H"), ("JH", "H"), ("KH", "H")])
    hand = hokum_by_p1(hands, "AH")
    play(hand, "0 AH 1 9H 2 JH 3 KH")
    leader, winner, _ = hand.tricks_history[0]
    assert (leader, winner) == (0, 2)
    assert hand.to_move == 2  # R5: the winner leads next
    # 20 + 14 + 11 + 4 = 49 card points for team 0
    assert hand.card_points == [49, 0]


def test_r1_1_last_trick_bonus_and_totals() -> None:
    """R1.1: the last trick adds 10; totals are 162 (Hokum) and 130 (Sun).

    Sawa (R12) is off so that all 32 cards are played and the tricks can be recounted.
    """
    rng = random.Random(7)
    for sun_rules in range(30):
        match = random_game(rng, Rules(sawa=False), max_hands=1)
        hand = match.hands[0]
        if hand.result is None:
            continue
        total = 130 if hand.sun else 162
        assert sum(hand.card_points) == total, sun_rules
        trump = None if hand.sun else "SHDC"[hand.trump]
        plays = [(a.seat, a.card.text) for a in hand.actions if a.card is not None]
        assert trick_points_independent(trump, plays) == hand.card_points
        last_winner = hand.tricks_history[-1][1]
        last_cards = hand.tricks_history[-1][2]
        from baloot.engine.cards import CARD_POINTS

        assert sum(CARD_POINTS[hand.trump][c] for c in last_cards) + 10 <= hand.card_points[last_winner & 1]


def test_play_phase_rejects_bids_and_doubles() -> None:
    """R5: during play only plays (and R6.2 declarations) are possible."""
    hands = fill_hands([("7S AH", "S"), ("", ""), ("", ""), ("", "")])
    hand = hokum_by_p1(hands, "AH")
    before = snapshot(hand)
    for atype in (ActionType.PASS, ActionType.SUN, ActionType.HOKUM, ActionType.TRIPLE, ActionType.GAHWA):
        with pytest.raises(IllegalActionError):
            hand.apply(Action(0, atype))
        assert snapshot(hand) == before


def test_declarer_leads_variant() -> None:
    """R9 declarer_leads: the taker leads trick 1 (here seat 2, who bid Sun as p3)."""
    hands = fill_hands([("", ""), ("", ""), ("AH", ""), ("", "")])
    for rules, leader in ((Rules(), 0), (Rules(declarer_leads=True), 2)):
        hand = Hand(3, build_deck(3, hands, "AH", 2), rules)
        play(hand, "0 pass 1 pass 2 sun 0 pass 1 pass")
        assert hand.phase == Phase.PLAYING and hand.taker == 2
        assert hand.to_move == leader
