"""Projects and Baloot (R6.1-R6.3, R11.3, R11.8).

Dealer 3 (p1 = seat 0); the Hokum scenarios have hearts trump (seat 0 takes a
heart up card and confirms, no double).
"""

from __future__ import annotations

import random

import pytest
from engine_helpers import cards, fill_hands, hokum_by_p1, play, snapshot, sun_by_p1

from baloot import Action, ActionType, Hand, IllegalActionError, NotYourTurnError, Rules
from baloot.engine.cards import mask_of
from baloot.engine.projects import best_projects, has_project
from baloot.engine.records import hand_summary


def _projects(text: str, sun: bool, trump: int | None = None, prio: bool = False) -> list[tuple[str, str]]:
    """(type, cards high->low) of the best project set of an 8-card hand."""
    hand_cards = cards(text)
    assert len(hand_cards) == 8
    found = best_projects(mask_of(hand_cards), sun, trump, prio)
    out = []
    for p in found:
        key = lambda t: ("789TJQKA".index(t[0]), "SHDC".index(t[1]))  # noqa: E731
        out.append((p.type.value, " ".join(sorted((c.text for c in p.cards), key=key))))
    return sorted(out)


# --- R6.1 detection ---------------------------------------------------------------------------


def test_r6_1_run_of_eight_is_hundred_and_sira() -> None:
    """R6.1: a run of eight is a Hundred (its top five) and a Sira (the rest)."""
    for sun in (True, False):
        assert _projects("AS KS QS JS TS 9S 8S 7S", sun, None if sun else 1) == [
            ("hundred", "TS JS QS KS AS"),
            ("sira", "7S 8S 9S"),
        ]


def test_r6_1_run_of_six_and_seven_is_hundred_of_top_five() -> None:
    """R6.1: a run of six or seven cards is a Hundred of its top five."""
    assert _projects("7S 8S 9S TS JS QS AH 7D", True) == [("hundred", "8S 9S TS JS QS")]
    assert _projects("7C 8C 9C TC JC QC KC AD", False, 1) == [("hundred", "9C TC JC QC KC")]


def test_r6_1_four_kings_with_akqjt() -> None:
    """R6.1: K-K-K-K with A-K-Q-J-T of one suit is four Kings plus the Sira Q-J-T."""
    for sun in (True, False):
        assert _projects("AS KS QS JS TS KH KD KC", sun, None if sun else 2) == [
            ("hundred", "KS KH KD KC"),
            ("sira", "TS JS QS"),
        ]


def test_r6_1_four_aces_sun_and_hokum() -> None:
    """R6.1: four Aces are a Four Hundred (40) in Sun and a Hundred (10) in Hokum."""
    hand = mask_of(cards("AS AH AD AC 7S 9H 8D TC"))
    (sun_p,) = best_projects(hand, True)
    assert (sun_p.type.value, sun_p.value(True)) == ("four_hundred", 40)
    (hok_p,) = best_projects(hand, False, 0)
    assert (hok_p.type.value, hok_p.value(False)) == ("hundred", 10)


@pytest.mark.parametrize("rank", ["9", "8", "7"])
def test_r6_1_four_nines_eights_sevens_are_nothing(rank: str) -> None:
    """R6.1: four 9s, 8s or 7s are nothing."""
    others = {"9": "JS QH AD KC", "8": "JS QH AD KC", "7": "JS QH AD KC"}[rank]
    text = f"{rank}S {rank}H {rank}D {rank}C {others}"
    assert not has_project(mask_of(cards(text)))
    assert best_projects(mask_of(cards(text)), True) == ()


@pytest.mark.parametrize("rank", ["T", "J", "Q", "K"])
def test_r6_1_four_of_a_kind_hundreds(rank: str) -> None:
    """R6.1: four T, J, Q or K are a Hundred (10 Hokum, 20 Sun)."""
    text = f"{rank}S {rank}H {rank}D {rank}C 7S 9H 7D 9C"
    (p,) = best_projects(mask_of(cards(text)), True)
    assert p.type.value == "hundred" and p.value(True) == 20 and p.value(False) == 10


