"""Helpers of the statistics tests: known records, and finished matches stored like the service does."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from baloot.engine.actions import ActionType
from baloot.engine.match import Match
from baloot.engine.records import match_from_record
from baloot.engine.rules import Rules
from baloot.storage import MatchResult, ResultSeat, Storage, TableStatus

GOLDEN = Path(__file__).resolve().parent / "golden"
Seat = int | None  # a user id, or None for a bot seat


def golden(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    return loaded


def kaboot_match() -> dict[str, Any]:
    """One hand, target 70: seat 0 takes Hokum, seat 1 doubles (locked), team 0 takes every trick: 74-0."""
    record = golden("hokum_kaboot_under_locked_double")
    record["rules"] = {"target": 70}
    return record


def gahwa_match() -> dict[str, Any]:
    """One hand: seat 0 Hokum; seat 1 Double, seat 0 Triple, seat 1 Four, seat 0 Gahwa; team 0 wins."""
    return golden("hokum_gahwa_wins_match")


def three_hand_match() -> dict[str, Any]:
    """Target 60: a thrown-in hand; Sun by seat 3 with a kaboot by team 1 (0-44);
    Hokum by seat 0 lost on a tie (0-16). Team 1 wins 60-0."""
    thrown_and_sun = golden("three_hands_thrown_in_sun_and_in_progress")["hands"][:2]
    tie = golden("hokum_tie_won_on_units_digit")["hands"][0]
    return {"format": "baloot-game/1", "rules": {"target": 60}, "hands": [*copy.deepcopy(thrown_and_sun), tie]}


def random_match(seed: int, target: int = 152) -> dict[str, Any]:
    """The record of a whole match of random legal actions (no Kawesh)."""
    rng = random.Random(seed)
    match = Match(Rules(target=target), rng.randrange(4))
    while not match.finished:
        if match.needs_deal:
            match.deal(rng)
        legal = match.legal_actions()
        match.apply(rng.choice([a for a in legal if a.type is not ActionType.KAWESH] or legal))
    return match.to_record()


async def store_match(
    storage: Storage,
    record: dict[str, Any],
    users: Sequence[Seat],
    *,
    guild: int = 1,
    channel: int = 100,
    finished_at: float = 1_700_000_000.0,
    left: Sequence[int] = (),
    abandoned: bool = False,
) -> MatchResult:
    """Store a match as the table service does: a table row, then its result with the table's closing."""
    match = match_from_record(record)
    creator = next((u for u in users if u is not None), 1)
    table = await storage.create_table(guild_id=guild, channel_id=channel, creator_id=creator,
                                       rules=record.get("rules", {}), turn_seconds=60.0, language=None)
    result = MatchResult(
        table_id=table.id,
        guild_id=guild,
        finished_at=finished_at,
        score=(match.score[0], match.score[1]),
        winner_team=None if abandoned else match.winner,
        hands_played=sum(1 for h in match.hands if h.finished),
        record=record,
        seats=tuple(
            ResultSeat(seat=s, user_id=u, is_bot=u is None, left_early=s in left) for s, u in enumerate(users)
        ),
        abandoned=abandoned,
    )
    status = TableStatus.ABANDONED if abandoned else TableStatus.FINISHED
    await storage.close_table(table.id, status, "empty" if abandoned else "finished", result)
    return result
