"""The table picture (issue 10): drawn from the public view only, for any state and any name.

Over random hands at every kind of moment (bidding with the up card, a Hokum
trick half played, the hand's end), in English and Arabic and with hostile
names (bidi overrides, emoji, control characters, very long), the picture is
an 800×450 PNG under 60 KB that changes when the table changes and draws no
card that is not public (R2.2 the up card, R5 the cards played).
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

import pytest
from PIL import Image, ImageFont

from baloot import Hand, Match, Rules
from baloot.hand import Phase
from baloot.render import TableInfo, card_art, picture
from baloot.render.picture import (
    HEIGHT,
    PLATES,
    TRICK_SPOTS,
    WIDTH,
    clean_name,
    draw_picture,
    picture_state,
    table_picture,
)
from baloot.view import public_view, seat_view

REAL_FONT = card_art.font
NAMES = [
    ("Ali", "Omar", "Saad", "Faisal"),
    ("عبدالله", "محمد", "سارة", "Bot 4"),
    ("\u202eevil\u202c", "ناصر 🂡🔥", "a\x00b\x1bc\u200f", "x" * 80),
    ("👨‍👩‍👧", "Ünïcödé", "李小龍", "  "),
]


def moments(seed: int, hands: int = 3) -> Iterator[tuple[Hand, Match]]:
    """Every state of ``hands`` random hands (fresh clones), bidding through to the end."""
    rng = random.Random(seed)
    match = Match(Rules(), first_dealer=seed % 4)
    for _ in range(hands):
        if match.finished:
            return
        hand = match.deal(rng)
        while True:
            yield hand.clone(), match
            if hand.finished:
                break
            match.apply(rng.choice(hand.legal_actions()))


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@pytest.mark.parametrize("seed", range(3))
def test_every_state_renders_at_the_right_size_for_every_viewer_and_name(seed: int) -> None:
    rng = random.Random(seed)
    phases: set[Phase] = set()
    for i, (hand, _match) in enumerate(moments(seed)):
        if i % 3 and not hand.finished:  # every third state and each hand's end, all viewers
            continue
        names = NAMES[rng.randrange(len(NAMES))]
        info = TableInfo("t", names, away=(False, True, False, False), language=rng.choice(("en", "ar")))
        view = public_view(hand, hand.match_score)
        phases.add(view.phase)
        for viewer in (None, 0, 1, 2, 3):
            png = table_picture(info, view, viewer)
            assert png.startswith(b"\x89PNG")
            assert len(png) < 60_000
            assert decode(png).size == (WIDTH, HEIGHT)
    assert phases >= {Phase.BIDDING, Phase.PLAYING, Phase.FINISHED}


def _cards_drawn(state: picture.PictureState) -> set[int]:
    drawn = {card for _seat, card in state.trick}
    if state.up_card is not None:
        drawn.add(state.up_card)
    return drawn


@pytest.mark.parametrize("seed", range(4))
def test_the_picture_shows_only_public_cards(seed: int) -> None:
    """Only the up card while bidding (R2.2) and cards already played (R5) are drawn, from any seat."""
    info = TableInfo("t", NAMES[0])
    for hand, _match in moments(seed, hands=2):
        view = public_view(hand, hand.match_score)
        public = {c.index for c in view.played} | {view.up_card.index}
        for viewer in (None, 0, 1, 2, 3):
            state = picture_state(info, view, viewer)
            assert _cards_drawn(state) <= public
            if view.phase != Phase.BIDDING:
                assert state.up_card is None


def test_a_seat_view_is_refused() -> None:
    """The signature takes the PublicView: a SeatView (with its hidden hand) cannot be passed by mistake."""
    hand, _ = next(moments(0))
    with pytest.raises(TypeError, match="PublicView"):
        table_picture(TableInfo("t", NAMES[0]), seat_view(hand, 0), None)  # type: ignore[arg-type]


def test_a_played_card_appears_in_front_of_its_player() -> None:
    """Playing a card changes the picture where that seat's trick card goes, and nowhere near the others."""
    info = TableInfo("t", NAMES[0])
    rng = random.Random(5)
    match = Match(Rules(), first_dealer=0)
    hand = match.deal(rng)
    while hand.phase != Phase.PLAYING:
        match.apply(rng.choice(hand.legal_actions()))
    before_view = public_view(hand, hand.match_score)
    seat = hand.to_move
    match.apply(rng.choice(hand.legal_actions()))
    after_view = public_view(hand, hand.match_score)
    for viewer in (None, 1):
        before = decode(table_picture(info, before_view, viewer)).convert("RGB")
        after = decode(table_picture(info, after_view, viewer)).convert("RGB")
        bottom = 0 if viewer is None else viewer
        x, y = TRICK_SPOTS[(seat - bottom) % 4]
        assert before.getpixel((x, y)) != after.getpixel((x, y))  # a white card face where there was felt
        assert after.getpixel((x, y)) == pytest.approx(card_art.CARD_BG, abs=12)
        for other in range(4):
            if other != (seat - bottom) % 4:
                ox, oy = TRICK_SPOTS[other]
                assert before.getpixel((ox, oy)) == after.getpixel((ox, oy))


def test_the_turn_is_highlighted_on_the_plate_of_the_seat_to_move() -> None:
    info = TableInfo("t", NAMES[0])
    hand, _ = next(moments(1))
    view = public_view(hand, hand.match_score)
    assert view.to_move is not None
    image = decode(table_picture(info, view, 2)).convert("RGB")
    for seat in range(4):
        px, py = PLATES[(seat - 2) % 4]
        corner = image.getpixel((px - 90, py - 20))  # inside the plate, clear of the text
        if seat == view.to_move:
            assert corner == pytest.approx(picture.TURN, abs=12)
        else:
            assert corner == pytest.approx(picture.PLATE, abs=12)


