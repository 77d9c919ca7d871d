"""A picture of the table: four seats, the trick in the middle, the contract and the score.

:func:`table_picture` draws a PNG from a hand's :class:`~baloot.engine.view.PublicView`
(never a seat's view: the picture cannot show a hidden card) and the
renderer's :class:`~.model.RenderInfo` (the names). ``viewer`` is the seat
drawn at the bottom: ``None`` for the channel (seat 0 at the bottom, the teams
by their names), a seat for that player's private view (the score as Us/Them,
لنا/لهم). Play goes anticlockwise (R1): the next seat is on the bottom
seat's right.

What is drawn is first reduced to a :class:`PictureState` (only the facts the
picture shows); that is also the cache key, so re-drawing an unchanged state
costs a dictionary look-up. Card faces come from :mod:`.card_art`, drawn once.

A new state is put together from tiles (a picture per edit was the
bot's largest cost at 100 tables): every element (a panel, a name plate, a
card) sits at a fixed place on a fixed background and no two overlap, so each
is composited over its piece of the background and mapped to the fixed
palette once, then kept; a picture is the palette background with its tiles
pasted in, then PNG-encoded. The result is the very image the whole picture
composited in RGBA and mapped to the palette would give (:func:`_draw`, the
reference, tested pixel for pixel), at a fraction of the cost and memory.

Names are user text: control and bidi-override characters are removed and
each name is drawn as its own run (isolated from any other text), cut to fit
its plate. Right-to-left text is shaped by libraqm when Pillow has it; without
it Pillow's basic layout draws the letters unjoined, and a character no font
can encode is replaced rather than raising.
"""

from __future__ import annotations

import io
import math
import threading
import unicodedata
import zlib
from collections import OrderedDict
from dataclasses import dataclass
from functools import _CacheInfo, lru_cache
from typing import Any, Final

from PIL import Image, ImageDraw, ImageFont

from ..engine.actions import ActionType
from ..engine.cards import SUIT_SYMBOLS
from ..engine.hand import Phase
from ..engine.view import PublicView, TrickView
from ..i18n import resolve_locale, t
from .card_art import DRAWING, RGB, AnyFont, card_face, font, suit_image
from .emoji_text import Run, drawable, emoji_image, is_rtl, split_runs
from .model import NAME_LIMIT, Payload, RenderInfo
from .text import action_text, default_bot_name, level_text

WIDTH: Final = 800
HEIGHT: Final = 450
FILENAME: Final = "baloot-table.png"
CACHE_SIZE: Final = 64  # pictures (~11 KB each): an unchanged table drawn again
COLORS: Final = 128  # palette size of the PNG (keeps it small; the felt and cards need few)

FELT: Final[RGB] = (22, 84, 56)
TABLE: Final[RGB] = (34, 112, 74)
TABLE_EDGE: Final[RGB] = (92, 58, 30)
PLATE: Final[RGB] = (16, 40, 30)
PLATE_EDGE: Final[RGB] = (70, 110, 90)
TURN: Final[RGB] = (246, 196, 60)
TURN_TEXT: Final[RGB] = (30, 24, 8)
WHITE: Final[RGB] = (245, 245, 240)
MUTED: Final[RGB] = (175, 200, 185)
PANEL: Final[RGB] = (12, 52, 36)

# Discord shows the picture about 400 px wide, half its size: every text is at least MIN_TEXT pixels
# here (10 on screen), names and numbers larger; a name too long shrinks down to MIN_TEXT, then is cut.
MIN_TEXT: Final = 20
NAME_TEXT: Final = 28
# centre of each seat's name plate and of its card in the trick, by position (0 bottom, 1 right, 2 top, 3 left)
PLATES: Final = ((400, 404), (664, 225), (400, 46), (136, 225))
TRICK_SPOTS: Final = ((400, 302), (482, 225), (400, 148), (318, 225))
PLATE_SIZES: Final = ((290, 78), (256, 78), (290, 78), (256, 78))  # by position
RING: Final = 4  # the trick winner's ring, around the card
UP_SPOT: Final = (400, 225)
# Tiles kept (compressed, 1-3 KB each): at a table every seat's plate has a turn and a waiting version,
# so 100 tables (PICTURE_TABLES, cogs.presentation.channel) use 800 plates and 100-200 score panels.
PLATE_TILES: Final = 1024
SCORE_TILES: Final = 256
CARD_TILES: Final = 320  # 32 cards × 4 trick spots × with or without the ring, and the up card (288, warm_up)
TEXTS: Final = 1024  # texts kept laid out (a string and a box each)
GLYPHS: Final = 64  # texts kept rendered (a mask of about 6 KB each, outside Python's heap; needed only to draw a
# new tile). The labels every table shares stay; names come back only when their plate tile is gone too, so past
# ~50 tables a larger cache holds names that are not drawn again: drawing 400 tables side by side, 256 masks
# kept about 1.1 MB more RSS than 64 and saved 1.3% of the lookups a render.
TRICK_CARD: Final = 68
UP_CARD: Final = 72

