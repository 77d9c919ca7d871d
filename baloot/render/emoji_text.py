"""Names with emoji in the table picture: letters in DejaVu Sans, emoji in colour, never a box.

Discord shows a display name's emoji in colour; a font without that glyph
draws its ``.notdef`` box instead ("Carol ▯"). A name is split into runs
(:func:`split_runs`): text the letter font can draw, and emoji drawn from
Noto Color Emoji (Debian's ``fonts-noto-color-emoji``, installed by
``scripts/install-fonts.sh``). Its glyphs are bitmaps of one size
(:data:`EMOJI_SIZE`): an emoji run is drawn there once, by Pillow with
libraqm (which joins ZWJ sequences, flags and skin tones into one glyph), and
scaled to the line (:func:`emoji_image`). Without that font, or for a
character no font has, the character is left out: a clean name, never a box.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from .card_art import AnyFont, has_raqm

EMOJI_SIZE: Final = 109  # the one size of Noto Color Emoji's bitmaps (CBDT)
EMOJI_FONT_FILES: Final = (
    Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"),
    Path("/usr/share/fonts/noto/NotoColorEmoji.ttf"),
    Path("/usr/share/fonts/google-noto-emoji/NotoColorEmoji.ttf"),
    Path("/usr/local/share/fonts/NotoColorEmoji.ttf"),
)
NOTDEF_PROBE: Final = "\U0010fffd"  # a private-use code point no font maps: what a font draws for a missing glyph
SELECTORS: Final = frozenset("\ufe0e\ufe0f")  # text / emoji presentation: invisible, some fonts draw them as boxes
JOINERS: Final = frozenset("\u200d\u20e3")  # zero-width joiner, combining keycap: part of the emoji they are in
EMOJI_MIN: Final = 0x2000  # below: letters, digits and punctuation stay with the text font (Noto maps 0-9 # * too)
EMOJI_PLANE: Final = 0x1F000  # from here on a character is drawn in colour even where the letter font has it

Run = tuple[bool, str]
"""(is emoji, text) in logical order."""


@lru_cache(maxsize=1)
def emoji_font() -> ImageFont.FreeTypeFont | None:
    """Noto Color Emoji at its bitmap size, if installed (and Pillow can shape: ZWJ sequences need libraqm)."""
    for path in EMOJI_FONT_FILES:
        if path.is_file():
            try:
                layout = ImageFont.Layout.RAQM if has_raqm() else ImageFont.Layout.BASIC
                return ImageFont.truetype(str(path), EMOJI_SIZE, layout_engine=layout)
            except OSError:
                continue
    return None


def _drawn(f: AnyFont, text: str) -> tuple[object, ...]:
    try:
        mask = f.getmask(text)
        return (f.getbbox(text), mask.size, bytes(mask))
    except (UnicodeError, OSError, ValueError):
        return ()


@lru_cache(maxsize=4096)
def has_glyph(f: AnyFont, char: str) -> bool:
    """Whether ``f`` draws ``char`` as its own glyph rather than its ``.notdef`` box (or cannot encode it)."""
    drawn = _drawn(f, char)
    return drawn != () and drawn != _drawn(f, NOTDEF_PROBE)


def _is_modifier(char: str) -> bool:
    code = ord(char)
    return char in JOINERS or char in SELECTORS or 0x1F3FB <= code <= 0x1F3FF or 0xE0020 <= code <= 0xE007F


@lru_cache(maxsize=1024)
def split_runs(text: str, f: AnyFont) -> tuple[Run, ...]:
    """``text`` as runs of letters (drawn with ``f``) and of emoji (drawn in colour); what neither font has is
    left out, and so are the presentation selectors outside an emoji."""
    emoji = emoji_font()
    runs: list[list[object]] = []
    for i, char in enumerate(text):
        following = text[i + 1] if i + 1 < len(text) else ""
        if _is_modifier(char):
            if runs and runs[-1][0] and emoji is not None:
                runs[-1][1] = f"{runs[-1][1]}{char}"
            elif char == "\u200d" and has_glyph(f, char):  # a joiner inside Arabic letters
                _append(runs, False, char)
            continue
        prefer = ord(char) >= EMOJI_PLANE or following in ("\ufe0f", "\u20e3")  # else symbols the letters have
        as_emoji = emoji is not None and (prefer or (ord(char) >= EMOJI_MIN and not has_glyph(f, char))) and (
            has_glyph(emoji, char))
        if as_emoji or has_glyph(f, char) or unicodedata.category(char) == "Zs":
            _append(runs, as_emoji, " " if unicodedata.category(char) == "Zs" and not as_emoji else char)
    return tuple((bool(kind), str(part)) for kind, part in runs if str(part).strip() or not kind)


def _append(runs: list[list[object]], emoji: bool, char: str) -> None:
    if runs and runs[-1][0] == emoji:
        runs[-1][1] = f"{runs[-1][1]}{char}"
    else:
        runs.append([emoji, char])


def drawable(text: str, f: AnyFont) -> str:
    """``text`` with what no font draws left out (emoji kept): one space between words, none around."""
    return " ".join("".join(part for _emoji, part in split_runs(text, f)).split())


@lru_cache(maxsize=256)
def emoji_image(run: str, height: int) -> Image.Image | None:
    """The emoji ``run`` in colour, ``height`` pixels tall (drawn at :data:`EMOJI_SIZE` once, scaled down)."""
    emoji = emoji_font()
    if emoji is None:
        return None
    left, top, right, bottom = (round(v) for v in emoji.getbbox(run))
    if right <= left or bottom <= top:
        return None
    big = Image.new("RGBA", (right - left, bottom - top), (0, 0, 0, 0))
    ImageDraw.Draw(big).text((-left, -top), run, font=emoji, embedded_color=True)
    width = max(1, round(big.width * height / big.height))
    return big.resize((width, height), Image.Resampling.LANCZOS)


def is_rtl(text: str) -> bool:
    """Whether ``text``'s first strong character is right-to-left (its runs are then laid out right to left)."""
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in ("R", "AL"):
            return True
        if kind == "L":
            return False
    return False
