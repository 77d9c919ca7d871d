"""Table pictures are drawn on a thread of their own (cogs.presentation.pictures), and only while few tables run."""

from __future__ import annotations

import asyncio
import functools
import random
import threading
from types import SimpleNamespace
from typing import Any, cast

import pytest

from baloot import Match, Rules, seat_view
from baloot.render import Payload, RenderInfo
from baloot.render.picture import FILENAME
from cogs.presentation.channel import PICTURE_TABLES, Board, ChannelBoard
from cogs.presentation.pictures import PictureWorker
from cogs.presentation.private import with_seat_picture
from cogs.transport.carrier import Carriers

BASE: Payload = {"content": "", "embeds": [{"title": "Hand 1"}], "components": [], "allowed_mentions": {"parse": []}}


async def test_the_picture_is_drawn_off_the_event_loop_while_the_loop_goes_on() -> None:
    worker = PictureWorker()
    started, release = threading.Event(), threading.Event()
    drawn_on: list[int] = []

    def draw() -> bytes:
        drawn_on.append(threading.get_ident())
        started.set()
        assert release.wait(5)
        return b"\x89PNG slow"

    pending = asyncio.create_task(worker.attach(BASE, draw))
    while not started.is_set():
        await asyncio.sleep(0.001)
    ticks = 0
    for _ in range(5):  # the loop runs other work while the picture is being drawn
        await asyncio.sleep(0)
        ticks += 1
    assert ticks == 5 and not pending.done()
    release.set()
    payload = await pending
    assert drawn_on and drawn_on[0] != threading.get_ident()
    assert payload["files"] == [(FILENAME, b"\x89PNG slow")]
    assert payload["embeds"][0]["image"] == {"url": f"attachment://{FILENAME}"}
    worker.close()


async def test_one_thread_draws_the_pictures_in_turn_and_a_failure_leaves_text(
        caplog: pytest.LogCaptureFixture) -> None:
    worker = PictureWorker()
    threads: set[int] = set()

    def draw(n: int) -> bytes:
        threads.add(threading.get_ident())
        if n == 2:
            raise RuntimeError("no picture today")
        return b"png %d" % n

    payloads = await asyncio.gather(*(worker.attach(BASE, functools.partial(draw, n)) for n in range(4)))
    assert len(threads) == 1
    assert [p["files"] for p in payloads] == [[(FILENAME, b"png 0")], [(FILENAME, b"png 1")], [],
                                              [(FILENAME, b"png 3")]]
    assert "could not draw the table picture" in caplog.text
    worker.close()
    worker.close()  # closing twice is harmless; a later picture starts the thread again
    assert (await worker.attach(BASE, lambda: b"again"))["files"] == [(FILENAME, b"again")]
    worker.close()


def test_past_picture_tables_neither_the_channel_nor_a_private_view_gets_a_picture() -> None:
    """The same limit for both: with TABLE_PICTURES=all, 101 active tables would otherwise still draw
    four private pictures per move."""
    board = ChannelBoard(cast(Any, SimpleNamespace(carriers=Carriers())))
    hand = Match(Rules()).deal(random.Random(3))
    view = seat_view(hand, 2)
    runtime = cast(Any, SimpleNamespace(pictures="all", channel=board))
    info = RenderInfo("t", ("Ali", "Omar", "Saad", "Faisal"))
    for active, drawn in ((1, True), (PICTURE_TABLES, True), (PICTURE_TABLES + 1, False)):
        board.boards = {table_id: Board() for table_id in range(active)}
        assert board.pictures_drawn() is drawn
        payload = with_seat_picture(runtime, board, dict(BASE), info, view, "en")
        assert bool(payload.get("files")) is drawn, active
    runtime.pictures = "channel"  # the default: private views are text only
    board.boards = {}
    assert "files" not in with_seat_picture(runtime, board, dict(BASE), info, view, "en")
