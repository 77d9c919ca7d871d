"""The channel edit cadence stays within the bot token's global budget."""

import time
from types import SimpleNamespace
from typing import Any, cast

from cogs.presentation.channel import EDIT_BUDGET, MIN_INTERVAL, ChannelBoard, edit_interval, process_budget
from cogs.transport.carrier import Carriers
from cogs.transport.pacing import share
from cogs.transport.wire import ResponseToken


def test_few_tables_edit_once_a_second() -> None:
    assert edit_interval(0) == MIN_INTERVAL
    assert edit_interval(1) == MIN_INTERVAL
    assert edit_interval(int(EDIT_BUDGET)) == MIN_INTERVAL


def test_many_tables_share_the_budget() -> None:
    for tables in (31, 200, 1000, 5000):
        interval = edit_interval(tables)
        assert interval > MIN_INTERVAL
        # Every table editing as often as allowed still stays within the budget.
        assert tables / interval <= EDIT_BUDGET + 1e-9


def test_each_process_edits_within_its_share() -> None:
    """Processes holding half the shards each get half the budget, so 500 tables over two
    processes are edited as often as 500 tables in one, and all of them together stay within it."""
    assert process_budget(share((), None)) == EDIT_BUDGET
    for shards in ((0,), (1, 2), (0, 1, 2, 3)):
        budget = process_budget(share(shards, 4))
        assert abs(budget - EDIT_BUDGET * len(shards) / 4) <= EDIT_BUDGET / 45  # share() rounds down
        tables = 500 * len(shards) // 4
        assert tables / edit_interval(tables, budget) <= budget + 1e-9
        assert edit_interval(tables, budget) >= edit_interval(500) - 0.5
    assert process_budget(1000) == EDIT_BUDGET  # BOT_REQUESTS_PER_SECOND above the limit: no more than one


def _board(tables: int) -> tuple[ChannelBoard, Any]:
    board = ChannelBoard(cast(Any, SimpleNamespace(carriers=Carriers())))
    for table_id in range(1, tables):
        board.board(table_id)
    return board, SimpleNamespace(table_id=0, channel_id=77)


async def test_a_busy_bot_holds_cards_back_for_the_next_trick() -> None:
    """Past the budget's free cadence, a card within a trick waits for the next moment
    (a completed trick, a bid, a phase change), so the scarce edits show those exactly."""
    channel, state = _board(200)
    board = channel.board(0)
    board.messages["hand:3"] = 1001  # posted with the bot token: no interaction token edits it
    channel.touch(state, "hand:3", card=True)
    assert board.dirty == set() and board.held == {"hand:3"} and board.task is None
    channel.touch(state, "hand:3")  # the trick is complete: sent, with what was held
    assert board.dirty == {"hand:3"} and board.held == set()
    assert board.task is not None
    board.task.cancel()


async def test_cards_are_shown_at_once_when_edits_are_cheap() -> None:
    # Few tables: one edit a second each fits the budget.
    channel, state = _board(5)
    channel.touch(state, "hand:0", card=True)
    board = channel.board(0)
    assert board.dirty == {"hand:0"} and board.task is not None
    board.task.cancel()



async def test_a_carried_message_shows_every_moment_however_many_tables_run() -> None:
    """Many tables, the message carried by a valid interaction token (free of the global limit): cards still
    wait for the next moment (each edit is a REST call of the bot's CPU), but the moments are flushed at the
    free one-a-second cadence, not the widened one, so every trick and bid shows."""
    channel, state = _board(1000)
    board = channel.board(0)
    board.messages["hand:0"] = 1002
    channel.runtime.carriers.by_message[1002] = ResponseToken(1, "token", time.monotonic())
    channel.touch(state, "hand:0", card=True)
    assert board.held == {"hand:0"} and board.task is None
    assert channel.carried(board, {"hand:0"}) and not channel.carried(board, {"hand:0", "hand:1"})
    assert edit_interval(len(channel.boards)) > 30 * MIN_INTERVAL
