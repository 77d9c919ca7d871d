"""A tournament's rounds over the table service: a round of a fixed number of deals (R8), and a team
that never shows forfeiting the round (docs/tournaments.md, "A team that never shows")."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from pathlib import Path

import pytest
from test_tables_harness import legal_bot_factory, open_service, play_one
from test_tables_tournaments import ADMIN, GUILD, LOBBY, PLAYERS, Threads, open_all, play_round

from baloot.ai.rollout import team_value
from baloot.engine.records import match_from_record
from baloot.storage import Storage
from baloot.storage.tournament_rows import FORFEIT_FIRST, FORFEIT_SECOND, TournamentStatus, TournamentTableRow
from baloot.tables import NoTableHere, TableService
from baloot.tables.events import EndReason, TableEnded, TableEvent
from baloot.tables.tournament_errors import TournamentRefusal
from baloot.tables.tournament_service import TournamentService
from baloot.tournaments import DealResult, board_of, hand_deck, team_seats


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
    finally:
        await tables.close()
        await storage.close()


async def test_a_round_of_four_deals_replays_each_deck_with_the_sides_swapped_across_a_restart(
        database: str | Path) -> None:
    """Four deals a round: hands 0, 1 are boards 0, 1 and hands 2, 3 replay boards 1, 0 with the sides swapped
    (docs/tournaments.md); a restart in the middle of the round deals the same decks. The deal results are
    stored by board and by the side of the board's cards, so each team holds both sides of each board."""
    threads = Threads()
    storage, tables, service, _ = await open_all(database, threads)
    row = await service.create(GUILD, LOBBY, ADMIN, "Mirror", deals=4, turn_seconds=600)
    for i in range(0, 8, 2):
        await service.register_team(row.id, PLAYERS[i], "a", PLAYERS[i + 1], "b")
        await service.confirm(row.id, PLAYERS[i + 1])
    await service.start(row.id, ADMIN)
    rng = random.Random(5)
    await play_round(tables, service, row.id, 1, rng, stop_after=40)
    await tables.close()  # kill -9 in the middle of the round
    await storage.close()
    storage, tables, service, _ = await open_all(database, threads)
    try:
        await tables.resume_all()
        await service.resume()
        await play_round(tables, service, row.id, 1, rng)
        seed = await service.store.round_seed(row.id, 1)
        assert seed is not None
        spots = await service.store.tables(row.id, 1)
        played: dict[int, int] = {}
        for spot in spots:
            assert spot.table_id is not None and spot.first_points is not None
            hands = await storage.hands(spot.table_id)
            played[spot.table_no] = len(hands)
            for h, stored in enumerate(hands):
                assert stored.deck == [c.text for c in hand_deck(seed, h, 4)]
            if len(hands) >= 4:
                assert hands[2].deck == hands[1].deck and hands[3].deck == hands[0].deck
                assert hands[0].deck != hands[1].deck
        deals = [DealResult(*d) for d in await service.store.deals(row.id)]
        full = [s for s in spots if played[s.table_no] >= 4]
        assert full, "a table played its four deals"
        for spot in full:
            assert spot.table_id is not None
            result = await storage.result(spot.table_id)
            assert result is not None
            match = match_from_record(result.record)
            first_side, _ = team_seats(spot.table_no)
            mine = {(d.hand_no, d.side): d.diff for d in deals if d.team == spot.first_team}
            theirs = {(d.hand_no, d.side): d.diff for d in deals if d.team == spot.second_team}
            assert {(b, s) for b in (0, 1) for s in (0, 1)} <= set(mine), "both sides of both boards"
            for h, hand in enumerate(match.hands):
                board, flipped = board_of(h, 4)
                assert board == (h if h >= 4 else (0, 1, 1, 0)[h])
                side = first_side ^ flipped  # the side of the board's cards the first team held
                diff = team_value(hand, first_side, match.rules.target)
                assert mine[(board, side)] == diff and theirs[(board, 1 - side)] == -diff
    finally:
        await tables.close()
        await storage.close()


# -- a team that never shows ---------------------------------------------------------------------------


async def open_no_show(path: str | Path, threads: Threads, no_show: float) -> tuple[
        Storage, TableService, TournamentService, list[TableEnded]]:
    """Turn timers that auto-play an absent player's every turn (never marked away: no instant play)."""
    storage, tables, _ = await open_service(path, bot_factory=legal_bot_factory, away_after=1000,
                                            reminder_seconds=0.0)
    service = TournamentService(tables, storage, threads, rng=random.Random(7), bot_level="easy",
                                no_show_seconds=no_show)
    ended: list[TableEnded] = []

    async def keep(event: TableEvent) -> None:
        if isinstance(event, TableEnded):
            ended.append(event)

    tables.add_listener(keep)
    return storage, tables, service, ended


async def two_teams(service: TournamentService, turn_seconds: float) -> tuple[int, TournamentTableRow]:
    row = await service.create(GUILD, LOBBY, ADMIN, "No-show Cup", turn_seconds=turn_seconds)
    for i in (0, 2):
        await service.register_team(row.id, PLAYERS[i], f"P{i}", PLAYERS[i + 1], f"P{i + 1}")
        await service.confirm(row.id, PLAYERS[i + 1])
    await service.start(row.id, ADMIN)
    [spot] = await service.store.tables(row.id, 1)
    assert spot.table_id is not None
    return row.id, spot


