"""A game review's answer is made on the picture thread, never on the event loop: its overview picture
is 100-400 ms of Pillow work that held up every table's presses behind it (``scripts/bench_tables.py
--reviews 4``)."""

from __future__ import annotations

import asyncio
import threading

import pytest
from played_matches import played_match

from baloot.render.review_picture import FILENAME, review_picture
from baloot.review import review_hand
from baloot.tables.reviews import ReviewedHand
from cogs.presentation.pictures import THREAD_NAME, PictureWorker
from cogs.review import review_payload


async def test_the_review_picture_is_drawn_on_the_picture_thread_and_the_loop_stays_free(
        monkeypatch: pytest.MonkeyPatch) -> None:
    match = played_match(3)
    hand_no = len(match.hands) - 1
    reviewed = ReviewedHand(1, hand_no, review_hand(match.hands[hand_no], hand_no, samples=2), ("A", "B", "C", "D"),
                            len(match.hands), 5, None, False)
    drawn_on: list[str] = []
    drawing = threading.Event()
    release = threading.Event()

    def slow_picture(*args: object) -> bytes:
        drawn_on.append(threading.current_thread().name)
        drawing.set()
        release.wait(5)  # a long drawing: the loop must keep running meanwhile
        return review_picture(*args)  # type: ignore[arg-type]

    monkeypatch.setattr("baloot.render.review.review_picture", slow_picture)  # what the overview draws with
    drawer = PictureWorker()
    try:
        answer = asyncio.ensure_future(review_payload(drawer, reviewed, 0, "en"))
        while not drawing.is_set():
            await asyncio.sleep(0.01)  # the loop runs while the picture is being drawn
        assert not answer.done()
        release.set()
        payload = await answer
        stepped = await review_payload(drawer, reviewed, 2, "ar")  # a trick's step: text, no picture
    finally:
        release.set()
        drawer.close()
    assert drawn_on == [f"{THREAD_NAME}_0"] and drawn_on[0] != threading.current_thread().name
    assert [name for name, _ in payload["files"]] == [FILENAME]
    assert stepped["files"] == [] and stepped["embeds"]
