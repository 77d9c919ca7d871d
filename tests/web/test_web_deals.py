"""The web table says which deal of how many a match of a fixed number of deals (R8) is playing."""

from __future__ import annotations

from dataclasses import dataclass

from baloot.engine.summary import MatchSummary
from baloot.web.frames import state_frame


@dataclass
class Table:
    id: int = 7
    seats: tuple[None, None, None, None] = (None, None, None, None)
    turn_seconds: float = 60.0
    language: str | None = None


def test_the_state_frame_of_a_four_deal_match_says_hand_2_of_4() -> None:
    for locale, line in (("en", "Hand 2 of 4."), ("ar", "الجولة 2 من 4.")):
        frame = state_frame(Table(), "playing", None, None, hand_no=1, deadline=None,
                            sheet=MatchSummary((), (10, 3), None, 152, 4), locale=locale)
        assert frame["goal"] == line and frame["match"]["deals"] == 4
    plain = state_frame(Table(), "playing", None, None, hand_no=1, deadline=None,
                        sheet=MatchSummary((), (10, 3), None, 152), locale="en")
    assert "goal" not in plain and plain["match"]["deals"] == 0
