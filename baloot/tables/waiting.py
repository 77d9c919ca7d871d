"""A person's turn before its first timer fires: a loop timer rather than a sleeping task.

Apart from :mod:`.turns` (which starts turns) so that :mod:`.live`, which holds a table's
waiting turn, imports no turn runner (no import circle, ``tests/test_layers.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class WaitingTurn:
    """A person's turn before its first timer fires: a loop timer rather than a sleeping task.

    Nearly every turn is answered by a press long before its reminder, so the
    turn's task (:meth:`.turns.TurnRunner._run`) is started only when the timer fires;
    until then, stopping the turn is cancelling the timer. With an injected
    ``sleep`` (a virtual clock) the runner keeps a task per turn instead.
    """

    __slots__ = ("_start", "cancelled", "handle", "task")

    def __init__(self, delay: float, start: Callable[[], asyncio.Task[None]]) -> None:
        self._start = start
        self.task: asyncio.Task[None] | None = None
        self.cancelled = False
        self.handle = asyncio.get_running_loop().call_later(delay, self._fire)

    def _fire(self) -> None:
        if not self.cancelled:
            self.task = self._start()

    def done(self) -> bool:
        """Stopped, or its task has finished (as ``Task.done``)."""
        return self.cancelled or (self.task is not None and self.task.done())

    def stop(self, caller: asyncio.Task[object] | None) -> None:
        """Cancel the timer, and the turn's task unless that task is ``caller`` (it is ending the turn itself)."""
        self.cancelled = True
        self.handle.cancel()
        task = self.task
        if task is not None and task is not caller and not task.done():
            task.cancel()
