"""The table service's listener for web pages: each connected page gets its seat's snapshots.

A :class:`Page` is one open WebSocket: who it is (a user id, or nobody for a
watcher), the channel of its table and its language. After every committed
change the service publishes a snapshot; :class:`PageHub` (a listener, like the
Discord presenter) hands it to each page of that channel, and each page sends
the newest one it has not sent, built from its **own seat's** view only
(:func:`~.frames.state_frame`). Sending happens in a task per page, outside the
table's lock; a slow page skips intermediate snapshots rather than delaying the others.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final

import orjson

from ..tables import NoTableHere, TableService, TableSnapshot
from ..tables.events import TableEvent
from .frames import labels, state_frame

log = logging.getLogger("baloot.web")

Send = Callable[[str], Awaitable[None]]

_CACHE_LIMIT: Final = 64


class Page:
    """One connected page: its sender, who it is and what it last received."""

    __slots__ = ("channel_id", "extra", "labelled", "locale", "pending", "send", "sender", "sent", "user_id")

    def __init__(self, send: Send, channel_id: int, user_id: int | None, locale: str,
                 extra: dict[str, Any] | None = None) -> None:
        self.send = send
        self.channel_id = channel_id
        self.user_id = user_id  # None: a watcher (it may not sit)
        self.locale = locale
        self.extra = extra or {}  # fixed fields of every frame (e.g. the table link)
        self.pending: TableSnapshot | None = None
        self.sent: TableSnapshot | None = None
        self.sender: asyncio.Task[None] | None = None
        self.labelled = False


class PageHub:
    """Pages by channel; the service's listener that keeps each one up to date."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.pages: dict[int, set[Page]] = {}
        self._frames: dict[tuple[int, int | None, str], tuple[TableSnapshot, str]] = {}

    def add(self, page: Page) -> None:
        self.pages.setdefault(page.channel_id, set()).add(page)

    def remove(self, page: Page) -> None:
        pages = self.pages.get(page.channel_id)
        if pages is not None:
            pages.discard(page)
            if not pages:
                del self.pages[page.channel_id]
        if page.sender is not None and not page.sender.done():
            page.sender.cancel()

    @property
    def connected(self) -> int:
        return sum(len(pages) for pages in self.pages.values())

    async def __call__(self, event: TableEvent) -> None:
        """The listener: runs under the table's lock, so it only hands the snapshot over."""
        snapshot = event.snapshot
        if snapshot is None:
            return
        for page in self.pages.get(event.channel_id, ()):
            self.offer(page, snapshot)

    def current(self, channel_id: int) -> TableSnapshot | None:
        """The live table of a channel as last published, if there is one."""
        try:
            table_id = self.service.table_info(channel_id).id
        except NoTableHere:
            return None
        return self.service.snapshot(table_id)

    def offer(self, page: Page, snapshot: TableSnapshot | None) -> None:
        """Queue ``snapshot`` (None: an empty table) for ``page``; its sender sends the newest."""
        page.pending = snapshot
        if page.sender is None or page.sender.done():
            page.sender = asyncio.get_running_loop().create_task(self._send_loop(page))

    async def _send_loop(self, page: Page) -> None:
        while True:
            snapshot = page.pending
            page.pending = None
            try:
                await page.send(self.frame_text(page, snapshot))
            except (ConnectionError, RuntimeError) as exc:  # the page went away meanwhile
                log.debug("page of channel %s: not sent (%s)", page.channel_id, exc)
                return
            except Exception:
                log.exception("page of channel %s: the frame could not be drawn", page.channel_id)
                return
            page.sent = snapshot
            if page.pending is None:
                return

    def frame_text(self, page: Page, snapshot: TableSnapshot | None) -> str:
        """The JSON of ``page``'s frame: its seat's view of ``snapshot`` (one drawing per seat and language)."""
        if snapshot is None:
            frame = {"type": "state", "table": None, "status": "none", "seat": None, "seats": [None] * 4,
                     "locale": page.locale, "dir": "rtl" if page.locale == "ar" else "ltr", "hand": [],
                     "actions": []}
            if not page.labelled:
                frame.update(page.extra)
            return self._with_labels(page, frame)
        info = snapshot.info
        seat = None if page.user_id is None else info.seat_of(page.user_id)
        if not page.labelled:  # the first frame: with the page's words and its fixed fields
            return self._with_labels(page, self._frame(snapshot, seat, page.locale, page.extra))
        key = (snapshot.table_id, seat, page.locale)
        cached = self._frames.get(key)
        if cached is not None and cached[0] is snapshot:
            return cached[1]
        text = orjson.dumps(self._frame(snapshot, seat, page.locale, None)).decode()  # shared by the seat's pages
        if len(self._frames) >= _CACHE_LIMIT:
            del self._frames[next(iter(self._frames))]
        self._frames[key] = (snapshot, text)
        return text

    def _with_labels(self, page: Page, frame: dict[str, Any]) -> str:
        if not page.labelled:
            frame["labels"] = labels(page.locale)
            page.labelled = True
        return orjson.dumps(frame).decode()

    @staticmethod
    def _frame(snapshot: TableSnapshot, seat: int | None, locale: str,
               extra: dict[str, Any] | None) -> dict[str, Any]:
        hand = snapshot.hand
        view = (snapshot.view_of(seat) if seat is not None else None) or (None if hand is None else hand.public)
        return state_frame(
            snapshot.info, snapshot.info.status.value, view, seat,
            hand_no=snapshot.hand_no, deadline=snapshot.deadline, sheet=snapshot.sheet, locale=locale,
            extra=extra,
        )
