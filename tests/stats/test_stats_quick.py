"""A quick match between players of four servers is rated, and shown in each player's own server."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_tables_harness import open_service, play_to_end

from baloot.stats import StatsRecorder, StatsService
from baloot.stats.service import NothingPlayed
from baloot.storage.quick import QUICK_GUILD_ID
from baloot.tables.events import MatchFinished

SERVERS = {21: 501, 22: 502, 23: 503, 24: 504}


async def test_a_quick_match_counts_in_each_players_own_server(database: str | Path) -> None:
    storage, service, recorder = await open_service(database)
    service.add_listener(StatsRecorder(storage).on_event, first=True)
    stats = StatsService(storage)
    try:
        for user, guild in SERVERS.items():
            await service.queue_quick(guild, user, f"p{user}")
        [info] = await service.match_quick()
        await play_to_end(service, info.id, random.Random(8))
        (finished,) = recorder.of(MatchFinished)
        for user, guild in SERVERS.items():
            seat = info.seat_of(user)
            assert seat is not None
            card = await stats.player(guild, user)
            assert card.tally.matches == 1 and card.tally.wins == int(seat & 1 == finished.winner)
            assert card.rating is not None and card.rating.rated_matches == 1
            board = await stats.leaderboard(guild, "rating", "all")
            assert [e.user_id for e in board.page.entries] == [user]  # only this server's player is listed
            with pytest.raises(NothingPlayed):  # nothing under the quick-match tables' own guild
                await stats.player(QUICK_GUILD_ID, user)
        # the next quick match reads each player's rating: the winners now rank above the losers
        winners = [u for u in SERVERS if (info.seat_of(u) or 0) & 1 == finished.winner]
        skill = {u: await storage.best_skill(u) for u in SERVERS}
        assert all(s is not None for s in skill.values())
        assert min(skill[u][0] for u in winners) > max(skill[u][0] for u in SERVERS if u not in winners)  # type: ignore[index]
    finally:
        await service.close()
        await storage.close()
