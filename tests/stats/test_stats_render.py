"""Rendering of the statistics: both languages, Discord's limits, page buttons' custom_ids."""

from __future__ import annotations

import re

import pytest

from baloot.i18n.direction import strip_isolates
from baloot.render import check_limits
from baloot.render.stats import (
    BOARD_ID_TEMPLATE,
    BoardId,
    render_history,
    render_leaderboard,
    render_record,
    render_stats_card,
)
from baloot.storage.stats_rows import (
    BoardSort,
    HistoryEntry,
    LeaderboardEntry,
    LeaderboardPage,
    Partner,
    Period,
    PlayerTotals,
    RatingRow,
    ServerTally,
    Tally,
)

GUILD = 987654321098765432


def page(sort: BoardSort, number: int, total: int) -> LeaderboardPage:
    entries = tuple(
        LeaderboardEntry(number * 10 + i + 1, 10**17 + i, 40, 30 - i, (30 - i) / 40, 2100.4 - i) for i in range(10)
    )
    return LeaderboardPage(GUILD, sort, Period.MONTH, number, 10, total, entries, 5)


@pytest.mark.parametrize("locale", ["en", "ar"])
@pytest.mark.parametrize("sort", list(BoardSort))
def test_leaderboard_pages_fit_and_link_to_their_neighbours(locale: str, sort: BoardSort) -> None:
    payload = render_leaderboard(page(sort, 1, 35), ServerTally(120, 1000, 400, 600, 7, 50, 2), locale)
    check_limits(payload)
    embed = payload["embeds"][0]
    assert f"<@{10**17}>" in embed["description"] and "**11.**" in embed["description"]
    expected = {"en": "Page 2 of 4 · 35 players", "ar": "الصفحة 2 من 4 · 35 لاعب"}[locale]
    assert strip_isolates(embed["footer"]["text"]) == expected
    buttons = payload["components"][0]["components"]
    previous, following = (BoardId.decode(b["custom_id"]) for b in buttons)
    assert (previous.page, following.page) == (0, 2)
    assert previous.guild_id == GUILD and previous.sort is sort and previous.period is Period.MONTH
    assert not any(b["disabled"] for b in buttons)
    for b in buttons:
        assert re.fullmatch(BOARD_ID_TEMPLATE, b["custom_id"]) and len(b["custom_id"]) <= 100


@pytest.mark.parametrize(("locale", "head", "footer", "rule"), [
    ("en", "1 match · 1 hand · Sun 100% · Hokum 0% · Kaboots 1", "Page 1 of 1 · 1 player",
     "Listed by win rate from 1 match in the period."),
    # a match is a صكة, as at the table (was مباراة)
    ("ar", "صكة واحدة · جولة واحدة · صن 100% · حكم 0% · كبوت 1", "الصفحة 1 من 1 · لاعب واحد",
     "الترتيب حسب نسبة الفوز بعد صكة واحدة على الأقل في الفترة."),
])
def test_leaderboard_counts_take_their_plural_forms(locale: str, head: str, footer: str, rule: str) -> None:
    one = LeaderboardPage(GUILD, BoardSort.WIN_RATE, Period.ALL, 0, 10, 1,
                          (LeaderboardEntry(1, 10**17, 1, 1, 1.0, None),), 1)
    embed = render_leaderboard(one, ServerTally(1, 1, 1, 0, 1), locale)["embeds"][0]
    lines = [strip_isolates(line) for line in embed["description"].splitlines()]
    assert lines[0] == head and lines[-1] == rule
    assert strip_isolates(embed["footer"]["text"]) == footer
    three = render_leaderboard(page(BoardSort.WINS, 0, 3), ServerTally(3, 4, 2, 2, 0), locale)["embeds"][0]
    assert strip_isolates(three["description"]).startswith(
        {"en": "3 matches · 4 hands", "ar": "3 صكات · 4 جولات"}[locale])


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_an_empty_rating_board_after_matches_says_why(locale: str) -> None:
    """Matches with bots rate nobody: a rating board with matches played and nobody on it says so,
    rather than asking the players who just finished a match to finish one."""
    empty = LeaderboardPage(GUILD, BoardSort.RATING, Period.ALL, 0, 10, 0, (), 5)
    played = strip_isolates(render_leaderboard(empty, ServerTally(1, 3, 1, 2), locale)["embeds"][0]["description"])
    fresh = strip_isolates(render_leaderboard(empty, ServerTally(), locale)["embeds"][0]["description"])
    wins = LeaderboardPage(GUILD, BoardSort.WINS, Period.ALL, 0, 10, 0, (), 5)
    by_wins = strip_isolates(render_leaderboard(wins, ServerTally(1, 3, 1, 2), locale)["embeds"][0]["description"])
    assert played.endswith({"en": "Nobody is rated yet: only matches of four people change ratings.",
                            "ar": "لا أحد له تقييم بعد: لا تغيّر التقييم إلا صكات أربعة لاعبين من البشر."}[locale])
    finish = {"en": "Nobody is on this leaderboard yet: finish a match to appear.",
              "ar": "لا أحد في هذا الترتيب بعد: أنهِ صكة لتظهر فيه."}[locale]
    assert fresh.endswith(finish) and by_wins.endswith(finish)


