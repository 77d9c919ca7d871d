"""The private view's buttons and words in specific situations."""

from __future__ import annotations

import random
from typing import Any

from render_helpers import table_payload

from baloot import Action, ActionType, Card, Hand, Match, Phase, Rules, seat_view
from baloot.i18n import t
from baloot.render import RenderInfo, check_limits, decode_action_id, render_hand
from baloot.render.text import sort_cards

INFO = RenderInfo("77", names=("Ali", "Badr", "Chadi", "Dana"))


def labels(payload: dict[str, Any]) -> dict[str, Action]:
    return {
        b["label"]: decode_action_id(b["custom_id"]).action
        for row in payload["components"]
        for b in row["components"]
        if not b["disabled"]
    }


def deck_of(text: str) -> list[Card]:
    """A deck from the first cards given, the rest in index order."""
    first = [Card.parse(c) for c in text.split()]
    return first + [c for c in (Card(i) for i in range(32)) if c not in first]


def test_bidding_buttons_in_both_languages() -> None:
    hand = Hand(3, deck_of(""), Rules(kawesh=True))
    seat = hand.to_move
    en = labels(render_hand(INFO, seat_view(hand, seat), 0, "en"))
    ar = labels(render_hand(INFO, seat_view(hand, seat), 0, "ar-SA"))
    assert set(en.values()) == set(hand.legal_actions())
    assert {"Pass", "Hokum", "Sun"} <= set(en)
    assert {"بس", "حكم", "صن"} <= set(ar)
    # Seat 0 is p1: no Ashkal; Kawesh only with five low cards (deck_of("") gives 7S 8S 9S TS JS).
    assert "Ashkal" not in en and "Kawesh" not in en


def test_confirm_switch_and_round_two_suit_buttons() -> None:
    rng = random.Random(1)
    confirm_seen = suits_seen = False
    for _ in range(400):
        hand = Hand(rng.randrange(4), [Card(i) for i in rng.sample(range(32), 32)])
        while hand.phase == Phase.BIDDING:
            legal = hand.legal_actions()
            seat = hand.to_move
            types = {a.type for a in legal}
            payload = render_hand(INFO, seat_view(hand, seat), 0, "en")
            check_limits(payload)
            names = labels(payload)
            if types == {ActionType.HOKUM, ActionType.SUN} and all(a.suit is None for a in legal):
                assert set(names) == {"Hokum (confirm)", "Sun (switch)"}
                confirm_seen = True
            if any(a.suit is not None for a in legal):
                up_suit = Card(hand.up_card).suit
                suits = {a.suit for a in names.values() if a.type is ActionType.HOKUM}
                assert suits == {0, 1, 2, 3} - {up_suit}
                assert any(label.startswith("Hokum ♥") for label in names) == (up_suit != 1)
                suits_seen = True
            hokum = [a for a in legal if a.type is ActionType.HOKUM]
            passes = [a for a in legal if a.type is ActionType.PASS]
            choice = hokum[0] if hokum and rng.random() < 0.5 else passes[0] if passes else rng.choice(legal)
            hand.apply(choice)
        if confirm_seen and suits_seen:
            break
    assert confirm_seen and suits_seen


def test_doubling_chain_buttons() -> None:
    rng = random.Random(3)
    seen: set[str] = set()
    for _ in range(200):
        hand = Hand(0, [Card(i) for i in rng.sample(range(32), 32)])
        while hand.phase == Phase.BIDDING:
            legal = hand.legal_actions()
            hokum = [a for a in legal if a.type is ActionType.HOKUM]
            hand.apply(hokum[0] if hokum else next(a for a in legal if a.type is ActionType.PASS))
        while hand.phase == Phase.DOUBLING:
            names = labels(render_hand(INFO, seat_view(hand, hand.to_move), 0, "ar"))
            seen.update(names)
            hand.apply(max(hand.legal_actions(), key=lambda a: (a.type is not ActionType.PASS, bool(a.locked))))
        if hand.phase == Phase.PLAYING and hand.level == 5:
            break
    assert {"بس", "دبل (مقفول)", "دبل (مفتوح)", "ثري", "فور (مقفول)", "فور (مفتوح)", "قهوة"} <= seen


def test_declare_button_names_the_projects() -> None:
    # Seat 1 (p1, dealer 0) gets deck[0:3] + deck[12:14]: A-K-Q of hearts and more.
    deck = deck_of("AH KH QH 7S 8S 9S 7D 8D 9D 7C 8C 9C JS TS TD JD JC TC")
    match = Match(Rules(), first_dealer=0)
    hand = match.deal(deck)
    while hand.phase != Phase.PLAYING:
        legal = hand.legal_actions()
        sun = [a for a in legal if a.type is ActionType.SUN]
        match.apply(sun[0] if sun and hand.to_move == 1 else next(a for a in legal if a.type is ActionType.PASS))
    assert hand.to_move == 1
    for locale, expected in (("en", "Declare: Sira A-K-Q ♥"), ("ar", "أعلن: سرا إكة-شايب-بنت ♥")):
        payload = render_hand(INFO, seat_view(hand, 1), 0, locale)
        names = labels(payload)
        declare = [label for label, a in names.items() if a.type is ActionType.DECLARE]
        assert declare and declare[0].startswith(expected), declare


