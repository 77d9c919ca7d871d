"""The rules summary, notices, errors, the lobby, and the limit checker itself."""

from __future__ import annotations

from typing import Any

import pytest

from baloot import Action, ActionType, Card, Rules
from baloot.engine.error_codes import ErrorCode
from baloot.engine.errors import IllegalActionError
from baloot.i18n.direction import strip_isolates
from baloot.render import (
    LimitError,
    Notice,
    RenderInfo,
    check_limits,
    limit_problems,
    render_error,
    render_lobby,
    render_notice,
    render_rules,
    render_text,
)

INFO = RenderInfo("5", names=("Ali", None, "Sara", "**Bot**"), is_bot=(False, False, False, True),
                 away=(True, False, False, False))


@pytest.mark.parametrize("locale", ["en", "ar", "ar-SA", "fr"])
def test_rules_summary(locale: str) -> None:
    payload = render_rules(locale, Rules(target=101))
    check_limits(payload)
    embed = payload["embeds"][0]
    assert len(embed["fields"]) == 8  # seven sections, and Sawa (R12)
    assert "101" in embed["description"]
    text = str(payload)
    if not locale.startswith("ar"):
        assert "J  9  A 10  K  Q  8  7" in text  # the card values table
        assert "20 14 11 10  4  3  0  0" in text
    else:  # the Arabic table has one row per card, Arabic rank names (tests/render/test_bidi_layout.py)
        assert "ولد      20     2" in text
    if locale.startswith("ar"):
        words = ("صن", "حكم", "أشكل", "دبل", "ثري", "فور", "قهوة", "سرا", "خمسين", "مية", "أربعمية", "بلوت", "كبوت")
        for word in words:
            assert word in text, word
    else:
        assert "Sira" in text and "Four Hundred" in text and "Al-kaboot" in text


def test_notices_fill_names_and_actions() -> None:
    timed = render_notice(INFO, Notice("notice.timed_out", seat=0, action=Action(0, ActionType.PLAY, Card.parse("7H"))))
    assert strip_isolates(timed["content"]) == "Ali (away) ran out of time; played for them: 7♥."
    ar = render_notice(INFO, Notice("notice.timed_out", seat=3, action=Action(3, ActionType.PASS)), "ar")
    # no masculine pronoun (was "لُعب عنه"), and the reminder says "time runs out <t:…:R>" once
    # (was "15 seconds left to act — <t:…:R>", which Discord shows as "… — in 15 seconds")
    assert strip_isolates(ar["content"]) == "انتهى وقت \\*\\*Bot\\*\\* (آلي)؛ لُعب تلقائيًا: بس."
    reminder = render_notice(INFO, Notice("notice.reminder", seat=2, params=(("deadline", "<t:100:R>"),)))
    assert strip_isolates(reminder["content"]) == "Sara, time runs out <t:100:R>."
    arabic = render_notice(INFO, Notice("notice.reminder", seat=2, params=(("deadline", "<t:100:R>"),)), "ar")
    assert strip_isolates(arabic["content"]) == "Sara، ينتهي الوقت <t:100:R>."
    for key in ("notice.resumed", "notice.dms_closed"):
        for locale in ("en", "ar"):
            check_limits(render_notice(INFO, Notice(key), locale))


def test_error_replies() -> None:
    exc = IllegalActionError(
        "You must follow suit: play a card of clubs (R5).", code=ErrorCode.FOLLOW_SUIT, params={"suit": 3}
    )
    assert render_error(exc, "en")["content"] == "You must follow suit: play Clubs."
    assert strip_isolates(render_error(exc, "ar")["content"]) == "يجب أن تلعب من النوع نفسه: سبيت."
    assert strip_isolates(render_text("error.no_table", "ar")["content"]) == "لا توجد طاولة بلوت في هذه القناة."


def test_lobby_lists_seats() -> None:
    payload = render_lobby(INFO, Rules(), "en")
    check_limits(payload)
    text = str(payload)
    assert "3 of 4 seated" in text
    assert "(empty seat)" in text and "Seat 2" in text
    seats = strip_isolates(payload["embeds"][0]["fields"][1]["value"])
    assert "Seat 4: \\*\\*Bot\\*\\* (bot)" in seats.splitlines()  # markdown in names is escaped