def test_r6_1_sequence_order_and_values() -> None:
    """R6.1: sequences use A K Q J T 9 8 7 (A-K-Q is a Sira, A-T-K is not); values."""
    assert _projects("AS KS QS 7H 9D JC 8C 8H", True) == [("sira", "QS KS AS")]
    assert _projects("AS TS KS 7H 9D JC 8C 8H", True) == []
    (p,) = best_projects(mask_of(cards("AS KS QS JS 7H 9D 8C 8H")), False, 1)
    assert (p.type.value, p.value(False), p.value(True)) == ("fifty", 5, 10)
    (p,) = best_projects(mask_of(cards("AS KS QS 7H 9H 9D 8C TH")), False, 1)
    assert (p.value(False), p.value(True)) == (2, 4)


# --- R6.2 declaring, comparing, showing -----------------------------------------------------------


def _declared_hand(hands: list[str], up: str = "AH", rules: Rules | None = None, sun: bool = False) -> Hand:
    if sun:
        return sun_by_p1(hands, up, rules)
    return hokum_by_p1(hands, up, rules)


def _first(hand: Hand, seat: int) -> str:
    """A legal card for ``seat`` (to move)."""
    legal = [a.card.text for a in hand.legal_actions() if a.card is not None]
    return legal[0]


def _play_trick(hand: Hand, declare: set[int]) -> None:
    """Play one trick; the seats in ``declare`` declare at their turn before playing."""
    for _ in range(4):
        seat = hand.to_move
        if seat in declare:
            play(hand, f"{seat} declare")
        play(hand, f"{seat} {_first(hand, seat)}")


def test_r6_2_value_wins_then_only_that_team_scores() -> None:
    """R6.2: a Fifty (seat 1) beats an earlier Sira (seat 0); only team 1's projects score."""
    hands = fill_hands([("AH 7S 8S 9S", "S"), ("7D 8D 9D TD", "D"), ("", ""), ("", "")])
    hand = _declared_hand(hands)
    assert [p.type.value for p in hand.projects_of(0)] == ["sira"]
    assert [p.type.value for p in hand.projects_of(1)] == ["fifty"]
    _play_trick(hand, {0, 1})
    assert hand.project_team == 1
    assert [(s, p.type.value) for s, p in hand.winning_projects()] == [(1, "fifty")]


def test_r6_2_four_of_a_kind_beats_sequence_among_hundreds() -> None:
    """R6.2: between Hundreds four-of-a-kind beats a sequence, before the top card."""
    seq = best_projects(mask_of(cards("AS KS QS JS TS 7H 8D 7C")), True)[0]
    quad = best_projects(mask_of(cards("TH TD TC TS 7S 9H 8D 7C")), True)[0]
    assert (seq.type.value, seq.suit, quad.type.value, quad.suit) == ("hundred", 0, "hundred", None)
    for sun in (True, False):
        assert quad.strength(sun, None if sun else 1, False) > seq.strength(sun, None if sun else 1, False)


def test_r6_2_four_queens_beat_earlier_run_end_to_end() -> None:
    """R6.2: seat 1's four Queens beat seat 0's earlier 7-8-9-T-J run (both Hundreds)."""
    hands = fill_hands([("7D 8D 9D TD JD AH", "D"), ("QS QH QD QC", ""), ("", ""), ("", "")])
    hand = _declared_hand(hands, sun=True)
    assert [p.type.value for p in hand.projects_of(0)] == ["hundred"]
    assert [p.type.value for p in hand.projects_of(1)] == ["hundred"]
    _play_trick(hand, {0, 1})
    assert hand.project_team == 1
    assert [s for s, _ in hand.winning_projects()] == [1]


def test_r6_2_top_card_then_earlier_player() -> None:
    """R6.2: equal Siras: the higher top card wins (seat 3's T-top over seat 0's 9-top);
    equal tops: the earlier player in p1..p4 order (seat 0 = p1 over seat 3 = p4)."""
    hands = fill_hands([("7S 8S 9S AH", "S"), ("", ""), ("", ""), ("8D 9D TD", "D")])
    hand = _declared_hand(hands)
    assert [p.type.value for p in hand.projects_of(0)] == ["sira"]
    assert [p.type.value for p in hand.projects_of(3)] == ["sira"]
    _play_trick(hand, {0, 3})
    assert hand.project_team == 1
    hands = fill_hands([("7S 8S 9S AH", "S"), ("", ""), ("", ""), ("7D 8D 9D", "D")])
    hand = _declared_hand(hands)
    assert [p.type.value for p in hand.projects_of(3)] == ["sira"]
    _play_trick(hand, {0, 3})
    assert hand.project_team == 0


