"""Stored game reviews (schema version 10): what the reviewer found, kept across restarts.

A hand's review is the reviewer's own JSON (``HandReview.to_json``), keyed by the
hand (table, hand number) and the reviewer's version: a review made by another
version is never read back, so a changed reviewer recomputes it. A reviewed
match keeps each seat's accuracy with its player, read by the player's stats
(their mean over their last reviewed matches). Writes are idempotent: the first
review of a key stays (two presses computing one hand at once store it once).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .database import Database, dumps, loads

RECENT_MATCHES: Final = 20
"""How many of a player's latest reviewed matches their average accuracy covers."""


@dataclass(frozen=True, slots=True)
class SeatAccuracy:
    """One seat's accuracy (0-100) in a reviewed match, and who sat there (None: a bot)."""

    seat: int
    user_id: int | None
    accuracy: float


@dataclass(frozen=True, slots=True)
class AverageAccuracy:
    """A player's mean accuracy over their ``matches`` latest reviewed matches (at most :data:`RECENT_MATCHES`)."""

    accuracy: float
    matches: int


class ReviewStore:
    """Read and write the stored reviews of one database."""

    def __init__(self, db: Database, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock

    async def hand_review(self, table_id: int, hand_no: int, version: int) -> dict[str, Any] | None:
        """The stored review of hand ``hand_no`` of table ``table_id`` by reviewer ``version``, or None."""
        row = await self.db.fetch_one(
            "SELECT review FROM hand_reviews WHERE table_id = ? AND hand_no = ? AND version = ?",
            (table_id, hand_no, version),
        )
        if row is None:
            return None
        review: dict[str, Any] = loads(row["review"])
        return review

    async def reviewed_hands(self, table_id: int, version: int) -> list[int]:
        """The hand numbers of table ``table_id`` with a stored review by ``version``, in order."""
        rows = await self.db.fetch_all(
            "SELECT hand_no FROM hand_reviews WHERE table_id = ? AND version = ? ORDER BY hand_no",
            (table_id, version),
        )
        return [int(r["hand_no"]) for r in rows]

    async def save_hand_review(self, table_id: int, hand_no: int, version: int, review: dict[str, Any]) -> None:
        """Store a hand's review (the first one of a key stays)."""
        await self.db.execute(
            """INSERT INTO hand_reviews (table_id, hand_no, version, review, reviewed_at) VALUES (?, ?, ?, ?, ?)
               ON CONFLICT (table_id, hand_no, version) DO NOTHING""",
            (table_id, hand_no, version, dumps(review), self.clock()),
        )

    async def save_match_accuracy(self, table_id: int, version: int, seats: Sequence[SeatAccuracy]) -> None:
        """Store each seat's accuracy in a reviewed match, in one transaction (the first one stays)."""
        now = self.clock()
        async with self.db.transaction() as tx:
            for s in seats:
                await tx.execute(
                    """INSERT INTO match_reviews (table_id, version, seat, user_id, accuracy, reviewed_at)
                       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, version, seat) DO NOTHING""",
                    (table_id, version, s.seat, s.user_id, min(100.0, max(0.0, float(s.accuracy))), now),
                )

    async def match_accuracy(self, table_id: int, version: int) -> list[SeatAccuracy]:
        """Each seat's stored accuracy in table ``table_id``'s match (empty: not reviewed), by seat."""
        rows = await self.db.fetch_all(
            "SELECT seat, user_id, accuracy FROM match_reviews WHERE table_id = ? AND version = ? ORDER BY seat",
            (table_id, version),
        )
        return [SeatAccuracy(int(r["seat"]), r["user_id"], float(r["accuracy"])) for r in rows]

    async def average_accuracy(self, user_id: int, version: int,
                               last: int = RECENT_MATCHES) -> AverageAccuracy | None:
        """``user_id``'s mean accuracy over their ``last`` latest reviewed matches; None if none is reviewed."""
        row = await self.db.fetch_one(
            """SELECT AVG(accuracy) AS mean, COUNT(*) AS n FROM (
                   SELECT accuracy FROM match_reviews WHERE user_id = ? AND version = ?
                   ORDER BY reviewed_at DESC, table_id DESC LIMIT ?) recent""",
            (user_id, version, last),
        )
        if row is None or not row["n"]:
            return None
        return AverageAccuracy(float(row["mean"]), int(row["n"]))
