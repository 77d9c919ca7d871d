"""Listeners of the table service: registered async callables that receive every event."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from .events import TableEvent

Listener = Callable[[TableEvent], Awaitable[None]]

log = logging.getLogger("baloot.tables")


class Announcer:
    """Calls each listener in turn; a listener's exception is logged and never breaks the service."""

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

    async def emit(self, event: TableEvent) -> None:
        for listener in list(self._listeners):
            try:
                await listener(event)
            except Exception:
                log.exception("listener %r failed on %s", listener, type(event).__name__)
