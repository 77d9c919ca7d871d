"""Cosmetic slips: a default-named bot is not marked twice, a join notice names the partner
instead of "Team n". A bot's number in Western digits like every other number, and Arabic
results worded with no verb whose subject is a player (no gender, no dual)."""

from __future__ import annotations

from baloot.i18n import t
from baloot.render import Notice, RenderInfo
from baloot.render.result import team_key, team_label
from baloot.render.sections import notice_text
from baloot.render.text import seat_name


def plain(text: str) -> str:
    """``text`` without the Unicode isolates (U+2066–U+2069)."""
    return "".join(c for c in text if c not in "\u2066\u2067\u2068\u2069")


INFO = RenderInfo("t1", names=("Ali", "Badr", "Reem", "Bot 4"), is_bot=(False, False, False, True))


def test_a_default_named_bot_is_not_marked_twice() -> None:
    assert plain(seat_name(INFO, 3, "ar")) == "بوت 4"  # was "بوت ٤" (Arabic-Indic digit)
    assert plain(seat_name(INFO, 3, "en")) == "Bot 4"
    # A bot with another name still says it is a bot.
    named = RenderInfo("t1", names=("Ali", "Badr", "Reem", "Sahm"), is_bot=(False, False, False, True))
    assert plain(seat_name(named, 3, "ar")) == "Sahm (آلي)"
    assert plain(seat_name(named, 3, "en")) == "Sahm (bot)"


def test_a_result_needs_no_gender_in_arabic() -> None:
    """A result without gender (was: a dual masculine verb, فازا/أخذا, for every pair): "لصالح" fits a pair, one
    player, a woman or a man, and a team named "الفريق n" alike."""
    line = plain(t(team_key(INFO, 0, "result.winner_line"), "ar", team=team_label(INFO, 0, "ar")))
    assert line == "الجولة لصالح **Ali وReem**."
    title = plain(t(team_key(INFO, 1, "match.winner_title"), "ar", team=team_label(INFO, 1, "ar")))
    assert title == "الصكة لصالح Badr وبوت 4!"
    kaboot = t(team_key(INFO, 0, "result.kaboot_line"), "ar", team=team_label(INFO, 0, "ar"), kaboot="كبوت")
    assert "الأكلات الثماني كلها لصالح" in kaboot
    empty = RenderInfo("t1", names=("Ali", None, "Reem", None))
    assert plain(t(team_key(empty, 1, "result.winner_line"), "ar", team=team_label(empty, 1, "ar"))) \
        == "الجولة لصالح **الفريق 2**."
    assert t(team_key(empty, 1, "result.winner_line"), "en", team="Team 2") == "**Team 2** win the hand."
    for key in ("result.winner_line", "result.winner_tie", "result.kaboot_line", "match.winner_title",
                "notice.joined", "notice.joined_with", "notice.started", "notice.new_hand", "notice.back",
                "notice.away", "notice.timed_out", "notice.table_created", "table.trick_empty",
                "table.last_trick", "table.annulled", "result.sawa_line"):
        text = t(key, "ar", team="X", name="X", seat="S", partner="P", n=1, action="A", counter="C",
                 points=85, digit=5, kaboot="K", thread="T", tricks="T", cards="C")
        words = {w.strip(".،؛:!()") for w in text.split()}
        masculine = {"فازا", "فاز", "أخذا", "أخذ", "جلس", "فتح", "يوزّع", "عاد", "غائب", "عنه", "يبدأ", "أخذها",
                     "قال", "أعلن", "وكشف", "وأخذ"}
        assert not words & masculine, (key, words & masculine, text)


def test_a_join_notice_names_the_partner() -> None:
    notice = Notice("notice.joined_with", seat=2, params=(("seat", "Seat 3"),))
    assert plain(notice_text(notice, INFO, "en") or "") == "Reem sits in Seat 3, partnering Ali."
    arabic = Notice("notice.joined_with", seat=3, params=(("seat", "المقعد 4"),))
    assert plain(notice_text(arabic, INFO, "ar") or "") == "انضمام بوت 4 إلى المقعد 4، والشريك Badr."


def test_a_bad_table_option_reads_arabic_in_arabic() -> None:
    from baloot.i18n import error_text
    from baloot.tables import BadOption

    exc = BadOption("The match target must be a whole number from 1 to 1000.")
    assert error_text(exc, "en") == ("That table option is not valid: "
                                     "The match target must be a whole number from 1 to 1000.")
    arabic = error_text(exc, "ar")
    assert arabic == "خيار الطاولة غير صحيح: اختر إحدى القيم التي يعرضها الأمر."
    assert not any("a" <= c.lower() <= "z" for c in arabic)
