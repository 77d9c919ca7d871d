"""The review service: who may see a hand's review, a hand in progress refused with nothing computed,
a review computed part by part with progress and stored, read back at once, and a match's accuracy."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from baloot.ai.normal import NormalPlayer
from baloot.engine.error_codes import ErrorCode
from baloot.engine.match import Match
from baloot.engine.rules import Rules
from baloot.engine.view import seat_view
from baloot.review import REVIEWER_VERSION, HandReview
from baloot.storage import MatchResult, ResultSeat, SeatAccuracy, SeatRow, Storage, TableStatus
from baloot.storage.quick import QUICK_GUILD_ID
from baloot.tables.errors import ReviewRefused
from baloot.tables.events import MatchFinished
from baloot.tables.reviews import ReviewService

GUILD = 5
PLAYERS = (101, 102, 103)  # seat 3 is a bot


def a_match(seed: int = 4) -> tuple[Match, int]:
    """A match whose hand ``n`` (returned) is played out and whose next hand is two actions in."""
    rng = random.Random(seed)
    match = Match(Rules(), 0)
    bot = NormalPlayer()
    while True:
        hand = match.deal(rng)
        while not hand.finished:
            match.apply(bot.choose(seat_view(hand, hand.to_move), rng))
        if hand.result is not None:
            break
    played = len(match.hands) - 1
    hand = match.deal(rng)
    for _ in range(2):
        match.apply(bot.choose(seat_view(hand, hand.to_move), rng))
    return match, played


async def store(storage: Storage, match: Match, guild: int = GUILD) -> int:
    """The match in storage as the table service writes it (seats 0-2 people, seat 3 a bot)."""
    row = await storage.create_table(guild_id=guild, channel_id=guild * 10, creator_id=PLAYERS[0],
                                     rules=match.rules.to_json(), turn_seconds=30.0, language=None,
                                     first_seat=SeatRow(0, 0, PLAYERS[0], "Ali"))
    await storage.put_seats([SeatRow(row.id, 1, PLAYERS[1], "Omar"), SeatRow(row.id, 2, PLAYERS[2], "Sara"),
                             SeatRow(row.id, 3, None, "Bot", is_bot=True, bot_level="normal")])
    for n, hand in enumerate(match.hands):
        deck = [c.text for c in hand.deck]
        if n == 0:
            await storage.start_match(row.id, hand.dealer, deck)
        else:
            await storage.add_hand(row.id, n, hand.dealer, deck)
        for i, action in enumerate(hand.actions):
            user = PLAYERS[action.seat] if action.seat < 3 else None
            await storage.add_action(row.id, n, i, action.to_json(), by_user_id=user, auto=user is None)
    return row.id


async def close(storage: Storage, table_id: int, match: Match) -> None:
    result = MatchResult(table_id=table_id, guild_id=GUILD, finished_at=1.0, score=(152, 40), winner_team=0,
                         hands_played=len(match.hands), record=match.to_record(),
                         seats=tuple(ResultSeat(s, PLAYERS[s] if s < 3 else None, s == 3, False) for s in range(4)))
    await storage.close_table(table_id, TableStatus.FINISHED, "finished", result)


async def test_a_players_review_is_computed_with_progress_stored_and_read_back_at_once(database: str | Path) -> None:
    storage = await Storage.open(database)
    match, played = a_match()
    reviews = ReviewService(storage, samples=2)
    try:
        table = await store(storage, match)
        told: list[tuple[int, int]] = []

        async def progress(trick: int, tricks: int) -> None:
            told.append((trick, tricks))

        first = await reviews.hand_review(table, played, PLAYERS[1], GUILD, progress)
        assert not first.stored and first.names == ("Ali", "Omar", "Sara", "Bot")
        assert told[0] == (-1, 8) and [t for t, _ in told[1:]] == list(range(len(told) - 1))
        assert reviews.computed == len(told)
        assert [d.action for d in first.review.decisions] == list(range(len(match.hands[played].actions)))
        stored = await storage.reviews.hand_review(table, played, REVIEWER_VERSION)
        assert stored is not None and HandReview.from_json(stored) == first.review
        again = await ReviewService(storage, samples=2).hand_review(table, played, PLAYERS[0], GUILD)  # a restart
        assert again.stored and again.review == first.review
    finally:
        await reviews.close()
        await storage.close()


async def test_nothing_of_a_hand_in_progress_and_no_running_match_for_a_stranger(database: str | Path) -> None:
    storage = await Storage.open(database)
    match, played = a_match()
    reviews = ReviewService(storage, samples=2)
    try:
        table = await store(storage, match)
        running = len(match.hands) - 1
        for user in (PLAYERS[0], 999):
            with pytest.raises(ReviewRefused) as refused:
                await reviews.hand_review(table, running, user, GUILD)
            assert refused.value.code is ErrorCode.REVIEW_IN_PROGRESS
        with pytest.raises(ReviewRefused) as stranger:
            await reviews.hand_review(table, played, 999, GUILD)
        assert stranger.value.code is ErrorCode.REVIEW_NOT_AT_TABLE
        for where, hand in ((GUILD + 1, played), (GUILD, running + 1), (GUILD, -1)):
            with pytest.raises(ReviewRefused) as missing:
                await reviews.hand_review(table, hand, PLAYERS[0], where)
            assert missing.value.code is ErrorCode.REVIEW_NO_HAND
        assert reviews.computed == 0 and await storage.reviews.reviewed_hands(table, REVIEWER_VERSION) == []
        await close(storage, table, match)  # the match is over: anyone in the server, not elsewhere
        seen = await reviews.hand_review(table, played, 999, GUILD)
        assert seen.review.decisions
        with pytest.raises(ReviewRefused):
            await reviews.hand_review(table, played, 999, GUILD + 1)
        with pytest.raises(ReviewRefused) as unfinished:  # the hand the match ended in was never finished
            await reviews.hand_review(table, running, 999, GUILD)
        assert unfinished.value.code is ErrorCode.REVIEW_IN_PROGRESS
    finally:
        await reviews.close()
        await storage.close()


async def test_a_quick_match_or_a_request_from_dms_only_for_the_tables_players(database: str | Path) -> None:
    """A quick-match table has no server and a request from the bot's DMs comes from none: its hands are
    reviewed only by someone who sat at the table, also once its match is over."""
    storage = await Storage.open(database)
    match, played = a_match()
    reviews = ReviewService(storage, samples=2)
    try:
        quick = await store(storage, match, guild=QUICK_GUILD_ID)
        await close(storage, quick, match)
        channel = await store(storage, match)
        await close(storage, channel, match)
        for table, where in ((quick, None), (quick, GUILD), (channel, None)):
            with pytest.raises(ReviewRefused) as stranger:
                await reviews.hand_review(table, played, 999, where)
            assert stranger.value.code is ErrorCode.REVIEW_NOT_A_PLAYER, (table, where)
        assert reviews.computed == 0
        for table, where in ((quick, None), (quick, GUILD), (channel, None)):  # a player: in DMs, in a server
            assert (await reviews.hand_review(table, played, PLAYERS[1], where)).review.decisions
        assert (await reviews.hand_review(channel, played, 999, GUILD)).review.decisions  # anyone in its server
    finally:
        await reviews.close()
        await storage.close()


async def test_a_finished_match_is_reviewed_in_the_background_and_each_players_accuracy_kept(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "b.db")
    match, _ = a_match()
    reviews = ReviewService(storage, samples=2)
    ready: list[tuple[int, list[float]]] = []

    async def listener(table_id: int, seats: list[SeatAccuracy]) -> None:
        ready.append((table_id, [s.accuracy for s in seats]))

    reviews.add_listener(listener)
    try:
        table = await store(storage, match)
        assert await reviews.review_match(table) == []  # not over: nothing
        await close(storage, table, match)
        task = reviews.start_auto()
        await reviews.on_event(MatchFinished(table_id=table, channel_id=1, winner=0, score=(152, 40),
                                             replay=None))  # type: ignore[arg-type]
        for _ in range(600):  # the review runs in the executor: wait for its listener
            if ready or task.done():
                break
            await asyncio.sleep(0.05)
        assert ready and ready[0][0] == table and len(ready[0][1]) == 4
        seats = await reviews.match_accuracy(table)
        assert [s.user_id for s in seats] == [*PLAYERS, None]
        mean = await reviews.average_accuracy(PLAYERS[1])
        assert mean is not None and mean.matches == 1 and mean.accuracy == seats[1].accuracy
        assert await reviews.average_accuracy(999) is None
    finally:
        await reviews.close()
        await storage.close()


async def test_a_finished_match_is_read_once_and_a_running_one_at_every_request(
        database: str | Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stepping through a review asks again at every press: a match that is over (it never changes) is read
    and replayed once; a running match is read every time, so that the hand just finished is there."""
    storage = await Storage.open(database)
    match, played = a_match()
    reviews = ReviewService(storage, samples=2)
    reads: list[int] = []
    hands = storage.hands

    async def counted(table_id: int) -> object:
        reads.append(table_id)
        return await hands(table_id)

    monkeypatch.setattr(storage, "hands", counted)
    try:
        table = await store(storage, match)
        for _ in range(2):
            await reviews.hand_review(table, played, PLAYERS[0], GUILD)
        assert reads == [table, table]  # running: read at each request
        await close(storage, table, match)
        for user in (PLAYERS[0], 999, PLAYERS[1]):
            seen = await reviews.hand_review(table, played, user, GUILD)
            assert seen.stored and seen.names == ("Ali", "Omar", "Sara", "Bot")
        assert reads == [table, table, table]  # over: read once more, then kept
        with pytest.raises(ReviewRefused) as elsewhere:  # kept, and still only for its own server
            await reviews.hand_review(table, played, PLAYERS[0], GUILD + 1)
        assert elsewhere.value.code is ErrorCode.REVIEW_NO_HAND
    finally:
        await reviews.close()
        await storage.close()
