"""End to end: a process that lost its shards' leases closes their gateway sessions.

Process A holds shards [0, 1] of 2; process B, started on the same range, is a
standby. A stalls (SIGSTOP) past its lease's time: B takes the leases over,
connects the shards and resumes A's table. When A runs again it finds its
leases gone, stops driving the table and disconnects its shards, so Discord no
longer sends it presses that B answers (two answers to one press are refused
by Discord, and a stalled process must not race the live one). When B stops
cleanly, A takes the leases back and connects the shards again. Every answered
press is in the stored record once.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

from fakediscord import DiscordEnv
from pg_cluster import Cluster
from test_bot_harness import bot_env
from test_bot_shards import SUN, PgReader, guild_on, open_hands, seat_table

COUNT = 2
LEASE_SECONDS = "3"


def refusals(env: DiscordEnv) -> list[object]:
    """What Discord refused, but the DMs of these players, who closed them (code 50007)."""
    return [r for r in env.rejections if r[1].code != 50007]


def shards_connected(env: DiscordEnv) -> list[tuple[int, int]]:
    return sorted(s.shard for s in env.gateway.sessions)


async def test_a_stalled_process_that_lost_its_leases_disconnects_and_comes_back(
    discord_env: DiscordEnv, pg_cluster: Cluster, tmp_path: Path
) -> None:
    env = discord_env
    env.max_concurrency = 2  # both shards identify at once (one bucket each)
    url = await pg_cluster.new_database()
    reader = PgReader(url)

    def settings(name: str) -> dict[str, str]:
        return bot_env(tmp_path / f"unused-{name}.db", DATABASE_URL=url, SHARD_COUNT=str(COUNT), SHARD_IDS="0,1",
                       TABLE_PICTURES="0", LEASE_SECONDS=LEASE_SECONDS)

    a = await env.start_bot("bot.py", env=settings("a"))
    try:
        table = await seat_table(env, guild_on(env, 1, COUNT), a, reader, dms=[False] * 4)
        await open_hands(table)
        for _ in range(3):
            assert await table.step(SUN)
        b = await env.start_bot("bot.py", env=settings("b"), wait_ready=False, expect_commands=False)
        # (discord.py launches its shards one after another: the standby waits at the first)
        await env.wait_for(lambda: "not connecting it while another bot process holds its lease" in b.output, 20)
        assert shards_connected(env) == [(0, 2), (1, 2)]

        # A stalls past its leases' time: B takes them over and resumes the table. (B's identifies may wait
        # for A to run again: A may still hold the identify turn it took, an advisory lock on its connection.)
        assert a.pid is not None
        identified = len(env.gateway.identify_log)
        os.killpg(a.pid, signal.SIGSTOP)
        try:
            await env.wait_for(lambda: "took over shard leases [0, 1]: resumed 1 tables" in b.output, 20)
        finally:
            os.killpg(a.pid, signal.SIGCONT)
        # A runs again, finds its leases gone and closes its sessions: only B's are left.
        await env.wait_for(lambda: a.output.count("another bot process holds its lease now; disconnecting it") == 2, 20)
        await env.wait_for(lambda: len(env.gateway.identify_log) == identified + 2 and len(env.gateway.sessions) == 2,
                           20)
        assert shards_connected(env) == [(0, 2), (1, 2)]
        assert "lost the lease of shard 1" in a.output

        # Presses go to B alone: each is answered once (a second answer would be refused, code 40060).
        await open_hands(table)
        for _ in range(4):
            assert await table.step(SUN)
        assert refusals(env) == []

        # B stops cleanly (giving its leases up): A takes them back and connects its shards again.
        await b.stop()
        await env.wait_for(lambda: a.output.count("its lease is ours again; connecting it") == 2, 20)
        await env.wait_for(lambda: len(env.gateway.identify_log) == identified + 4 and len(env.gateway.sessions) == 2,
                           20)
        assert shards_connected(env) == [(0, 2), (1, 2)]
        await env.wait_for(lambda: "took over shard leases [0, 1]: resumed 1 tables" in a.output, 20)
        await open_hands(table)
        for _ in range(4):
            assert await table.step(SUN)

        stored = [(act["seat"], act["type"]) for h in table.record()["hands"] for act in h["actions"]]
        assert [seat for seat, _ in stored] == [seat for seat, _ in table.acted]  # every press once, in order
        assert refusals(env) == []
        assert not [i for i in env.interactions.values() if not i.acknowledged]
    finally:
        reader.close()
