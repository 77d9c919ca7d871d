"""Shared helpers for the table-service tests: a legal-move bot, an event recorder, scripted users."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from storage_helpers import action_count

from baloot.engine.actions import Action, ActionType
from baloot.engine.view import SeatView
from baloot.storage import Storage
from baloot.tables import ActResult, TableService
from baloot.tables.events import TableEvent

GUILD = 1
CHANNEL = 100
USERS = (11, 12, 13, 14)
NAMES = {11: "Ali", 12: "Badr", 13: "Camil", 14: "Dana"}

E = TypeVar("E", bound=TableEvent)


class LegalBot:
    """The simple legal-move player of these tests: a random legal action, never Kawesh."""

    def __init__(self, level: str = "easy") -> None:
        self.level = level

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        legal = [a for a in view.legal if a.type is not ActionType.KAWESH] or list(view.legal)
        return rng.choice(legal)


def legal_bot_factory(level: str) -> LegalBot:
    return LegalBot(level)


@dataclass
class Recorder:
    """A listener that keeps every event, in order."""

    events: list[TableEvent] = field(default_factory=list)

    async def __call__(self, event: TableEvent) -> None:
        self.events.append(event)

    def of(self, kind: type[E]) -> list[E]:
        return [e for e in self.events if isinstance(e, kind)]

    def kinds(self) -> list[str]:
        return [type(e).__name__ for e in self.events]


async def open_service(path: str | Path, **kwargs: Any) -> tuple[Storage, TableService, Recorder]:
    """A Storage on ``path`` (an SQLite file or a PostgreSQL URL) and a TableService with seeded RNGs,
    no bot delay and a recorder."""
    storage = await Storage.open(path, synchronous="NORMAL")
    settings: dict[str, Any] = {
        "rng_factory": lambda table_id: random.Random(1000 + table_id),
        "turn_seconds_range": (0.01, 600.0),
        "bot_delay": 0.0,
    }
    settings.update(kwargs)
    service = TableService(storage, **settings)
    recorder = Recorder()
    service.add_listener(recorder)
    return storage, service, recorder


async def seat_four(service: TableService, *, target: int = 21, turn_seconds: float = 60.0) -> int:
    """Create a table in CHANNEL with USERS seated 0..3 and start it; returns its id."""
    info = await service.create(GUILD, CHANNEL, USERS[0], NAMES[USERS[0]], rules={"target": target},
                                turn_seconds=turn_seconds)
    for user in USERS[1:]:
        await service.join(CHANNEL, user, NAMES[user])
    await service.start(CHANNEL, USERS[0])
    return info.id


def user_at(service: TableService, table_id: int, seat: int) -> int:
    info = service.table_by_id(table_id).seats[seat]
    assert info is not None and info.user_id is not None
    return info.user_id


async def play_one(service: TableService, table_id: int, rng: random.Random) -> ActResult:
    """The player to move opens their hand and presses a random legal button."""
    info = service.table_by_id(table_id)
    assert info.to_move is not None
    user = user_at(service, table_id, info.to_move)
    hand = await service.my_hand(table_id, user)
    legal = [a for a in hand.view.legal if a.type is not ActionType.KAWESH] or list(hand.view.legal)
    return await service.act(table_id, user, rng.choice(legal).to_json(), hand.version)


async def play_to_end(service: TableService, table_id: int, rng: random.Random, limit: int = 5000) -> ActResult:
    """Scripted users play until the match is won (R8)."""
    for _ in range(limit):
        result = await play_one(service, table_id, rng)
        if result.match_finished:
            return result
    raise AssertionError("the match did not finish")


async def snapshot(storage: Storage, service: TableService, table_id: int) -> tuple[object, ...]:
    """Everything a bad input must leave unchanged: memory (table, hand) and the database."""
    info = service.table_by_id(table_id)
    public = service.public_view(table_id)
    return (
        info,
        None if public is None else public.history,
        await storage.game_record(table_id),
        await storage.seats(table_id),
        await storage.table(table_id),
        await action_count(storage, table_id),
    )