_UNSAFE: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
_SUIT_CHARS: Final = str.maketrans("", "", "".join(SUIT_SYMBOLS))


def clean_name(raw: str | None, fallback: str) -> str:
    """A display name safe to draw: no control or bidi-override characters, at most NAME_LIMIT long."""
    if raw is None:
        return fallback
    kept = "".join(
        c for c in raw
        if c not in _UNSAFE and (unicodedata.category(c) not in ("Cc", "Cs", "Co", "Cn") or c == "\u200d")
    )
    kept = " ".join(kept.split())[:NAME_LIMIT]
    return kept or fallback


def drawn_name(raw: str | None, fallback: str) -> str:
    """The name the picture draws: :func:`clean_name`, its styled letters (𝕸𝖆𝖙𝖍, ｆｕｌｌ) as plain ones when the
    fonts lack them, and ``fallback`` (the seat) when no character of it can be drawn (a name all in a script
    or emoji no installed font has): never an empty plate."""
    name = clean_name(raw, fallback)
    letters = font(NAME_TEXT, bold=True)
    if drawable(name, letters) != name:
        plain = clean_name(unicodedata.normalize("NFKC", name), fallback)
        if len(drawable(plain, letters)) > len(drawable(name, letters)):
            name = plain
    return name if drawable(name, letters) else fallback


@dataclass(frozen=True, slots=True)
class PictureState:
    """Everything a picture shows, and nothing else (the cache key).

    Built by :func:`picture_state` from public facts only: names, the turn,
    the dealer, each seat's latest bid, the contract, trump, level and lock
    (R3, R4), the up card while bidding (R2.2), the trick on the table (R5)
    and the scores (R7, R8).
    """

    locale: str
    bottom: int  # the seat drawn at the bottom
    us_them: bool  # a seat's own view: the score as Us/Them
    names: tuple[str, str, str, str]
    away: tuple[bool, bool, bool, bool]
    subtitles: tuple[str, str, str, str]  # the dealer mark, a seat's bid or the contract it took
    subtitle_suits: tuple[int | None, int | None, int | None, int | None]
    phase: int
    to_move: int | None
    contract: str | None
    trump: int | None
    level: int
    locked: bool
    up_card: int | None  # card index, while bidding
    trick: tuple[tuple[int, int], ...]  # (seat, card index) in play order
    trick_winner: int | None  # set when the trick shown is complete
    score: tuple[int, int]
    hand_score: tuple[int, int] | None
    team_labels: tuple[tuple[str, ...], tuple[str, ...]]  # each team's names (the channel), or Us / Them
    winner: int | None = None  # the team that won the match (R8), on the match's last picture


def _trick_shown(view: PublicView) -> TrickView | None:
    """The trick in play, or the last one taken while the next is not yet led (and at the end)."""
    current = view.current_trick
    if current is not None and current.cards:
        return current
    return view.tricks[-1] if view.tricks else None


def picture_state(
    info: RenderInfo,
    view: PublicView,
    viewer: int | None = None,
    locale: str | None = None,
    score: tuple[int, int] | None = None,
    winner: int | None = None,
) -> PictureState:
    """The facts of ``view`` the picture shows, from ``viewer``'s seat (None: the channel, seat 0 below).

    ``score`` is the match score to show (default: the view's, with this
    hand's points once it is scored); ``winner`` the team that won the match
    (R8) when this is its last hand.
    """
    if viewer is not None and viewer not in range(4):
        raise ValueError(f"viewer seat {viewer!r} is not 0..3")
    loc = resolve_locale(locale if locale is not None else info.language)
    names = tuple(
        t("bot.name", loc, n=s + 1) if info.is_bot[s] and info.names[s] == default_bot_name(s)  # as in the text
        else drawn_name(info.names[s], t("seat.number", loc, n=s + 1)) for s in range(4))
    subtitles = ["", "", "", ""]
    suits: list[int | None] = [None, None, None, None]
    last_bid = {}
    for action in view.bids:
        if action.type is not ActionType.DECLARE:
            last_bid[action.seat] = action
    for seat in range(4):
        parts = []
        if seat == view.dealer:
            parts.append(t("table.dealer", loc))
        if view.taker is not None and seat == view.taker and view.contract is not None:
            parts.append(t(f"contract.{view.contract}", loc) if view.contract in ("sun", "hokum") else view.contract)
            suits[seat] = view.trump
        elif view.phase == Phase.BIDDING and seat in last_bid:
            bid = last_bid[seat]
            parts.append(action_text(bid, loc).translate(_SUIT_CHARS).strip())
            suits[seat] = bid.suit
        subtitles[seat] = " · ".join(parts)
    trick = _trick_shown(view)
    if viewer is None:  # each name on its own line: a partner is never cut off
        labels: tuple[tuple[str, ...], ...] = tuple((names[team], names[team + 2]) for team in (0, 1))
    else:
        labels = tuple((t("team.us" if viewer & 1 == team else "team.them", loc),) for team in (0, 1))
    return PictureState(
        locale=loc,
        bottom=0 if viewer is None else viewer,
        us_them=viewer is not None,
        names=(names[0], names[1], names[2], names[3]),
        away=info.away,
        subtitles=(subtitles[0], subtitles[1], subtitles[2], subtitles[3]),
        subtitle_suits=(suits[0], suits[1], suits[2], suits[3]),
        phase=int(view.phase),
        to_move=None if info.closed is not None else view.to_move,  # closed: no plate lit
        contract=view.contract,
        trump=view.trump,
        level=view.level,
        locked=view.locked,
        up_card=view.up_card.index if view.phase == Phase.BIDDING else None,
        trick=() if trick is None else tuple((seat, card.index) for seat, card in trick.cards),
        trick_winner=None if trick is None else trick.winner,
        score=score if score is not None else _score_after(view),
        hand_score=view.hand_score,
        team_labels=(labels[0], labels[1]),
        winner=winner if winner in (0, 1) else None,
    )