def test_cards_sorted_by_suit_then_trick_order() -> None:
    cards = [Card.parse(c) for c in ["7H", "AH", "JH", "9H", "TS", "QS", "8D"]]
    hokum = [c.text for c in sort_cards(cards, trump=1, sun=False)]
    assert hokum == ["JH", "9H", "AH", "7H", "TS", "QS", "8D"]
    sun = [c.text for c in sort_cards(cards, trump=None, sun=True)]
    assert sun == ["TS", "QS", "AH", "JH", "9H", "7H", "8D"]


def test_a_waiting_seat_has_only_disabled_cards_and_a_finished_hand_none() -> None:
    rng = random.Random(8)
    match = Match()
    hand = match.deal(rng)
    other = (hand.to_move + 1) % 4
    payload = render_hand(INFO, seat_view(hand, other), 0, "en")
    buttons = [b for row in payload["components"] for b in row["components"]]
    assert len(buttons) == 5 and all(b["disabled"] for b in buttons)
    assert "Waiting for" in payload["embeds"][0]["description"]
    while not hand.finished:
        match.apply(rng.choice(hand.legal_actions()))
    done = render_hand(INFO, seat_view(hand, other), 0, "en")
    assert done["components"] == []
    assert "The hand is over." in done["embeds"][0]["description"]



def _bids(payload: dict[str, Any], locale: str) -> list[str]:
    """The lines of the "Bids" field of a rendered payload, without the bidi isolates."""
    strip = "\u2066\u2067\u2068\u2069"
    fields = payload["embeds"][0]["fields"]
    value = next(f["value"] for f in fields if f["name"].strip(strip) == t("table.bids", locale))
    return [line.strip(strip) for line in value.split("\n")]


def test_round_two_is_marked_in_the_bids_of_both_views() -> None:
    """R3.2: after four passes in round one, the bid list shows "Round 2" before the second round's bids,
    in the private view and on the table message, in English and Arabic."""
    match = Match(first_dealer=3)
    hand = match.deal(deck_of(""))
    for _ in range(4):
        match.apply(next(a for a in hand.legal_actions() if a.type is ActionType.PASS))
    assert t("table.round_two", "en") not in _bids(render_hand(INFO, seat_view(hand, 0), 0, "en"), "en")
    match.apply(next(a for a in hand.legal_actions() if a.type is ActionType.PASS))  # round two's first bid
    for locale in ("en", "ar"):
        marker = t("table.round_two", locale)
        for payload in (render_hand(INFO, seat_view(hand, 0), 0, locale), table_payload(INFO, match, locale)):
            lines = _bids(payload, locale)
            assert len(lines) == 6 and lines.index(marker) == 4, lines  # four passes, the marker, the fifth bid


def test_shared_fields_drawn_once_give_every_seat_the_same_view_as_drawn_alone() -> None:
    """The four seats' views of one state share their public fields' drawing; what each seat
    sees is exactly what it sees drawn on its own, in both languages, and a renamed seat is redrawn."""
    from dataclasses import replace

    from baloot.engine.view import public_view
    from baloot.render import hand_view

    rng = random.Random(9)
    checked = 0
    for _ in range(6):
        match = Match(Rules(), rng.randrange(4))
        hand = match.deal(rng)
        while not hand.finished:
            if rng.random() < 0.3:
                public = public_view(hand, hand.match_score)
                views = [seat_view(hand, seat, public=public) for seat in range(4)]
                for locale in ("en", "ar"):
                    hand_view._SHARED.clear()
                    shared = [render_hand(INFO, v, 0, locale) for v in views]
                    alone = [render_hand(INFO, replace(v, public=None), 0, locale) for v in views]
                    assert shared == alone
                    renamed = replace(INFO, names=("Zed", "Badr", "Chadi", "Dana"), away=(True, False, False, False))
                    assert render_hand(renamed, views[1], 0, locale) == render_hand(
                        renamed, replace(views[1], public=None), 0, locale)
                    checked += 1
            match.apply(rng.choice(hand.legal_actions()))
    assert checked > 20
    assert len(hand_view._SHARED) <= hand_view._SHARED_LIMIT


def test_card_buttons_carry_the_emojis_given_and_nothing_else_does() -> None:
    """The bot's card emojis are drawn into the card buttons (cogs/presentation/emojis.py gives them)."""
    rng = random.Random(4)
    hand = Match(Rules()).deal(rng)
    while hand.phase == Phase.BIDDING:  # bidding: pass/Hokum/Sun buttons plus the cards
        seat = hand.to_move
        emojis = {i: {"name": f"bl_{Card(i).text}", "id": str(900 + i)} for i in range(0, 32, 2)}  # half of them
        payload = render_hand(INFO, seat_view(hand, seat), 0, "en", emojis)
        for row in payload["components"]:
            for b in row["components"]:
                action = decode_action_id(b["custom_id"]).action
                if action.type is ActionType.PLAY:
                    assert action.card is not None
                    assert b.get("emoji") == emojis.get(action.card.index)
                else:
                    assert "emoji" not in b
        check_limits(payload)
        plain = render_hand(INFO, seat_view(hand, seat), 0, "en")
        assert not any("emoji" in b for row in plain["components"] for b in row["components"])
        hand.apply(rng.choice(hand.legal_actions()))
