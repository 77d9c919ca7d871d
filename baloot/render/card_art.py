"""Card faces and suit pips drawn by the project: no downloaded art, no font glyph for ♥.

Suit shapes are polygons and ellipses drawn at four times their size and
scaled down (antialiasing); hearts and diamonds are red, spades and clubs
black (R1: suits ``S H D C``). Ranks are written in Latin letters as on a
printed deck (``A K Q J 10 9 8 7``). Every face is drawn once per size and
kept (:func:`card_face`), so a picture of the table pastes ready images.

Fonts (:func:`font`): DejaVu Sans (Debian's ``fonts-dejavu-core``) when it is
installed, else Pillow's own default font; the code works with either.
"""

from __future__ import annotations

import io
import threading
from functools import lru_cache
from pathlib import Path
from typing import Final, TypeAlias

from PIL import Image, ImageDraw, ImageFont, features

from ..engine.cards import ALL_CARDS, Card

DRAWING: Final = threading.Lock()
"""Held while drawing with the fonts: the table pictures (their own thread, or the loop's with
TABLE_PICTURES=all), the card emojis and the start-up's warm-up may otherwise draw at once, and
FreeType's faces and library are not to be used by two threads at a time."""

RGB: TypeAlias = tuple[int, int, int]
AnyFont: TypeAlias = ImageFont.FreeTypeFont | ImageFont.ImageFont

RED: Final[RGB] = (200, 30, 40)
BLACK: Final[RGB] = (25, 25, 30)
BLUE: Final[RGB] = (25, 90, 200)  # diamonds in the four-colour deck
GREEN: Final[RGB] = (20, 130, 55)  # clubs in the four-colour deck
CARD_BG: Final[RGB] = (252, 250, 244)
CARD_EDGE: Final[RGB] = (120, 120, 120)
RANK_LABELS: Final = ("7", "8", "9", "10", "J", "Q", "K", "A")  # rank index 0..7 (R1: 7 8 9 T J Q K A)
SCALE: Final = 4  # supersampling factor for shapes

FONT_DIRS: Final = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
    Path("/usr/local/share/fonts"),
    Path("/Library/Fonts"),
)


def suit_color(suit: int, four: bool = False) -> RGB:
    """Hearts and diamonds red, spades and clubs black (suits ``S H D C`` = 0..3); with ``four`` (the four-colour
    deck, ``CARD_COLORS=4``) diamonds blue and clubs green, so that no two suits share a colour."""
    if four:
        return (BLACK, RED, BLUE, GREEN)[suit]
    return RED if suit in (1, 2) else BLACK


@lru_cache(maxsize=4)
def _font_file(bold: bool) -> Path | None:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in FONT_DIRS:
        path = folder / name
        if path.is_file():
            return path
    return None


def has_raqm() -> bool:
    """Whether Pillow can shape right-to-left text (libraqm); else the basic layout is used."""
    return bool(features.check("raqm"))


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> AnyFont:
    """DejaVu Sans at ``size`` pixels if installed, else Pillow's default font (any machine)."""
    path = _font_file(bold)
    if path is not None:
        try:
            layout = ImageFont.Layout.RAQM if has_raqm() else ImageFont.Layout.BASIC
            return ImageFont.truetype(str(path), size, layout_engine=layout)
        except OSError:
            pass
    try:
        return ImageFont.load_default(size=size)
    except (OSError, ImportError):  # Pillow without FreeType: the small bitmap font
        return ImageFont.load_default()


def _box(cx: float, cy: float, r: float) -> tuple[float, float, float, float]:
    return (cx - r, cy - r, cx + r, cy + r)


def draw_suit(draw: ImageDraw.ImageDraw, suit: int, x: float, y: float, size: float, fill: RGB | None = None) -> None:
    """A suit shape filling the ``size`` square at (x, y): 0 spade, 1 heart, 2 diamond, 3 club."""
    color = fill if fill is not None else suit_color(suit)
    s = size
    if suit == 2:  # diamond
        draw.polygon([(x + s / 2, y), (x + s * 0.9, y + s / 2), (x + s / 2, y + s), (x + s * 0.1, y + s / 2)],
                     fill=color)
    elif suit == 1:  # heart: two lobes and a point
        r = s * 0.26
        draw.ellipse(_box(x + s * 0.27, y + s * 0.32, r), fill=color)
        draw.ellipse(_box(x + s * 0.73, y + s * 0.32, r), fill=color)
        draw.polygon([(x + s * 0.03, y + s * 0.42), (x + s * 0.97, y + s * 0.42), (x + s / 2, y + s * 0.95)],
                     fill=color)
    elif suit == 0:  # spade: an upside-down heart and a stem
        r = s * 0.24
        draw.ellipse(_box(x + s * 0.28, y + s * 0.58, r), fill=color)
        draw.ellipse(_box(x + s * 0.72, y + s * 0.58, r), fill=color)
        draw.polygon([(x + s * 0.05, y + s * 0.52), (x + s * 0.95, y + s * 0.52), (x + s / 2, y + s * 0.02)],
                     fill=color)
        draw.polygon([(x + s / 2, y + s * 0.6), (x + s * 0.68, y + s), (x + s * 0.32, y + s)], fill=color)
    else:  # club: three leaves and a stem
        r = s * 0.21
        draw.ellipse(_box(x + s / 2, y + s * 0.25, r), fill=color)
        draw.ellipse(_box(x + s * 0.26, y + s * 0.58, r), fill=color)
        draw.ellipse(_box(x + s * 0.74, y + s * 0.58, r), fill=color)
        draw.ellipse(_box(x + s / 2, y + s * 0.52, r * 0.6), fill=color)
        draw.polygon([(x + s / 2, y + s * 0.5), (x + s * 0.7, y + s), (x + s * 0.3, y + s)], fill=color)


