"""The table picture: drawn from the public view only, for any state and any name.

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
from PIL import Image, ImageDraw, ImageFont

from baloot import Hand, Match, Rules
from baloot.engine.cards import Card
from baloot.engine.hand import Phase
from baloot.engine.view import public_view, seat_view
from baloot.render import RenderInfo, card_art, emoji_text, picture
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
        info = RenderInfo("t", names, away=(False, True, False, False), language=rng.choice(("en", "ar")))
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
    info = RenderInfo("t", NAMES[0])
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
        table_picture(RenderInfo("t", NAMES[0]), seat_view(hand, 0), None)  # type: ignore[arg-type]


def test_a_played_card_appears_in_front_of_its_player() -> None:
    """Playing a card changes the picture where that seat's trick card goes, and nowhere near the others."""
    info = RenderInfo("t", NAMES[0])
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
    info = RenderInfo("t", NAMES[0])
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
    info = RenderInfo("t", ("Ali", "Omar", "Saad", "Faisal"), language="ar")
    assert picture_state(info, view, 1).team_labels == (("لهم",), ("لنا",))
    assert picture_state(info, view, 1, locale="en").team_labels == (("Them",), ("Us",))
    channel = picture_state(info, view, None)
    assert channel.team_labels == (("Ali", "Saad"), ("Omar", "Faisal"))  # each name its own line
    assert channel.score == (40, 12)


def test_hand_end_score_adds_the_hand_to_the_match() -> None:
    for hand, match in moments(3, hands=1):
        if hand.finished:
            view = public_view(hand, hand.match_score)
            state = picture_state(RenderInfo("t", NAMES[0]), view)
            assert view.hand_score is not None
            assert state.score == (view.match_score[0] + view.hand_score[0], view.match_score[1] + view.hand_score[1])
            assert match.hands  # the match saw it


