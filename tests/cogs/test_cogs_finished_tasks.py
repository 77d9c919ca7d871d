"""A finished background task is not kept per table or per player (memory per active table).

Each table's channel flusher, each seated player's private-view refresher and
each table's turn ping run as asyncio tasks. Once one has finished, its
``Task`` (with its coroutine, about 0.7 KB) is let go, not held until that
table's or player's next refresh: with 500 tables that is 2000 players.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, cast

from cogs.presentation.channel import ChannelBoard
from cogs.presentation.pings import TurnPings
from cogs.presentation.private import PrivateHands
from cogs.transport.carrier import Carriers


async def test_a_finished_channel_flush_is_not_kept() -> None:
    channel = ChannelBoard(cast(Any, SimpleNamespace(carriers=Carriers())))
    state = cast(Any, SimpleNamespace(table_id=1, channel_id=77, closed=False, closing=None))
    board = channel.board(1)
    channel._start_flush(state, board)  # nothing dirty: it ends at once
    task = board.task
    assert task is not None
    await asyncio.wait([task])
    await asyncio.sleep(0)  # its done callback
    assert task.done() and board.task is None
    channel.touch(cast(Any, SimpleNamespace(table_id=1, channel_id=77, closed=False, closing=None)), "lobby")
    assert board.task is not None  # a later change starts a flusher again
    board.task.cancel()


async def test_a_finished_private_refresh_is_not_kept() -> None:
    hands = PrivateHands(cast(Any, SimpleNamespace()), cast(Any, None))
    viewer = hands.viewer(1, 5, 0)
    hands._kick(viewer)  # nothing to send: it ends at once
    task = viewer.task
    assert task is not None
    await task
    assert viewer.task is None and hands.viewers[5] is viewer


async def test_a_finished_turn_ping_is_not_kept() -> None:
    pings = TurnPings(cast(Any, SimpleNamespace()))
    state = cast(Any, SimpleNamespace(table_id=3, closed=True))  # moved on: no ping is sent
    ping = pings._ping(3)
    ping.task = task = asyncio.create_task(pings._later(state, 0, 5, None))
    await task
    assert ping.task is None and pings.tables[3] is ping