def _score_after(view: PublicView) -> tuple[int, int]:
    """The match score with this hand's points once it is scored (R8)."""
    before, hand = view.match_score, view.hand_score
    return before if hand is None else (before[0] + hand[0], before[1] + hand[1])


# -- drawing ---------------------------------------------------------------------------------------

def _safe_text(text: str, f: AnyFont) -> str:
    """``text`` if ``f`` can encode it, else with what it cannot replaced by ``?`` (bitmap font)."""
    try:
        f.getbbox(text)
        return text
    except UnicodeError:
        return text.encode("latin-1", "replace").decode("latin-1")


def _fit(text: str, f: AnyFont, width: float) -> str:
    """``text`` cut (with an ellipsis) to at most ``width`` pixels."""
    if f.getlength(text) <= width:
        return text
    ellipsis = "…" if _encodable("…", f) else "..."
    cut = text
    while cut and f.getlength(cut + ellipsis) > width:
        cut = cut[:-1]
    return cut.rstrip() + ellipsis


def _encodable(text: str, f: AnyFont) -> bool:
    try:
        f.getbbox(text)
        return True
    except UnicodeError:
        return False


_MEASURE: Final = ImageDraw.Draw(Image.new("RGBA", (1, 1)))  # text boxes, measured as on the RGBA sprites


@lru_cache(maxsize=TEXTS)
def _layout(text: str, f: AnyFont, width: float | None,
            direction: str | None) -> tuple[str, tuple[float, float, float, float]]:
    """``text`` made drawable and cut to ``width``, with its box drawn at the origin (laid out once per text)."""
    text = _safe_text(text, f)
    if width is not None:
        text = _fit(text, f, width)
    return text, _MEASURE.textbbox((0, 0), text, font=f, direction=direction)


@lru_cache(maxsize=GLYPHS)
def _glyphs(text: str, f: ImageFont.FreeTypeFont, direction: str | None,
            start: tuple[float, float]) -> tuple[Any, tuple[int, int]]:
    """The coverage mask of ``text`` and its offset, as :meth:`ImageDraw.text` renders it (rendered once)."""
    return f.getmask2(text, "L", direction=direction, start=start, stroke_filled=True)


def _text(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, f: AnyFont, fill: RGB,
          width: float | None = None, rtl: bool = False) -> float:
    """Draw ``text`` centred on ``centre`` (its own run), cut to ``width``; returns the drawn width.

    ``rtl``: a right-to-left paragraph (an Arabic line whose own direction is not set by its first
    letter, e.g. one starting with an isolated name); needs libraqm, ignored without it.

    Names and labels come back picture after picture, so a text's layout and
    its rendered mask are kept (:func:`_layout`, :func:`_glyphs`) and drawn as
    :meth:`ImageDraw.text` would draw them, pixel for pixel (tested).
    """
    if not text:
        return 0.0
    shaped = isinstance(f, ImageFont.FreeTypeFont) and f.layout_engine == ImageFont.Layout.RAQM
    direction = "rtl" if rtl and shaped else None
    text, (left, top, right, bottom) = _layout(text, f, width, direction)
    x = centre[0] - (right - left) / 2 - left
    y = centre[1] - (bottom - top) / 2 - top
    if isinstance(f, ImageFont.FreeTypeFont) and draw.fontmode == "L" and "\n" not in text:  # else Pillow's way
        mask, offset = _glyphs(text, f, direction, (math.modf(x)[0], math.modf(y)[0]))
        draw.draw.draw_bitmap((int(x) + offset[0], int(y) + offset[1]), mask, draw.draw.draw_ink(fill))
    else:
        draw.text((x, y), text, fill=fill, font=f, direction=direction)
    return float(right - left)


