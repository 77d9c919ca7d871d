"""Bot-token requests paced under Discord's global limit (issue 11, cogs/pacing.py)."""

from __future__ import annotations

import asyncio
import importlib
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from cogs.pacing import GLOBAL_LIMIT, Pacer, install_pacer, share

REPO = Path(__file__).resolve().parent.parent


def test_each_process_takes_its_shards_share_of_the_limit() -> None:
    assert share((), None) == 45  # one process: 90 % of 50
    assert share((0, 1), 4) == 22 and share((3,), 4) == 11
    assert share((0,), 64) == 1  # never zero
    assert sum(share((i,), 3) for i in range(3)) <= GLOBAL_LIMIT


def test_releases_never_exceed_the_window() -> None:
    clock = [100.0]
    pacer = Pacer(5, window=1.0, clock=lambda: clock[0])
    times = []
    for _ in range(23):
        while (delay := pacer.delay()) > 0:
            clock[0] += delay + 0.05  # a late wake-up: the release is recorded when it happens
        pacer.release()
        times.append(clock[0])
    for i in range(len(times) - 5):
        assert times[i + 5] - times[i] >= 1.0 - 1e-9  # at most 5 in any second
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
