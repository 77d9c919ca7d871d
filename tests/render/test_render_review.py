"""The review's picture and messages: drawn at the size Discord shows it (about 400 px wide) with every
text readable and no ``.notdef`` box, the costliest decisions, the steps and their buttons, both languages."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

from baloot.ai.normal import NormalPlayer
from baloot.engine.actions import Action, ActionType
from baloot.engine.match import Match
from baloot.engine.rules import Rules
from baloot.engine.summary import MatchSummary, summarize_match
from baloot.engine.view import seat_view
from baloot.i18n import t
from baloot.i18n.direction import strip_isolates
from baloot.render import decode_review_id, emoji_text
from baloot.render.custom_ids import EVERYONE, ReviewId
from baloot.render.limits import DESCRIPTION, check_limits
from baloot.render.review import (
    ReviewShown,
    last_reviewable,
    match_accuracy_line,
    overview_payload,
    progress_payload,
    step_payload,
    steps_of,
    with_match_accuracy,
    with_review_button,
)
from baloot.render.review_picture import HEIGHT, MIN_FONT, WIDTH, costliest, review_picture
from baloot.review import HandReview

SHOWN_WIDTH = 400
READABLE = 10
REVIEW = Path(__file__).with_name("review_hand.json")


def a_review() -> HandReview:
    return HandReview.from_json(json.loads(REVIEW.read_text()))


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, ImageFont.FreeTypeFont | ImageFont.ImageFont]]]:
    seen: list[tuple[str, ImageFont.FreeTypeFont | ImageFont.ImageFont]] = []
    real = ImageDraw.ImageDraw.text

    def record(self: ImageDraw.ImageDraw, xy: object, text: str, *args: object, **kwargs: object) -> None:
        f = kwargs.get("font")
        assert isinstance(f, ImageFont.FreeTypeFont | ImageFont.ImageFont)
        seen.append((text, f))
        real(self, xy, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", record)
    yield seen


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_the_picture_is_drawn_for_chat_size_with_readable_texts_and_no_boxes(
        drawn: list[tuple[str, ImageFont.FreeTypeFont | ImageFont.ImageFont]], locale: str) -> None:
    review = a_review()
    image = Image.open(io.BytesIO(review_picture(review, locale)))
    assert image.size == (WIDTH, HEIGHT) and WIDTH == 2 * SHOWN_WIDTH
    assert MIN_FONT * SHOWN_WIDTH / WIDTH >= READABLE
    texts = [text for text, _ in drawn if text.strip()]
    assert texts and all(isinstance(f, ImageFont.FreeTypeFont) and f.size >= MIN_FONT for _, f in drawn)
    for text, f in drawn:  # every character its own glyph: no .notdef box
        assert all(emoji_text.has_glyph(f, c) for c in text if not c.isspace()), text
    worst = costliest(review)
    assert len(worst) == 3 and worst[0].loss >= worst[1].loss >= worst[2].loss > 0
    assert f"\u2212{worst[0].loss:.1f}" in texts


def test_a_bid_among_the_costliest_is_a_tag_in_the_viewers_language(
        drawn: list[tuple[str, ImageFont.FreeTypeFont | ImageFont.ImageFont]]) -> None:
    review = a_review()
    bids = [d for d in review.decisions if d.trick < 0 and not d.forced]
    assert bids
    from baloot.render.review_picture import _tag
    for locale in ("en", "ar"):
        drawn.clear()
        _tag(Action(0, ActionType.HOKUM), locale, 74)
        assert drawn and all(emoji_text.has_glyph(f, c) for text, f in drawn for c in text if not c.isspace())


def test_a_seat_in_focus_shows_only_its_costliest_decisions() -> None:
    review = a_review()
    for seat in range(4):
        assert all(d.seat == seat for d in costliest(review, seat))
    assert review_picture(review, "en", 0) != review_picture(review, "en", None)


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_the_overview_and_every_step_with_their_buttons(locale: str) -> None:
    review = a_review()
    shown = ReviewShown("123", review.hand, review, ("Ali", "Omar", "Sara", "نورة"))
    overview = overview_payload(shown, locale)
    embed = overview["embeds"][0]
    assert strip_isolates(embed["title"]) == t("review.title", locale, hand=review.hand + 1)
    assert embed["image"]["url"] == "attachment://hand-review.png" and overview["files"][0][0] == "hand-review.png"
    assert f"{review.accuracy[0]:.1f}" in embed["description"]
    ids = [c["custom_id"] for row in overview["components"] for c in row["components"]]
    assert all(len(i) <= 100 for i in ids) and len(set(ids)) == len(ids)  # Discord refuses equal ids
    assert [decode_review_id(i) for i in ids[2:]] == [ReviewId("123", review.hand, 0, s) for s in (0, 1, 2, 3,
                                                                                                   EVERYONE)]
    steps = steps_of(review)
    assert steps[:2] == [0, 1] and steps[2:] == list(range(2, 2 + len(steps) - 2))
    assert decode_review_id(ids[1]) == ReviewId("123", review.hand, 1, EVERYONE)  # ▶ leads to the bidding
    assert decode_review_id(ids[0]).step == steps[-1]  # ◀ round the hand to its last trick
    trick = step_payload(shown, 4, locale)  # trick 3
    text = trick["embeds"][0]["description"]
    assert strip_isolates(trick["embeds"][0]["title"]) == t("review.step_trick", locale, hand=review.hand + 1, trick=3)
    played = [d for d in review.decisions if d.trick == 2]
    assert len(played) == 4 and text.count("▸") == sum(1 for d in played if not d.forced)
    nav = [decode_review_id(c["custom_id"]) for c in trick["components"][0]["components"]]
    assert [n.step for n in nav] == [3, 5]
    mine = step_payload(shown, 4, locale, seat=played[0].seat)["embeds"][0]["description"]
    assert mine.count("▸") <= 1 and len(mine) < len(text)


def test_the_progress_line() -> None:
    assert progress_payload("en", 4, 8)["content"] == "Reviewing trick 5 of 8…"
    assert progress_payload("en", -1, 8)["content"] == "Reviewing the bidding…"
    arabic = t("review.progress_trick", "ar", trick=5, tricks=8)
    assert strip_isolates(progress_payload("ar", 4, 8)["content"]) == arabic


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_the_match_accuracy_line_goes_under_the_last_message_in_its_language(locale: str) -> None:
    names = ("Ali", "عمر", "Sara", "")
    line = match_accuracy_line(names, [91.24, 64.0, 88.5, 70.31], locale)
    payload: dict[str, Any] = {"content": "", "embeds": [{"title": "Hand 3 — Sun", "description": "x" * DESCRIPTION}],
               "components": [{"type": 1, "components": [{"type": 2, "style": 2, "label": "Details",
                                                          "custom_id": "bl:1:result:2"}]}]}
    shown = with_match_accuracy(payload, line, locale)
    text = strip_isolates(shown["embeds"][0]["description"])
    assert text.endswith(strip_isolates(line)) and "91.2" in text and "70.3" in text and "4 70.3" in text
    assert t("review.match_accuracy", locale, line="").strip() in text
    assert shown["components"] == payload["components"] and payload["embeds"][0]["description"] == "x" * DESCRIPTION
    check_limits(shown)
    assert with_match_accuracy({"content": "", "embeds": []}, line, locale)["content"]


def a_sheet() -> tuple[MatchSummary, MatchSummary, int]:
    """The match before any hand is over, and after hand ``n`` (returned) was scored while the next one runs."""
    rng = random.Random(4)
    match, bot = Match(Rules(), 0), NormalPlayer()
    hand = match.deal(rng)
    match.apply(bot.choose(seat_view(hand, hand.to_move), rng))
    before = summarize_match(match)
    while not hand.finished:
        match.apply(bot.choose(seat_view(hand, hand.to_move), rng))
    while hand.result is None:
        hand = match.deal(rng)
        while not hand.finished:
            match.apply(bot.choose(seat_view(hand, hand.to_move), rng))
    played = len(match.hands) - 1
    hand = match.deal(rng)
    match.apply(bot.choose(seat_view(hand, hand.to_move), rng))
    return before, summarize_match(match), played


def test_a_quick_match_dm_offers_review_of_the_newest_finished_hand_only() -> None:
    before, sheet, played = a_sheet()
    buttons = [{"type": 2, "style": 1, "label": "x", "custom_id": f"x{i}"} for i in range(4)]
    row: dict[str, Any] = {"type": 1, "components": buttons}
    payload: dict[str, Any] = {"embeds": [], "components": [row] * 4}
    assert last_reviewable(before) is None and with_review_button(payload, 7, before, "en") is payload
    assert last_reviewable(sheet) == played and played < len(sheet.hands) - 1  # never the hand in progress
    review = ReviewId("7", played).encode()
    shown = with_review_button(payload, 7, sheet, "en")  # a row of its own
    assert shown["components"][4]["components"][0]["custom_id"] == review
    assert shown["components"][4]["components"][0]["label"] == f"Review hand {played + 1}"
    assert payload["components"] == [row] * 4 and len(shown["components"]) == 5  # the payload itself unchanged
    full = with_review_button({**payload, "components": [row] * 5}, 7, sheet, "ar")  # five rows: in the last
    assert [c["custom_id"] for c in full["components"][4]["components"]][-1] == review
    assert strip_isolates(full["components"][4]["components"][-1]["label"]) == f"مراجعة اليد {played + 1}"
    packed = {"type": 1, "components": [*buttons, buttons[0]]}
    assert with_review_button({**payload, "components": [packed] * 5}, 7, sheet, "en")["components"] == [packed] * 5