def test_r11_3_earlier_player_by_p_order_even_with_declarer_leads() -> None:
    """R11.3: the comparison uses p1..p4 order even under declarer_leads. Dealer 3: p1 = 0.
    Seat 3 (p4) bids Sun and leads; seat 3 and seat 0 hold equal Siras: seat 0 wins."""
    from engine_helpers import build_deck

    hands = fill_hands([("7S 8S 9S", "S"), ("", ""), ("", ""), ("7D 8D 9D AH", "D")])
    hand = Hand(3, build_deck(3, hands, "AH", 3), Rules(declarer_leads=True))
    play(hand, "0 pass 1 pass 2 pass 3 sun 0 pass 1 pass 2 pass")
    assert hand.to_move == 3
    order = []
    for _ in range(4):
        seat = hand.to_move
        order.append(seat)
        if seat in (0, 3):
            play(hand, f"{seat} declare")
        play(hand, f"{seat} {_first(hand, seat)}")
    assert order == [3, 0, 1, 2]
    assert hand.project_team == 0


def test_r9_trump_sequence_priority() -> None:
    """R9 trump_sequence_priority (source example): hearts trump, p1 = seat 0 has KC-QC-JC,
    p2 = seat 1 has KH-QH-JH: by default p1 (earlier) wins; with the option the trump Sira."""
    hands = fill_hands([("KC QC JC AH", "C"), ("KH QH JH", "H"), ("", ""), ("", "")])
    for rules, team in ((Rules(), 0), (Rules(trump_sequence_priority=True), 1)):
        hand = _declared_hand(hands, rules=rules)
        _play_trick(hand, {0, 1})
        assert hand.project_team == team, rules


def test_r6_2_declare_only_in_trick_one_before_playing() -> None:
    """R6.2 / R11.3: declare at your turn in trick 1 before playing; not twice; not out
    of turn; not after trick 1 if nobody declared (no winning team to show)."""
    hands = fill_hands([("7S 8S 9S AH", "S"), ("", ""), ("", ""), ("", "")])
    hand = _declared_hand(hands)
    assert Action(0, ActionType.DECLARE) in hand.legal_actions()
    before = snapshot(hand)
    with pytest.raises(NotYourTurnError):
        hand.apply(Action(1, ActionType.DECLARE))
    assert snapshot(hand) == before
    play(hand, "0 declare")
    assert Action(0, ActionType.DECLARE) not in hand.legal_actions()
    with pytest.raises(IllegalActionError, match=r"R6\.2"):
        hand.apply(Action(0, ActionType.DECLARE))
    # a second hand where seat 0 does not declare in trick 1: later it may not
    hand = _declared_hand(hands)
    while hand.trick_no < 3:
        seat = hand.to_move
        assert (ActionType.DECLARE in {a.type for a in hand.legal_actions()}) == (
            hand.trick_no == 0 and bool(hand.projects_of(seat))
        )
        if seat == 0 and hand.trick_no > 0:
            before = snapshot(hand)
            with pytest.raises(IllegalActionError, match=r"R6\.2"):
                hand.apply(Action(0, ActionType.DECLARE))
            assert snapshot(hand) == before
        play(hand, f"{seat} {_first(hand, seat)}")
    assert hand.project_team is None and hand.winning_projects() == []


def test_r11_3_declare_without_project_illegal() -> None:
    """R11.3: declare is illegal for a player with no project."""
    hands = [
        "AH 7S 9S JS KS 8D TD QD",
        "8S TS QS AS 7D 9D JD KD",
        "7H 9H JH KH 8C TC QC AC",
        "8H TH QH 7C 9C JC KC AD",
    ]
    hand = _declared_hand(hands)
    assert not any(hand.projects_of(s) for s in range(4))
    assert Action(0, ActionType.DECLARE) not in hand.legal_actions()
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match=r"R11\.3"):
        hand.apply(Action(0, ActionType.DECLARE))
    assert snapshot(hand) == before


