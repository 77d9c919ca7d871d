"""The table picture at the size Discord shows it: about 400 px wide, half its 800 px.

Every text must be readable there (at least 10 displayed pixels), a long name
shrinks before it is cut and never loses the partner beside it, an emoji in a
name is drawn in colour or left out (never a ``.notdef`` box), and the
match's last picture names its winners (R8).
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

import pytest
from PIL import Image, ImageFont

from baloot import Hand, Match, Rules
from baloot.engine.hand import Phase
from baloot.engine.view import public_view
from baloot.i18n import t
from baloot.render import RenderInfo, card_art, emoji_text, picture
from baloot.render.picture import PLATES, WIDTH, picture_state, table_picture

SHOWN_WIDTH = 400  # an 800 px picture in an embed is shown this wide
SCALE = SHOWN_WIDTH / WIDTH
READABLE = 10  # displayed pixels of the smallest font (the issue found 6-7)

LONG = ("Abdulrahman Al-Qahtani", "Bartholomew Johnson", "Alice Wonderland", "Carol the Magnificent")
ARABIC = ("عبدالرحمن القحطاني", "محمد بن سلمان", "سارة العتيبي", "نورة 🌙")
EMOJI = ("Carol 🔥", "نورة 🌙", "Dave 😎👍", "Eve 🇸🇦")


def _states() -> dict[str, tuple[Hand, tuple[int, int]]]:
    """A bidding state, a trick half played with three-digit scores, a hand's end, the match's last hand."""
    rng = random.Random(7)
    match = Match(Rules(target=152), first_dealer=0)
    found: dict[str, tuple[Hand, tuple[int, int]]] = {}
    hand = match.deal(rng)
    while True:
        steps = 0
        while not hand.finished:
            if hand.phase == Phase.BIDDING and steps == 2:
                found.setdefault("bidding", (hand.clone(), hand.match_score))
            if hand.phase == Phase.PLAYING and len(hand.trick) == 3 and max(hand.match_score) >= 100:
                found.setdefault("playing", (hand.clone(), hand.match_score))
            match.apply(rng.choice(hand.legal_actions()))
            steps += 1
        if match.finished:
            found["over"] = (hand.clone(), hand.match_score)
            return found
        if hand.score is not None:
            found.setdefault("end", (hand.clone(), hand.match_score))
        hand = match.deal(rng)


STATES = _states()
WINNER = 0 if STATES["over"][0].score is not None and (
    STATES["over"][1][0] + STATES["over"][0].score[0] > STATES["over"][1][1] + STATES["over"][0].score[1]) else 1


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, int]]]:
    """Every text drawn on a tile, with its font size (the tiles are drawn anew for each test)."""
    seen: list[tuple[str, int]] = []
    real = picture._text

    def record(draw: object, centre: tuple[float, float], text: str, f: card_art.AnyFont, *args: object,
               **kwargs: object) -> float:
        width = kwargs.get("width", args[1] if len(args) > 1 else None)
        shown = text if width is None else picture._fit(text, f, width)  # type: ignore[arg-type]
        if text:
            seen.append((shown, round(f.size) if isinstance(f, ImageFont.FreeTypeFont) else 0))
        return real(draw, centre, text, f, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(picture, "_text", record)
    picture.clear_cache(sprites=True)
    yield seen
    picture.clear_cache(sprites=True)


def _draw(names: tuple[str, str, str, str], which: str, viewer: int | None = None, language: str = "en",
          winner: int | None = None) -> Image.Image:
    hand, score = STATES[which]
    info = RenderInfo("t", names, language=language)
    png = table_picture(info, public_view(hand, score), viewer, winner=winner)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return image


@pytest.mark.parametrize("language", ["en", "ar"])
def test_every_text_is_readable_at_the_size_discord_shows(drawn: list[tuple[str, int]], language: str) -> None:
    names = LONG if language == "en" else ARABIC
    for which in ("bidding", "playing", "end"):
        for viewer in (None, 1):
            _draw(names, which, viewer, language)
    assert drawn
    smallest = min(size for _text, size in drawn)
    assert smallest * SCALE >= READABLE, [text for text, size in drawn if size * SCALE < READABLE]
    # the names on the plates are larger still
    plate_names = [size for text, size in drawn if any(text.startswith(n[:6]) for n in names)]
    assert plate_names and max(plate_names) * SCALE >= 13


@pytest.mark.parametrize(("names", "language"), [(LONG, "en"), (ARABIC, "ar")])
def test_a_team_shows_both_partners_however_long_their_names(drawn: list[tuple[str, int]],
                                                              names: tuple[str, str, str, str], language: str) -> None:
    """The score names each partner (the issue saw "Abdulrahm…" with the partner dropped)."""
    _draw(names, "playing", None, language)
    texts = [text for text, _size in drawn]
    for seat in range(4):
        start = names[seat].split()[0][:5]
        # on the plate, and again in the score beside the partner's name
        assert sum(1 for text in texts if text.startswith(start)) >= 2, (names[seat], texts)


def test_a_long_name_shrinks_before_it_is_cut(drawn: list[tuple[str, int]]) -> None:
    _draw(LONG, "playing")
    texts = [text for text, _size in drawn]
    assert "Bartholomew Johnson" in texts  # whole on its plate, in a smaller type
    assert "Abdulrahman Al-Qahtani" in texts
    cut = [text for text in texts if text.endswith("…")]
    assert all(len(text) >= 7 for text in cut), cut


def test_a_three_digit_score_is_drawn_whole(drawn: list[tuple[str, int]]) -> None:
    hand, score = STATES["end"]
    info = RenderInfo("t", LONG)
    table_picture(info, public_view(hand, score), None, score=(187, 143))
    texts = [text for text, _size in drawn]
    assert "187" in texts and "143" in texts  # the issue saw "187 (+…"
    assert not any(text.endswith("…") and text[:1].isdigit() for text in texts)


def _colourful(image: Image.Image) -> int:
    """How many pixels are strongly coloured (an emoji; the plates are dark green with white or muted text)."""
    data = image.tobytes()
    return sum(1 for i in range(0, len(data), 3) if max(data[i:i + 3]) - min(data[i:i + 3]) > 110)


@pytest.mark.skipif(emoji_text.emoji_font() is None, reason="no Noto Color Emoji (fonts-noto-color-emoji)")
@pytest.mark.parametrize(("names", "language"), [(EMOJI, "en"), (("نورة 🔥", "محمد", "سارة", "Ali"), "ar")])
def test_an_emoji_in_a_name_is_drawn_in_colour(names: tuple[str, str, str, str], language: str) -> None:
    """"Carol ▯" and "نورة ▯" were boxes: with the colour emoji font the emoji shows as in Discord."""
    image = _draw(names, "playing", None, language)
    plain = _draw(tuple(name.split()[0] for name in names), "playing", None, language)  # type: ignore[arg-type]
    x, y = PLATES[0]
    plate = (x - 160, y - 39, x + 160, y + 39)
    assert _colourful(image.crop(plate)) > 40
    assert _colourful(plain.crop(plate)) < 5


@pytest.mark.parametrize("language", ["en", "ar"])
def test_without_the_emoji_font_an_emoji_is_left_out_not_drawn_as_a_box(monkeypatch: pytest.MonkeyPatch,
                                                                         language: str) -> None:
    monkeypatch.setattr(emoji_text, "emoji_font", lambda: None)
    picture.clear_cache(sprites=True)
    try:
        names = ("Carol 🔥", "نورة 🌙", "李小龍 Lee", "Eve")
        with_emoji = _draw(names, "playing", None, language)
        picture.clear_cache(sprites=True)
        without = _draw(("Carol", "نورة", "Lee", "Eve"), "playing", None, language)
        assert with_emoji.tobytes() == without.tobytes()
    finally:
        picture.clear_cache(sprites=True)


def test_a_box_is_what_the_old_picture_drew() -> None:
    """The check above is meaningful: DejaVu Sans has no 🔥, and draws its .notdef box for it."""
    f = card_art.font(28, bold=True)
    assert not emoji_text.has_glyph(f, "🔥") and emoji_text.has_glyph(f, "C")


@pytest.mark.parametrize(("language", "viewer"), [("en", None), ("ar", None), ("en", 1), ("ar", 0)])
def test_the_match_s_last_picture_names_its_winners(drawn: list[tuple[str, int]], language: str,
                                                    viewer: int | None) -> None:
    names = LONG if language == "en" else ARABIC
    _draw(names, "over", viewer, language, winner=WINNER)
    texts = [text for text, _size in drawn]
    assert t("picture.winners", language) in texts
    if viewer is None:
        for seat in (WINNER, WINNER + 2):
            assert any(text.startswith(names[seat].split()[0][:5]) for text in texts[texts.index(
                t("picture.winners", language)):])
    else:
        us = viewer & 1 == WINNER
        assert t("team.us" if us else "team.them", language) in texts


def test_the_winner_changes_the_picture_and_the_cache_key() -> None:
    hand, score = STATES["over"]
    info = RenderInfo("t", LONG)
    view = public_view(hand, score)
    assert picture_state(info, view, None, winner=WINNER) != picture_state(info, view, None)
    assert table_picture(info, view, None, winner=WINNER) != table_picture(info, view, None)


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_name_no_font_draws_shows_the_seat_not_an_empty_plate(drawn: list[tuple[str, int]], language: str) -> None:
    """A name whose every letter is missing from the fonts (CJK) drew an empty plate and an empty line in the
    score; styled letters (mathematical fraktur, full-width) drew nothing either though their plain letters
    are there to draw."""
    _draw(("日本語の名前", "𝕸𝖆𝖙𝖍 𝖋𝖔𝖓𝖙", "ｆｕｌｌｗｉｄｔｈ", "Dave"), "playing", None, language)
    texts = [text for text, _size in drawn]
    seat = t("seat.number", language, n=1)
    assert sum(1 for text in texts if text == seat) >= 2, texts  # on its plate and in the score
    assert sum(1 for text in texts if text == "Math font") >= 2, texts
    assert sum(1 for text in texts if text == "fullwidth") >= 2, texts


@pytest.mark.parametrize(("language", "bot"), [("en", "Bot 2"), ("ar", "بوت 2")])
def test_a_bot_is_named_in_the_picture_as_in_the_text(language: str, bot: str) -> None:
    """The Arabic picture said "Bot 2" beside a text saying "بوت 2"; a person who calls themself "Bot 4" keeps
    that name."""
    hand, score = STATES["playing"]
    info = RenderInfo("t", ("نورة", "Bot 2", "Bot 3", "Bot 4"), is_bot=(False, True, True, False), language=language)
    names = picture_state(info, public_view(hand, score)).names
    assert names == ("نورة", bot, bot.replace("2", "3"), "Bot 4")



def _blue(image: Image.Image) -> int:
    """How many pixels are clearly blue (a 💙: the panels are green, gold, white and grey)."""
    data = image.tobytes()
    return sum(1 for i in range(0, len(data), 3) if data[i + 2] - data[i] > 80 and data[i + 2] - data[i + 1] > 30)


@pytest.mark.skipif(emoji_text.emoji_font() is None, reason="no Noto Color Emoji (fonts-noto-color-emoji)")
@pytest.mark.parametrize("language", ["en", "ar"])
def test_an_emoji_is_drawn_in_the_score_and_winners_as_on_the_plates(language: str) -> None:
    """A name too long for the score or the winners panel kept its letters and dropped its emoji while the plate
    drew it: now its letters are cut and the emoji stays, the same everywhere."""
    long = LONG if language == "en" else (*ARABIC[:3], "نورة بنت عبدالعزيز آل سعود")
    names = tuple(f"{name} 💙" for name in long)
    picture.clear_cache(sprites=True)
    image = _draw(names, "over", None, language, winner=WINNER)  # type: ignore[arg-type]
    without = _draw(long, "over", None, language, winner=WINNER)
    for x, y in (picture.SCORE_AT, picture.CONTRACT_AT):
        panel = (x, y, x + picture.PANEL_SIZE[0], y + picture.PANEL_SIZE[1])
        assert _blue(image.crop(panel)) > 60 and _blue(without.crop(panel)) < 3, (x, y)
