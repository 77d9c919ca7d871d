"""Listeners of the table service: registered async callables that receive every event."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

from .events import TableEvent
from .snapshot import TableSnapshot

E = TypeVar("E", bound=TableEvent)

Listener = Callable[[TableEvent], Awaitable[None]]

log = logging.getLogger("baloot.tables")


class Publishes(Protocol):
    """A table that publishes its snapshot (:meth:`.live.LiveTable.publish`)."""

    def publish(self) -> TableSnapshot: ...


class Announcer:
    """Publishes a table's snapshot and calls each listener in turn; a listener's exception is logged."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def add(self, listener: Listener, *, first: bool = False) -> None:
        """Add a listener after the others, or before them with ``first``."""
        if first:
            self._listeners.insert(0, listener)
        else:
            self._listeners.append(listener)

    def remove(self, listener: Listener) -> None:
        self._listeners.remove(listener)

    async def emit(self, table: Publishes, event: E) -> E:
        """Publish ``table``'s snapshot, then tell every listener of ``event`` (which carries it).

        Called only after what ``event`` reports is committed to storage, so a
        published snapshot never runs ahead of the database.
        """
        snapshot = table.publish()
        if event.snapshot is None:  # a new event, not yet announced: it takes its snapshot (the common case)
            object.__setattr__(event, "snapshot", snapshot)
        else:  # announced before: a copy, so that a listener that kept it still sees what it saw
            event = dataclasses.replace(event, snapshot=snapshot)
        for listener in list(self._listeners):
            try:
                await listener(event)
            except Exception:
                log.exception("listener %r failed on %s", listener, type(event).__name__)
        return event
