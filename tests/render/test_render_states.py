"""Hundreds of random game states rendered in both languages.

For every state: each payload is within Discord's limits; a seat's private
view shows none of another seat's hidden cards, and its buttons are exactly
its legal actions (illegal cards shown disabled); the table message shows no
hidden card at all; every custom_id decodes back to its action and version.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from render_helpers import table_payload

from baloot import Action, ActionType, Hand, Match, Phase, Rules, seat_view
from baloot.engine.cards import ALL_CARDS, Card, iter_bits
from baloot.render import RenderInfo, check_limits, decode_action_id, render_hand
from baloot.render.custom_ids import ACTION_ID_TEMPLATE
from baloot.render.model import Notice
from baloot.render.text import card_text

LOCALES = ("en", "ar")
VARIANTS = Rules(ashkal_on_ace=True, ashkal_round_two=True, third_round_on_ace=True, kawesh=True,
                 declarer_leads=True, trump_sequence_priority=True, projects_multiply_fully=True)
NASTY_NAMES = ("*Bold*_x`y`", "@everyone", "ﷺ" * 40, "علي_||spoiler||")


def choose(hand: Hand, rng: random.Random) -> Action:
    """A random legal action, biased so that contracts, double chains and projects happen.

    Sawa (R12) is never chosen here, so the corpus stays the one these tests were written on;
    states after a claim are rendered by the Sawa tests.
    """
    legal = [a for a in hand.legal_actions() if a.type is not ActionType.SAWA]
    declares = [a for a in legal if a.type is ActionType.DECLARE]
    if declares and rng.random() < 0.8:
        return declares[0]
    raises = [a for a in legal if a.type not in (ActionType.PASS, ActionType.PLAY, ActionType.DECLARE)]
    if hand.phase == Phase.DOUBLING and raises and rng.random() < 0.45:
        return rng.choice(raises)
    if hand.phase == Phase.BIDDING and raises and rng.random() < 0.35:
        return rng.choice(raises)
    return rng.choice(legal)


def table_info(rng: random.Random, game: int) -> RenderInfo:
    names: tuple[str | None, ...] = tuple(rng.choice([f"Player{game}{s}", NASTY_NAMES[s], "عبدالله"]) for s in range(4))
    return RenderInfo(
        table_id=str(10**17 + game * 7919),
        names=names,  # type: ignore[arg-type]
        is_bot=tuple(rng.random() < 0.3 for _ in range(4)),  # type: ignore[arg-type]
        away=tuple(rng.random() < 0.1 for _ in range(4)),  # type: ignore[arg-type]
        turn_deadline=rng.choice([None, 1_700_000_000 + game]),
        language=rng.choice(LOCALES),
        notice=rng.choice([None, Notice("notice.timed_out", seat=1, action=Action(1, ActionType.PASS)),
                           Notice("notice.reminder", seat=2, params=(("seconds", 15), ("deadline", "<t:1:R>")))]),
    )


def random_states(seed: int, games: int, every: int) -> Iterator[tuple[RenderInfo, Match]]:
    """Match states along random games: every bid and double, one play in ``every``, each hand's end."""
    rng = random.Random(seed)
    for game in range(games):
        match = Match(VARIANTS if game % 3 == 0 else Rules(), first_dealer=game % 4)
        if game % 4 == 1:
            match.score = [110, 60]  # R4: Sun may be doubled
        info = table_info(rng, game)
        for _ in range(2):
            if match.finished:
                break
            hand = match.deal(rng)
            step = rng.randrange(every)
            while not hand.finished:
                if hand.phase != Phase.PLAYING or step % every == 0:
                    yield info, match
                step += 1
                match.apply(choose(hand, rng))
            yield info, match


def all_texts(payload: dict[str, Any]) -> str:
    parts = [payload.get("content") or ""]
    for embed in payload.get("embeds", []):
        parts += [embed.get("title", ""), embed.get("description", ""), embed.get("footer", {}).get("text", "")]
        parts += [f["name"] + "\n" + f["value"] for f in embed.get("fields", [])]
    parts += [b.get("label", "") for row in payload.get("components", []) for b in row["components"]]
    return "\n".join(parts)


def public_project_cards(hand: Hand) -> int:
    mask = 0
    for projects in hand.declared.values():
        for p in projects:
            mask |= p.mask
    return mask


def hidden_from(hand: Hand, viewer: int | None) -> list[Card]:
    """Cards held by seats other than ``viewer`` and not shown by a declaration."""
    mask = 0
    for seat in range(4):
        if seat != viewer:
            mask |= hand.hands[seat]
    return [ALL_CARDS[i] for i in iter_bits(mask & ~public_project_cards(hand))]