def big(n: int) -> str:
    return "x" * n


def payload_with(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "content": "hi",
        "embeds": [{"title": "t", "description": "d", "fields": [{"name": "n", "value": "v"}]}],
        "components": [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "a", "custom_id": "a"}]}],
    }
    base.update(changes)
    return base


@pytest.mark.parametrize(
    ("payload", "problem"),
    [
        (payload_with(content=big(2001)), "content"),
        (payload_with(embeds=[{"title": big(257)}]), "title"),
        (payload_with(embeds=[{"description": big(4097)}]), "description"),
        (payload_with(embeds=[{"fields": [{"name": "n", "value": big(1025)}]}]), "value"),
        (payload_with(embeds=[{"fields": [{"name": "", "value": "v"}]}]), "empty"),
        (payload_with(embeds=[{"fields": [{"name": "n", "value": "v"}] * 26}]), "fields"),
        (payload_with(embeds=[{"description": big(3000)}, {"description": big(3001)}]), "in all"),
        (payload_with(embeds=[{"title": "x"}] * 11), "embeds"),
        (payload_with(components=[{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "a", "custom_id": str(i)}]} for i in range(6)]), "action rows"),
        (payload_with(components=[{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "a", "custom_id": str(i)} for i in range(6)]}]), "buttons"),
        (payload_with(components=[{"type": 1, "components": [
            {"type": 2, "style": 1, "label": big(81), "custom_id": "a"}]}]), "label"),
        (payload_with(components=[{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "a", "custom_id": big(101)}]}]), "custom_id"),
        (payload_with(components=[{"type": 1, "components": [
            {"type": 2, "style": 1, "label": "a", "custom_id": "same"},
            {"type": 2, "style": 2, "label": "b", "custom_id": "same"}]}]), "unique"),
        (payload_with(content="", embeds=[]), "empty"),
    ],
)
def test_check_limits_catches_each_violation(payload: dict[str, Any], problem: str) -> None:
    problems = limit_problems(payload)
    assert problems and any(problem in p for p in problems), problems
    with pytest.raises(LimitError):
        check_limits(payload)


def test_check_limits_accepts_the_maximum() -> None:
    check_limits(payload_with(content=big(2000), embeds=[{"description": big(4096)}, {"title": big(256),
                                                                                        "description": big(1648)}]))


def test_table_info_from_the_service_snapshot() -> None:
    from dataclasses import dataclass

    from baloot.render import table_info_from

    @dataclass(frozen=True)
    class Seat:
        name: str
        is_bot: bool = False
        away: bool = False

    @dataclass(frozen=True)
    class ServiceTable:
        id: int
        seats: tuple[Seat | None, ...]
        turn_seconds: float
        language: str | None

    table = ServiceTable(123456789012345678, (Seat("Ali"), None, Seat("Bot", is_bot=True), Seat("Sam", away=True)),
                         30.0, None)
    info = table_info_from(table, deadline=1_700_000_000.7, default_language="ar")
    assert info.table_id == "123456789012345678"
    assert info.names == ("Ali", None, "Bot", "Sam")
    assert info.is_bot == (False, False, True, False) and info.away == (False, False, False, True)
    assert (info.turn_deadline, info.turn_time, info.language) == (1_700_000_000, 30, "ar")


def test_score_sheet_from_a_match_summary() -> None:
    from baloot.engine.bidding import Outcome
    from baloot.engine.summary import HandSummary, MatchSummary
    from baloot.render import render_score_sheet

    hand = HandSummary(dealer=0, outcome=Outcome.CONTRACT, contract="hokum", trump=1, declarer=1, level=2,
                       locked=True, card_points=(66, 96), game_points=(10, 11), projects=(), baloot=None,
                       kaboot=None, score=(0, 42))
    payload = render_score_sheet(INFO, MatchSummary((hand,), (0, 42), None, 152), "en")
    check_limits(payload)
    assert "**1.** Hokum Hearts ♥ · Double — 0 : 42  (0 : 42)" in payload["embeds"][0]["description"]
