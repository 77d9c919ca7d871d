"""Statistics count Sawa claims (R12): facts, tallies, storage (migration 5), the card."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from engine_helpers import build_deck, play
from stats_helpers import kaboot_match, store_match
from test_engine_sawa import SUN_LOSES_FIRST, SUN_LOSES_FIRST_TRICKS

from baloot import Match, Rules
from baloot.i18n.direction import strip_isolates
from baloot.render import check_limits
from baloot.render.stats import render_stats_card
from baloot.stats import StatsRecorder, StatsService, match_facts, seat_tally
from baloot.stats.facts import server_tally
from baloot.storage import Storage, migrate
from baloot.storage.sqlite_backend import SqliteDatabase
from baloot.storage.stats_rows import PlayerTotals, Tally

NOW = datetime(2024, 3, 13, 12, tzinfo=UTC).timestamp()


def sawa_match() -> dict[str, Any]:
    """Target 20, one hand: Sun by seat 0 (dealer 3), team 1 takes trick 1, seat 0 takes trick 2
    and claims Sawa at the third trick (R12): 24-2, team 0 wins the match."""
    match = Match(Rules(target=20), 3)
    match.deal(build_deck(3, SUN_LOSES_FIRST, "KH", 0))
    play(match, f"0 sun {SUN_LOSES_FIRST_TRICKS} 0 sawa")
    assert match.winner == 0 and match.score == [24, 2]
    return match.to_record()


def test_facts_name_the_claimant_and_tallies_count_the_claim() -> None:
    facts = match_facts(sawa_match())
    (hand,) = facts.hands
    assert hand.sawa_seat == 0 and hand.kaboot_team is None and hand.score == (24, 2)
    assert seat_tally(facts, 0).sawas == 1
    assert [seat_tally(facts, s).sawas for s in (1, 2, 3)] == [0, 0, 0]  # the partner did not claim
    assert server_tally(facts).sawas == 1
    no_claim = match_facts(kaboot_match())
    assert no_claim.hands[0].sawa_seat is None
    assert all(seat_tally(no_claim, s).sawas == 0 for s in range(4)) and server_tally(no_claim).sawas == 0


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    opened = await Storage.open(tmp_path / "stats.db", synchronous="NORMAL")
    yield opened
    await opened.close()


async def test_claims_are_stored_and_summed(storage: Storage) -> None:
    for i in range(2):
        result = await store_match(storage, sawa_match(), [1, 2, 3, 4], finished_at=NOW - 60 + i)
        await StatsRecorder(storage).record_result(result)
    result = await store_match(storage, kaboot_match(), [1, 2, 3, 4], finished_at=NOW)
    await StatsRecorder(storage).record_result(result)
    service = StatsService(storage, clock=lambda: NOW)
    assert (await service.player(1, 1)).tally.sawas == 2
    assert (await service.player(1, 3)).tally.sawas == 0
    board = await service.leaderboard(1, "wins", "all")
    assert board.server.sawas == 2 and board.server.hands == 3
    rows = await storage.db.fetch_all("SELECT sawa_seat FROM hand_facts ORDER BY finished_at")
    assert [r[0] for r in rows] == [0, 0, None]


async def test_migration_5_adds_the_counters_to_existing_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    db = await SqliteDatabase.open(path, migrate_schema=False)
    try:
        assert await migrate(db, target=4) == 4
        columns = ", ".join(Tally.columns()[:-1])  # the counters of migration 4
        await db.execute(
            f"INSERT INTO player_period_stats (guild_id, user_id, period, period_key, {columns}, win_rate, "
            f"rating, last_played) VALUES (1, 7, 'all', 0, {', '.join('1' for _ in Tally.columns()[:-1])}, "
            "1.0, NULL, 5.0)"
        )
        await db.execute(
            "INSERT INTO guild_period_stats (guild_id, period, period_key, matches, hands, sun_hands, hokum_hands, "
            "kaboots, doubled_hands, gahwas) VALUES (1, 'all', 0, 1, 1, 1, 0, 0, 0, 0)"
        )
        assert await migrate(db) >= 5
        assert [tuple(r) for r in await db.fetch_all("SELECT sawas, matches FROM player_period_stats")] == [(0, 1)]
        assert [tuple(r) for r in await db.fetch_all("SELECT sawas FROM guild_period_stats")] == [(0,)]
        assert list(await db.fetch_all("SELECT sawa_seat FROM hand_facts")) == []
    finally:
        await db.close()


@pytest.mark.parametrize(("locale", "words"), [("en", "Sawa"), ("ar", "السوا")])
def test_stats_card_shows_the_claims(locale: str, words: str) -> None:
    totals = PlayerTotals(1, 42, Tally(matches=3, wins=2, hands=20, sawas=5), None, None, 0, None, None, NOW)
    payload = render_stats_card(totals, locale)
    check_limits(payload)
    (field,) = [f for f in payload["embeds"][0]["fields"] if strip_isolates(f["name"]) == words]
    assert "5" in field["value"]
