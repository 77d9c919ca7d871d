"""The picture of a hand's review: its evaluation line and its three costliest decisions.

Drawn with Pillow, :data:`WIDTH` × :data:`HEIGHT` (Discord shows it about 400 px
wide, half size: every text is at least 22 px here, 11 shown).

**The evaluation line** (like lichess's graph): after every decision of the
hand, the expected final score difference of the hand (R7, in the reviewer's
unit: the points the hand adds to team 1's match score minus team 2's, R1
teams: seats 1 and 3, seats 2 and 4) that the played action was worth from the
actor's view. Above the middle line team 1 is ahead (blue), below team 2
(orange). The bidding (R3, R4) is shaded grey; each trick (R5) starts at a
thin line with its number under it. A labelled decision is marked on the line
by a dot whose size and colour say inaccuracy, mistake or blunder, with the
seat number (1-4) of its player above it.

**The three costliest decisions**: the card played and the best one (or the
bid, R3), the points it lost, and whether the cards were against the player
(a die: luck, where the all-known judge disagrees) or not (an exclamation
mark: an error). Words go in the message beside the picture, in the viewer's
language; the picture holds numbers, cards, suits and the few bid words
(shaped right to left by libraqm when Pillow has it).
"""

from __future__ import annotations

import io
import itertools
from typing import Final

from PIL import Image, ImageDraw

from ..engine.actions import Action, ActionType
from ..i18n.direction import is_rtl
from ..review.model import LUCKY, UNLUCKY, Decision, HandReview
from .card_art import DRAWING, RGB, card_face, font, has_raqm
from .text import action_text

WIDTH: Final = 800
HEIGHT: Final = 540
FILENAME: Final = "hand-review.png"

BACKGROUND: Final[RGB] = (32, 34, 40)
PANEL: Final[RGB] = (44, 47, 55)
GRID: Final[RGB] = (90, 94, 104)
TEXT: Final[RGB] = (230, 232, 236)
MUTED: Final[RGB] = (160, 165, 175)
TEAM_COLORS: Final[tuple[RGB, RGB]] = ((70, 140, 235), (240, 150, 50))
LABEL_COLORS: Final = {"inaccuracy": (235, 200, 60), "mistake": (240, 130, 40), "blunder": (220, 50, 50)}
LABEL_SIZES: Final = {"inaccuracy": 8, "mistake": 11, "blunder": 14}
MIN_FONT: Final = 22
"""The smallest font drawn: 11 px when Discord shows the picture half size."""

GRAPH: Final = (56, 24, WIDTH - 24, 268)  # left, top, right, bottom
CARD_WIDTH: Final = 74
TAG_WIDTH: Final = 112


def team0_value(d: Decision) -> float:
    """The played option's value seen from team 1 (seats 1 and 3: seats 0 and 2 here)."""
    return d.played.value if d.seat % 2 == 0 else -d.played.value


def costliest(review: HandReview, seat: int | None = None, count: int = 3) -> list[Decision]:
    """The ``count`` judged decisions that lost the most points (of ``seat`` only, if given), costliest
    first; only those that lost something."""
    judged = [d for d in review.decisions if not d.forced and d.loss > 0 and (seat is None or d.seat == seat)]
    return sorted(judged, key=lambda d: (-d.loss, d.action))[:count]


def _x(index: int, total: int) -> float:
    left, _, right, _ = GRAPH
    return left + (right - left) * (index + 0.5) / max(1, total)


