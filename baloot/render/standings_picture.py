"""The standings picture of a tournament, drawn with Pillow: the table of the standings
(place, team, duplicate rating, round points, matchpoint percentage, Buchholz) and the next round's
pairings. The rating (the first key of the standings, docs/tournaments.md) is in points per deal above an
average team, signed ("+2.4").

Every word comes from the i18n catalogs; Arabic lines are laid out right to left (libraqm where
Pillow has it). The picture is 640 px wide, legible where Discord shows it (about 400 px).
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from ..i18n import t
from ..tournaments import BYE, Pairing, Standing
from .card_art import AnyFont, font, has_raqm

WIDTH = 640
ROW = 30
TOP = 64
BG = (18, 74, 52)
STRIPE = (24, 88, 62)
INK = (240, 240, 230)
GOLD = (236, 196, 84)
DIM = (180, 200, 186)
RATING_COLUMN = 2


def _draw(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, f: AnyFont, fill: tuple[int, int, int],
          anchor: str, rtl: bool) -> None:
    direction = "rtl" if rtl and has_raqm() else None
    draw.text(xy, text, font=f, fill=fill, anchor=anchor, direction=direction)


def _fit(text: str, f: AnyFont, width: float) -> str:
    while text and f.getlength(text) > width:
        text = text[:-2] + "…" if len(text) > 2 else ""
    return text


def rating_text(rating: float) -> str:
    """The duplicate rating, signed, one decimal: "+2.4", "-0.7", "+0.0" (never "-0.0")."""
    return f"{round(rating, 1) + 0.0:+.1f}"


def render_standings(name: str, round_no: int, final: bool, lines: Sequence[Standing],
                     team_names: Mapping[int, str], next_round: Sequence[Pairing], locale: str) -> bytes:
    """The standings (and the next pairings, if any) as PNG bytes."""
    rtl = locale == "ar"
    pairs = list(next_round)
    height = TOP + ROW * (len(lines) + 1) + (ROW * (len(pairs) + 1) + 16 if pairs else 0) + 16
    image = Image.new("RGB", (WIDTH, height), BG)
    draw = ImageDraw.Draw(image)
    title = t("tournament.standings.final" if final else "tournament.standings.title", locale,
              name=name, round=round_no)
    _draw(draw, (WIDTH / 2, 32), _fit(title, font(26, True), WIDTH - 32), font(26, True), GOLD, "mm", rtl)
    # columns: x positions mirrored for Arabic
    cols = [("tournament.standings.place", 40, "mm"), ("tournament.standings.team", 72, "lm"),
            ("tournament.standings.rating", 382, "mm"), ("tournament.standings.points", 452, "mm"),
            ("tournament.standings.matchpoints", 522, "mm"), ("tournament.standings.buchholz", 594, "mm")]

    def x(at: float, anchor: str) -> tuple[float, str]:
        if not rtl:
            return at, anchor
        return WIDTH - at, {"lm": "rm"}.get(anchor, anchor)

    head, body = font(15 if rtl else 17, True), font(18)
    y = TOP + ROW / 2
    for key, at, anchor in cols:
        px, a = x(at, anchor)
        _draw(draw, (px, y), t(key, locale), head, DIM, a, rtl)
    for i, line in enumerate(lines):
        y = TOP + ROW * (i + 1)
        if i % 2 == 0:
            draw.rectangle((8, y, WIDTH - 8, y + ROW), fill=STRIPE)
        mid = y + ROW / 2
        colour = GOLD if line.place == 1 else INK
        team = team_names.get(line.team, str(line.team))
        if line.forfeits:  # the rounds it lost by never showing (docs/tournaments.md)
            team += " · " + t("tournament.standings.forfeits", locale, count=line.forfeits)
        values = [str(line.place), _fit(team, body, 262), rating_text(line.rating),
                  f"{line.points:g}", f"{line.matchpoint_pct:.1f}", f"{line.buchholz:g}"]
        for k, ((_, at, anchor), value) in enumerate(zip(cols, values, strict=True)):
            px, a = x(at, anchor)
            # a signed number reads left to right in Arabic too ("+2.4", not "2.4+")
            _draw(draw, (px, mid), value, body, colour, a, rtl and k != RATING_COLUMN)
    if pairs:
        y = TOP + ROW * (len(lines) + 1) + 16
        _draw(draw, (WIDTH / 2, y + ROW / 2), t("tournament.standings.next", locale, round=round_no + 1),
              font(20, True), GOLD, "mm", rtl)
        bots, bye = t("tournament.standings.bots", locale), t("tournament.standings.bye", locale)
        for k, pairing in enumerate(pairs):
            row_y = y + ROW * (k + 1) + ROW / 2
            first = _fit(team_names.get(pairing.first, str(pairing.first)), body, 260)
            second = bye if pairing.second == BYE and not team_names.get(BYE) else _fit(
                team_names.get(pairing.second, bots), body, 260)
            left, right = (second, first) if rtl else (first, second)
            _draw(draw, (WIDTH / 2 - 24, row_y), left, body, INK, "rm", rtl)
            _draw(draw, (WIDTH / 2, row_y), "–", body, DIM, "mm", False)
            _draw(draw, (WIDTH / 2 + 24, row_y), right, body, INK, "lm", rtl)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()
