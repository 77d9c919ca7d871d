"""Arabic that reads right: the visual order, not only the strings.

Rendered Arabic payloads go through a Unicode bidi implementation
(``python-bidi``, the unicode-bidi crate, which knows the isolates U+2066–U+2069)
with the paragraph laid out right to left, and left to right as Discord does:
each card's rank and suit stay together and in one order, a Latin name stays
where the sentence puts it, and each value of the rules' card table stays under
its heading (R1.1 card values, R6.1 project values).
"""

from __future__ import annotations

import random

import pytest
from bidi import get_display
from render_helpers import table_payload

from baloot import Action, ActionType, Hand, Match, Phase, Rules, seat_view
from baloot.engine.cards import Card
from baloot.engine.summary import summarize_match
from baloot.engine.view import public_view
from baloot.i18n.direction import ISOLATES, PDI, RLI, isolate, rtl_lines, strip_isolates
from baloot.i18n.plural import count, plural_category
from baloot.render import RenderInfo, render_hand, render_rules, render_table
from baloot.render.text import card_text, sort_cards

INFO = RenderInfo("77", names=("Ali", "عمر", "Omar 2", "Bot 4"), is_bot=(False, False, False, True), language="ar")
BASES = ("R", "L")


def visual(line: str, base: str) -> str:
    """The line as the eye sees it, left to right, without the (invisible) isolate marks."""
    return strip_isolates(get_display(line, base_dir=base))


def field(payload: dict[str, object], name: str) -> str:
    embed = payload["embeds"][0]  # type: ignore[index]
    for f in embed["fields"]:
        if strip_isolates(f["name"]) == name:
            return str(f["value"])
    raise AssertionError(f"no field {name!r}")


def cards_seen(line: str, base: str) -> list[str]:
    """The cards of a hand line as seen, right to left (the reading order of Arabic)."""
    seen = visual(line, base).strip().split("  ")
    return list(reversed(seen))


# -- plural forms (CLDR) -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("n", "ar", "en"),
    [(0, "zero", "other"), (1, "one", "one"), (2, "two", "other"), (3, "few", "other"), (10, "few", "other"),
     (11, "many", "other"), (26, "many", "other"), (99, "many", "other"), (100, "other", "other"),
     (101, "other", "other"), (102, "other", "other"), (103, "few", "other"), (111, "many", "other"),
     (1000, "other", "other")],
)
def test_cldr_plural_categories(n: int, ar: str, en: str) -> None:
    assert plural_category(n, "ar") == ar
    assert plural_category(n, "en") == en


def test_counted_phrases() -> None:
    assert count("tricks", 1, "en") == "1 trick"
    assert count("tricks", 5, "en") == "5 tricks"
    assert count("points", 1, "en") == "1 point"
    assert count("tricks", 2, "ar") == "أكلتان"
    assert count("tricks", 5, "ar") == "5 أكلات"
    assert count("points", 5, "ar") == "5 نقاط"
    assert count("points", 26, "ar") == "26 نقطة"
    assert count("points", 1, "ar") == "نقطة واحدة"


# -- the hand line ------------------------------------------------------------------------------------
def playing_hand(seed: int) -> Hand:
    return playing_match(seed).hands[-1]


def playing_match(seed: int) -> Match:
    rng = random.Random(seed)
    match = Match(Rules())
    hand = match.deal(rng)
    while hand.phase != Phase.PLAYING:
        legal = hand.legal_actions()
        buys = [a for a in legal if a.type in (ActionType.HOKUM, ActionType.SUN)]
        match.apply(buys[0] if buys and hand.phase == Phase.BIDDING else
                    next((a for a in legal if a.type is ActionType.PASS), legal[0]))
    return match


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("base", BASES)
def test_each_card_of_the_arabic_hand_line_keeps_rank_and_suit_together(seed: int, base: str) -> None:
    hand = playing_hand(seed)
    seat = hand.to_move
    assert seat is not None
    view = seat_view(hand, seat)
    line = field(render_hand(INFO, view, 0, "ar"), "أوراقك")
    expected = sort_cards(view.hand, view.trump, view.contract == "sun")
    seen = cards_seen(line, base)
    # Each card is seen as one piece, as the card alone is seen (suit to the left of its rank), in order.
    assert seen == [visual(card_text(c, "ar"), "R") for c in expected]
    for piece, card in zip(seen, expected, strict=True):
        rank, suit = piece.split(" ")[1], piece.split(" ")[0]
        assert suit in "♠♥♦♣" and strip_isolates(card_text(card, "ar")).startswith(rank[::-1] if not rank.isdigit()
                                                                                  else rank)


def test_without_isolates_the_last_suit_jumps_away() -> None:
    """The bug the isolates fix: in Discord's left-to-right layout the last suit moves."""
    cards = [Card.parse(c) for c in ("JS", "TH", "AD")]
    raw = "أوراقك: " + "  ".join(strip_isolates(card_text(c, "ar")) for c in cards)
    assert visual(raw, "L").endswith("♦")  # the ♦ of إكة ♦ landed at the far (wrong) end
    fixed = rtl_lines("أوراقك: " + "  ".join(card_text(c, "ar") for c in cards))
    assert visual(fixed, "L").startswith("♦ ةكإ")