def test_r6_2_trick_two_show_only_for_winning_teams_non_declarer() -> None:
    """R6.2: in trick 2 only the winning team's player who did not declare may show; their
    projects score too; the losing team may not; a card of the project already played
    does not matter (judged on the 8-card hand)."""
    # seat 0 declares a Fifty (wins); seat 2 (partner) holds a Sira and shows in trick 2;
    # seat 1 holds a Sira too but its team lost.
    hands = fill_hands([("AH 7S 8S 9S TS", "S"), ("7D 8D 9D", "D"), ("7C 8C 9C", "C"), ("", "")])
    hand = _declared_hand(hands)
    assert [p.type.value for p in hand.projects_of(2)] == ["sira"]
    assert [p.type.value for p in hand.projects_of(1)] == ["sira"]
    # trick 1: seat 0 declares; seat 2 plays 7C if it can (a card of its Sira)
    play(hand, "0 declare")
    play(hand, f"0 {_first(hand, 0)}")
    play(hand, f"1 {_first(hand, 1)}")
    legal2 = [a.card.text for a in hand.legal_actions() if a.card is not None]
    play(hand, f"2 {'7C' if '7C' in legal2 else legal2[0]}")
    play(hand, f"3 {_first(hand, 3)}")
    assert hand.trick_no == 1 and hand.project_team == 0
    # trick 2: walk round; seat 2 may declare at its turn, seat 1 may not
    for _ in range(4):
        seat = hand.to_move
        types = {a.type for a in hand.legal_actions()}
        if seat == 2:
            assert ActionType.DECLARE in types
            play(hand, "2 declare")
        else:
            assert ActionType.DECLARE not in types
            if seat == 1:
                with pytest.raises(IllegalActionError, match=r"R6\.2"):
                    hand.apply(Action(1, ActionType.DECLARE))
        play(hand, f"{seat} {_first(hand, seat)}")
    assert sorted((s, p.type.value) for s, p in hand.winning_projects()) == [(0, "fifty"), (2, "sira")]
    rng = random.Random(3)
    while not hand.finished:
        hand.apply(rng.choice(hand.legal_actions()))
    assert hand.result is not None
    out = hand_summary(hand)
    assert sorted((p["seat"], p["type"], p["value"]) for p in out["projects"]) == [(0, "fifty", 5), (2, "sira", 2)]


def test_r11_3_may_declare_after_stronger_project() -> None:
    """R11.3: a player may declare even after a stronger project was declared."""
    hands = fill_hands([("AH 7S 8S 9S TS", "S"), ("7D 8D 9D", "D"), ("", ""), ("", "")])
    hand = _declared_hand(hands)
    play(hand, f"0 declare 0 {_first(hand, 0)}")
    assert Action(1, ActionType.DECLARE) in hand.legal_actions()
    play(hand, "1 declare")
    assert hand.declared[1]


# --- R6.3 Baloot ---------------------------------------------------------------------------------------


def _finish(hand: Hand, seed: int = 1) -> None:
    rng = random.Random(seed)
    while not hand.finished:
        legal = [a for a in hand.legal_actions() if a.type is not ActionType.DECLARE]
        hand.apply(rng.choice(legal))


def _expected_game_points(hand: Hand, baloot_team: int | None) -> tuple[int, int]:
    """R7 game points recomputed from the card points (no double: counting = defenders)."""
    counting = 1 - (hand.taker or 0) % 2 if hand.level == 1 else None
    assert counting is not None
    cp = hand.card_points[counting]
    tens, units = divmod(cp, 10)
    gp = tens + (1 if units > 5 else 0)
    conv = [0, 0]
    conv[counting] = gp
    conv[1 - counting] = 16 - gp
    for seat, p in hand.winning_projects():
        conv[seat % 2] += p.value(False)
    if baloot_team is not None:
        conv[baloot_team] += 2
    return (conv[0], conv[1])


def _baloot_case(seat0: str, declare: set[int], others: list[tuple[str, str]] | None = None) -> Hand:
    specs = [(seat0, "H")] + (others or [("", ""), ("", ""), ("", "")])
    hands = fill_hands(specs)
    up = next(c for c in seat0.split() if c[1] == "H" and c not in ("KH", "QH"))
    hand = hokum_by_p1(hands, up)
    _play_trick(hand, declare)
    _finish(hand)
    return hand