async def players(service: TournamentService, tid: int, team_id: int) -> tuple[int, ...]:
    team = next(t for t in await service.store.teams(tid) if t.id == team_id)
    return tuple(u for u in (team.player1, team.player2) if u is not None)


async def test_a_team_that_never_acts_forfeits_and_its_table_closes(database: str | Path) -> None:
    """The second team's turns are all auto-played by the timers (0.3 s a turn); the first team plays its
    turns. At the no-show time (1.5 s after the table opened) the second team forfeits: the first wins the
    round, the table closes saying who never showed, the standings count the forfeit."""
    threads = Threads()
    storage, tables, service, ended = await open_no_show(database, threads, 1.5)
    try:
        tid, spot = await two_teams(service, turn_seconds=0.3)
        assert spot.table_id is not None
        present, absent = await players(service, tid, spot.first_team), await players(service, tid, spot.second_team)
        rng = random.Random(2)
        async with asyncio.timeout(10):
            while (await service.store.tables(tid, 1))[0].first_points is None:
                try:
                    info = tables.table_by_id(spot.table_id)
                except NoTableHere:
                    await asyncio.sleep(0.01)
                    continue
                seat = info.to_move
                who = None if seat is None else info.seats[seat]
                if who is not None and who.user_id in present:
                    with contextlib.suppress(Exception):  # the turn moved on meanwhile
                        await play_one(tables, spot.table_id, rng)
                await asyncio.sleep(0.01)
        async with asyncio.timeout(5):  # stored, then the table closes, then the round advances
            while (row := await service.store.tournament(tid)) is not None and row.status != TournamentStatus.FINISHED:
                await asyncio.sleep(0.01)
        done = (await service.store.tables(tid, 1))[0]
        assert (done.forfeit, done.first_points, done.second_points) == (FORFEIT_SECOND, 1.0, 0.0)
        assert await service.store.acted(spot.table_id, present, float("inf")), "the first team did play"
        assert not await service.store.acted(spot.table_id, absent, float("inf"))
        with pytest.raises(NoTableHere):
            tables.table_by_id(spot.table_id)
        [closing] = [e for e in ended if e.table_id == spot.table_id]
        assert closing.reason == EndReason.FORFEIT and closing.absent == absent
        assert row is not None and row.winner_team == spot.first_team
        _, lines, _ = await service.standings(tid)
        forfeits = {line.team: (line.points, line.forfeits) for line in lines}
        assert forfeits == {spot.first_team: (1.0, 0), spot.second_team: (0.0, 1)}
    finally:
        await service.close()
        await tables.close()
        await storage.close()


async def test_the_no_show_clock_survives_a_restart(database: str | Path) -> None:
    """Nobody acts (600 s turns). The bot stops before the no-show time (2 s) and starts again after it:
    the forfeit comes at once, from the stored opening time, not 2 s after the restart; both teams forfeit."""
    threads = Threads()
    storage, tables, service, _ = await open_no_show(database, threads, 2.0)
    tid, spot = await two_teams(service, turn_seconds=600)
    assert spot.table_id is not None
    opened = await service.store.opened_at(spot.table_id)
    assert opened is not None
    await service.close()
    await tables.close()
    await storage.close()
    await asyncio.sleep(max(0.0, opened + 2.2 - time.time()))
    storage, tables, service, ended = await open_no_show(database, threads, 2.0)
    try:
        await tables.resume_all()
        started = time.monotonic()
        await service.resume()
        async with asyncio.timeout(5):
            while (await service.store.tables(tid, 1))[0].first_points is None:
                await asyncio.sleep(0.02)
        assert time.monotonic() - started < 1.0, "the clock was not reset by the restart"
        async with asyncio.timeout(5):  # stored, then the table closes, then the round advances
            while (row := await service.store.tournament(tid)) is not None and row.status != TournamentStatus.FINISHED:
                await asyncio.sleep(0.01)
        done = (await service.store.tables(tid, 1))[0]
        assert (done.forfeit, done.first_points, done.second_points) == (FORFEIT_FIRST | FORFEIT_SECOND, 0.0, 0.0)
        assert [e.reason for e in ended] == [EndReason.FORFEIT]
        _, lines, _ = await service.standings(tid)
        assert sorted(line.forfeits for line in lines) == [1, 1]
    finally:
        await service.close()
        await tables.close()
        await storage.close()


async def test_nobody_forfeits_in_a_tournament_the_organiser_ended(database: str | Path) -> None:
    threads = Threads()
    storage, tables, service, ended = await open_no_show(database, threads, 600.0)
    try:
        tid, spot = await two_teams(service, turn_seconds=600)
        assert spot.table_id is not None
        await service.end(tid, ADMIN)
        assert await service.check_no_show(spot.table_id, time.time()) == 0
        assert tables.table_by_id(spot.table_id) is not None and not ended
        assert (await service.store.tables(tid, 1))[0].first_points is None
    finally:
        await service.close()
        await tables.close()
        await storage.close()
