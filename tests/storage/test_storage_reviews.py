"""Stored game reviews on both backends: keyed by hand and reviewer version, kept across a reopen,
the first write of a key stays, and a player's average over their latest reviewed matches."""

from __future__ import annotations

from pathlib import Path

from baloot.storage import RECENT_MATCHES, SeatAccuracy, SeatRow, Storage, TableStatus


async def _table(storage: Storage, guild: int = 1) -> int:
    row = await storage.create_table(guild_id=guild, channel_id=guild * 100 + 7, creator_id=11, rules={"target": 152},
                                     turn_seconds=30.0, language=None, first_seat=SeatRow(0, 0, 11, "Ali"))
    await storage.close_table(row.id, TableStatus.ENDED, "test")
    return row.id


async def test_a_hand_review_is_kept_by_hand_and_version_across_a_reopen(database: str | Path) -> None:
    storage = await Storage.open(database)
    try:
        table = await _table(storage)
        review = {"hand": 2, "decisions": [{"action": 0, "options": [{"value": 1.5}]}], "accuracy": [90.5, 80, 70, 60]}
        assert await storage.reviews.hand_review(table, 2, 1) is None
        await storage.reviews.save_hand_review(table, 2, 1, review)
        await storage.reviews.save_hand_review(table, 2, 1, {"hand": 2, "other": True})  # the first stays
        assert await storage.reviews.hand_review(table, 2, 1) == review
        assert await storage.reviews.hand_review(table, 2, 2) is None  # another reviewer version: not read back
        assert await storage.reviews.hand_review(table, 1, 1) is None
        assert await storage.reviews.reviewed_hands(table, 1) == [2]
    finally:
        await storage.close()
    again = await Storage.open(database)
    try:
        assert await again.reviews.hand_review(table, 2, 1) == review
    finally:
        await again.close()


async def test_match_accuracy_and_a_players_average_over_their_latest_matches(database: str | Path) -> None:
    clock = [1000.0]
    storage = await Storage.open(database, clock=lambda: clock[0])
    try:
        assert await storage.reviews.average_accuracy(11, 1) is None
        tables = []
        for n in range(RECENT_MATCHES + 5):  # the oldest five (accuracy 0) fall out of the average
            table = await _table(storage)
            tables.append(table)
            clock[0] += 10
            await storage.reviews.save_match_accuracy(table, 1, [
                SeatAccuracy(0, 11, 0.0 if n < 5 else 80.0 + (n % 2) * 10),
                SeatAccuracy(1, None, 55.5), SeatAccuracy(2, 12, 100.0), SeatAccuracy(3, 13, 42.25)])
        stored = await storage.reviews.match_accuracy(tables[-1], 1)
        assert stored == [SeatAccuracy(0, 11, 80.0), SeatAccuracy(1, None, 55.5), SeatAccuracy(2, 12, 100.0),
                          SeatAccuracy(3, 13, 42.25)]
        assert await storage.reviews.match_accuracy(tables[-1], 2) == []
        mean = await storage.reviews.average_accuracy(11, 1)
        assert mean is not None and mean.matches == RECENT_MATCHES and abs(mean.accuracy - 85.0) < 1e-9
        assert await storage.reviews.average_accuracy(11, 2) is None
        one = await storage.reviews.average_accuracy(13, 1, last=1)
        assert one is not None and one.matches == 1 and one.accuracy == 42.25
    finally:
        await storage.close()
