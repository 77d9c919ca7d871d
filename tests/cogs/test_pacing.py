"""Bot-token requests paced under Discord's global limit (cogs/transport/pacing.py)."""

from __future__ import annotations

import asyncio
import importlib
import sys
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from misbehaving_http import MisbehavingServer

from cogs.transport.pacing import GLOBAL_LIMIT, NORMAL, URGENT, Pacer, counted, pacing_trace, share, urgent

REPO = Path(__file__).resolve().parents[2]


def test_each_process_takes_its_shards_share_of_the_limit() -> None:
    assert share((), None) == 45  # one process: 90 % of 50
    assert share((0, 1), 4) == 22 and share((3,), 4) == 11
    assert share((0,), 64) == 1  # never zero
    assert sum(share((i,), 3) for i in range(3)) <= GLOBAL_LIMIT


def test_a_slot_is_held_from_release_until_a_window_after_the_answer() -> None:
    clock = [100.0]
    pacer = Pacer(3, window=1.0, clock=lambda: clock[0])
    for _ in range(3):
        assert pacer.delay() == 0.0
        pacer.take()
    assert pacer.delay() is None  # all three in flight: wait for an answer
    clock[0] += 0.4
    pacer.done()  # answered at 100.4: that slot is free again at 101.4
    assert pacer.delay() == pytest.approx(1.0)
    clock[0] += 1.0
    assert pacer.delay() == 0.0
    with pytest.raises(ValueError):
        Pacer(0)


async def test_the_trace_holds_bot_token_requests_back_not_token_ones() -> None:
    """discord.py's session with the pacing trace (``http_trace``): bot-token requests reach the server at
    most 4 per 0.2 s, in order; requests through an interaction token are not held."""
    server = await MisbehavingServer().start()
    pacer = Pacer(4, window=0.2)
    arrived: list[float] = []
    loop = asyncio.get_running_loop()
    try:
        async with aiohttp.ClientSession(trace_configs=[pacing_trace(pacer, server.base)]) as session:
            async def post(path: str, n: int) -> int:
                async with session.post(f"{server.base}{path}", json={"n": n}) as response:
                    arrived.append(loop.time())
                    return response.status

            began = loop.time()
            free = await asyncio.gather(*(post("/interactions/1/tok/callback", i) for i in range(8)))
            assert loop.time() - began < 0.2 and pacer.waited == 0  # token requests: never held
            arrived.clear()
            assert await asyncio.gather(*(post("/channels/5/messages", i) for i in range(12))) == [200] * 12
            assert free == [200] * 8
        assert pacer.waited == 8
        bodies = [r.body for r in server.received if "/channels/" in r.target]
        assert bodies == [b'{"n": %d}' % i for i in range(12)]  # in order
        arrived.sort()
        for i in range(len(arrived) - 4):
            assert arrived[i + 4] - arrived[i] >= 0.2 - 0.02
    finally:
        await server.stop()


def test_what_counts_in_the_global_limit() -> None:
    base = "https://discord.com/api/v10"
    assert counted(f"{base}/channels/1/messages", base) and counted(f"{base}/users/@me/channels", base)
    assert not counted(f"{base}/interactions/1/tok/callback", base)
    assert not counted(f"{base}/webhooks/1/tok/messages/@original", base)
    assert not counted("https://cdn.discordapp.com/x.png", base)


async def test_urgent_requests_go_first_and_a_cancelled_waiter_is_skipped() -> None:
    pacer = Pacer(2, window=0.1)
    order: list[str] = []

    async def request(name: str, priority: int | None = None) -> None:
        await pacer.wait(priority)
        order.append(name)
        pacer.done()

    async def private_view(name: str) -> None:
        with urgent():
            await request(name)

    first = [asyncio.create_task(request(f"table{i}", NORMAL)) for i in range(4)]
    await asyncio.sleep(0)
    dropped = asyncio.create_task(request("dropped", URGENT))
    late = [asyncio.create_task(private_view(f"hand{i}")) for i in range(2)]
    await asyncio.sleep(0)
    dropped.cancel()
    await asyncio.gather(*first, *late, return_exceptions=True)
    assert order == ["table0", "table1", "hand0", "hand1", "table2", "table3"]
    assert pacer.waited == 5


async def test_many_tables_starting_at_once_get_no_global_429() -> None:
    """The real bot against the stand-in, which enforces 50 bot-token calls/s: 16 tables created, joined,
    started and played at once (a burst of DMs and table messages) — nothing refused, nothing lost."""
    sys.path.insert(0, str(REPO / "scripts"))
    bench_tables: Any = importlib.import_module("bench_tables")

    args = bench_tables.parse_args(["--tables", "16", "--hands", "1", "--pictures", "0", "--timeout", "120"])
    figures = await bench_tables.run_one(16, args)
    assert not figures["timed_out"] and not figures["errors"] and not figures["bot_log_errors"]
    assert figures["hands"] == 16 and figures["missing"] == 0
    assert figures["global_429"] == 0
    assert figures["peak_bot_calls_1s"] <= GLOBAL_LIMIT
