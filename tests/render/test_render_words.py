"""The words a player reads, in English and Arabic.

A Sawa claim takes its plural form (R12); a turn's relative timestamp says when time runs out;
a tie on points is explained (R7); the lobby says the match has started once it has; a bot is
named by its seat in the history and written with Western digits in Arabic.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

import pytest

from baloot import Rules
from baloot.engine.bidding import Outcome
from baloot.engine.summary import HandSummary
from baloot.engine.view import PublicView
from baloot.i18n import t
from baloot.i18n.direction import strip_isolates
from baloot.render import RenderInfo, render_lobby
from baloot.render.result import sawa_field, winner_line

INFO = RenderInfo("77", names=("Ali", "Badr", "Camil", "Dana"))


def claim(tricks_left: int) -> PublicView:
    """A public view just after seat 0 claimed the last ``tricks_left`` tricks (R12), showing no cards."""
    return cast(PublicView, SimpleNamespace(sawa=(0, ()), trump=None, contract="sun",
                                            tricks=[None] * (8 - tricks_left)))


@pytest.mark.parametrize(("left", "locale", "words"), [
    (1, "en", "**Ali** claimed the last trick, showing: "),
    (2, "en", "**Ali** claimed the last 2 tricks, showing: "),
    (1, "ar", "سوا من **Ali** على الأكلة الأخيرة، "),
    (2, "ar", "سوا من **Ali** على آخر أكلتين، "),
    (3, "ar", "سوا من **Ali** على آخر 3 أكلات، "),
])
def test_a_sawa_claim_takes_its_plural_form(left: int, locale: str, words: str) -> None:
    """Was "claimed the last 1 tricks" and "آخر 1 أكلات"."""
    field = sawa_field(INFO, claim(left), locale)
    assert field is not None
    assert strip_isolates(field["value"]).startswith(words)


def tied_hand() -> HandSummary:
    """R7.1 example 1: Hokum, seat 1 declares, no double; seats 0 and 2 count 77 → 8, seats 1 and 3 8:
    a tie, units digit 7 → the declarers win, 8 / 8."""
    return HandSummary(dealer=0, outcome=Outcome.CONTRACT, contract="hokum", trump=1, declarer=1, level=1,
                       locked=False, card_points=(77, 85), game_points=(8, 8), projects=(), baloot=None,
                       kaboot=None, score=(8, 8), winner=1, declarers=1, counting_team=0)


@pytest.mark.parametrize(("locale", "line"), [
    ("en", "Tied on points: **Badr & Dana** win the hand, because Ali & Camil's card points (77) end in 7."),
    ("ar", "تعادل في الأبناط، فالجولة لصالح **Badr وDana** لأن نقاط أوراق Ali وCamil (77) تنتهي بالرقم 7."),
])
def test_a_tie_is_explained_plainly(locale: str, line: str) -> None:
    """Was "win the hand (a tie, settled by the units digit 7)" beside an 8 : 8 hand score."""
    assert strip_isolates(winner_line(INFO, tied_hand(), locale)) == line


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_the_lobby_says_the_match_has_started(locale: str) -> None:
    """Was "Waiting for players: 4 of 4 seated." on the lobby message after the start."""
    waiting = render_lobby(INFO, Rules(), locale)
    started = render_lobby(INFO, Rules(), locale, started=True)
    assert t("table.waiting", locale, seated=4) in waiting["embeds"][0]["description"]
    text = started["embeds"][0]["description"]
    assert t("table.lobby_started", locale) in text and t("table.waiting", locale, seated=4) not in text
    assert waiting["components"] and started["components"] == []


@pytest.mark.parametrize(("key", "locale", "expected"), [
    ("table.turn_line", "en", "**Ali** to act — time runs out <t:9:R>"),
    ("table.turn_line", "ar", "الدور على **Ali** — ينتهي الوقت <t:9:R>"),
    ("hand.your_turn", "en", "Your turn — time runs out <t:9:R>"),
    ("hand.your_turn", "ar", "دورك — ينتهي الوقت <t:9:R>"),
    ("notice.ping", "en", "<@5>, your turn at the Baloot table — time runs out <t:9:R>"),
    ("notice.ping", "ar", "<@5>، دورك في البلوت — ينتهي الوقت <t:9:R>"),
])
def test_a_deadline_says_when_time_runs_out(key: str, locale: str, expected: str) -> None:
    """Discord shows <t:…:R> as "in 40 seconds": "your turn in 40 seconds" read as a turn starting later."""
    assert t(key, locale, name="Ali", mention="<@5>", deadline="<t:9:R>") == expected


def test_a_bot_is_named_with_western_digits() -> None:
    """Was "بوت ٣" in the text while the picture and every other number use Western digits."""
    from baloot.render.text import bot_name  # shared by the table and the history

    assert strip_isolates(bot_name(2, "ar")) == "بوت 3"
    assert strip_isolates(bot_name(2, "en")) == "Bot 3"
