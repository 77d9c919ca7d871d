"""A picture of the table (issue 10): four seats, the trick in the middle, the contract and the score.

:func:`table_picture` draws a PNG from a hand's :class:`~baloot.view.PublicView`
(never a seat's view: the picture cannot show a hidden card) and the
renderer's :class:`~.model.TableInfo` (the names). ``viewer`` is the seat
drawn at the bottom: ``None`` for the channel (seat 0 at the bottom, the teams
by their names), a seat for that player's private view (the score as Us/Them,
لنا/لهم). Play goes anticlockwise (R1): the next seat is on the bottom
seat's right.

What is drawn is first reduced to a :class:`PictureState` (only the facts the
picture shows); that is also the cache key, so re-drawing an unchanged state
costs a dictionary look-up. Card faces come from :mod:`.card_art`, drawn once.

Names are user text: control and bidi-override characters are removed and
each name is drawn as its own run (isolated from any other text), cut to fit
its plate. Right-to-left text is shaped by libraqm when Pillow has it; without
it Pillow's basic layout draws the letters unjoined, and a character no font
can encode is replaced rather than raising.
"""

from __future__ import annotations

import io
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from ..actions import ActionType
from ..cards import SUIT_SYMBOLS
from ..hand import Phase
from ..i18n import resolve_locale, t
from ..view import PublicView, TrickView
from .card_art import RGB, AnyFont, card_face, font, has_raqm, suit_image
from .model import NAME_LIMIT, Payload, TableInfo
from .text import action_text, level_text

WIDTH: Final = 800
HEIGHT: Final = 450
FILENAME: Final = "baloot-table.png"
CACHE_SIZE: Final = 256  # pictures (~11 KB each)
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

# centre of each seat's name plate and of its card in the trick, by position (0 bottom, 1 right, 2 top, 3 left)
PLATES: Final = ((400, 412), (695, 225), (400, 38), (105, 225))
TRICK_SPOTS: Final = ((400, 302), (492, 225), (400, 148), (308, 225))
PLATE_SIZE: Final = (200, 54)
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
    team_labels: tuple[str, str]


def _trick_shown(view: PublicView) -> TrickView | None:
    """The trick in play, or the last one taken while the next is not yet led (and at the end)."""
    current = view.current_trick
    if current is not None and current.cards:
        return current
    return view.tricks[-1] if view.tricks else None


def _isolate(text: str) -> str:
    """``text`` as an isolated bidi run (FSI … PDI) where the layout engine understands isolates."""
    return f"\u2068{text}\u2069" if has_raqm() else text


def _pair(a: str, b: str, locale: str) -> str:
    """Two names of a team, each isolated, joined the locale's way (``a & b``, ``a وb``) when RTL is shaped."""
    if not has_raqm():
        return f"{a} & {b}"
    return t("team.pair", locale, a=_isolate(a), b=_isolate(b))