# -- the table message ------------------------------------------------------------------------------
def table_in_play(seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    match = Match(Rules())
    hand = match.deal(rng)
    while True:
        view = public_view(hand, hand.match_score)
        if view.phase == Phase.PLAYING and view.tricks and view.current_trick and view.current_trick.cards:
            break
        match.apply(rng.choice(hand.legal_actions()))
        if hand.phase == Phase.FINISHED:
            hand = match.deal(rng)
    return render_table(INFO, public_view(hand, hand.match_score), summarize_match(match), "ar")


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("base", BASES)
def test_latin_and_arabic_names_stay_in_their_place_in_arabic_lines(seed: int, base: str) -> None:
    payload = table_in_play(seed)
    embed = payload["embeds"][0]  # type: ignore[index]
    texts = [embed["description"], *(f["value"] for f in embed["fields"])]
    lines = [line for text in texts for line in text.split("\n")]
    checked = 0
    for line in lines:
        plain = strip_isolates(line)
        for name in ("Ali", "Omar 2", "بوت 4"):
            if not plain.startswith(name + ": ") and not plain.startswith(name + " (آلي): "):
                continue
            # "name: action": Arabic reads right to left, so the name is seen to the right of the rest.
            rest = plain.split(": ", 1)[1]
            seen = visual(line, base)
            shown_name = visual(isolate(name), "R")
            assert shown_name in seen, (line, seen)
            for piece in (visual(card_text(c, "ar"), "R") for c in all_cards() if card_text(c, "ar") in line):
                assert seen.index(piece) < seen.index(shown_name), (plain, seen)
            assert rest
            checked += 1
    assert checked, "no line names a player"


def all_cards() -> list[Card]:
    return [Card(i) for i in range(32)]


def test_default_bot_names_are_localized() -> None:
    text = strip_isolates(str(table_payload(INFO, playing_match(1), "ar")))
    assert "بوت 4" in text and "Bot 4" not in text  # Western digits, as every other number
    english = strip_isolates(str(table_payload(INFO, playing_match(1), "en")))
    assert "Bot 4" in english


def test_every_arabic_line_is_a_right_to_left_isolate() -> None:
    payload = table_in_play(3)
    embed = payload["embeds"][0]  # type: ignore[index]
    for text in (embed["title"], embed["description"], *(f["value"] for f in embed["fields"])):
        for line in text.split("\n"):
            assert line.startswith(RLI) and line.endswith(PDI), line
    english = table_payload(RenderInfo("77", names=("Ali", None, None, None)), playing_match(2), "en")
    assert not set(english["embeds"][0]["title"]) & ISOLATES


# -- the rules' tables ------------------------------------------------------------------------------
def table_lines(value: str) -> list[str]:
    inside = value.split("```")[1]
    return [line for line in inside.split("\n") if strip_isolates(line).strip()]


def spans(seen: str) -> list[tuple[int, int]]:
    """(start, end) of each run of non-spaces in a visual line."""
    out = []
    i = 0
    while i < len(seen):
        if seen[i] != " ":
            j = i
            while j < len(seen) and seen[j] != " ":
                j += 1
            out.append((i, j))
            i = j
        else:
            i += 1
    return out


@pytest.mark.parametrize("base", BASES)
def test_arabic_card_value_table_keeps_each_value_under_its_heading(base: str) -> None:
    value = field(render_rules("ar"), "قيم الأوراق")
    lines = table_lines(value)
    seen = [visual(line, base) for line in lines]
    width = max(len(s) for s in seen)
    seen = [s.ljust(width) if base == "L" else s.rjust(width) for s in seen]
    head = spans(seen[0])
    assert [seen[0][a:b] for a, b in head] == ["هريغ", "مكح", "ةقرولا"]  # غيره, حكم, الورقة (right to left)
    expected = {"ولد": (20, 2), "9": (14, 0), "إكة": (11, 11), "10": (10, 10), "شايب": (4, 4), "بنت": (3, 3),
                "8": (0, 0), "7": (0, 0)}  # R1.1
    rows = {}
    for row in seen[1:]:
        cells = spans(row)
        assert len(cells) == 3, row
        (pa, pb), (ha, hb), (la, lb) = cells
        label = row[la:lb] if row[la:lb].isdigit() else row[la:lb][::-1]
        # each value overlaps its heading's columns
        assert max(ha, head[1][0]) < min(hb, head[1][1]), (row, seen[0])
        assert max(pa, head[0][0]) < min(pb, head[0][1]), (row, seen[0])
        rows[label] = (int(row[ha:hb]), int(row[pa:pb]))
    assert rows == expected


@pytest.mark.parametrize("base", BASES)
def test_arabic_project_table_keeps_hokum_and_sun_values_apart(base: str) -> None:
    value = field(render_rules("ar"), "المشاريع (تُعلن في الأكلة الأولى)")
    seen = [visual(line, base) for line in table_lines(value)]
    width = max(len(s) for s in seen)
    seen = [s.ljust(width) if base == "L" else s.rjust(width) for s in seen]
    head = spans(seen[0])
    sun, hokum = head[0], head[1]  # صن leftmost, then حكم
    assert seen[0][sun[0]:sun[1]] == "نص" and seen[0][hokum[0]:hokum[1]] == "مكح"
    values = {}
    for row in seen[1:]:
        cells = spans(row)
        if not any(c.isdigit() or c == "-" for c in row[: hokum[1] + 1]):
            continue  # the continuation line of مية
        s, h = cells[0], cells[1]
        assert max(s[0], sun[0]) < min(s[1], sun[1] + 1), row
        assert max(h[0], hokum[0]) < min(h[1], hokum[1] + 1), row
        values[row[h[0]:h[1]], row[s[0]:s[1]]] = row
    assert set(values) == {("2", "4"), ("5", "10"), ("10", "20"), ("-", "40")}  # R6.1


def test_action_type_import_is_used() -> None:
    assert Action(0, ActionType.PASS).type is ActionType.PASS