@lru_cache(maxsize=64)
def suit_image(suit: int, size: int, fill: RGB | None = None) -> Image.Image:
    """A suit shape ``size`` pixels square on a transparent background (drawn once per size)."""
    big = Image.new("RGBA", (size * SCALE, size * SCALE), (0, 0, 0, 0))
    draw_suit(ImageDraw.Draw(big), suit, 0, 0, size * SCALE, fill)
    return big.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=256)
def card_face(index: int, width: int) -> Image.Image:
    """Card ``index`` (0..31, R1) as an RGBA image ``width`` wide (height 1.4 × width), drawn once
    (:func:`draw_card_face`, kept)."""
    return draw_card_face(index, width)


def draw_card_face(index: int, width: int) -> Image.Image:
    """Card ``index`` (0..31, R1) drawn as an RGBA image ``width`` wide (height 1.4 × width).

    A big rank in the top-left corner with a pip under it (readable when small)
    and a large pip in the lower right; red for hearts and diamonds.
    """
    card = ALL_CARDS[index]
    height = round(width * 1.4)
    big = Image.new("RGBA", (width * SCALE, height * SCALE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    w, h = width * SCALE, height * SCALE
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=w * 0.1, fill=CARD_BG, outline=CARD_EDGE,
                           width=max(SCALE, w // 40))
    color = suit_color(card.suit)
    pip = w * 0.36
    draw_suit(draw, card.suit, w - pip - w * 0.1, h - pip - w * 0.12, pip)
    image = big.resize((width, height), Image.Resampling.LANCZOS)
    # the rank is written after scaling so that it stays crisp
    label = RANK_LABELS[card.rank]
    text_draw = ImageDraw.Draw(image)
    size = max(8, round(width * (0.42 if len(label) == 1 else 0.36)))
    f = font(size, bold=True)
    text_draw.text((width * 0.08, height * 0.04), label, fill=color, font=f)
    small = max(4, round(width * 0.26))
    image.alpha_composite(suit_image(card.suit, small), (round(width * 0.1), round(height * 0.04 + size * 1.05)))
    return image


def draw_emoji_face(index: int, size: int, four: bool = False) -> Image.Image:
    """Card ``index`` for a button's emoji, which Discord shows about 22 px tall: a square card with
    the rank in its upper half and the suit filling its lower half, so that the suit reads at that size as well
    as the rank (the full face's pips are 6 px there); ``four``: the four-colour deck (:func:`suit_color`)."""
    card = ALL_CARDS[index]
    width = round(size * 0.86)
    big = Image.new("RGBA", (size * SCALE, size * SCALE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    left = (size - width) * SCALE // 2
    w, h = width * SCALE, size * SCALE
    draw.rounded_rectangle((left, 0, left + w - 1, h - 1), radius=w * 0.12, fill=CARD_BG, outline=CARD_EDGE,
                           width=max(SCALE, w // 32))
    pip = h * 0.5
    draw_suit(draw, card.suit, left + (w - pip) / 2, h * 0.47, pip, suit_color(card.suit, four))
    image = big.resize((size, size), Image.Resampling.LANCZOS)
    label = RANK_LABELS[card.rank]
    f = font(round(size * (0.5 if len(label) == 1 else 0.42)), bold=True)
    ImageDraw.Draw(image).text((size / 2, size * 0.26), label, fill=suit_color(card.suit, four), font=f, anchor="mm")
    return image


def card_emoji_png(card: Card, size: int = 128, four: bool = False) -> bytes:
    """The card as a ``size`` square PNG (transparent around it), for an application emoji
    (:func:`draw_emoji_face`; ``four``: the four-colour deck)."""
    with DRAWING:
        canvas = draw_emoji_face(card.index, size, four)  # once per emoji, so not kept
    out = io.BytesIO()
    canvas.save(out, format="PNG", optimize=True)
    return out.getvalue()
