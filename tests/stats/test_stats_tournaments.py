"""Tournaments in the statistics: played and won on a player's card, and the tournaments board of
``/baloot leaderboard`` (won, then played; periods; pages), read from the stored tournaments, on both backends.

The cup is played to its end through the tournament service (every table's match played by its people); the
other tournaments are stored as the service leaves them (started, then ended by the organiser)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from test_tables_tournaments import Threads, open_all, play_round

from baloot.stats import StatsRecorder, StatsService
from baloot.storage import Storage
from baloot.storage.tournament_rows import TeamStatus, TournamentStatus
from baloot.storage.tournaments import TournamentStore

GUILD = 1
DAY = 86_400.0


async def play_cup(database: str | Path, guild: int, teams: Sequence[tuple[int, int]], *,
                   alone: Sequence[int] = (), pending: Sequence[tuple[int, int]] = ()) -> tuple[int, int]:
    """A one-round Swiss tournament of ``teams`` played to its end through the service, its matches' statistics
    recorded; ``alone``: lone players (one is left unpaired at the start), ``pending``: teams whose partner never
    confirms. Returns (tournament id, the winner team's first player)."""
    storage, tables, service, _ = await open_all(database, Threads())
    try:
        row = await service.create(guild, 500, 1, "Cup", rules={"target": 21}, turn_seconds=600, rounds=1)
        for a, b in teams:
            await service.register_team(row.id, a, f"P{a}", b, f"P{b}")
            await service.confirm(row.id, b)
        for a, b in pending:
            await service.register_team(row.id, a, f"P{a}", b, f"P{b}")
        for a in alone:
            await service.register_alone(row.id, a, f"P{a}")
        await service.start(row.id, 1)
        await play_round(tables, service, row.id, 1, random.Random(5))
        final = await service.store.tournament(row.id)
        assert final is not None and final.status == TournamentStatus.FINISHED and final.winner_team is not None
        recorder = StatsRecorder(storage)
        for spot in await service.store.tables(row.id):
            assert spot.table_id is not None
            await recorder.record_match(spot.table_id)
        winner = next(t for t in await service.store.teams(row.id) if t.id == final.winner_team)
        return row.id, winner.player1
    finally:
        await tables.close()
        await storage.close()


async def ended_cup(storage: Storage, guild: int, teams: Sequence[tuple[int, int]], *, start: bool = True) -> int:
    """A tournament stored as the service leaves one that the organiser ended (after its start, or before)."""
    store = TournamentStore(storage.db, storage.clock)
    row = await store.create(guild_id=guild, channel_id=500, creator_id=1, name="Ended", format="swiss", rounds=1,
                             rules={}, turn_seconds=60.0, rated=False, bots_allowed=True, language=None)
    ids = [(await store.register(row.id, [(a, f"P{a}"), (b, f"P{b}")], TeamStatus.ACTIVE)).id for a, b in teams]
    if start:
        await store.start_round(row.id, 1, 7, [(i // 2, ids[i], ids[i + 1]) for i in range(0, len(ids) - 1, 2)],
                                starting=True)
    assert await store.set_status(row.id, TournamentStatus.ENDED,
                                  [TournamentStatus.RUNNING, TournamentStatus.REGISTERING])
    return row.id


async def test_tournaments_played_and_won(database: str | Path) -> None:
    _, champion = await play_cup(database, GUILD, [(101, 102), (103, 104)], alone=[105], pending=[(106, 110)])
    winners, losers = ((101, 102), (103, 104)) if champion == 101 else ((103, 104), (101, 102))
    storage = await Storage.open(database, synchronous="NORMAL")
    try:
        await ended_cup(storage, GUILD, [(101, 102), (107, 108)])  # played (ended after its start), won by nobody
        await ended_cup(storage, GUILD, [(109, 111), (112, 113)], start=False)  # never played
        await ended_cup(storage, 2, [(101, 102), (114, 115)])  # another server
        live = TournamentStore(storage.db, storage.clock)
        running = await live.create(guild_id=GUILD, channel_id=500, creator_id=1, name="Live", format="swiss",
                                    rounds=1, rules={}, turn_seconds=60.0, rated=False, bots_allowed=True,
                                    language=None)
        await live.register(running.id, [(116, "P116"), (117, "P117")], TeamStatus.ACTIVE)  # not over: not counted

        service = StatsService(storage, page_size=2)
        board = await service.leaderboard(GUILD, "tournaments", "all")
        lines = [(e.user_id, e.wins, e.matches) for e in board.page.entries]
        assert board.page.total == 6 and board.page.pages == 3 and board.tournaments == 2
        assert [e.place for e in board.page.entries] == [1, 2]
        # Won first, then played, then by id: the champions; then the other cup team; then 107 and 108.
        played_twice = {101, 102}
        assert lines == [(u, 1, 2 if u in played_twice else 1) for u in winners]
        second = await service.leaderboard(GUILD, "tournaments", "all", page=1)
        third = await service.leaderboard(GUILD, "tournaments", "all", page=2)
        rest = [(e.user_id, e.wins, e.matches) for e in (*second.page.entries, *third.page.entries)]
        expected = sorted([(u, 0, 2 if u in played_twice else 1) for u in (*losers, 107, 108)],
                          key=lambda line: (-line[2], line[0]))
        assert rest == expected
        assert [e.place for e in third.page.entries] == [5, 6]
        beyond = await service.leaderboard(GUILD, "tournaments", "all", page=9)  # past the end: the last page
        assert beyond.page.page == 2 and [e.user_id for e in beyond.page.entries] == [e[0] for e in expected[2:]]
        # Nobody withdrawn, unconfirmed or left unpaired is listed; another server's tournament is not counted.
        assert not {105, 106, 110, 109, 111, 112, 113, 114, 115, 116, 117} & {u for u, *_ in lines + rest}
        other = await StatsService(storage).leaderboard(2, "tournaments", "all")
        assert [(e.user_id, e.wins, e.matches) for e in other.page.entries] == [(101, 0, 1), (102, 0, 1),
                                                                              (114, 0, 1), (115, 0, 1)]

        # Periods: forty days later, nothing of this week or month; all time unchanged.
        later = StatsService(storage, page_size=2, clock=lambda: storage.clock() + 40 * DAY)
        for period in ("week", "month"):
            empty = await later.leaderboard(GUILD, "tournaments", period)
            assert empty.page.total == 0 and empty.page.entries == () and empty.tournaments == 0
        assert (await later.leaderboard(GUILD, "tournaments", "all")).page.total == 6

        # The stats card: played and won.
        card = await service.player(GUILD, 101)
        assert (card.tournaments, card.tournaments_won) == (2, 1 if champion == 101 else 0)
        card = await service.player(GUILD, losers[0])
        assert (card.tournaments, card.tournaments_won) == (2 if losers[0] in played_twice else 1, 0)
    finally:
        await storage.close()
