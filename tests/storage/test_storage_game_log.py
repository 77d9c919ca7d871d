"""The storage layer: tables, seats, the game log (R10), results, messages, settings."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from storage_helpers import action_count, live_seat_of

from baloot.storage import (
    GuildSettings,
    MatchResult,
    ResultSeat,
    SeatRow,
    Storage,
    StorageConflict,
    StorageError,
    TableStatus,
)
from baloot.storage.stats_queries import StatsQueries

DECK = [r + s for s in "SHDC" for r in "789TJQKA"]


@pytest.fixture
async def storage(database: str | Path) -> AsyncIterator[Storage]:
    clock = iter(range(1000, 100000))
    store = await Storage.open(database, clock=lambda: float(next(clock)))
    yield store
    await store.close()


async def new_table(storage: Storage, channel: int = 7) -> int:
    row = await storage.create_table(
        guild_id=1, channel_id=channel, creator_id=11, rules={"target": 21}, turn_seconds=30.0, language="ar",
        first_seat=SeatRow(0, 0, 11, "Ali"),
    )
    return row.id


async def test_a_table_and_its_creator_seat_are_stored(storage: Storage) -> None:
    table_id = await new_table(storage)
    row = await storage.table(table_id)
    assert row is not None
    assert (row.status, row.rules, row.turn_seconds, row.language) == (TableStatus.OPEN, {"target": 21}, 30.0, "ar")
    assert await storage.seats(table_id) == [SeatRow(table_id, 0, 11, "Ali")]
    assert [t for t in await storage.live_tables() if t.channel_id == 7] == [row]
    assert await storage.live_tables() == [row]
    assert await live_seat_of(storage, 11) == (table_id, 0)


async def test_one_live_table_per_channel(storage: Storage) -> None:
    first = await new_table(storage)
    with pytest.raises(StorageConflict):
        await new_table(storage)
    await storage.close_table(first, TableStatus.ENDED, "creator")
    second = await new_table(storage)  # a closed table frees the channel
    assert second != first
    closed = await storage.table(first)
    assert closed is not None and closed.status is TableStatus.ENDED and closed.end_reason == "creator"
    assert closed.finished_at is not None


async def test_seats_are_put_moved_and_removed_in_one_transaction(storage: Storage) -> None:
    table_id = await new_table(storage)
    bot = SeatRow(table_id, 3, None, "Bot 4", is_bot=True, bot_level="hard")
    await storage.put_seats([SeatRow(table_id, 1, 12, "Badr"), bot])
    await storage.put_seats([SeatRow(table_id, 2, 12, "Badr")], remove=[(table_id, 1)])
    seats = await storage.seats(table_id)
    assert [(s.seat, s.user_id, s.is_bot, s.bot_level) for s in seats] == [
        (0, 11, False, None), (2, 12, False, None), (3, None, True, "hard")
    ]
    await storage.put_seats([SeatRow(table_id, 2, 12, "Badr", away=True, dm_closed=True, vacated=True)])
    assert (await storage.seats(table_id))[1].vacated
    assert await live_seat_of(storage, 12) is None  # a seat left does not count
    await storage.remove_seat(table_id, 3)
    assert [s.seat for s in await storage.seats(table_id)] == [0, 2]


async def test_a_vote_to_end_stays_with_its_voter_and_only_them(storage: Storage) -> None:
    """``seats.end_vote``: kept while the same person keeps the seat (an away mark rewrites the row),
    cleared when they leave it or another person sits there; only a seated person can vote."""
    table_id = await new_table(storage)
    await storage.put_seats([SeatRow(table_id, 1, 12, "Badr"), SeatRow(table_id, 2, 13, "Chadi")])
    await storage.add_end_vote(table_id, 12)
    await storage.add_end_vote(table_id, 13)
    await storage.put_seats([SeatRow(table_id, 1, 12, "Badr", away=True)])  # the same person, marked away
    await storage.put_seats([SeatRow(table_id, 2, 13, "Chadi", vacated=True)])  # left the running match
    votes = {s.seat: s.end_vote for s in await storage.seats(table_id)}
    assert votes == {0: False, 1: True, 2: False}
    await storage.put_seats([SeatRow(table_id, 1, 14, "Dana")])  # someone else in that seat
    assert not any(s.end_vote for s in await storage.seats(table_id))
    with pytest.raises(StorageError):
        await storage.add_end_vote(table_id, 13)  # left: no seat to vote from
    assert not any(s.end_vote for s in await storage.seats(table_id))


async def test_a_human_seat_needs_a_user(storage: Storage) -> None:
    table_id = await new_table(storage)
    with pytest.raises(StorageConflict):
        await storage.put_seats([SeatRow(table_id, 1, None, "nobody")])
    assert len(await storage.seats(table_id)) == 1


async def test_the_game_log_rebuilds_the_record(storage: Storage) -> None:
    table_id = await new_table(storage)
    await storage.start_match(table_id, 2, DECK)
    row = await storage.table(table_id)
    assert row is not None and row.status is TableStatus.PLAYING and row.started_at is not None
    await storage.add_action(table_id, 0, 0, {"seat": 3, "type": "pass"}, by_user_id=14, auto=False)
    await storage.add_action(table_id, 0, 1, {"seat": 0, "type": "pass"}, by_user_id=None, auto=True)
    await storage.add_hand(table_id, 1, 3, list(reversed(DECK)))
    record = await storage.game_record(table_id)
    assert record == {
        "format": "baloot-game/1",
        "rules": {"target": 21},
        "hands": [
            {"dealer": 2, "deck": DECK, "actions": [{"seat": 3, "type": "pass"}, {"seat": 0, "type": "pass"}]},
            {"dealer": 3, "deck": list(reversed(DECK)), "actions": []},
        ],
    }
    hands = await storage.hands(table_id)
    assert [(a.by_user_id, a.auto) for a in hands[0].actions] == [(14, False), (None, True)]
    assert await action_count(storage, table_id) == 2


async def test_an_action_index_is_stored_once(storage: Storage) -> None:
    table_id = await new_table(storage)
    await storage.start_match(table_id, 0, DECK)
    await storage.add_action(table_id, 0, 0, {"seat": 1, "type": "pass"}, by_user_id=12, auto=False)
    with pytest.raises(StorageConflict):
        await storage.add_action(table_id, 0, 0, {"seat": 1, "type": "sun"}, by_user_id=12, auto=False)
    assert await action_count(storage, table_id) == 1
    with pytest.raises(StorageConflict):  # no action without its hand's deck
        await storage.add_action(table_id, 5, 0, {"seat": 1, "type": "pass"}, by_user_id=12, auto=False)


def result_of(table_id: int, *, winner: int | None, abandoned: bool = False, guild: int = 1) -> MatchResult:
    return MatchResult(
        table_id=table_id, guild_id=guild, finished_at=5000.0, score=(152, 90), winner_team=winner,
        hands_played=6, record={"format": "baloot-game/1", "hands": []},
        seats=(ResultSeat(0, 11, False, False), ResultSeat(1, 12, False, True),
               ResultSeat(2, None, True, False), ResultSeat(3, 14, False, False)),
        abandoned=abandoned,
    )


async def test_the_last_action_and_the_result_commit_together(storage: Storage) -> None:
    table_id = await new_table(storage)
    await storage.start_match(table_id, 0, DECK)
    result = result_of(table_id, winner=0)
    await storage.add_action(table_id, 0, 0, {"seat": 1, "type": "pass"}, by_user_id=12, auto=False, result=result)
    assert await storage.result(table_id) == result
    row = await storage.table(table_id)
    assert row is not None and row.status is TableStatus.FINISHED and row.end_reason == "finished"
    assert await storage.live_tables() == []
    per_seat = await storage.db.fetch_all(
        "SELECT seat, team, user_id, won, left_early FROM result_seats WHERE table_id = ? ORDER BY seat", (table_id,)
    )
    assert [tuple(r) for r in per_seat] == [(0, 0, 11, 1, 0), (1, 1, 12, 0, 1), (2, 0, None, 1, 0), (3, 1, 14, 0, 0)]
    assert result.has_bots and result.user_ids() == (11, 12, None, 14)


async def test_a_failed_result_write_rolls_back_the_action(storage: Storage) -> None:
    table_id = await new_table(storage)
    await storage.start_match(table_id, 0, DECK)
    await storage.close_table(table_id, TableStatus.ENDED, "admin", result_of(table_id, winner=None, abandoned=True))
    with pytest.raises(StorageConflict):  # a second result for the same table
        await storage.add_action(
            table_id, 0, 0, {"seat": 1, "type": "pass"}, by_user_id=12, auto=False, result=result_of(table_id, winner=0)
        )
    assert await action_count(storage, table_id) == 0
    stored = await storage.result(table_id)
    assert stored is not None and stored.abandoned and stored.winner_team is None


async def test_results_are_stored_per_table_and_read_by_guild(storage: Storage) -> None:
    ids = []
    for channel in (1, 2, 3):
        table_id = await new_table(storage, channel)
        await storage.close_table(table_id, TableStatus.FINISHED, "finished", result_of(table_id, winner=1))
        ids.append(table_id)
    other = await new_table(storage, 4)
    await storage.close_table(other, TableStatus.FINISHED, "finished", result_of(other, winner=0, guild=2))
    queries = StatsQueries(storage.db)
    for table_id in ids:
        stored = await storage.result(table_id)
        assert stored == result_of(table_id, winner=1)
        assert await queries.record_text(1, table_id) is not None
        assert await queries.record_text(2, table_id) is None  # another server's match
    assert await queries.record_text(2, other) is not None and await queries.record_text(1, other) is None
    assert await queries.unrecorded() == [*ids, other]


async def test_a_live_status_cannot_close_a_table(storage: Storage) -> None:
    table_id = await new_table(storage)
    with pytest.raises(ValueError):
        await storage.close_table(table_id, TableStatus.PLAYING, "x")


async def test_messages_and_guild_settings(storage: Storage) -> None:
    table_id = await new_table(storage)
    await storage.set_message(table_id, "hand:0", 7, 1)
    await storage.set_message(table_id, "hand:0", 7, 2)
    await storage.set_message(table_id, "dm:12", 99, 3)
    assert [(m.key, m.message_id) for m in await storage.messages(table_id)] == [("dm:12", 3), ("hand:0", 2)]
    await storage.set_message(table_id, "dm:12", 98, 4)
    assert [(m.key, m.channel_id, m.message_id) for m in await storage.messages(table_id)] == [
        ("dm:12", 98, 4), ("hand:0", 7, 2)
    ]

    assert await storage.guild_settings(5) == GuildSettings(5)
    await storage.save_guild_settings(GuildSettings(5, "ar", True))
    await storage.save_guild_settings(GuildSettings(5, "en", True))
    assert await storage.guild_settings(5) == GuildSettings(5, "en", True)


def test_an_action_is_stored_as_the_same_text_by_the_fast_encoder() -> None:
    """Every action of played hands (each type: bids, doubles, declares, plays, suits, locks) and names
    outside ASCII: ``dumps_plain`` writes exactly the text ``dumps`` would (R10's stored JSON)."""
    import random

    from baloot.engine.match import Match
    from baloot.engine.rules import Rules
    from baloot.storage.database import dumps, dumps_plain

    rng = random.Random(3)
    seen: set[str] = set()
    for _ in range(20):
        match = Match(Rules(target=152))
        match.deal(rng)
        while match.legal_actions():
            action = rng.choice(match.legal_actions())
            obj = action.to_json()
            assert dumps_plain(obj) == dumps(obj)
            seen.add(str(obj["type"]))
            match.apply(action)
            if match.finished or match.needs_deal:
                break
    assert {"pass", "play"} <= seen
    for odd in ({"seat": 1, "type": "play", "card": "10♥"}, {"name": "علي \"q\"\n\u2028", "n": -3, "x": True}):
        assert dumps_plain(odd) == dumps(odd)