def assert_no_hidden_cards(payload: dict[str, Any], hand: Hand, viewer: int | None) -> None:
    text = all_texts(payload)
    hidden = hidden_from(hand, viewer)
    for locale in LOCALES:
        for card in hidden:
            assert card_text(card, locale) not in text, (viewer, card.text)
    for row in payload.get("components", []):
        for b in row["components"]:
            if re.fullmatch(ACTION_ID_TEMPLATE, b["custom_id"]):  # an action button (not a review's step)
                action = decode_action_id(b["custom_id"]).action
                assert action.card is None or action.card not in hidden


def assert_buttons_match_legal(payload: dict[str, Any], hand: Hand, seat: int, hand_no: int) -> None:
    view = seat_view(hand, seat)
    enabled: list[Action] = []
    disabled: list[Action] = []
    for row in payload["components"]:
        for b in row["components"]:
            decoded = decode_action_id(b["custom_id"])
            assert (decoded.seat, decoded.version) == (seat, (hand_no, len(hand.actions)))
            assert decoded.table_id.isdigit()
            (disabled if b["disabled"] else enabled).append(decoded.action)
    assert sorted(enabled, key=str) == sorted(view.legal, key=str)
    assert len(set(enabled)) == len(enabled)
    assert all(a.type is ActionType.PLAY and a not in view.legal for a in disabled)
    if hand.finished:
        assert enabled == disabled == []
    else:
        shown = sorted(a.card.index for a in enabled + disabled if a.card is not None)
        assert shown == sorted(c.index for c in view.hand)
    for action in enabled:
        assert action in hand.legal_actions()


def test_random_states_render_within_limits_and_show_only_what_each_seat_may_see() -> None:
    states = 0
    phases: set[Phase] = set()
    kinds: set[ActionType] = set()
    for info, match in random_states(seed=2024, games=30, every=6):
        hand = match.hands[-1]
        hand_no = len(match.hands) - 1
        states += 1
        phases.add(hand.phase)
        kinds.update(a.type for a in hand.legal_actions())
        for locale in LOCALES:
            table = table_payload(info, match, locale)
            check_limits(table)
            assert_no_hidden_cards(table, hand, viewer=None)
            for seat in range(4):
                private = render_hand(info, seat_view(hand, seat), hand_no, locale)
                check_limits(private)
                assert_no_hidden_cards(private, hand, viewer=seat)
                assert_buttons_match_legal(private, hand, seat, hand_no)
    assert states >= 300
    assert phases == set(Phase)
    assert {ActionType.ASHKAL, ActionType.TRIPLE, ActionType.FOUR, ActionType.GAHWA, ActionType.DECLARE} <= kinds


def test_table_message_follows_the_hand() -> None:
    rng = random.Random(5)
    match = Match(Rules())
    info = RenderInfo("42", names=("A1", "B2", "C3", "D4"), turn_deadline=1_800_000_000)
    hand = match.deal(rng)
    first = table_payload(info, match, "en")["embeds"][0]
    assert "Up card" in [f["name"] for f in first["fields"]]
    assert "<t:1800000000:R>" in all_texts(table_payload(info, match, "en"))
    while hand.phase != Phase.PLAYING and not hand.finished:
        match.apply(choose(hand, rng))
    if hand.finished:
        return
    view_fields = {f["name"]: f["value"] for f in table_payload(info, match, "en")["embeds"][0]["fields"]}
    assert "Contract" in view_fields and "Up card" not in view_fields
    played = 0
    while not hand.finished:
        action = choose(hand, rng)
        match.apply(action)
        if action.type is ActionType.PLAY and not hand.finished:
            played += 1
            assert action.card is not None
            fields = {f["name"]: f["value"] for f in table_payload(info, match, "en")["embeds"][0]["fields"]}
            if played % 4:
                assert card_text(action.card, "en") in fields["Current trick"]
            else:
                last = next(v for k, v in fields.items() if k.startswith("Last trick"))
                assert card_text(action.card, "en") in last
    payload = table_payload(info, match, "en")
    if match.finished:  # the match's last hand: the hand, its R7 result and the score sheet (R8)
        assert len(payload["embeds"]) >= 2 and payload["embeds"][1]["title"] == "Hand 1 result"
    else:  # compact: the result alone, the breakdown behind "Details"
        assert len(payload["embeds"]) == 1 and payload["embeds"][0]["title"] == "Baloot — hand 1"