def test_the_same_state_is_served_from_the_cache_and_a_new_one_is_not() -> None:
    hand, _ = next(moments(4))
    info = RenderInfo("t", NAMES[1], language="ar")
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
        png = table_picture(RenderInfo("t", names, language="ar" if i % 2 else "en"),
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
        state = picture_state(RenderInfo("t", names, language="ar"), public_view(hand, hand.match_score), None)
        assert decode(draw_picture(state)).size == (WIDTH, HEIGHT)


def test_without_raqm_the_basic_layout_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(card_art, "has_raqm", lambda: False)
    monkeypatch.setattr(emoji_text, "has_raqm", lambda: False)
    emoji_text.emoji_font.cache_clear()
    card_art.font.cache_clear()
    picture.clear_cache(sprites=True)
    try:
        hand, _ = next(moments(6))
        info = RenderInfo("t", NAMES[1], language="ar")
        assert "\u2068" not in "".join(picture_state(info, public_view(hand, hand.match_score)).team_labels[0])
        assert decode(table_picture(info, public_view(hand, hand.match_score))).size == (WIDTH, HEIGHT)
    finally:
        card_art.font.cache_clear()
        emoji_text.emoji_font.cache_clear()
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


# -- a picture put together from tiles -------------------------------------------------------------

def _suit_pixels(png: bytes, size: int = 22) -> dict[tuple[int, int, int], int]:
    """The card emoji at the size a button shows it: how many pixels of each strong colour (the rank and the suit)."""
    image = decode(png).convert("RGBA").resize((size, size), Image.Resampling.LANCZOS)
    counts: dict[tuple[int, int, int], int] = {}
    data = image.tobytes()
    for i in range(0, len(data), 4):
        r, g, b, a = data[i:i + 4]
        if a > 200 and (max(r, g, b) - min(r, g, b) > 60 or max(r, g, b) < 90):
            key = (r // 64, g // 64, b // 64)
            counts[key] = counts.get(key, 0) + 1
    return counts


def test_a_card_emoji_s_suit_reads_at_button_size() -> None:
    """At 22 px the suit was a 6 px pip. The suit now fills the lower half: with the rank, about a
    hundred and more of its 484 pixels are ink (the old faces: 27-48); the four-colour deck gives the four suits
    four colours."""
    for card in (Card.parse("AH"), Card.parse("AD"), Card.parse("TS"), Card.parse("7C")):
        inked = sum(_suit_pixels(card_art.card_emoji_png(card)).values())
        assert inked >= 64, (card, inked)
    four = [max(_suit_pixels(card_art.card_emoji_png(Card.parse(f"8{s}"), four=True)).items(),
                key=lambda kv: kv[1])[0] for s in "SHDC"]
    assert len(set(four)) == 4, four
    two = [max(_suit_pixels(card_art.card_emoji_png(Card.parse(f"8{s}"))).items(), key=lambda kv: kv[1])[0]
           for s in "HD"]
    assert two[0] == two[1]  # red and black: hearts and diamonds share red, as on a printed deck


def _reference(state: picture.PictureState) -> bytes:
    """The picture as it was drawn before tiles: whole, in RGBA, then mapped to the palette."""
    return picture.encode_png(picture._draw(state))


@pytest.mark.parametrize("seed", range(2))
def test_tiles_give_the_very_picture_drawn_whole(seed: int) -> None:
    """Pasting the tiles gives, byte for byte, the PNG of the whole picture composited in RGBA, at every kind of
    moment, from every seat, with hostile names and in both languages (the module's docstring)."""
    rng = random.Random(seed)
    picture.clear_cache(sprites=True)
    compared = 0
    for i, (hand, _match) in enumerate(moments(seed + 10, hands=3)):
        if i % 3 and not hand.finished:
            continue
        info = RenderInfo("t", NAMES[rng.randrange(len(NAMES))], away=(rng.random() < 0.3, False, False, True),
                         language=rng.choice(("en", "ar")))
        state = picture_state(info, public_view(hand, hand.match_score), rng.choice((None, 0, 1, 2, 3)))
        assert draw_picture(state) == _reference(state)
        compared += 1
    assert compared > 15


def test_no_two_elements_of_the_picture_overlap() -> None:
    """Tiles carry their own piece of the background, so they must never overlap one another (else a later tile
    would paint felt over an earlier one): panels, plates with their glow, and cards with the winner's ring."""
    def box(at: tuple[int, int], size: tuple[int, int]) -> tuple[int, int, int, int]:
        return at[0], at[1], at[0] + size[0], at[1] + size[1]

    boxes = [box(picture.CONTRACT_AT, picture.PANEL_SIZE), box(picture.SCORE_AT, picture.PANEL_SIZE)]
    boxes += [box(picture._plate_at(position), (w + 2 * picture.PAD, h + 2 * picture.PAD))
              for position, (w, h) in enumerate(picture.PLATE_SIZES)]
    face = card_art.card_face(0, picture.TRICK_CARD)
    for spot in TRICK_SPOTS:
        x, y = picture._card_at(face, spot)
        ring = picture.RING
        boxes.append((x - ring, y - ring, x + face.width + ring, y + face.height + ring))
    for i, a in enumerate(boxes):
        assert min(a[0], a[1]) >= 0 and a[2] <= WIDTH and a[3] <= HEIGHT
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


def test_an_up_card_beside_a_trick_is_drawn_whole() -> None:
    """No hand shows the up card and a trick at once (R2.2); a state that did would overlap tiles, so it is
    drawn whole, and right."""
    state = picture._sample(2, "hokum", 1, 2, ((0, 7), (1, 15), (2, 23), (3, 31)), 13, 1)
    assert decode(draw_picture(state)).getpixel((400, 225)) == decode(_reference(state)).getpixel((400, 225))
    assert draw_picture(state) == _reference(state)


TEXTS = ["Ali", "عبدالله و سارة", "\u2068ناصر\u2069 & Lee", "x" * 80, "👨‍👩‍👧 李小龍", "12 (+16)", "two\nlines"]


@pytest.mark.parametrize("text", TEXTS)
def test_kept_text_is_drawn_exactly_as_pillow_draws_it(text: str) -> None:
    """A text's layout and mask are kept between pictures; drawn from them, it is pixel for pixel
    what ImageDraw.text draws, at whole and half pixel positions, cut to a width or not, either direction."""
    for size, bold, width, rtl, centre in ((19, True, 184.0, False, (105.0, 32.0)), (16, False, 112.0, True,
                                                                                    (64.5, 44.0)),
                                           (14, False, None, False, (100.0, 20.5))):
        f = card_art.font(size, bold)
        kept = Image.new("RGBA", (220, 64), (16, 40, 30, 255))
        drawn = picture._text(ImageDraw.Draw(kept), centre, text, f, (245, 245, 240), width=width, rtl=rtl)
        direct = Image.new("RGBA", (220, 64), (16, 40, 30, 255))
        draw = ImageDraw.Draw(direct)
        fitted = picture._fit(picture._safe_text(text, f), f, width) if width is not None else text
        shaped = isinstance(f, ImageFont.FreeTypeFont) and f.layout_engine == ImageFont.Layout.RAQM
        direction = "rtl" if rtl and shaped else None
        left, top, right, bottom = draw.textbbox((0, 0), fitted, font=f, direction=direction)
        draw.text((centre[0] - (right - left) / 2 - left, centre[1] - (bottom - top) / 2 - top), fitted,
                  fill=(245, 245, 240), font=f, direction=direction)
        assert drawn == right - left
        assert kept.tobytes() == direct.tobytes()
