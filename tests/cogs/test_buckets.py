"""discord.py's rate-limit buckets swept at an amortized constant cost (cogs/transport/buckets.py)."""

from __future__ import annotations

import asyncio

import discord
import pytest

from cogs.transport.buckets import FLOOR, BucketSweep, install_bucket_sweep


class Counting(discord.http.Ratelimit):
    """A bucket that counts how often discord.py's sweep asks whether it is inactive."""

    asked = 0

    def is_inactive(self) -> bool:
        Counting.asked += 1
        return super().is_inactive()


@pytest.fixture
async def http(monkeypatch: pytest.MonkeyPatch) -> discord.http.HTTPClient:
    monkeypatch.setattr(discord.http, "Ratelimit", Counting)
    Counting.asked = 0
    return discord.http.HTTPClient(asyncio.get_running_loop())


def new_buckets(http: discord.http.HTTPClient, count: int, start: int = 0) -> None:
    for i in range(start, start + count):
        http.get_ratelimit(f"route:{i}")


async def test_discord_py_walks_every_bucket_on_every_new_one(http: discord.http.HTTPClient) -> None:
    """The cost this module removes: past 256 buckets, each new one walks them all."""
    new_buckets(http, 1000)
    assert Counting.asked > 500 * 256


async def test_walks_only_when_the_table_has_doubled(http: discord.http.HTTPClient) -> None:
    client = discord.Client(intents=discord.Intents.none())
    client.http = http
    sweep = install_bucket_sweep(client)
    assert http._try_clear_expired_ratelimits is sweep
    new_buckets(http, 1000)
    assert len(http._buckets) == 1000  # all active: nothing dropped
    assert sweep.walks == 2  # at 256 and at 512 (the next is at 1024)
    assert Counting.asked == 256 + 512
    new_buckets(http, 24, start=1000)
    assert sweep.walks == 3 and sweep.next_walk == 2048


async def test_inactive_buckets_are_still_dropped(http: discord.http.HTTPClient) -> None:
    """discord.py's rule of what goes: no request for 300 s, none outgoing or waiting."""
    sweep = BucketSweep(http)
    setattr(http, "_try_clear_expired_ratelimits", sweep)  # noqa: B010
    new_buckets(http, FLOOR - 1)
    busy = http._buckets["route:0"]
    busy.outgoing = 1
    for bucket in http._buckets.values():
        bucket._last_request -= 301  # idle for five minutes
    new_buckets(http, 1, start=FLOOR)  # the 256th: a walk
    assert sweep.walks == 1
    assert set(http._buckets) == {"route:0", f"route:{FLOOR}"}
    assert sweep.next_walk == FLOOR
