"""Mirrored deals: a round of a fixed number of deals replays its first half's decks with the sides swapped
(docs/tournaments.md, "Duplicate deals"; R1 the deal passes to the right, R2 the deck dealt from the dealer)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baloot.engine.actions import Action
from baloot.engine.hand import Hand
from baloot.engine.match import Match
from baloot.engine.rules import Rules
from baloot.tournaments import board_of, board_side, deal_deck, first_dealer, hand_deck


def test_four_and_eight_deals_replay_in_the_documented_order() -> None:
    assert [board_of(h, 4) for h in range(4)] == [(0, False), (1, False), (1, True), (0, True)]
    assert [board_of(h, 8)[0] for h in range(8)] == [0, 1, 2, 3, 1, 0, 3, 2]
    assert [board_of(h, 6)[0] for h in range(6)] == [0, 1, 2, 0, 1, 2]
    assert [board_of(h, 5) for h in range(5)] == [(0, False), (1, False), (1, True), (0, True), (4, False)]


def test_rounds_to_a_target_and_of_one_deal_deal_fresh_decks_and_play_offs_too() -> None:
    assert [board_of(h, 0) for h in range(6)] == [(h, False) for h in range(6)]
    assert [board_of(h, 1) for h in range(3)] == [(h, False) for h in range(3)]
    assert [board_of(h, 4) for h in (4, 5, 9)] == [(4, False), (5, False), (9, False)]


@pytest.mark.parametrize("deals", range(2, 17))
def test_every_first_half_board_is_replayed_once_an_odd_number_of_hands_later(deals: int) -> None:
    half = deals // 2
    boards = [board_of(h, deals) for h in range(deals + 4)]  # four play-off hands too
    assert [b for b, _ in boards[:half]] == list(range(half))
    assert not any(flipped for _, flipped in boards[:half])
    replays = {b: h for h, (b, flipped) in enumerate(boards) if flipped}
    assert sorted(replays) == list(range(half)), "each first-half board replayed exactly once"
    for board, at in replays.items():
        assert (at - board) % 2 == 1, "an odd number of seats later: the teams' cards swap"
        assert at - board >= half - 1, "as late as an odd distance allows"
    fresh = [b for b, flipped in boards[half:] if not flipped]
    assert len(fresh) == len(set(fresh)) and not set(fresh) & set(range(half)), "no board collides"
    assert all(b >= 2 * half for b in fresh)


@given(st.integers(2, 16), st.integers(0, 40))
def test_board_side_swaps_exactly_on_a_replay(deals: int, hand_no: int) -> None:
    board, flipped = board_of(hand_no, deals)
    assert board_side(0, flipped) == int(flipped) and board_side(1, flipped) == 1 - int(flipped)
    assert (board == hand_no) != flipped


def _team_cards(hand: Hand, side: int) -> set[str]:
    return {c.text for seat in (side, side + 2) for c in hand.hand_of(seat)}


def _bid_relative(original: Hand, replay: Hand, seed: int) -> None:
    """Both hands bid the same way relative to the dealer: the same choice at the same position."""
    k = 0
    while original.phase == replay.phase and original.taker is None and original.contract is None:
        legal_o, legal_r = original.legal_actions(), replay.legal_actions()
        assert [a.to_json()["type"] for a in legal_o] == [a.to_json()["type"] for a in legal_r]
        assert original.position(original.to_move) == replay.position(replay.to_move)
        choice = (seed + k) % len(legal_o) if k >= 2 else 0  # pass twice, then something else
        original.apply(legal_o[choice])
        replay.apply(legal_r[choice])
        k += 1
        if original.finished:
            break


@pytest.mark.parametrize("deals", [2, 3, 4, 5, 8])
@pytest.mark.parametrize("seed", [1, 7, 12, 33])
def test_a_replay_gives_each_team_the_other_teams_cards_as_the_engine_deals(deals: int, seed: int) -> None:
    """Dealt by the engine's match (the deal passing to the right, thrown-in hands too): in the replay of a
    board, team 0/2 holds what team 1/3 held in the original, at the same positions relative to the dealer,
    and bids first at the same position; the bidding the same relative to the dealer, every seat's whole
    hand after the deal is completed (R2.4) is the cards the same position held in the original."""
    match = Match(Rules(deals=deals), first_dealer(seed))
    hands: list[Hand] = []
    for hand_no in range(deals):
        hand = match.deal(hand_deck(seed, hand_no, deals))
        hands.append(hand)
        while not hand.finished:  # everyone passes twice: thrown in (R3.2), the deal passes on
            hand.apply(Action.from_json({"seat": hand.to_move, "type": "pass"}))
    for hand_no, hand in enumerate(hands):
        board, flipped = board_of(hand_no, deals)
        assert list(hand.deck) == deal_deck(seed, board)
        if not flipped:
            continue
        original = hands[board]
        assert (hand.dealer - original.dealer) % 2 == 1
        for i in range(4):  # the same positions relative to the dealer hold the same first five cards
            assert Hand(hand.dealer, hand.deck).hand_of((hand.dealer + i) % 4) == \
                Hand(original.dealer, original.deck).hand_of((original.dealer + i) % 4)
        fresh_o, fresh_r = Hand(original.dealer, original.deck), Hand(hand.dealer, hand.deck)
        for side in (0, 1):
            assert _team_cards(fresh_r, side) == _team_cards(fresh_o, 1 - side)
        _bid_relative(fresh_o, fresh_r, seed)
        if fresh_o.taker is not None:
            for side in (0, 1):
                assert _team_cards(fresh_r, side) == _team_cards(fresh_o, board_side(side, flipped))
                assert fresh_r.taker is not None and fresh_r.taker % 2 == 1 - fresh_o.taker % 2
