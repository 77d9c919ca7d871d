"""The announcer attaches each event's snapshot: in place on a new event, a copy for one announced before."""

from __future__ import annotations

from typing import Any, cast

from baloot.tables.events import PlayerBack, TableEvent
from baloot.tables.listeners import Announcer
from baloot.tables.live import LiveTable


class FakeTable:
    """Publishes a new snapshot object each time (the announcer reads nothing else)."""

    def __init__(self) -> None:
        self.published: list[Any] = []

    def publish(self) -> Any:
        snapshot = object()
        self.published.append(snapshot)
        return snapshot


async def test_a_new_event_carries_its_snapshot_and_an_announced_one_is_copied() -> None:
    announcer = Announcer()
    heard: list[TableEvent] = []

    async def listener(event: TableEvent) -> None:
        heard.append(event)

    announcer.add(listener)
    table = FakeTable()
    live = cast(LiveTable, table)
    event = PlayerBack(table_id=1, channel_id=2, seat=3, user_id=4)
    first = await announcer.emit(live, event)
    assert first is event and first.snapshot is table.published[0] and heard == [event]
    again = await announcer.emit(live, first)
    assert again is not first and again == first  # the same event (the snapshot is not compared)
    assert again.snapshot is table.published[1]
    assert first.snapshot is table.published[0]  # what the first listeners were given did not change
    assert heard[1] is again