def _card_at(face: Image.Image, centre: tuple[float, float]) -> tuple[int, int]:
    """The top-left corner of ``face`` centred on ``centre``."""
    return round(centre[0] - face.width / 2), round(centre[1] - face.height / 2)


def _paste_card(image: Image.Image, face: Image.Image, at: tuple[int, int], ring: RGB | None = None) -> None:
    """``face`` with its top-left corner at ``at``, in a ``ring`` of :data:`RING` pixels (the trick's winner)."""
    x, y = at
    if ring is not None:
        ImageDraw.Draw(image).rounded_rectangle((x - RING, y - RING, x + face.width + RING - 1,
                                                 y + face.height + RING - 1), radius=8, outline=ring, width=RING)
    image.alpha_composite(face, (x, y))


def _position(state: PictureState, seat: int) -> int:
    return (seat - state.bottom) % 4


PAD: Final = 5  # room around a plate for the turn's glow
RUN_GAP: Final = 0.25  # between a name's letters and its emoji, in ems


@lru_cache(maxsize=TEXTS)
def _fitted(text: str, size: int, bold: bool, width: float) -> tuple[AnyFont, tuple[Run, ...], float]:
    """``text`` fitted to ``width``: at ``size`` if it fits, else at a smaller size down to :data:`MIN_TEXT` (bold,
    then regular: narrower), else its letters cut there, its emoji kept in colour (as on the plates, in the score
    and the winners alike; left out only when they alone would not fit); with its runs (:mod:`.emoji_text`) and
    drawn width."""
    for weight in (bold, False) if bold else (False,):
        runs = split_runs(text, font(size, bold=weight))  # which font draws what: the same at every size
        step = size if weight == bold else min(size, MIN_TEXT + 2)
        while step >= MIN_TEXT:
            f = font(step, bold=weight)
            drawn = _runs_width(runs, f, step)
            if drawn <= width:
                return f, runs, drawn
            step = min(step - 1, max(MIN_TEXT, math.floor(step * width / drawn)))  # width goes with size: jump
    f = font(MIN_TEXT)
    every = split_runs(text, f)
    letters = " ".join("".join(part for emoji, part in every if not emoji).split())
    emojis = tuple(run for run in every if run[0])
    room = width - _runs_width(emojis, f, MIN_TEXT) - RUN_GAP * MIN_TEXT
    if not emojis or room < width / 2:  # the emoji would crowd out the name: letters only
        emojis, room = (), width
    cut = _layout(letters, f, room, None)[0]
    kept = ((False, cut),) if cut else ()
    runs = emojis + kept if every and every[0][0] else kept + emojis  # the emoji where the name has it
    return f, runs, _runs_width(runs, f, MIN_TEXT)


def _emoji_height(size: int) -> int:
    return round(size * 1.05)


def _runs_width(runs: tuple[Run, ...], f: AnyFont, size: int) -> float:
    widths = [_run_width(run, f, size) for run in runs]
    return sum(widths) + RUN_GAP * size * max(0, len(widths) - 1)


def _run_width(run: Run, f: AnyFont, size: int) -> float:
    emoji, part = run
    if emoji:
        image = emoji_image(part, _emoji_height(size))
        return 0.0 if image is None else float(image.width)
    left, _top, right, _bottom = _layout(part.strip(), f, None, None)[1]
    return float(right - left)


def _line(image: Image.Image, centre: tuple[float, float], text: str, size: int, fill: RGB, width: float,
          bold: bool = False, rtl: bool = False) -> float:
    """Draw user text or a label centred on ``centre``, fitted to ``width`` (:func:`_fitted`), its emoji in colour
    (:mod:`.emoji_text`; a right-to-left text's runs go right to left); returns the drawn width."""
    f, runs, drawn = _fitted(text, size, bold, width)
    draw = ImageDraw.Draw(image)
    if len(runs) == 1 and not runs[0][0]:
        return _text(draw, centre, runs[0][1].strip(), f, fill, rtl=rtl)
    step = round(f.size) if isinstance(f, ImageFont.FreeTypeFont) else size
    x = centre[0] - drawn / 2
    for run in (reversed(runs) if rtl or is_rtl(text) else runs):
        run_width = _run_width(run, f, step)
        emoji, part = run
        picture = emoji_image(part, _emoji_height(step)) if emoji else None
        if picture is not None:
            image.alpha_composite(picture, (round(x), round(centre[1] - picture.height / 2)))
        elif not emoji:
            _text(draw, (x + run_width / 2, centre[1]), part.strip(), f, fill, rtl=rtl)
        x += run_width + RUN_GAP * step
    return drawn