def _draw_graph(draw: ImageDraw.ImageDraw, review: HandReview, seat: int | None) -> None:
    left, top, right, bottom = GRAPH
    draw.rectangle(GRAPH, fill=PANEL)
    decisions = review.decisions
    total = len(decisions)
    values = [team0_value(d) for d in decisions]
    scale = max(16.0, *(abs(v) for v in values)) * 1.1 if values else 16.0
    middle = (top + bottom) / 2

    def y(value: float) -> float:
        return middle - (bottom - top) / 2 * value / scale

    small = font(MIN_FONT)
    bidding = [i for i, d in enumerate(decisions) if d.trick < 0]
    if bidding:
        draw.rectangle((left, top, _x(bidding[-1], total) + (right - left) / max(1, total) / 2, bottom),
                       fill=(54, 57, 66))
    seen: set[int] = set()
    for i, d in enumerate(decisions):
        if d.trick >= 0 and d.trick not in seen:
            seen.add(d.trick)
            x = _x(i, total) - (right - left) / max(1, total) / 2
            draw.line((x, top, x, bottom), fill=GRID, width=1)
            draw.text((x + 4, bottom + 4), str(d.trick + 1), fill=MUTED, font=small)
    draw.line((left, middle, right, middle), fill=GRID, width=2)
    for value in (scale / 1.1, -scale / 1.1):  # the axis: the largest value either way, rounded
        draw.text((6, y(value) - MIN_FONT / 2), f"{value:+.0f}", fill=MUTED, font=small)
    points = [(_x(i, total), y(v)) for i, v in enumerate(values)]
    if len(points) >= 2:
        for (x0, y0), (x1, y1) in itertools.pairwise(points):
            for ya, yb, team in ((y0, y1, 0), (y0, y1, 1)):
                clip_a, clip_b = (min(ya, middle), min(yb, middle)) if team == 0 else (max(ya, middle), max(yb, middle))
                shade = tuple(c // 2 + 20 for c in TEAM_COLORS[team])
                draw.polygon([(x0, middle), (x0, clip_a), (x1, clip_b), (x1, middle)], fill=shade)
        draw.line(points, fill=TEXT, width=3, joint="curve")
    for i, d in enumerate(decisions):
        if d.label is None or (seat is not None and d.seat != seat):
            continue
        x, yy = points[i]
        r = LABEL_SIZES[d.label]
        draw.ellipse((x - r, yy - r, x + r, yy + r), fill=LABEL_COLORS[d.label], outline=BACKGROUND, width=2)
        above = yy - r - MIN_FONT - 2 if yy - r - MIN_FONT - 2 > top else yy + r + 2
        draw.text((x, above + MIN_FONT / 2), str(d.seat + 1), fill=TEXT, font=small, anchor="mm")


def _tag(action: Action, locale: str, width: int) -> Image.Image:
    """A bid, double or declaration (R3, R4, R6) as a card-sized tag with its words in ``locale``
    (wider, up to :data:`TAG_WIDTH`, for a long word)."""
    words = action_text(action, locale).split()[:3]
    f = font(MIN_FONT, bold=True)
    direction = "rtl" if is_rtl(locale) and has_raqm() else None
    probe = ImageDraw.Draw(Image.new("RGBA", (1, 1)))
    widest = max((probe.textlength(w, font=f, direction=direction) for w in words), default=0.0)
    width = min(TAG_WIDTH, max(width, round(widest) + 14))
    height = round(CARD_WIDTH * 1.4)
    tag = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(tag)
    draw.rounded_rectangle((0, 0, width - 1, height - 1), radius=8, fill=(70, 74, 86), outline=GRID, width=2)
    for n, word in enumerate(words):
        yy = height / 2 + (n - (len(words) - 1) / 2) * (MIN_FONT + 4)
        text = word
        while len(text) > 1 and draw.textlength(text, font=f, direction=direction) > width - 8:
            text = text[:-1]
        draw.text((width / 2, yy), text, fill=TEXT, font=f, anchor="mm", direction=direction)
    return tag


def _action_image(action: Action, locale: str) -> Image.Image:
    if action.type is ActionType.PLAY and action.card is not None:
        return card_face(action.card.index, CARD_WIDTH)
    return _tag(action, locale, CARD_WIDTH)


def _draw_icon(draw: ImageDraw.ImageDraw, luck: str | None, x: float, y: float) -> None:
    """A die for luck (the cards decided it), an exclamation mark for an error."""
    r = 16
    if luck in (UNLUCKY, LUCKY):
        draw.rounded_rectangle((x - r, y - r, x + r, y + r), radius=6, fill=TEXT)
        for dx, dy in ((-8, -8), (0, 0), (8, 8)):
            draw.ellipse((x + dx - 3, y + dy - 3, x + dx + 3, y + dy + 3), fill=BACKGROUND)
    else:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=LABEL_COLORS["blunder"])
        draw.rectangle((x - 2.5, y - 10, x + 2.5, y + 3), fill=TEXT)
        draw.ellipse((x - 3, y + 6, x + 3, y + 12), fill=TEXT)


def _draw_costliest(image: Image.Image, draw: ImageDraw.ImageDraw, review: HandReview, seat: int | None,
                    locale: str) -> None:
    top = GRAPH[3] + 40
    panel_w = (WIDTH - 24 - 16 * 2) // 3
    big = font(30, bold=True)
    small = font(MIN_FONT)
    for n, d in enumerate(costliest(review, seat)):
        left = 12 + n * (panel_w + 16)
        draw.rounded_rectangle((left, top, left + panel_w, HEIGHT - 12), radius=10, fill=PANEL)
        color = TEAM_COLORS[d.seat % 2]
        draw.ellipse((left + 10, top + 10, left + 46, top + 46), fill=color)
        draw.text((left + 28, top + 28), str(d.seat + 1), fill=BACKGROUND, font=small, anchor="mm")
        draw.text((left + 58, top + 28), f"\u2212{d.loss:.1f}", fill=LABEL_COLORS.get(d.label or "", TEXT),
                  font=big, anchor="lm")
        _draw_icon(draw, d.luck, left + panel_w - 26, top + 28)
        played = _action_image(d.played.action, locale)
        best = _action_image(d.best.action, locale)
        cy = top + 60
        image.alpha_composite(played, (left + 14, cy))
        bx = left + panel_w - 14 - best.width
        image.alpha_composite(best, (bx, cy))
        mid_x = (left + 14 + played.width + bx) / 2
        mid_y = cy + played.height / 2
        draw.line((mid_x - 12, mid_y, mid_x + 6, mid_y), fill=TEXT, width=4)
        draw.polygon([(mid_x + 14, mid_y), (mid_x + 2, mid_y - 10), (mid_x + 2, mid_y + 10)], fill=TEXT)
        draw.rectangle((left + 10, cy - 4, left + 18 + played.width, cy + played.height + 4),
                       outline=LABEL_COLORS.get(d.label or "", GRID), width=3)


def review_picture(review: HandReview, locale: str, seat: int | None = None) -> bytes:
    """The PNG of ``review`` (see the module); ``seat``: only that player's mistakes (0-3), None: everyone's."""
    image = Image.new("RGBA", (WIDTH, HEIGHT), BACKGROUND)
    with DRAWING:
        draw = ImageDraw.Draw(image)
        _draw_graph(draw, review, seat)
        _draw_costliest(image, draw, review, seat, locale)
    out = io.BytesIO()
    image.convert("RGB").save(out, "PNG", optimize=True)
    return out.getvalue()


def warm_up() -> None:
    """Load what every review picture draws with (its fonts, the card faces at their size): the picture
    process (``cogs/presentation/pictures.py``) calls it once it starts, so that the first review shown
    is drawn as fast as the next."""
    for size, bold in ((MIN_FONT, False), (MIN_FONT, True), (30, True)):
        font(size, bold)
    for index in range(32):
        card_face(index, CARD_WIDTH)
