"""Bot-token requests paced under Discord's global limit (cogs/transport/pacing.py)."""

from __future__ import annotations

import asyncio
import importlib
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cogs.transport.pacing import GLOBAL_LIMIT, NORMAL, URGENT, Pacer, install_pacer, share, urgent

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


async def test_installed_pacer_holds_bot_token_requests_back() -> None:
    sent: list[float] = []
    loop = asyncio.get_running_loop()

    async def request(route: Any, **kwargs: Any) -> Any:
        sent.append(loop.time())
        return route, kwargs

    client: Any = SimpleNamespace(http=SimpleNamespace(request=request))
    pacer = install_pacer(client, Pacer(4, window=0.2))
    results = await asyncio.gather(*(client.http.request(i, json={"n": i}) for i in range(12)))
    assert [r[0] for r in results] == list(range(12)) and results[3][1] == {"json": {"n": 3}}  # in order
    assert pacer.waited == 8
    for i in range(len(sent) - 4):
        assert sent[i + 4] - sent[i] >= 0.2 - 0.01


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
