"""Issue 10's cosmetic slips: a default-named bot is not marked twice, a pair of players takes a dual
Arabic verb, a join notice names the partner instead of "Team n"."""

from __future__ import annotations

from baloot.i18n import t
from baloot.render import Notice, TableInfo
from baloot.render.result import team_key, team_label
from baloot.render.sections import notice_text
from baloot.render.text import seat_name


def plain(text: str) -> str:
    """``text`` without the Unicode isolates (U+2066–U+2069)."""
    return "".join(c for c in text if c not in "\u2066\u2067\u2068\u2069")


INFO = TableInfo("t1", names=("Ali", "Badr", "Reem", "Bot 4"), is_bot=(False, False, False, True))


def test_a_default_named_bot_is_not_marked_twice() -> None:
    assert plain(seat_name(INFO, 3, "ar")) == "بوت ٤"
    assert plain(seat_name(INFO, 3, "en")) == "Bot 4"
    # A bot with another name still says it is a bot.
    named = TableInfo("t1", names=("Ali", "Badr", "Reem", "Sahm"), is_bot=(False, False, False, True))
    assert plain(seat_name(named, 3, "ar")) == "Sahm (آلي)"
    assert plain(seat_name(named, 3, "en")) == "Sahm (bot)"


def test_a_pair_takes_a_dual_verb_in_arabic() -> None:
    line = plain(t(team_key(INFO, 0, "result.winner_line"), "ar", team=team_label(INFO, 0, "ar")))
    assert line == "**Ali وReem** فازا بالجولة."
    title = plain(t(team_key(INFO, 1, "match.winner_title"), "ar", team=team_label(INFO, 1, "ar")))
    assert title == "Badr وبوت ٤ فازا بالصكة!"
    kaboot = t(team_key(INFO, 0, "result.kaboot_line"), "ar", team=team_label(INFO, 0, "ar"), kaboot="كبوت")
    assert "أخذا الأكلات" in kaboot
    # A team nobody sits in is "الفريق n": one subject, the singular verb.
    empty = TableInfo("t1", names=("Ali", None, "Reem", None))
    assert plain(t(team_key(empty, 1, "result.winner_line"), "ar", team=team_label(empty, 1, "ar"))) \
        == "**الفريق 2** فاز بالجولة."
    assert t(team_key(empty, 1, "result.winner_line"), "en", team="Team 2") == "**Team 2** win the hand."


def test_a_join_notice_names_the_partner() -> None:
    notice = Notice("notice.joined_with", seat=2, params=(("seat", "Seat 3"),))
    assert plain(notice_text(notice, INFO, "en") or "") == "Reem sits in Seat 3, partnering Ali."
    arabic = Notice("notice.joined_with", seat=3, params=(("seat", "المقعد ٤"),))
    assert plain(notice_text(arabic, INFO, "ar") or "") == "بوت ٤ جلس في المقعد ٤ شريكًا لـBadr."


def test_a_bad_table_option_reads_arabic_in_arabic() -> None:
    from baloot.i18n import error_text
    from baloot.tables import BadOption

    exc = BadOption("The match target must be a whole number from 1 to 1000.")
    assert error_text(exc, "en") == ("That table option is not valid: "
                                     "The match target must be a whole number from 1 to 1000.")
    arabic = error_text(exc, "ar")
    assert arabic == "خيار الطاولة غير صحيح: اختر إحدى القيم التي يعرضها الأمر."
    assert not any("a" <= c.lower() <= "z" for c in arabic)
