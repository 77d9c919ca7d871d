"""Ratings and recording rules: direction, bots, abandoned matches, leavers, rebuild."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from stats_helpers import kaboot_match, random_match, store_match, three_hand_match

from baloot.stats import NEW_PLAYER, StatsRecorder, rate_match
from baloot.stats.rating import Skill, shown_rating
from baloot.storage import GuildSettings, Storage

A, B, C, D = 11, 12, 13, 14  # kaboot_match: team 0 (A, C) wins; three_hand_match: team 1 (B, D) wins


@pytest.fixture
async def storage(database: str | Path) -> AsyncIterator[Storage]:
    opened = await Storage.open(database, synchronous="NORMAL")
    yield opened
    await opened.close()


async def ratings(storage: Storage, guild: int = 1) -> dict[int, tuple[float, float, int]]:
    rows = await storage.db.fetch_all(
        "SELECT user_id, mu, sigma, rated_matches FROM player_ratings WHERE guild_id = ?", (guild,))
    return {r[0]: (r[1], r[2], r[3]) for r in rows}


def test_winners_go_up_and_losers_down() -> None:
    after = rate_match(dict.fromkeys(range(4), NEW_PLAYER), winner=1)
    for seat in (1, 3):
        assert after[seat].mu > NEW_PLAYER.mu and after[seat].shown > NEW_PLAYER.shown
    for seat in (0, 2):
        assert after[seat].mu < NEW_PLAYER.mu and after[seat].shown < NEW_PLAYER.shown
    assert all(s.sigma < NEW_PLAYER.sigma for s in after.values())
    assert shown_rating(NEW_PLAYER.mu, NEW_PLAYER.sigma) == pytest.approx(1000.0)


def test_beating_stronger_players_gains_more() -> None:
    strong = Skill(35.0, 2.0)
    upset = rate_match({0: NEW_PLAYER, 2: NEW_PLAYER, 1: strong, 3: strong}, winner=0)
    expected = rate_match(dict.fromkeys(range(4), NEW_PLAYER), winner=0)
    assert upset[0].mu - NEW_PLAYER.mu > expected[0].mu - NEW_PLAYER.mu


def test_a_leaver_on_the_winning_team_is_rated_as_a_loser() -> None:
    after = rate_match(dict.fromkeys(range(4), NEW_PLAYER), winner=0, left_early=frozenset({2}))
    assert after[0].mu > NEW_PLAYER.mu  # the partner keeps the win
    assert after[2].mu < NEW_PLAYER.mu


async def test_recorded_match_moves_ratings_and_keeps_history(storage: Storage) -> None:
    recorder = StatsRecorder(storage)
    result = await store_match(storage, kaboot_match(), [A, B, C, D])
    assert await recorder.record_match(result.table_id)
    got = await ratings(storage)
    assert got[A][0] > NEW_PLAYER.mu and got[C][0] > NEW_PLAYER.mu
    assert got[B][0] < NEW_PLAYER.mu and got[D][0] < NEW_PLAYER.mu
    assert {r[2] for r in got.values()} == {1}
    history = await storage.db.fetch_all("SELECT user_id, rating_before, rating_after FROM rating_history")
    assert {r[0] for r in history} == {A, B, C, D}
    assert all((r[2] > r[1]) == (r[0] in (A, C)) for r in history)
    # Recording twice changes nothing.
    assert not await recorder.record_match(result.table_id)
    assert await ratings(storage) == got


async def test_bot_matches_are_not_rated_unless_the_server_opts_in(storage: Storage) -> None:
    recorder = StatsRecorder(storage)
    first = await store_match(storage, kaboot_match(), [A, None, C, None])
    await recorder.record_match(first.table_id)
    assert await ratings(storage) == {}
    card = await recorder.queries.player(1, A)
    assert card is not None and card.tally.matches == 1 and card.tally.wins == 1 and card.rating is None

    await storage.save_guild_settings(GuildSettings(1, ai_rated=True))
    second = await store_match(storage, kaboot_match(), [A, None, C, None], finished_at=1_700_000_100.0)
    await recorder.record_match(second.table_id)
    got = await ratings(storage)
    assert set(got) == {A, C} and got[A][0] > NEW_PLAYER.mu and got[A][2] == 1


async def test_abandoned_matches_count_only_the_abandon(storage: Storage) -> None:
    recorder = StatsRecorder(storage)
    partial = {**kaboot_match(), "hands": [{**kaboot_match()["hands"][0], "actions": []}]}
    result = await store_match(storage, partial, [A, B, C, D], abandoned=True, left=(0, 1, 2, 3))
    await recorder.record_match(result.table_id)
    assert await ratings(storage) == {}
    assert await recorder.queries.player(1, A) is None  # nothing finished
    row = await storage.db.fetch_one(
        "SELECT matches, abandons FROM player_period_stats WHERE user_id = ? AND period = 'all'", (A,))
    assert row is not None and tuple(row) == (0, 1)
    hands = await storage.db.fetch_one("SELECT COUNT(*) FROM hand_facts")
    assert hands is not None and hands[0] == 0


async def test_a_player_who_left_is_recorded_and_loses_rating(storage: Storage) -> None:
    recorder = StatsRecorder(storage)
    result = await store_match(storage, three_hand_match(), [A, B, C, D], left=(3,))  # D's team wins
    await recorder.record_match(result.table_id)
    got = await ratings(storage)
    assert got[B][0] > NEW_PLAYER.mu and got[D][0] < NEW_PLAYER.mu
    leaver = await recorder.queries.player(1, D)
    assert leaver is not None and (leaver.tally.abandons, leaver.tally.wins, leaver.tally.matches) == (1, 0, 1)
    history = await recorder.queries.history(1, D)
    assert history[0].left_early and not history[0].won
    flag = await storage.db.fetch_one("SELECT left_early FROM rating_history WHERE user_id = ?", (D,))
    assert flag is not None and flag[0] == 1


async def test_rebuild_and_catch_up_recompute_exactly(storage: Storage) -> None:
    recorder = StatsRecorder(storage)
    users = [A, B, C, D, 15, 16]
    for i in range(6):
        seats = [users[(i + k) % 6] for k in range(4)]
        result = await store_match(storage, random_match(i, target=60), seats, finished_at=1_700_000_000.0 + i)
        await recorder.record_match(result.table_id)

    async def snapshot() -> list[object]:
        rows: list[object] = []
        for table in ("player_ratings", "player_period_stats", "partner_stats", "guild_period_stats",
                      "hand_facts", "rating_history"):
            got = await storage.db.fetch_all(f"SELECT * FROM {table}")
            rows.append(tuple(sorted(tuple(r)[:-1] if table == "player_ratings" else tuple(r) for r in got)))
        return rows

    before = await snapshot()
    assert await recorder.rebuild() == 6
    assert await snapshot() == before
    # A result stored while nothing listened (a crash) is picked up by catch_up.
    late = await store_match(storage, kaboot_match(), [A, B, C, D], finished_at=1_700_000_100.0)
    assert await recorder.catch_up() == 1
    assert await recorder.catch_up() == 0
    assert late.table_id in {r[0] for r in await storage.db.fetch_all("SELECT table_id FROM stats_matches")}