def _plate(name: str, subtitle: str, suit: int | None, turn: bool, away: bool, size: tuple[int, int]) -> Image.Image:
    """A seat's name plate: gold when it is the seat's turn (kept as a tile: :func:`_plate_tile`)."""
    w, h = size
    image = Image.new("RGBA", (w + 2 * PAD, h + 2 * PAD), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    box = (PAD, PAD, PAD + w - 1, PAD + h - 1)
    if turn:
        draw.rounded_rectangle((0, 0, w + 2 * PAD - 1, h + 2 * PAD - 1), radius=15, fill=(120, 96, 20))
    draw.rounded_rectangle(box, radius=11, fill=TURN if turn else PLATE, outline=TURN if turn else PLATE_EDGE,
                           width=2)
    cx, cy = PAD + w / 2, PAD + h / 2
    name_color = TURN_TEXT if turn else (MUTED if away else WHITE)
    sub_color = TURN_TEXT if turn else MUTED
    _line(image, (cx, cy - 14 if subtitle else cy), name, NAME_TEXT, name_color, w - 16, bold=True)
    if subtitle:
        pip = 22 if suit is not None else 0
        drawn = _line(image, (cx - pip / 2, cy + 19), subtitle, 23, sub_color, w - 22 - pip)
        if suit is not None:
            image.alpha_composite(
                suit_image(suit, pip, (255, 255, 255) if suit in (0, 3) and not turn else None),
                (round(cx - pip / 2 + drawn / 2 + 4), round(cy + 19 - pip / 2)),
            )
    return image


def _panel(size: tuple[int, int], edge: RGB = PLATE_EDGE) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGBA", size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, size[0] - 1, size[1] - 1), radius=10, fill=PANEL, outline=edge,
                           width=2 if edge == PLATE_EDGE else 4)
    return image, draw


PANEL_SIZE: Final = (240, 150)