def test_r6_3_baloot_counts_two_for_holder() -> None:
    """R6.3: K and Q of trumps in one hand score 2 for the holder's team (no project)."""
    hand = _baloot_case("9H KH QH 7S 9S 8D TC JC", set())
    assert hand.baloot_team() == 0
    assert hand.result is not None
    assert hand.result.game_points == _expected_game_points(hand, 0)
    assert hand_summary(hand)["baloot"] == 0


def test_r6_3_baloot_cancelled_by_four_kings() -> None:
    """R6.3: a scored Hundred of four Kings contains exactly one of K/Q: no Baloot."""
    hand = _baloot_case("9H KH QH KS KD KC 7S 8D", {0})
    assert [p.type.value for p in hand.projects_of(0)] == ["hundred"]
    assert hand.baloot_team() is None
    assert hand.result is not None
    assert hand.result.game_points == _expected_game_points(hand, None)
    assert hand_summary(hand)["baloot"] is None


def test_r6_3_baloot_cancelled_by_four_queens() -> None:
    """R6.3: four Queens (exactly one of K/Q of trumps) cancel the Baloot."""
    hand = _baloot_case("9H KH QH QS QD QC 7S 8D", {0})
    assert hand.baloot_team() is None


def test_r6_3_baloot_cancelled_by_five_card_sequence() -> None:
    """R6.3 / R11.8: a scored five-card sequence holding both K and Q cancels it."""
    hand = _baloot_case("9H TH JH QH KH 7S 8D 7C", {0})
    assert [p.type.value for p in hand.projects_of(0)] == ["hundred"]
    assert hand.baloot_team() is None
    assert hand.result is not None
    assert hand.result.game_points == _expected_game_points(hand, None)


def test_r6_3_baloot_carried_by_sira_counted_once() -> None:
    """R6.3: a scored Sira containing both carries the Baloot: still 2, counted once."""
    hand = _baloot_case("8H JH QH KH 7S 9S 8D TC", {0})
    assert [p.type.value for p in hand.projects_of(0)] == ["sira"]
    assert hand.baloot_team() == 0
    assert hand.result is not None
    assert hand.result.game_points == _expected_game_points(hand, 0)


def test_r6_3_baloot_carried_by_fifty() -> None:
    """R6.3: a scored Fifty containing both (A-K-Q-J of trumps) carries the Baloot."""
    hand = _baloot_case("AH KH QH JH 8S 7S 9D 7C", {0})
    assert [p.type.value for p in hand.projects_of(0)] == ["fifty"]
    assert hand.baloot_team() == 0


def test_r6_3_baloot_counts_when_holder_does_not_declare() -> None:
    """R6.3: the four Kings are not declared, so not scored: the Baloot counts."""
    hand = _baloot_case("9H KH QH KS KD KC 7S 8D", set())
    assert hand.baloot_team() == 0


def test_r6_3_baloot_counts_when_holders_project_loses() -> None:
    """R6.3 / R11.8: seat 0's four Kings lose to seat 1's four Aces (Hokum Hundreds, top
    A > K): the four Kings do not score, so the Baloot counts."""
    hand = _baloot_case("9H KH QH KS KD KC 7S 8D", {0, 1}, [("AS AH AD AC", ""), ("", ""), ("", "")])
    assert hand.project_team == 1
    assert hand.baloot_team() == 0
    assert hand.result is not None
    assert hand.result.game_points == _expected_game_points(hand, 0)


def test_r6_3_baloot_never_multiplied() -> None:
    """R6.3 / R7: under a Double the Baloot adds 2, not 4."""
    hands = fill_hands([("9H KH QH", "H"), ("", ""), ("", ""), ("", "")])
    hand = hokum_by_p1(hands, "9H", doubling="1 double open 0 pass")
    _finish(hand, 4)
    assert hand.result is not None and hand.baloot_team() == 0
    winner = hand.result.winner
    assert max(hand.result.score) == 32 + 2
    assert hand.result.score[winner] == 34


def test_r6_3_no_baloot_in_sun() -> None:
    """R6.3: Baloot exists only in Hokum."""
    hands = fill_hands([("AH KH QH", ""), ("", ""), ("", ""), ("", "")])
    hand = sun_by_p1(hands, "AH")
    _finish(hand)
    assert hand.baloot_team() is None