def picture_state(
    info: TableInfo,
    view: PublicView,
    viewer: int | None = None,
    locale: str | None = None,
    score: tuple[int, int] | None = None,
) -> PictureState:
    """The facts of ``view`` the picture shows, from ``viewer``'s seat (None: the channel, seat 0 below).

    ``score`` is the match score to show (default: the view's, with this
    hand's points once it is scored).
    """
    if viewer is not None and viewer not in range(4):
        raise ValueError(f"viewer seat {viewer!r} is not 0..3")
    loc = resolve_locale(locale if locale is not None else info.language)
    names = tuple(clean_name(info.names[s], t("seat.number", loc, n=s + 1)) for s in range(4))
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
    if viewer is None:
        labels = tuple(_pair(names[team], names[team + 2], loc) for team in (0, 1))
    else:
        labels = tuple(t("team.us" if viewer & 1 == team else "team.them", loc) for team in (0, 1))
    return PictureState(
        locale=loc,
        bottom=0 if viewer is None else viewer,
        us_them=viewer is not None,
        names=(names[0], names[1], names[2], names[3]),
        away=info.away,
        subtitles=(subtitles[0], subtitles[1], subtitles[2], subtitles[3]),
        subtitle_suits=(suits[0], suits[1], suits[2], suits[3]),
        phase=int(view.phase),
        to_move=view.to_move,
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


def _text(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, f: AnyFont, fill: RGB,
          width: float | None = None, rtl: bool = False) -> float:
    """Draw ``text`` centred on ``centre`` (its own run), cut to ``width``; returns the drawn width.

    ``rtl``: a right-to-left paragraph (an Arabic line whose own direction is not set by its first
    letter, e.g. one starting with an isolated name); needs libraqm, ignored without it.
    """
    if not text:
        return 0.0
    text = _safe_text(text, f)
    if width is not None:
        text = _fit(text, f, width)
    shaped = isinstance(f, ImageFont.FreeTypeFont) and f.layout_engine == ImageFont.Layout.RAQM
    direction = "rtl" if rtl and shaped else None
    left, top, right, bottom = draw.textbbox((0, 0), text, font=f, direction=direction)
    x = centre[0] - (right - left) / 2 - left
    y = centre[1] - (bottom - top) / 2 - top
    draw.text((x, y), text, fill=fill, font=f, direction=direction)
    return float(right - left)


def _paste_card(image: Image.Image, index: int, width: int, centre: tuple[float, float],
                ring: RGB | None = None) -> None:
    face = card_face(index, width)
    x, y = round(centre[0] - face.width / 2), round(centre[1] - face.height / 2)
    if ring is not None:
        ImageDraw.Draw(image).rounded_rectangle((x - 4, y - 4, x + face.width + 3, y + face.height + 3),
                                                radius=8, outline=ring, width=4)
    image.alpha_composite(face, (x, y))


def _position(state: PictureState, seat: int) -> int:
    return (seat - state.bottom) % 4


PAD: Final = 5  # room around a plate for the turn's glow


@lru_cache(maxsize=128)
def _plate(name: str, subtitle: str, suit: int | None, turn: bool, away: bool) -> Image.Image:
    """A seat's name plate (drawn once per content): gold when it is the seat's turn."""
    w, h = PLATE_SIZE
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
    _text(draw, (cx, cy - 9 if subtitle else cy), name, font(19, bold=True), name_color, width=w - 16)
    if subtitle:
        pip = 15 if suit is not None else 0
        drawn = _text(draw, (cx - pip / 2, cy + 14), subtitle, font(14), sub_color, width=w - 20 - pip)
        if suit is not None:
            image.alpha_composite(
                suit_image(suit, pip, (255, 255, 255) if suit in (0, 3) and not turn else None),
                (round(cx - pip / 2 + drawn / 2 + 3), round(cy + 14 - pip / 2)),
            )
    return image


def _panel(size: tuple[int, int]) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGBA", size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, size[0] - 1, size[1] - 1), radius=10, fill=PANEL, outline=PLATE_EDGE, width=2)
    return image, draw


PANEL_SIZE: Final = (210, 104)


@lru_cache(maxsize=64)
def _contract_panel(locale: str, phase: int, contract: str | None, trump: int | None, level: int, locked: bool,
                    bidding: bool) -> Image.Image:
    """Top left: the phase, the contract with its trump, the level and the lock (R3, R4)."""
    image, draw = _panel(PANEL_SIZE)
    cx = PANEL_SIZE[0] / 2
    _text(draw, (cx, 20), t(f"table.phase.{phase}", locale), font(15), MUTED, width=196)
    if contract is not None:
        word = t(f"contract.{contract}", locale) if contract in ("sun", "hokum") else contract
        pip = 26 if trump is not None else 0
        drawn = _text(draw, (cx - pip / 2, 49), word, font(24, bold=True), WHITE, width=190 - pip)
        if trump is not None:
            fill = (255, 255, 255) if trump in (0, 3) else (240, 70, 70)
            image.alpha_composite(suit_image(trump, pip, fill), (round(cx - pip / 2 + drawn / 2 + 5), 36))
        detail = level_text(level, locale) if level > 1 else ""
        if locked:
            detail = f"{detail} · {t('play.locked', locale)}" if detail else t("play.locked", locale)
        _text(draw, (cx, 82), detail, font(16, bold=level > 1), TURN if level > 1 else MUTED, width=196)
    elif bidding:
        _text(draw, (cx, 54), t("table.up_card", locale), font(17), WHITE, width=196)
    return image


@lru_cache(maxsize=64)
def _score_panel(locale: str, labels: tuple[str, str], bold: bool, scores: tuple[str, str]) -> Image.Image:
    """Top right: the match score (R8) per team, Us/Them in a seat's view, with this hand's points at its end."""
    image, draw = _panel(PANEL_SIZE)
    cx = PANEL_SIZE[0] / 2
    _text(draw, (cx, 16), t("table.match_score", locale), font(14), MUTED, width=196)
    for row in range(2):
        y = 44 + row * 32
        _text(draw, (64, y), labels[row], font(16, bold=bold), WHITE, width=112, rtl=locale == "ar")
        _text(draw, (PANEL_SIZE[0] - 48, y), scores[row], font(18, bold=True), TURN, width=88)
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


def _draw(state: PictureState) -> Image.Image:
    image = _background().copy()
    image.alpha_composite(_contract_panel(state.locale, state.phase, state.contract, state.trump, state.level,
                                          state.locked, state.up_card is not None), (8, 8))
    order = _team_order(state)
    scores = tuple(
        str(state.score[team]) + ("" if state.hand_score is None else f" (+{state.hand_score[team]})") for team in order
    )
    labels = (state.team_labels[order[0]], state.team_labels[order[1]])
    image.alpha_composite(_score_panel(state.locale, labels, state.us_them, (scores[0], scores[1])),
                          (WIDTH - 8 - PANEL_SIZE[0], 8))
    for seat in range(4):
        plate = _plate(state.names[seat], state.subtitles[seat], state.subtitle_suits[seat],
                       state.to_move == seat, state.away[seat])
        cx, cy = PLATES[_position(state, seat)]
        image.alpha_composite(plate, (cx - plate.width // 2, cy - plate.height // 2))
    if state.up_card is not None:
        _paste_card(image, state.up_card, UP_CARD, (400, 225))
    for seat, card in state.trick:
        ring = TURN if state.trick_winner is not None and seat == state.trick_winner else None
        _paste_card(image, card, TRICK_CARD, TRICK_SPOTS[_position(state, seat)], ring)
    return image


def _sample(phase: int, contract: str | None, trump: int | None, level: int, trick: tuple[tuple[int, int], ...],
            up_card: int | None, winner: int | None) -> PictureState:
    return PictureState(
        locale="en", bottom=0, us_them=False, names=("Ali", "Omar", "Saad", "Faisal"), away=(False, True, False, False),
        subtitles=("Dealer", "Hokum", "", "Pass"), subtitle_suits=(None, 1, None, None), phase=phase, to_move=2,
        contract=contract, trump=trump, level=level, locked=level > 1, up_card=up_card, trick=trick,
        trick_winner=winner, score=(10, 120), hand_score=(3, 16), team_labels=("Ali & Saad", "Omar & Faisal"),
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
    return montage.quantize(COLORS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def encode_png(image: Image.Image) -> bytes:
    """``image`` as a small PNG: mapped to one fixed palette of :data:`COLORS` colours."""
    palette = image.convert("RGB").quantize(palette=_palette(), dither=Image.Dither.NONE)
    out = io.BytesIO()
    palette.save(out, format="PNG", compress_level=3)
    return out.getvalue()


_cache: OrderedDict[PictureState, bytes] = OrderedDict()


def draw_picture(state: PictureState) -> bytes:
    """The PNG of ``state``, drawn once and then served from a bounded cache."""
    cached = _cache.get(state)
    if cached is not None:
        _cache.move_to_end(state)
        return cached
    png = encode_png(_draw(state))
    _cache[state] = png
    if len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)
    return png


def clear_cache(*, sprites: bool = False) -> None:
    """Forget every drawn picture (for measuring cold renders); ``sprites``: also plates, panels and card faces.

    The fixed palette (:func:`_palette`, drawn once per process) stays.
    """
    _cache.clear()
    if sprites:
        for cached in (_plate, _contract_panel, _score_panel, _background, card_face, suit_image):
            cached.cache_clear()


def table_picture(
    info: TableInfo,
    view: PublicView,
    viewer: int | None = None,
    locale: str | None = None,
    score: tuple[int, int] | None = None,
) -> bytes:
    """The table as a PNG (:data:`WIDTH` × :data:`HEIGHT`) from ``viewer``'s seat; see :func:`picture_state`.

    Takes a :class:`PublicView` — also for a seat's own picture — so it can
    never draw a card that is still hidden in a hand.
    """
    if not isinstance(view, PublicView):
        raise TypeError("table_picture takes the hand's PublicView (never a seat's view)")
    return draw_picture(picture_state(info, view, viewer, locale, score))


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
    """Load the fonts and adapt the palette now (about a second), not on the first table's edit."""
    _palette()
