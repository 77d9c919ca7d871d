"""The quick-match queue's private messages, edited live (README "Quick match").

Each waiting player has one message in their DMs (sent by ``/baloot quick``
before they are queued; its ids are stored with their queue row, so any
process can edit it). After every change of the queue this process makes or
sees (a press, each matcher round) :class:`QueueMessages` redraws each
waiting player's message if what it shows changed: how many others are in
the queue (not how many the matcher would seat with them: it balances teams
by rating), who is waiting, and **Play now with bots** once they have waited
``BOTS_OFFER_AFTER``. A player seated by the matcher gets "Table found" (no
buttons); their match then comes in a new DM message (:mod:`.private`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from baloot.render import Payload
from baloot.render.quick import render_queue, render_queue_over
from baloot.tables import TableInfo
from baloot.tables.matching import BOTS_OFFER_AFTER
from baloot.tables.quick import QueueState

from ..transport.wire import edit_message

if TYPE_CHECKING:
    from .shared import Shared

log = logging.getLogger("baloot.discord")


def queue_payload(state: QueueState, user_id: int, locale: str, bots_after: float = BOTS_OFFER_AFTER) -> Payload:
    """What ``user_id``'s queue message shows now (**Play now with bots** once they waited ``bots_after`` s)."""
    names = [r.display_name for r in state.waiting]
    return render_queue(state.others_for(user_id), names, state.waited(user_id) >= bots_after, locale)


class QueueMessages:
    """Every waiting player's queue message: ``(channel, message)`` and what it last showed."""

    def __init__(self, runtime: Shared) -> None:
        self.runtime = runtime
        self.where: dict[int, tuple[int, int]] = {}
        self.shown: dict[int, Payload] = {}
        self.locales: dict[int, str] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def track(self, user_id: int, channel_id: int, message_id: int, locale: str, payload: Payload) -> None:
        self.where[user_id] = (channel_id, message_id)
        self.locales[user_id] = locale
        self.shown[user_id] = payload

    def forget(self, user_id: int) -> None:
        self.where.pop(user_id, None)
        self.shown.pop(user_id, None)

    def locale_of(self, user_id: int, language: str | None) -> str:
        return self.runtime.languages.users.get(user_id) or language or self.locales.get(user_id) \
            or self.runtime.languages.default

    async def __call__(self, state: QueueState, formed: Sequence[TableInfo]) -> None:
        """The service's queue listener: schedule the edits (never awaited under a lock of the service)."""
        seated = {s.user_id for t in formed for s in t.seats if s is not None and s.user_id is not None}
        for row in state.waiting:
            if row.dm_channel_id is not None and row.message_id is not None:
                self.where.setdefault(row.user_id, (row.dm_channel_id, row.message_id))
            locale = self.locale_of(row.user_id, row.language)
            self._edit(row.user_id, queue_payload(state, row.user_id, locale, self.runtime.service.quick_bots_after))
        for user_id in seated:
            if user_id in self.where:
                self._edit(user_id, render_queue_over("quick.found", self.locale_of(user_id, None)), last=True)

    def _edit(self, user_id: int, payload: Payload, *, last: bool = False) -> None:
        where = self.where.get(user_id)
        if where is None or self.shown.get(user_id) == payload:
            return
        self.shown[user_id] = payload
        if last:
            self.forget(user_id)

        async def send() -> None:
            try:
                await edit_message(self.runtime.client, where[0], where[1], payload)
            except discord.HTTPException as exc:
                log.info("user %s: queue message not edited (%s)", user_id, exc.status)

        task = asyncio.create_task(send(), name=f"baloot-queue-{user_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
