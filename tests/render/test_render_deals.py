"""A match of a fixed number of deals (R8) says which deal of how many in every view, in both languages:
the table and result messages ("Hand 2 of 4."), the score sheet and the lobby ("A match of 4 hands")."""

from __future__ import annotations

import pytest

from baloot.engine.rules import Rules
from baloot.engine.summary import MatchSummary
from baloot.i18n import t
from baloot.render.model import RenderInfo
from baloot.render.result import goal_line, sheet_embed
from baloot.render.table import render_lobby

INFO = RenderInfo("5", names=("Ali", "Badr", "Sara", "Dana"))


@pytest.mark.parametrize(("locale", "second", "playoff", "whole"), [
    ("en", "Hand 2 of 4.", "Hand 5: a play-off, the totals were level after hand 4.",
     "A match of 4 hands: the higher total wins."),
    ("ar", "الجولة 2 من 4.", "الجولة 5: جولة فاصلة، تعادل المجموع بعد الجولة 4.",
     "صكة عدد جولاتها 4: يفوز صاحب المجموع الأعلى."),
])
def test_every_view_says_which_deal_of_how_many(locale: str, second: str, playoff: str, whole: str) -> None:
    deals = MatchSummary((), (0, 0), None, 152, 4)
    assert goal_line(deals, 1, locale) == second
    assert goal_line(deals, 4, locale) == playoff
    assert whole in sheet_embed(INFO, deals, locale)["description"]
    lobby = render_lobby(INFO, Rules(deals=4), locale)["embeds"][0]["description"]
    assert whole in lobby and t("table.target", locale, target=152) not in lobby
    # a match to the target is shown as before
    assert goal_line(MatchSummary((), (0, 0), None, 152), 1, locale) == t("table.target", locale, target=152)
    assert whole not in sheet_embed(INFO, MatchSummary((), (0, 0), None, 152), locale)["description"]
