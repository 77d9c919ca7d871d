"""Sawa in the bot's messages (R12): the private Sawa button, and the claim on the table message."""

from __future__ import annotations

from typing import Any

import pytest
from engine_helpers import build_deck, play
from render_helpers import table_payload
from test_engine_sawa import SUN_LOSES_FIRST, SUN_LOSES_FIRST_TRICKS
from test_render_states import all_texts

from baloot import Match, Rules, seat_view
from baloot.engine.actions import SAWA_ACTIONS
from baloot.engine.cards import ALL_CARDS, iter_bits
from baloot.i18n.direction import strip_isolates
from baloot.render import RenderInfo, check_limits, decode_action_id, render_hand
from baloot.render.components import SUCCESS
from baloot.render.text import card_text

INFO = RenderInfo("77", names=("Ali", "Badr", "Camil", "Dana"))
LABELS = {"en": "Sawa (claim the rest)", "ar": "سوا (الباقي لي)"}


def at_the_claim(rules: Rules | None = None) -> Match:
    """Sun by seat 0 (dealer 3); seat 0 leads the third trick and may claim (R12.2)."""
    match = Match(rules or Rules(), 3)
    match.deal(build_deck(3, SUN_LOSES_FIRST, "KH", 0))
    play(match, f"0 sun {SUN_LOSES_FIRST_TRICKS}")
    return match


def buttons(payload: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for row in payload["components"] for b in row["components"]]


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_the_private_view_offers_sawa_only_to_the_seat_that_may_claim(locale: str) -> None:
    match = at_the_claim()
    hand = match.hands[0]
    payload = render_hand(INFO, seat_view(hand, 0), 0, locale)
    check_limits(payload)
    (sawa,) = [b for b in buttons(payload) if decode_action_id(b["custom_id"]).action is SAWA_ACTIONS[0]]
    assert sawa["label"] == LABELS[locale] and sawa["style"] == SUCCESS and not sawa.get("disabled")
    assert sawa["custom_id"].endswith(":w")
    for seat in (1, 2, 3):
        others = render_hand(INFO, seat_view(hand, seat), 0, locale)
        assert all(":w" not in b["custom_id"] for b in buttons(others))
    off = at_the_claim(Rules(sawa=False))
    assert all(":w" not in b["custom_id"] for b in buttons(render_hand(INFO, seat_view(off.hands[0], 0), 0, locale)))


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_the_table_message_shows_the_claim_and_the_claimants_cards(locale: str) -> None:
    match = at_the_claim()
    hand = match.hands[0]
    claimed = hand.hands[0]
    hidden = hand.hands[1] | hand.hands[2] | hand.hands[3]
    match.apply(SAWA_ACTIONS[0])
    payload = table_payload(INFO, match, locale)
    check_limits(payload)
    assert len(payload["embeds"]) == 1  # the hand's compact result, the claim first (R12)
    result = payload["embeds"][0]
    field = {k: strip_isolates(v) for k, v in result["fields"][0].items() if isinstance(v, str)}
    assert field["name"] in ("Sawa", "سوا")
    assert "Ali" in field["value"] and "6" in field["value"]  # seat 0 took the last 6 tricks
    for i in iter_bits(claimed):  # public once claimed (R12)
        assert strip_isolates(card_text(ALL_CARDS[i], locale)) in field["value"]
    text = all_texts(payload)
    for i in iter_bits(hidden):  # the others' cards stay hidden
        assert strip_isolates(card_text(ALL_CARDS[i], locale)) not in strip_isolates(text)
