"""The tournament standings picture: both languages, grows with the field and the pairings."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from baloot.render.standings_picture import render_standings
from baloot.tournaments import BYE, Pairing, standings


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_picture_has_a_row_per_team_and_pairing(locale: str) -> None:
    lines = standings([1, 2, 3], [], {})
    small = Image.open(io.BytesIO(render_standings("Cup", 1, False, lines, {1: "A", 2: "B", 3: "C"}, [], locale)))
    big = Image.open(io.BytesIO(render_standings("Cup", 1, False, lines, {1: "A", 2: "B", 3: "C"},
                                                 [Pairing(0, 1, 2), Pairing(1, 3, BYE)], locale)))
    assert small.format == big.format == "PNG" and small.width == big.width == 640
    assert big.height > small.height
