"""Tournaments over the table service: registration, refusals, duplicate deals, a whole
8-team Swiss tournament with a restart in the middle, knockout, concurrent presses."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from test_tables_harness import legal_bot_factory, open_service, play_one

from baloot.storage import Storage
from baloot.storage.tournament_rows import TeamStatus, TournamentStatus
from baloot.tables import TableService
from baloot.tables.tournament_errors import TournamentRefusal
from baloot.tables.tournament_service import TournamentService, TournamentUpdate
from baloot.tournaments import Pairing

GUILD = 1
LOBBY = 500
ADMIN = 1
PLAYERS = list(range(101, 117))  # 16 people: 8 teams


class Threads:
    """Stands in for the Discord layer: each table a new channel id."""

    def __init__(self) -> None:
        self.next = 10_000
        self.opened: list[tuple[int, int]] = []

    async def __call__(self, row: object, round_no: int, pairing: Pairing) -> int:
        self.next += 1
        self.opened.append((round_no, pairing.table_no))
        return self.next


async def open_all(path: str | Path, threads: Threads) -> tuple[Storage, TableService, TournamentService,
                                                                list[TournamentUpdate]]:
    storage, tables, _ = await open_service(path, bot_factory=legal_bot_factory)
    tournaments = TournamentService(tables, storage, threads, rng=random.Random(7), bot_level="easy")
    updates: list[TournamentUpdate] = []

    async def keep(update: TournamentUpdate) -> None:
        updates.append(update)

    tournaments.listeners.append(keep)
    return storage, tables, tournaments, updates


async def register_eight(service: TournamentService, tid: int) -> None:
    for i in range(0, 16, 2):
        a, b = PLAYERS[i], PLAYERS[i + 1]
        await service.register_team(tid, a, f"P{a}", b, f"P{b}")
        await service.confirm(tid, b)


async def play_round(tables: TableService, service: TournamentService, tid: int, round_no: int,
                     rng: random.Random, stop_after: int | None = None) -> None:
    """The people at every table of the round press random legal buttons until the round is over."""
    presses = 0
    async with asyncio.timeout(120):
        while True:
            row = await service.store.tournament(tid)
            assert row is not None
            if row.current_round != round_no or row.status != TournamentStatus.RUNNING:
                return
            spots = [s for s in await service.store.tables(tid, round_no) if s.first_points is None]
            if not spots:
                await service.settled()  # results are recorded in tasks of their own: the next round opened
                return
            for spot in spots:
                if spot.table_id is None:
                    continue  # the round opens its tables one after another: this one is not open yet
                try:
                    info = tables.table_by_id(spot.table_id)
                except Exception:
                    continue  # finished
                seat = info.to_move
                if seat is None or info.seats[seat] is None or info.seats[seat].is_bot:  # type: ignore[union-attr]
                    continue
                try:
                    await play_one(tables, spot.table_id, rng)
                except Exception:
                    continue  # the turn moved on meanwhile
                presses += 1
                if stop_after is not None and presses >= stop_after:
                    return
            await asyncio.sleep(0)


async def test_whole_swiss_tournament_with_a_restart(database: str | Path) -> None:
    threads = Threads()
    storage, tables, service, updates = await open_all(database, threads)
    row = await service.create(GUILD, LOBBY, ADMIN, "Ramadan Cup", rules={"target": 21}, turn_seconds=600)
    await register_eight(service, row.id)
    await service.start(row.id, ADMIN)
    rng = random.Random(3)
    await play_round(tables, service, row.id, 1, rng)
    await play_round(tables, service, row.id, 2, rng, stop_after=5)
    # kill: nothing is closed cleanly beyond stopping timers; a fresh process resumes from the database
    await tables.close()
    await storage.close()
    storage, tables, service, updates = await open_all(database, threads)
    await tables.resume_all()
    await service.resume()
    for round_no in (2, 3):
        await play_round(tables, service, row.id, round_no, rng)
    final = await service.store.tournament(row.id)
    assert final is not None and final.status == TournamentStatus.FINISHED
    _, lines, _ = await service.standings(row.id)
    assert len(lines) == 8 and final.winner_team == lines[0].team
    assert sum(line.played for line in lines) == 3 * 8
    assert sum(line.points for line in lines) == 3 * 4  # one point a table
    spots = await service.store.tables(row.id)
    pairs = [frozenset((s.first_team, s.second_team)) for s in spots]
    assert len(pairs) == len(set(pairs)) == 12, "no rematch, four tables a round"
    assert sorted(threads.opened) == sorted({(s.round_no, s.table_no) for s in spots}), "every table opened once"
    # duplicate: every table of a round was dealt the same first decks
    for round_no in (1, 2, 3):
        decks = set()
        for s in spots:
            if s.round_no == round_no:
                assert s.table_id is not None
                hands = await storage.hands(s.table_id)
                decks.add((hands[0].dealer, tuple(hands[0].deck)))
        assert len(decks) == 1
    assert any(u.kind == "finished" for u in updates)
    await tables.close()
    await storage.close()


async def test_refusals_change_nothing(database: str | Path) -> None:
    threads = Threads()
    storage, tables, service, _ = await open_all(database, threads)
    try:
        row = await service.create(GUILD, LOBBY, ADMIN, "Cup")
        await service.register_team(row.id, 101, "A", 102, "B")
        before = (await service.store.teams(row.id), await service.store.tournament(row.id))
        cases = [
            (service.register_team(row.id, 101, "A", 103, "C"), "tournament.already_registered"),
            (service.register_team(row.id, 103, "C", 102, "B"), "tournament.partner_registered"),
            (service.register_team(row.id, 103, "C", 900, "Bot", partner_is_bot=True), "tournament.partner_bot"),
            (service.register_team(row.id, 103, "C", 104, "D", partner_in_guild=False), "tournament.partner_gone"),
            (service.register_team(row.id, 103, "C", 103, "C"), "tournament.partner_self"),
            (service.register_alone(row.id, 102, "B"), "tournament.already_registered"),
            (service.withdraw(row.id, 105), "tournament.not_registered"),
            (service.start(row.id, 101), "tournament.organiser_only"),
            (service.start(row.id, ADMIN), "tournament.too_few"),
            (service.confirm(row.id, 101), "tournament.nothing_to_confirm"),
        ]
        for call, key in cases:
            with pytest.raises(TournamentRefusal) as caught:
                await call
            assert caught.value.key == key
        assert (await service.store.teams(row.id), await service.store.tournament(row.id)) == before
        assert threads.opened == []
    finally:
        await tables.close()
        await storage.close()


async def test_concurrent_presses_register_once_and_start_once(database: str | Path) -> None:
    threads = Threads()
    storage, tables, service, _ = await open_all(database, threads)
    try:
        row = await service.create(GUILD, LOBBY, ADMIN, "Cup")
        results = await asyncio.gather(*(service.register_alone(row.id, 101, "A") for _ in range(5)),
                                       return_exceptions=True)
        assert sum(not isinstance(r, BaseException) for r in results) == 1
        # a second service on the same database (another process) cannot register them again either
        other = TournamentService(tables, storage, threads)
        with pytest.raises(TournamentRefusal):
            await other.register_alone(row.id, 101, "A")
        for user in (102, 103, 104):
            await service.register_alone(row.id, user, f"U{user}")
        starts = await asyncio.gather(service.start(row.id, ADMIN), other.start(row.id, ADMIN),
                                      service.start(row.id, ADMIN), return_exceptions=True)
        assert sum(not isinstance(r, BaseException) for r in starts) == 1
        assert len(threads.opened) == 1  # two teams of lone players: one table, opened once
        teams = [t for t in await service.store.teams(row.id) if t.status == TeamStatus.ACTIVE]
        assert len(teams) == 2 and all(t.player2 is not None for t in teams)
    finally:
        await tables.close()
        await storage.close()


async def test_knockout_byes_and_bot_team(database: str | Path) -> None:
    threads = Threads()
    storage, tables, service, _ = await open_all(database, threads)
    try:
        row = await service.create(GUILD, LOBBY, ADMIN, "KO", format="knockout", rules={"target": 21},
                                   turn_seconds=600)
        for i in range(0, 6, 2):  # three teams: the top seed has a bye, a bot team fills it
            await service.register_team(row.id, PLAYERS[i], "x", PLAYERS[i + 1], "y")
            await service.confirm(row.id, PLAYERS[i + 1])
        await service.start(row.id, ADMIN)
        spots = await service.store.tables(row.id, 1)
        assert [s.second_team for s in spots].count(0) == 1
        # the bye is the top seed's free pass, not a table against bots: a bye team that lost to the bots
        # advanced all the same before (knockout_next_round passes a bye's team on)
        assert threads.opened == [(1, 1)]
        bye = next(s for s in spots if s.second_team == 0)
        assert (bye.first_points, bye.second_points) == (1.0, 0.0)
        rng = random.Random(5)
        await play_round(tables, service, row.id, 1, rng)
        await play_round(tables, service, row.id, 2, rng)
        final = await service.store.tournament(row.id)
        assert final is not None and final.status == TournamentStatus.FINISHED and final.winner_team
    finally:
        await tables.close()
        await storage.close()


async def test_a_finished_table_does_not_wait_for_the_next_round_to_open(database: str | Path) -> None:
    """The MatchFinished listener records in a task: the last press of a round returns while the next
    round's threads are still being opened (it waited for them before, inside the table's emit)."""
    release = asyncio.Event()

    class SlowThreads(Threads):
        async def __call__(self, row: object, round_no: int, pairing: Pairing) -> int:
            if round_no > 1:
                await release.wait()
            return await super().__call__(row, round_no, pairing)

    threads = SlowThreads()
    storage, tables, service, _ = await open_all(database, threads)
    try:
        row = await service.create(GUILD, LOBBY, ADMIN, "Quick", rules={"target": 21}, turn_seconds=600, rounds=2)
        for i in (0, 2):
            await service.register_team(row.id, PLAYERS[i], "x", PLAYERS[i + 1], "y")
            await service.confirm(row.id, PLAYERS[i + 1])
        await service.start(row.id, ADMIN)
        (spot,) = await service.store.tables(row.id, 1)
        assert spot.table_id is not None
        rng = random.Random(11)
        async with asyncio.timeout(60):
            while True:
                result = await play_one(tables, spot.table_id, rng)
                if result.match_finished:
                    break
        assert threads.opened == [(1, 0)]  # round 2 is waiting for its thread, the press returned
        release.set()
        await service.settled()
        assert threads.opened == [(1, 0), (2, 0)]
    finally:
        release.set()
        await tables.close()
        await storage.close()


@pytest.mark.parametrize("rated", [True, False])
async def test_a_rated_tournament_rates_its_matches_an_unrated_one_does_not(database: str | Path, rated: bool) -> None:
    from baloot.stats import StatsRecorder

    threads = Threads()
    storage, tables, service, _ = await open_all(database, threads)
    try:
        row = await service.create(GUILD, LOBBY, ADMIN, "Friendly", rules={"target": 21}, turn_seconds=600,
                                   rounds=1, rated=rated)
        for i in (0, 2):
            await service.register_team(row.id, PLAYERS[i], "x", PLAYERS[i + 1], "y")
            await service.confirm(row.id, PLAYERS[i + 1])
        await service.start(row.id, ADMIN)
        await play_round(tables, service, row.id, 1, random.Random(2))
        (spot,) = await service.store.tables(row.id, 1)
        assert spot.table_id is not None
        recorder = StatsRecorder(storage)
        assert await recorder.record_match(spot.table_id)
        ratings = await storage.db.fetch_all("SELECT user_id FROM player_ratings WHERE guild_id = ?", (GUILD,))
        assert len(ratings) == (4 if rated else 0)
    finally:
        await tables.close()
        await storage.close()


async def test_knockout_is_seeded_by_rating(database: str | Path) -> None:
    """The best-rated team is the top seed and has the bye, though it registered last (it was seeded by
    registration order before: the rows' seed was never filled)."""
    threads = Threads()
    storage, tables, service, _ = await open_all(database, threads)
    try:
        row = await service.create(GUILD, LOBBY, ADMIN, "KO", format="knockout", rules={"target": 21},
                                   turn_seconds=600)
        for i in range(0, 6, 2):
            await service.register_team(row.id, PLAYERS[i], "x", PLAYERS[i + 1], "y")
            await service.confirm(row.id, PLAYERS[i + 1])
        async with storage.db.transaction() as db:
            for user, rating in ((PLAYERS[4], 1500.0), (PLAYERS[5], 1400.0), (PLAYERS[0], 900.0)):
                await db.execute("""INSERT INTO player_ratings (guild_id, user_id, mu, sigma, rating, rated_matches,
                                    updated_at) VALUES (?, ?, 25, 8, ?, 3, 0)""", (GUILD, user, rating))
        await service.start(row.id, ADMIN)
        teams = {t.player1: t.id for t in await service.store.teams(row.id)}
        spots = await service.store.tables(row.id, 1)
        bye = next(s for s in spots if s.second_team == 0)
        assert bye.first_team == teams[PLAYERS[4]]
    finally:
        await tables.close()
        await storage.close()


@pytest.mark.parametrize("table_opened", ["no", "stored", "dealt"])
async def test_a_crash_while_the_next_round_opens_loses_no_announcement_and_no_thread(
        database: str | Path, monkeypatch: pytest.MonkeyPatch, table_opened: str) -> None:
    """The process dies after round 2's second table was given its thread, before the table opened in it
    (or once it was stored with its four seats, before its first deal; or once it was dealt, before the
    tournament stored it), and before the round was announced. The next process opens that table in the
    same thread (or adopts the one there, dealing it if it was not: no second thread, no second table,
    no table left waiting as a lobby), opens the rest, and announces the round — once."""
    threads = Threads()
    storage, tables, service, _ = await open_all(database, threads)
    row = await service.create(GUILD, LOBBY, ADMIN, "Cup", rules={"target": 21}, turn_seconds=600, rounds=2)
    await register_eight(service, row.id)
    await service.start(row.id, ADMIN)
    opened_seated = tables.open_seated
    start_match = tables.referee.start_match

    class Crash(Exception):
        pass

    async def dies_at_the_second_table(*args: Any, **kwargs: Any) -> Any:
        if threads.opened[-1] != (2, 1):
            return await opened_seated(*args, **kwargs)
        if table_opened != "no":
            await opened_seated(*args, **kwargs)
        raise Crash  # stands for SIGKILL: nothing after this step happens in this process

    async def dies_before_the_deal(table: Any) -> None:
        if table_opened == "stored" and threads.opened[-1] == (2, 1):
            raise Crash  # the table and its seats are stored; its first deal never happens
        await start_match(table)

    monkeypatch.setattr(tables, "open_seated", dies_at_the_second_table)
    monkeypatch.setattr(tables.referee, "start_match", dies_before_the_deal)
    await play_round(tables, service, row.id, 1, random.Random(5))
    assert threads.opened[-2:] == [(2, 0), (2, 1)]
    given = threads.next  # the thread of round 2's second table
    await tables.close()
    await storage.close()

    storage, tables, service, updates = await open_all(database, threads)
    await tables.resume_all()
    await service.resume()
    try:
        assert sorted(threads.opened[4:]) == [(2, 0), (2, 1), (2, 2), (2, 3)], "no table given a second thread"
        spots = await service.store.tables(row.id, 2)
        assert all(s.table_id is not None for s in spots)
        assert spots[1].channel_id == given and tables.table_id_in(given) == spots[1].table_id
        assert len({s.table_id for s in spots}) == 4 and len(tables.tables()) == 4
        for spot in spots:  # every table of the round dealt, its first player to move
            assert spot.table_id is not None
            info = tables.table_by_id(spot.table_id)
            assert info.status == "playing" and info.to_move is not None, (spot.table_no, info.status)
        assert [(u.kind, u.round_no) for u in updates] == [("round", 2)], "the round announced, once"
    finally:
        await tables.close()
        await storage.close()
    storage, tables, service, updates = await open_all(database, threads)  # and a later restart: nothing again
    await tables.resume_all()
    await service.resume()
    assert updates == [] and len(threads.opened) == 8
    await tables.close()
    await storage.close()


async def test_a_finish_a_crash_did_not_announce_is_announced_after_the_restart(database: str | Path) -> None:
    """The tournament was stored finished but the process died before its final standings were posted
    (``announced`` still names the last round's opening): the next process posts them, once."""
    threads = Threads()
    storage, tables, service, updates = await open_all(database, threads)
    row = await service.create(GUILD, LOBBY, ADMIN, "Final", rules={"target": 21}, turn_seconds=600, rounds=1)
    for i in (0, 2):
        await service.register_team(row.id, PLAYERS[i], "x", PLAYERS[i + 1], "y")
        await service.confirm(row.id, PLAYERS[i + 1])
    await service.start(row.id, ADMIN)
    await play_round(tables, service, row.id, 1, random.Random(2))
    assert [u.kind for u in updates][-1] == "finished"
    await storage.db.execute("UPDATE tournaments SET announced = 'round:1' WHERE id = ?", (row.id,))
    await tables.close()
    await storage.close()
    for expected in (["finished"], []):
        storage, tables, service, updates = await open_all(database, threads)
        await tables.resume_all()
        await service.resume()
        await tables.close()
        await storage.close()
        assert [u.kind for u in updates] == expected


async def test_a_crash_before_a_tables_players_were_pinged_pings_them_after_the_restart(database: str | Path) -> None:
    """The process dies once round 1's second table was given its (stored) thread but before its players were
    pinged there. The next process opens the table in that thread and pings its players then: a thread is
    never left without its players' ping (at worst a ping is repeated)."""
    threads = Threads()
    storage, tables, _, _ = await open_all(database, threads)
    greeted: list[tuple[int, int]] = []

    class Crash(Exception):
        pass

    async def greet(row: object, round_no: int, pairing: Pairing, thread_id: int) -> None:
        if (round_no, pairing.table_no) == (1, 1):
            raise Crash  # stands for SIGKILL, after the thread was stored, before its ping
        greeted.append((round_no, thread_id))

    service = TournamentService(tables, storage, threads, greet=greet, rng=random.Random(7), bot_level="easy")
    row = await service.create(GUILD, LOBBY, ADMIN, "Cup", rules={"target": 21}, turn_seconds=600, rounds=1)
    await register_eight(service, row.id)
    with pytest.raises(Crash):
        await service.start(row.id, ADMIN)
    spots = await service.store.tables(row.id, 1)
    assert spots[1].channel_id is not None and spots[1].table_id is None  # its thread stored, no table yet
    await tables.close()
    await storage.close()

    storage, tables, _, _ = await open_all(database, threads)
    after: list[tuple[int, int]] = []

    async def greet_again(row: object, round_no: int, pairing: Pairing, thread_id: int) -> None:
        after.append((pairing.table_no, thread_id))

    service = TournamentService(tables, storage, threads, greet=greet_again, rng=random.Random(7), bot_level="easy")
    await tables.resume_all()
    await service.resume()
    try:
        spots = await service.store.tables(row.id, 1)
        assert all(s.table_id is not None for s in spots) and len(threads.opened) == 4  # no second thread
        assert (1, spots[1].channel_id) in after, "the players of the table the crash cut off are pinged"
        assert {table_no for table_no, _ in after} == {1, 2, 3}  # table 0 was pinged before the crash
    finally:
        await tables.close()
        await storage.close()