def _contract_panel(locale: str, phase: int, contract: str | None, trump: int | None, level: int, locked: bool,
                    bidding: bool, winners: tuple[str, ...] | None = None) -> Image.Image:
    """Top left: the phase, the contract with its trump, the level and the lock (R3, R4); at the match's end its
    winners instead (R8)."""
    if winners is not None:
        return _winner_panel(locale, winners)
    image = _panel(PANEL_SIZE)[0]
    cx, inner = PANEL_SIZE[0] / 2, PANEL_SIZE[0] - 20
    if contract is None:  # bidding (the up card lies in the middle) or thrown in
        _line(image, (cx, PANEL_SIZE[1] / 2), t(f"table.phase.{phase}", locale), 30, WHITE, inner, bold=True)
        return image
    _line(image, (cx, 26), t(f"table.phase.{phase}", locale), 22, MUTED, inner)
    word = t(f"contract.{contract}", locale) if contract in ("sun", "hokum") else contract
    pip = 34 if trump is not None else 0
    drawn = _line(image, (cx - pip / 2, 72), word, 36, WHITE, inner - pip - 6, bold=True)
    if trump is not None:
        fill = (255, 255, 255) if trump in (0, 3) else (240, 70, 70)
        image.alpha_composite(suit_image(trump, pip, fill), (round(cx - pip / 2 + drawn / 2 + 6), 72 - pip // 2))
    detail = level_text(level, locale) if level > 1 else ""
    if locked:
        detail = f"{detail} · {t('play.locked', locale)}" if detail else t("play.locked", locale)
    _line(image, (cx, 120), detail, 24, TURN if level > 1 else MUTED, inner, bold=level > 1)
    return image


def _winner_panel(locale: str, winners: tuple[str, ...]) -> Image.Image:
    """The match's winners (R8): their names, or Us / Them in a seat's view, in gold."""
    image = _panel(PANEL_SIZE, TURN)[0]
    cx, inner = PANEL_SIZE[0] / 2, PANEL_SIZE[0] - 24
    _line(image, (cx, 28), t("picture.winners", locale), 24, MUTED, inner)
    if len(winners) == 1:
        _line(image, (cx, 90), winners[0], 40, TURN, inner, bold=True)
    else:
        for row, name in enumerate(winners):
            _line(image, (cx, 74 + row * 38), name, 28, TURN, inner, bold=True)
    return image


SCORE_COLUMN: Final = 62  # the score's column in the score panel, beside the names


def _score_panel(locale: str, labels: tuple[tuple[str, ...], tuple[str, ...]], bold: bool,
                 scores: tuple[int, int], added: tuple[int, int] | None) -> Image.Image:
    """Top right: the match score (R8) per team, its names one per line (Us/Them in a seat's view), with this
    hand's points under the score at its end; mirrored in Arabic (the names on the right)."""
    image, draw = _panel(PANEL_SIZE)
    w, h = PANEL_SIZE
    rtl = locale == "ar"
    names_x = (w - 10 - (w - 20 - SCORE_COLUMN) / 2) if rtl else (10 + (w - 20 - SCORE_COLUMN) / 2)
    score_x = (10 + SCORE_COLUMN / 2) if rtl else (w - 10 - SCORE_COLUMN / 2)
    names_width = w - 24 - SCORE_COLUMN
    draw.line((12, h / 2, w - 13, h / 2), fill=PLATE_EDGE, width=1)
    for row in range(2):
        middle = h / 4 + row * h / 2
        lines = labels[row]
        for i, name in enumerate(lines):
            y = middle + (i - (len(lines) - 1) / 2) * 30
            _line(image, (names_x, y), name, 30 if bold else 23, WHITE, names_width, bold=bold)
        if added is None:
            _line(image, (score_x, middle), str(scores[row]), 32, TURN, SCORE_COLUMN, bold=True)
        else:
            _line(image, (score_x, middle - 13), str(scores[row]), 30, TURN, SCORE_COLUMN, bold=True)
            _line(image, (score_x, middle + 18), f"+{added[row]}", MIN_TEXT + 1, MUTED, SCORE_COLUMN)
    return image


def _team_order(state: PictureState) -> tuple[int, int]:
    """The viewer's team first (Us, then Them); the channel lists team 1 first."""
    own = state.bottom & 1 if state.us_them else 0
    return own, 1 - own


@lru_cache(maxsize=1)
def _background() -> Image.Image:
    image = Image.new("RGBA", (WIDTH, HEIGHT), (*FELT, 255))
    ImageDraw.Draw(image).rounded_rectangle((150, 78, 650, 372), radius=120, fill=TABLE, outline=TABLE_EDGE, width=6)
    return image


def _contract_args(
    state: PictureState,
) -> tuple[str, int, str | None, int | None, int, bool, bool, tuple[str, ...] | None]:
    winners = None if state.winner is None else state.team_labels[state.winner]
    return (state.locale, state.phase, state.contract, state.trump, state.level, state.locked,
            state.up_card is not None, winners)


def _score_args(
    state: PictureState,
) -> tuple[str, tuple[tuple[str, ...], tuple[str, ...]], bool, tuple[int, int], tuple[int, int] | None]:
    first, second = _team_order(state)
    added = None if state.hand_score is None else (state.hand_score[first], state.hand_score[second])
    return (state.locale, (state.team_labels[first], state.team_labels[second]), state.us_them,
            (state.score[first], state.score[second]), added)


def _plate_args(state: PictureState, seat: int) -> tuple[str, str, int | None, bool, bool, tuple[int, int]]:
    return (state.names[seat], state.subtitles[seat], state.subtitle_suits[seat], state.to_move == seat,
            state.away[seat], PLATE_SIZES[_position(state, seat)])


CONTRACT_AT: Final = (8, 8)
SCORE_AT: Final = (WIDTH - 8 - PANEL_SIZE[0], 8)


def _plate_at(position: int) -> tuple[int, int]:
    cx, cy = PLATES[position]
    w, h = PLATE_SIZES[position]
    return cx - (w + 2 * PAD) // 2, cy - (h + 2 * PAD) // 2


def _draw(state: PictureState) -> Image.Image:
    """The whole picture composited in RGBA: the reference the tiles reproduce (and the palette's samples)."""
    image = _background().copy()
    image.alpha_composite(_contract_panel(*_contract_args(state)), CONTRACT_AT)
    image.alpha_composite(_score_panel(*_score_args(state)), SCORE_AT)
    for seat in range(4):
        image.alpha_composite(_plate(*_plate_args(state, seat)), _plate_at(_position(state, seat)))
    if state.up_card is not None:
        face = card_face(state.up_card, UP_CARD)
        _paste_card(image, face, _card_at(face, UP_SPOT))
    for seat, card in state.trick:
        face = card_face(card, TRICK_CARD)
        _paste_card(image, face, _card_at(face, TRICK_SPOTS[_position(state, seat)]), _ring(state, seat))
    return image


# -- tiles -----------------------------------------------------------------------------------------

def _to_palette(image: Image.Image) -> Image.Image:
    """An opaque RGBA image mapped to the fixed palette (each pixel on its own: no dithering)."""
    return image.convert("RGB").quantize(palette=_palette(), dither=Image.Dither.NONE)


@dataclass(frozen=True, slots=True)
class Tile:
    """An element of the picture over its piece of the background, mapped to the palette: where it goes, its
    size, and its palette indices zlib-compressed (a plate keeps 1-2 KB instead of 13; a paste inflates it)."""

    at: tuple[int, int]
    size: tuple[int, int]
    data: bytes

    def paste(self, image: Image.Image) -> None:
        """Copy the tile's indices into ``image`` (a palette image in the same palette)."""
        image.paste(Image.frombytes("P", self.size, zlib.decompress(self.data)), self.at)


def _tile(piece: Image.Image, at: tuple[int, int]) -> Tile:
    """``piece`` (an opaque RGBA image that goes at ``at``) as a :class:`Tile`."""
    return Tile(at, piece.size, zlib.compress(_to_palette(piece).tobytes(), 1))


def _sprite_tile(sprite: Image.Image, at: tuple[int, int]) -> Tile:
    """``sprite`` composited over the background at ``at`` (what :func:`_draw` gives there), as a tile."""
    x, y = at
    piece = _background().crop((x, y, x + sprite.width, y + sprite.height))
    piece.alpha_composite(sprite)
    return _tile(piece, at)


@lru_cache(maxsize=1)
def _background_tile() -> Image.Image:
    return _to_palette(_background())


@lru_cache(maxsize=64)
def _contract_tile(*args: object) -> Tile:
    return _sprite_tile(_contract_panel(*args), CONTRACT_AT)  # type: ignore[arg-type]


@lru_cache(maxsize=SCORE_TILES)
def _score_tile(*args: object) -> Tile:
    return _sprite_tile(_score_panel(*args), SCORE_AT)  # type: ignore[arg-type]


@lru_cache(maxsize=PLATE_TILES)
def _plate_tile(name: str, subtitle: str, suit: int | None, turn: bool, away: bool, size: tuple[int, int],
                position: int) -> Tile:
    return _sprite_tile(_plate(name, subtitle, suit, turn, away, size), _plate_at(position))


def _ring(state: PictureState, seat: int) -> RGB | None:
    return TURN if state.trick_winner is not None and seat == state.trick_winner else None


@lru_cache(maxsize=CARD_TILES)
def _card_tile(index: int, width: int, centre: tuple[int, int], ring: RGB | None) -> Tile:
    """A card centred on ``centre`` (in the trick winner's ``ring``), over a piece of the background with room
    for the ring."""
    face = card_face(index, width)
    x, y = _card_at(face, centre)
    piece = _background().crop((x - RING, y - RING, x + face.width + RING, y + face.height + RING))
    _paste_card(piece, face, (RING, RING), ring)
    return _tile(piece, (x - RING, y - RING))


def _compose(state: PictureState) -> Image.Image:
    """The picture of ``state`` in the palette: the background with its tiles pasted in (see the module)."""
    image = _background_tile().copy()
    _contract_tile(*_contract_args(state)).paste(image)
    _score_tile(*_score_args(state)).paste(image)
    for seat in range(4):
        _plate_tile(*_plate_args(state, seat), _position(state, seat)).paste(image)
    if state.up_card is not None:
        _card_tile(state.up_card, UP_CARD, UP_SPOT, None).paste(image)
    for seat, card in state.trick:
        _card_tile(card, TRICK_CARD, TRICK_SPOTS[_position(state, seat)], _ring(state, seat)).paste(image)
    return image


def _sample(phase: int, contract: str | None, trump: int | None, level: int, trick: tuple[tuple[int, int], ...],
            up_card: int | None, winner: int | None) -> PictureState:
    names = ("Ali 😀", "Omar 🔥", "Saad 💙", "Faisal 🌙")  # emoji colours in the palette too
    return PictureState(
        locale="en", bottom=0, us_them=False, names=names, away=(False, True, False, False),
        subtitles=("Dealer", "Hokum", "", "Pass"), subtitle_suits=(None, 1, None, None), phase=phase, to_move=2,
        contract=contract, trump=trump, level=level, locked=level > 1, up_card=up_card, trick=trick,
        trick_winner=winner, score=(10, 120), hand_score=(3, 16), team_labels=((names[0], names[2]),
                                                                              (names[1], names[3])),
    )


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """One fixed palette for every picture: adapted once to sample tables and all 32 card faces.

    Mapping to a fixed palette costs a few milliseconds; adapting one per picture costs several times that.
    """
    samples = [
        _sample(0, None, None, 1, (), 13, None),
        _sample(2, "hokum", 1, 2, ((0, 7), (1, 15), (2, 23), (3, 31)), None, 1),
        _sample(2, "hokum", 0, 3, ((1, 0), (2, 8)), None, None),
        _sample(3, "sun", None, 1, ((0, 3), (1, 12), (2, 20), (3, 28)), None, 2),
    ]
    montage = Image.new("RGB", (WIDTH, HEIGHT * (len(samples) + 1)), FELT)
    for i, state in enumerate(samples):
        montage.paste(_draw(state).convert("RGB"), (0, HEIGHT * i))
    for index in range(32):
        face = card_face(index, UP_CARD)
        montage.paste(face.convert("RGB"), ((index % 10) * (UP_CARD + 6), HEIGHT * len(samples) + (index // 10) * 105))
    adapted = montage.quantize(COLORS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    palette = Image.new("P", (1, 1))  # only the palette is kept, not the 1.8 MB montage
    palette.putpalette(adapted.getpalette() or [])
    return palette


def encode_png(image: Image.Image) -> bytes:
    """``image`` as a small PNG: mapped to one fixed palette of :data:`COLORS` colours (unless it already is)."""
    palette = image if image.mode == "P" else _to_palette(image)
    out = io.BytesIO()
    palette.save(out, format="PNG", compress_level=3)
    return out.getvalue()


_cache: OrderedDict[PictureState, bytes] = OrderedDict()
_cache_lock: Final = threading.Lock()  # the bot draws on its own thread; tests and scripts here


def cached_picture(state: PictureState) -> bytes | None:
    """The PNG of ``state`` if it was drawn lately, else None (a dictionary look-up)."""
    with _cache_lock:
        cached = _cache.get(state)
        if cached is not None:
            _cache.move_to_end(state)
        return cached


def draw_picture(state: PictureState) -> bytes:
    """The PNG of ``state``, drawn once and then served from a bounded cache.

    Put together from tiles (the module's docstring); an up card and a trick
    on the table at once would overlap, which no state of a hand has (R2.2:
    the up card is on the table only while bidding), but such a state is
    still drawn right, whole (:func:`_draw`).
    """
    cached = cached_picture(state)
    if cached is not None:
        return cached
    with DRAWING:  # one picture at a time (card_art.DRAWING)
        png = encode_png(_draw(state) if state.up_card is not None and state.trick else _compose(state))
    with _cache_lock:
        _cache[state] = png
        if len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return png


def tile_caches() -> dict[str, _CacheInfo]:
    """How full each tile cache is, and its hits and misses (``scripts/bench_pictures.py --tables``)."""
    return {"plates": _plate_tile.cache_info(), "cards": _card_tile.cache_info(),
            "contracts": _contract_tile.cache_info(), "scores": _score_tile.cache_info()}


def clear_cache(*, sprites: bool = False) -> None:
    """Forget every drawn picture (for measuring cold renders); ``sprites``: also tiles and card faces.

    The fixed palette (:func:`_palette`, drawn once per process) stays.
    """
    with _cache_lock:
        _cache.clear()
    if sprites:
        for cached in (_contract_tile, _score_tile, _plate_tile, _card_tile, _background_tile, _background,
                       _layout, _glyphs, _fitted, split_runs, emoji_image, card_face, suit_image):
            cached.cache_clear()


def table_picture(
    info: RenderInfo,
    view: PublicView,
    viewer: int | None = None,
    locale: str | None = None,
    score: tuple[int, int] | None = None,
    winner: int | None = None,
) -> bytes:
    """The table as a PNG (:data:`WIDTH` × :data:`HEIGHT`) from ``viewer``'s seat; see :func:`picture_state`
    (``winner``: the team that won the match, on its last hand's picture).

    Takes a :class:`PublicView` — also for a seat's own picture — so it can
    never draw a card that is still hidden in a hand.
    """
    if not isinstance(view, PublicView):
        raise TypeError("table_picture takes the hand's PublicView (never a seat's view)")
    return draw_picture(picture_state(info, view, viewer, locale, score, winner))


def with_picture(payload: Payload, png: bytes) -> Payload:
    """``payload`` with ``png`` attached as :data:`FILENAME` and shown as its first embed's image.

    The payload's ``files`` entry is a list of (filename, bytes); the cogs
    upload it with the message and replace the previous picture on an edit.
    """
    embeds = [dict(e) for e in payload.get("embeds", [])]
    if embeds:
        embeds[0]["image"] = {"url": f"attachment://{FILENAME}"}
    return {**payload, "embeds": embeds, "files": [(FILENAME, png)]}


def warm_up() -> None:
    """Load the fonts, adapt the palette and draw every card's tiles now (about a second, at start-up, on a
    thread), not at the tables' first edits: a card face takes 1.5 ms to draw."""
    with DRAWING:
        _warm_up()


def _warm_up() -> None:
    _palette()
    for index in range(32):
        _card_tile(index, UP_CARD, UP_SPOT, None)
        for spot in TRICK_SPOTS:
            for ring in (None, TURN):
                _card_tile(index, TRICK_CARD, spot, ring)
    card_face.cache_clear()  # the faces are in their tiles now (1.7 MB); the reference drawing redraws its own
