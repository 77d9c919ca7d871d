"""Leaderboards (orders, periods, pages), stats cards, history and records."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from stats_helpers import gahwa_match, kaboot_match, store_match, three_hand_match

from baloot.stats import StatsRecorder, StatsService
from baloot.stats.service import BadPage, NothingPlayed, UnknownMatch
from baloot.storage import Storage

NOW = datetime(2024, 3, 13, 12, tzinfo=UTC).timestamp()  # a Wednesday
THIS_WEEK = datetime(2024, 3, 11, 9, tzinfo=UTC).timestamp()  # Monday
THIS_MONTH = datetime(2024, 3, 2, 9, tzinfo=UTC).timestamp()  # previous week, same month
LAST_MONTH = datetime(2024, 2, 28, 9, tzinfo=UTC).timestamp()


@pytest.fixture
async def storage(database: str | Path) -> AsyncIterator[Storage]:
    opened = await Storage.open(database, synchronous="NORMAL")
    yield opened
    await opened.close()


async def play(storage: Storage, record: dict[str, Any], users: list[int | None], when: float,
               guild: int = 1) -> int:
    result = await store_match(storage, record, users, finished_at=when, guild=guild)
    await StatsRecorder(storage).record_result(result)
    return result.table_id


def ids(board: object) -> list[int]:
    return [e.user_id for e in board.page.entries]  # type: ignore[attr-defined]


async def test_periods_filter_by_when_the_match_finished(storage: Storage) -> None:
    await play(storage, kaboot_match(), [1, 2, 3, 4], LAST_MONTH)  # 1, 3 win
    await play(storage, three_hand_match(), [5, 6, 7, 8], THIS_MONTH)  # 6, 8 win
    await play(storage, three_hand_match(), [1, 9, 3, 10], THIS_WEEK)  # 9, 10 win
    service = StatsService(storage, clock=lambda: NOW)
    week = await service.leaderboard(1, "wins", "week")
    assert sorted(ids(week)) == [1, 3, 9, 10] and ids(week)[:2] == [9, 10]
    month = await service.leaderboard(1, "wins", "month")
    assert sorted(ids(month)) == [1, 3, 5, 6, 7, 8, 9, 10]
    everything = await service.leaderboard(1, "wins", "all")
    # Most wins first; equal wins: fewer matches first; then by user id.
    assert ids(everything) == [6, 8, 9, 10, 1, 3, 2, 4, 5, 7]
    assert [(e.wins, e.matches) for e in everything.page.entries][3:5] == [(1, 1), (1, 2)]
    assert week.server.matches == 1 and month.server.matches == 2 and everything.server.matches == 3
    # Another server sees none of it.
    assert (await service.leaderboard(2, "wins", "all")).page.total == 0


async def test_orders_by_rating_and_by_win_rate_with_a_minimum(storage: Storage) -> None:
    for i in range(3):
        await play(storage, kaboot_match(), [1, 2, 3, 4], THIS_WEEK + i)  # 1 and 3 win three times
    await play(storage, three_hand_match(), [1, 2, 5, 4], THIS_WEEK + 10)  # 2 and 4 win; 5 loses once
    service = StatsService(storage, clock=lambda: NOW, min_matches=2)
    by_rating = await service.leaderboard(1, "rating", "all")
    assert ids(by_rating)[:2] == [3, 1]  # 1 also lost once
    ratings = [e.rating or 0.0 for e in by_rating.page.entries]
    assert ratings == sorted(ratings, reverse=True) and by_rating.page.total == 5
    by_rate = await service.leaderboard(1, "winrate", "all")
    assert ids(by_rate) == [3, 1, 2, 4]  # 5 has one match (< 2); 3: 3/3, 1: 3/4, 2 and 4: 1/4
    assert [round(e.win_rate, 2) for e in by_rate.page.entries] == [1.0, 0.75, 0.25, 0.25]


async def test_paging_is_complete_and_clamped(storage: Storage) -> None:
    for i in range(6):
        await play(storage, kaboot_match(), [100 + 4 * i, 101 + 4 * i, 102 + 4 * i, 103 + 4 * i], THIS_WEEK + i)
    service = StatsService(storage, clock=lambda: NOW, page_size=5)
    pages = [await service.leaderboard(1, "rating", "week", p) for p in range(5)]
    assert pages[0].page.total == 24 and pages[0].page.pages == 5
    seen = [u for p in pages for u in ids(p)]
    assert len(seen) == 24 == len(set(seen))
    assert [e.place for e in pages[1].page.entries] == [6, 7, 8, 9, 10]
    past_the_end = await service.leaderboard(1, "rating", "week", 9)
    assert past_the_end.page.page == 4 and ids(past_the_end) == ids(pages[4])
    with pytest.raises(BadPage):
        await service.leaderboard(1, "rating", "year")
    with pytest.raises(BadPage):
        await service.leaderboard(1, "rating", "week", -1)


async def test_stats_card_adds_up_known_matches(storage: Storage) -> None:
    await play(storage, kaboot_match(), [1, 2, 3, 4], THIS_MONTH)
    await play(storage, gahwa_match(), [1, 2, 3, 4], THIS_WEEK)
    await play(storage, three_hand_match(), [1, 2, 5, 4], THIS_WEEK + 60)
    service = StatsService(storage, clock=lambda: NOW)
    card = await service.player(1, 1)
    t = card.tally
    assert (t.matches, t.wins, t.hands, t.hands_won) == (3, 2, 4, 2)
    assert (t.bought, t.bought_made) == (3, 2)  # kaboot and Gahwa hands made, the tie hand lost
    assert (t.sun_hands, t.sun_won, t.hokum_hands, t.hokum_won) == (1, 0, 3, 2)
    assert (t.kaboots_for, t.kaboots_against) == (1, 1)
    assert (t.doubles, t.doubles_won, t.gahwas, t.gahwas_won) == (1, 1, 1, 1)
    assert t.points == 74
    assert card.best_partner is not None and (card.best_partner.user_id, card.best_partner.wins) == (3, 2)
    assert card.rating is not None and card.rating.rated_matches == 3 and card.rating_place is not None
    doubler = await service.player(1, 2)
    assert (doubler.tally.doubles, doubler.tally.doubles_won) == (2, 0)  # kaboot double, Gahwa chain
    with pytest.raises(NothingPlayed):
        await service.player(1, 99)


async def test_history_lists_newest_first_with_teams_and_record(storage: Storage) -> None:
    first = await play(storage, kaboot_match(), [1, 2, 3, None], THIS_MONTH)
    second = await play(storage, three_hand_match(), [4, 1, None, 2], THIS_WEEK)
    service = StatsService(storage, clock=lambda: NOW)
    history = await service.history(1, 1)
    assert [h.table_id for h in history] == [second, first]
    assert history[0].users == (4, 1, None, 2) and history[0].seat == 1 and history[0].won
    assert history[0].score == (0, 60) and history[0].finished_at == THIS_WEEK
    assert history[1].score == (74, 0) and history[1].won and history[1].rating_change is None  # bots: unrated
    text = await service.record(1, first)
    assert json.loads(text) == kaboot_match()
    with pytest.raises(UnknownMatch):
        await service.record(2, first)  # another server's match
    with pytest.raises(UnknownMatch):
        await service.record(1, 12345)
    with pytest.raises(NothingPlayed):
        await service.history(1, 77)