def test_first_and_last_pages_disable_their_outer_button_and_one_page_has_none() -> None:
    first = render_leaderboard(page(BoardSort.WINS, 0, 25), ServerTally(), "en")["components"][0]["components"]
    last = render_leaderboard(page(BoardSort.WINS, 2, 25), ServerTally(), "en")["components"][0]["components"]
    assert [b["disabled"] for b in first] == [True, False] and [b["disabled"] for b in last] == [False, True]
    empty = LeaderboardPage(GUILD, BoardSort.RATING, Period.WEEK, 0, 10, 0, (), 5)
    payload = render_leaderboard(empty, ServerTally(), "en")
    assert payload["components"] == [] and "Nobody" in payload["embeds"][0]["description"]


def test_board_ids_refuse_anything_else() -> None:
    for bad in ("bl:1:0:0:0:p", "blst:lb:1:elo:week:0:n", "blst:lb:1:wins:year:0:n", "blst:lb:x:wins:week:0:n"):
        with pytest.raises(ValueError):
            BoardId.decode(bad)
    same = BoardId(5, BoardSort.WIN_RATE, Period.ALL, 3, "n")
    assert BoardId.decode(same.encode()) == same


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_stats_card_shows_every_figure(locale: str) -> None:
    tally = Tally(matches=12, wins=7, abandons=1, hands=90, hands_won=50, bought=20, bought_made=13, sun_hands=30,
                  sun_won=17, hokum_hands=60, hokum_won=33, kaboots_for=4, kaboots_against=2, doubles=6,
                  doubles_won=5, gahwas=1, gahwas_won=1, points=1234)
    totals = PlayerTotals(GUILD, 42, tally, RatingRow(42, 30.0, 3.0, 1840.0, 12), 3, 57, 12.4,
                          Partner(43, 6, 5), 1_700_000_000.0)
    payload = render_stats_card(totals, locale)
    check_limits(payload)
    text = str(payload["embeds"][0])
    for figure in ("1840", "57", "+12", "58%", "13.7", "65%", "<@43>", "<t:1700000000:d>"):
        assert figure in text, figure


def test_history_names_partner_opponents_and_bots() -> None:
    entry = HistoryEntry(77, 1_700_000_000.0, (101, 152), 1, 3, (1, None, 2, 4), False, False, 8.6)
    payload = render_history(4, [entry], "en", "`/baloot record`")
    check_limits(payload)
    line = strip_isolates(payload["embeds"][0]["description"].splitlines()[2])
    # a bot by its seat's name, as at the table (was "with Bot")
    assert line == "`#77` <t:1700000000:d> · Won **152–101** · with Bot 2 against <@1> and <@2> · +9"
    bots = HistoryEntry(78, 1_700_000_000.0, (0, 152), 0, 0, (4, None, None, None), False, False, None)
    for locale, words in (("en", "with Bot 3 against Bot 2 and Bot 4"), ("ar", "مع بوت 3 ضد بوت 2 وبوت 4")):
        shown = render_history(4, [bots], locale, "`/baloot record`")["embeds"][0]["description"]
        assert words in strip_isolates(shown)


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_a_record_says_what_the_file_is_for(locale: str) -> None:
    """In a player's words, no terminal command (that is in the README)."""
    content = render_record(5, locale)["content"]
    assert "python" not in content and "replay" not in content
    assert {"en": "Match #5 in one file: every deal, bid and card played",
            "ar": "ملف الصكة رقم 5: كل توزيع وشراء وورقة لُعبت فيها"}[locale] in strip_isolates(content)
