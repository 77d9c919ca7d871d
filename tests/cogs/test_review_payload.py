"""A game review's answer: its overview picture is drawn in the picture process, never in the bot's own
process, where its Pillow work took the GIL from the event loop and held up every table's presses
(``scripts/bench_tables.py --reviews 4``); a trick's step is text, made at once."""

from __future__ import annotations

import asyncio
import io
import os
import signal

import pytest
from PIL import Image
from played_matches import played_match

from baloot.render.review_picture import FILENAME, HEIGHT, WIDTH
from baloot.review import review_hand
from baloot.tables.reviews import ReviewedHand
from cogs.presentation.pictures import PictureProcess
from cogs.review import review_payload


def a_reviewed() -> ReviewedHand:
    match = played_match(3)
    hand_no = len(match.hands) - 1
    return ReviewedHand(1, hand_no, review_hand(match.hands[hand_no], hand_no, samples=2), ("A", "B", "C", "D"),
                        len(match.hands), 5, None, False)


def never_here(*args: object) -> bytes:
    raise AssertionError("the review picture was drawn in the bot's own process")


async def test_the_overview_picture_is_drawn_in_the_picture_process_and_a_step_is_text(
        monkeypatch: pytest.MonkeyPatch) -> None:
    reviewed = a_reviewed()
    monkeypatch.setattr("baloot.render.review.review_picture", never_here)  # what the overview draws with
    drawer = PictureProcess()
    try:
        payload = await review_payload(drawer, reviewed, 0, "en")
        child = await drawer.run(os.getpid)
        stepped = await review_payload(drawer, reviewed, 2, "ar")  # a trick's step: text, no picture
        unknown = await review_payload(drawer, reviewed, 99, "en")  # a step the review lacks: the overview
    finally:
        drawer.close()
    assert child != os.getpid()
    [(name, png)] = payload["files"]
    assert name == FILENAME and Image.open(io.BytesIO(png)).size == (WIDTH, HEIGHT)
    assert stepped["files"] == [] and stepped["embeds"]
    assert [name for name, _ in unknown["files"]] == [FILENAME]


async def test_a_killed_picture_process_is_replaced_and_the_picture_still_comes() -> None:
    reviewed = a_reviewed()
    drawer = PictureProcess()
    try:
        first = await drawer.run(os.getpid)
        os.kill(first, signal.SIGKILL)
        for _ in range(100):  # the pool notices its worker is gone
            try:
                os.kill(first, 0)
            except ProcessLookupError:
                break
            await asyncio.sleep(0.05)
        payload = await review_payload(drawer, reviewed, 0, "ar")
        second = await drawer.run(os.getpid)
    finally:
        drawer.close()
    assert second not in (first, os.getpid())
    assert [name for name, _ in payload["files"]] == [FILENAME]