def test_the_score_reads_us_and_them_for_a_seat_and_team_names_for_the_channel() -> None:
    hand, _ = next(moments(2))
    view = public_view(hand, (40, 12))
    info = TableInfo("t", ("Ali", "Omar", "Saad", "Faisal"), language="ar")
    assert picture_state(info, view, 1).team_labels == ("لهم", "لنا")
    assert picture_state(info, view, 1, locale="en").team_labels == ("Them", "Us")
    channel = picture_state(info, view, None)
    assert "Ali" in channel.team_labels[0] and "Saad" in channel.team_labels[0]
    assert "Omar" in channel.team_labels[1] and "Faisal" in channel.team_labels[1]
    assert channel.score == (40, 12)


def test_hand_end_score_adds_the_hand_to_the_match() -> None:
    for hand, match in moments(3, hands=1):
        if hand.finished:
            view = public_view(hand, hand.match_score)
            state = picture_state(TableInfo("t", NAMES[0]), view)
            assert view.hand_score is not None
            assert state.score == (view.match_score[0] + view.hand_score[0], view.match_score[1] + view.hand_score[1])
            assert match.hands  # the match saw it


def test_the_same_state_is_served_from_the_cache_and_a_new_one_is_not() -> None:
    hand, _ = next(moments(4))
    info = TableInfo("t", NAMES[1], language="ar")
    view = public_view(hand, hand.match_score)
    first = table_picture(info, view, 3)
    assert table_picture(info, view, 3) is first
    assert table_picture(info, view, 0) != first  # another seat at the bottom


def test_names_are_cleaned_of_controls_and_overrides() -> None:
    assert clean_name("\u202eevil\u202c", "Seat 1") == "evil"
    assert clean_name("a\x00b\x1bc\u200f", "Seat 1") == "abc"
    assert clean_name("   ", "Seat 1") == "Seat 1"
    assert clean_name(None, "Seat 2") == "Seat 2"
    assert clean_name("👨‍👩‍👧", "x") == "👨‍👩‍👧"  # the joiner is kept
    assert len(clean_name("x" * 80, "x")) == 32


@pytest.fixture
def no_dejavu(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """As on a machine without fonts-dejavu-core: Pillow's own default font."""
    monkeypatch.setattr(card_art, "_font_file", lambda bold: None)
    card_art.font.cache_clear()
    picture.clear_cache(sprites=True)
    yield
    REAL_FONT.cache_clear()
    picture.clear_cache(sprites=True)


@pytest.mark.usefixtures("no_dejavu")
def test_without_dejavu_pillows_default_font_draws_every_name() -> None:
    assert card_art.font(18) is not None
    for i, names in enumerate(NAMES):
        hand, _ = next(moments(i))
        png = table_picture(TableInfo("t", names, language="ar" if i % 2 else "en"),
                            public_view(hand, hand.match_score), i % 4)
        assert decode(png).size == (WIDTH, HEIGHT)


@pytest.mark.usefixtures("no_dejavu")
def test_a_bitmap_font_without_unicode_never_crashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pillow built without FreeType has only a Latin-1 bitmap font: other characters become ``?``."""
    bitmap = ImageFont.load_default_imagefont()
    monkeypatch.setattr(card_art, "font", lambda size, bold=False: bitmap)
    monkeypatch.setattr(picture, "font", lambda size, bold=False: bitmap)
    for i, names in enumerate(NAMES):
        hand, _ = next(moments(i))
        state = picture_state(TableInfo("t", names, language="ar"), public_view(hand, hand.match_score), None)
        assert decode(draw_picture(state)).size == (WIDTH, HEIGHT)


def test_without_raqm_the_basic_layout_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(card_art, "has_raqm", lambda: False)
    monkeypatch.setattr(picture, "has_raqm", lambda: False)
    card_art.font.cache_clear()
    picture.clear_cache(sprites=True)
    try:
        hand, _ = next(moments(6))
        info = TableInfo("t", NAMES[1], language="ar")
        assert "\u2068" not in picture_state(info, public_view(hand, hand.match_score)).team_labels[0]
        assert decode(table_picture(info, public_view(hand, hand.match_score))).size == (WIDTH, HEIGHT)
    finally:
        card_art.font.cache_clear()
        picture.clear_cache(sprites=True)


def test_card_faces_are_red_for_hearts_and_diamonds_and_black_otherwise() -> None:
    for index in range(32):
        face = card_art.card_face(index, 80).convert("RGB")
        colours = face.getcolors(maxcolors=1 << 16) or []
        ink = [(n, c) for n, c in colours if isinstance(c, tuple) and sum(c) < 600]  # not the card's white
        reddish = sum(n for n, (r, g, b) in ink if r > 140 and g < 100 and b < 100)
        dark = sum(n for n, (r, g, b) in ink if r < 80 and g < 80 and b < 80)
        if index // 8 in (1, 2):
            assert reddish > dark
        else:
            assert dark > reddish


def test_card_emoji_images_are_128_square_pngs() -> None:
    from baloot import ALL_CARDS

    sizes = set()
    for card in ALL_CARDS:
        png = card_art.card_emoji_png(card)
        image = decode(png)
        sizes.add(image.size)
        assert len(png) < 256 * 1024  # Discord's emoji limit
    assert sizes == {(128, 128)}
