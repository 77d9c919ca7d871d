"""End to end: identifies spaced by Discord's ``max_concurrency`` across bot processes.

Discord lets a bot start at most ``max_concurrency`` sessions per 5 seconds,
one per bucket ``shard_id % max_concurrency`` (``GET /gateway/bot`` says how
many). Two processes holding shards [0, 1] and [2, 3] of 4 start at the same
moment on one PostgreSQL: the stand-in records every IDENTIFY, and the two of
each bucket come at least 5 s apart, whichever process sent them.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from fakediscord import DiscordEnv
from pg_cluster import Cluster
from test_bot_harness import bot_env

MAX_CONCURRENCY = 2
COUNT = 4


@pytest.fixture
async def env_with_buckets() -> AsyncIterator[DiscordEnv]:
    env = DiscordEnv(max_concurrency=MAX_CONCURRENCY)
    await env.start()
    try:
        yield env
    finally:
        await env.close()


async def test_identifies_of_one_bucket_are_five_seconds_apart_across_processes(
    env_with_buckets: DiscordEnv, pg_cluster: Cluster, tmp_path: Path
) -> None:
    env = env_with_buckets
    url = await pg_cluster.new_database()
    bots = []
    for ids in ("0,1", "2,3"):
        settings = bot_env(tmp_path / "unused.db", DATABASE_URL=url, SHARD_COUNT=str(COUNT), SHARD_IDS=ids,
                           TABLE_PICTURES="0")
        bots.append(await env.start_bot("bot.py", env=settings, wait_ready=False, expect_commands=ids == "0,1"))
    await asyncio.gather(*(bot.wait_ready(expect_commands=i == 0, timeout=60) for i, bot in enumerate(bots)))
    log = env.gateway.identify_log
    assert sorted(shard for _, shard, _ in log) == [0, 1, 2, 3]
    for bucket in range(MAX_CONCURRENCY):
        times = sorted(t for t, shard, _ in log if shard % MAX_CONCURRENCY == bucket)
        gaps = [b - a for a, b in itertools.pairwise(times)]
        print(f"bucket {bucket}: identify gaps {[round(g, 2) for g in gaps]} s")
        assert gaps and min(gaps) >= 5.0
    for bot in bots:
        assert "identifying (bucket" in bot.output
