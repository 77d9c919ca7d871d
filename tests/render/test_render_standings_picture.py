"""The tournament standings picture: both languages, grows with the field and the pairings."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from baloot.i18n import t
from baloot.render.standings_picture import rating_text, render_standings
from baloot.tournaments import BYE, Pairing, standings


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_picture_has_a_row_per_team_and_pairing(locale: str) -> None:
    lines = standings([1, 2, 3], [], {})
    small = Image.open(io.BytesIO(render_standings("Cup", 1, False, lines, {1: "A", 2: "B", 3: "C"}, [], locale)))
    big = Image.open(io.BytesIO(render_standings("Cup", 1, False, lines, {1: "A", 2: "B", 3: "C"},
                                                 [Pairing(0, 1, 2), Pairing(1, 3, BYE)], locale)))
    assert small.format == big.format == "PNG" and small.width == big.width == 640
    assert big.height > small.height


def test_the_rating_is_shown_signed_with_one_decimal() -> None:
    assert [rating_text(r) for r in (2.44, -0.66, -0.04, 0.0, 12.0)] == ["+2.4", "-0.7", "+0.0", "+0.0", "+12.0"]


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_the_rating_column_comes_first(locale: str) -> None:
    """The duplicate rating leads the standings, so the picture shows it as the first column after the team
    (drawn in the docs' example; look at it at about 400 px)."""
    lines = standings([1, 2, 3], [], {}, rating={1: 2.4, 2: -0.7, 3: -1.7})
    data = render_standings("Cup", 1, False, lines, {1: "A", 2: "B", 3: "C"}, [], locale)
    assert t("tournament.standings.rating", locale) != "tournament.standings.rating"
    assert Image.open(io.BytesIO(data)).width == 640
