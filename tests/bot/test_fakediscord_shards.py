"""The stand-in routes by shard and enforces the global rate limit.

Raw gateway clients play two shards of one bot: each IDENTIFYs with its
``[shard_id, shard_count]`` pair, answers interactions with its shard id, and
records what it hears. Discord sends a guild's events only to shard
``(guild_id >> 22) % shard_count`` and DMs only to shard 0; the global limit is
50 bot-token requests per second for all sessions and processes of a token,
interaction callbacks and webhook-token calls exempt.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from fakediscord import DiscordEnv, FakeDiscord, Guild
from fakediscord.gateway import INTENT_DIRECT_MESSAGES, INTENT_GUILD_MESSAGES, shard_of

JSON = dict[str, Any]
INTENTS = 1 | INTENT_GUILD_MESSAGES | INTENT_DIRECT_MESSAGES  # guilds, guild and direct messages


@dataclass
class RawShard:
    """One gateway session identified as ``shard``; answers every interaction with its shard id."""

    env: FakeDiscord
    shard: list[int]
    http: aiohttp.ClientSession
    events: list[tuple[str, JSON]] = field(default_factory=list)
    closed_with: int | None = None
    ws: aiohttp.ClientWebSocketResponse | None = None
    task: asyncio.Task[None] | None = None

    async def connect(self) -> RawShard:
        self.ws = ws = await self.http.ws_connect(self.env.gateway_url)
        hello = await ws.receive_json()
        assert hello["op"] == 10
        await ws.send_json({"op": 2, "d": {"token": self.env.token, "intents": INTENTS, "shard": self.shard,
                                           "properties": {"os": "linux", "browser": "raw", "device": "raw"}}})
        self.task = asyncio.create_task(self._read(ws))
        return self

    async def _read(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            payload = json.loads(msg.data)
            if payload.get("op") != 0:
                continue
            self.events.append((payload["t"], payload["d"]))
            self.env.notify()
            if payload["t"] == "INTERACTION_CREATE":
                d = payload["d"]
                url = f"{self.env.api_url}/interactions/{d['id']}/{d['token']}/callback"
                async with self.http.post(url, json={"type": 4, "data": {"content": f"shard {self.shard[0]}"}}):
                    pass
        self.closed_with = ws.close_code
        self.env.notify()

    def guilds_created(self) -> set[int]:
        return {int(d["id"]) for t, d in self.events if t == "GUILD_CREATE"}

    def heard(self, event: str) -> list[JSON]:
        return [d for t, d in self.events if t == event]

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.task is not None:
            with contextlib.suppress(Exception):
                await self.task


def guilds_on_both_shards(env: DiscordEnv, count: int = 2) -> dict[int, Guild]:
    """A guild (with a channel and a member) for each shard of ``count``, made until every shard has one."""
    found: dict[int, Guild] = {}
    while len(found) < count:
        guild = env.create_guild(f"g{len(env.guilds)}")
        env.create_channel(guild, "general")
        found.setdefault(shard_of(guild.id, count), guild)
    return found


async def test_each_guild_only_on_its_shard_and_dms_only_on_shard_zero(discord_env: DiscordEnv) -> None:
    env = discord_env
    guilds = guilds_on_both_shards(env)
    env.global_commands.append({"id": "1", "application_id": str(env.application_id), "name": "ping",
                                "description": "ping", "type": 1, "options": [], "version": "1"})
    alice = env.create_user("alice")
    for guild in guilds.values():
        alice.join(guild)
    async with aiohttp.ClientSession() as http:
        zero, one = RawShard(env, [0, 2], http), RawShard(env, [1, 2], http)
        await zero.connect()
        await one.connect()
        try:
            await env.wait_for(lambda: zero.heard("READY") and one.heard("READY"))
            await env.wait_for(lambda: len(zero.guilds_created()) + len(one.guilds_created()) == len(env.guilds))
            for shard, raw in ((0, zero), (1, one)):
                [ready] = raw.heard("READY")
                assert ready["shard"] == [shard, 2]
                mine = {g.id for g in env.guilds.values() if (g.id >> 22) % 2 == shard}
                assert {int(g["id"]) for g in ready["guilds"]} == mine == raw.guilds_created()

            # A guild's interactions reach only its shard, which answers them.
            for shard, guild in guilds.items():
                channel = next(iter(guild.channels.values()))
                result = await alice.slash("ping", channel=channel)
                assert result.message is not None and result.message.content == f"shard {shard}"
            # A DM interaction reaches shard 0 only.
            dm = await alice.slash("ping", channel=alice.dm_channel)
            assert dm.message is not None and dm.message.content == "shard 0"
            assert len(zero.heard("INTERACTION_CREATE")) == 2 and len(one.heard("INTERACTION_CREATE")) == 1
            assert "guild_id" not in zero.heard("INTERACTION_CREATE")[-1]

            # Messages too (the answers above included): a guild's to its shard, a DM to shard 0.
            await alice.say(next(iter(guilds[1].channels.values())), "hello one")
            await alice.say(alice.dm_channel, "hello dm")

            def said(raw: RawShard) -> list[str]:
                return [d["content"] for d in raw.heard("MESSAGE_CREATE")]

            await env.wait_for(lambda: "hello one" in said(one) and "hello dm" in said(zero))
            assert said(zero) == ["shard 0", "shard 0", "hello dm"]
            assert said(one) == ["shard 1", "hello one"]

            # A guild made later goes to its own shard only.
            before = {0: zero.guilds_created(), 1: one.guilds_created()}
            late = env.create_guild("late")
            shard = shard_of(late.id, 2)
            raw = (zero, one)[shard]
            await env.wait_for(lambda: late.id in raw.guilds_created())
            assert (zero, one)[1 - shard].guilds_created() == before[1 - shard]
            assert [s for _, s, n in env.gateway.identify_log] == [0, 1]
        finally:
            await zero.close()
            await one.close()


async def test_an_invalid_shard_is_refused_with_4010(discord_env: DiscordEnv) -> None:
    async with aiohttp.ClientSession() as http:
        for shard in ([2, 2], [0, 0], [-1, 2], [0]):
            raw = await RawShard(discord_env, shard, http).connect()
            code = await discord_env.wait_for(lambda: raw.closed_with)  # noqa: B023 - awaited at once
            assert code == 4010, shard
            assert raw.events == []
    assert discord_env.gateway.identifies == 0


async def test_gateway_bot_recommends_shards_and_concurrency() -> None:
    async with DiscordEnv(recommended_shards=4, max_concurrency=2) as env, aiohttp.ClientSession() as http:
        headers = {"Authorization": f"Bot {env.token}"}
        async with http.get(f"{env.api_url}/gateway/bot", headers=headers) as response:
            assert response.status == 200 and response.headers["Content-Type"] == "application/json"
            body = await response.json()
        assert body["url"] == env.gateway_url and body["shards"] == 4
        limit = body["session_start_limit"]
        assert set(limit) == {"total", "remaining", "reset_after", "max_concurrency"}  # the spec's required keys
        assert limit["max_concurrency"] == 2 and limit["remaining"] == limit["total"] == 1000
        async with http.get(f"{env.api_url}/gateway", headers=headers) as response:
            assert await response.json() == {"url": env.gateway_url}


async def test_global_limit_counts_bot_token_calls_across_clients_not_interactions() -> None:
    async with DiscordEnv() as env:
        guild = env.create_guild()
        channel = env.create_channel(guild, "general")
        env.global_commands.append({"id": "1", "application_id": str(env.application_id), "name": "ping",
                                    "description": "ping", "type": 1, "options": [], "version": "1"})
        alice = env.create_user("alice").join(guild)
        headers = {"Authorization": f"Bot {env.token}"}
        # Two clients of one token (as two bot processes would be) share the limit.
        async with aiohttp.ClientSession() as first, aiohttp.ClientSession() as second, \
                aiohttp.ClientSession() as shard_http:

            async def me(http: aiohttp.ClientSession) -> tuple[int, JSON, str]:
                async with http.get(f"{env.api_url}/users/@me", headers=headers) as response:
                    return response.status, await response.json(), response.headers.get("Via", "")

            raw = await RawShard(env, [0, 1], shard_http).connect()
            await env.wait_for(lambda: raw.heard("READY"))
            mark = env.calls.mark()
            answers = await asyncio.gather(*(me(first if i % 2 else second) for i in range(80)))
            ok = [a for a in answers if a[0] == 200]
            limited = [a for a in answers if a[0] == 429]
            assert len(ok) == 50 and len(limited) == 30
            for _, body, via in limited:
                assert body["global"] is True and 0 < body["retry_after"] <= 1.0 and via
            assert env.global_refusals == 30
            assert env.calls.count("GET /users/@me", status=429, since=mark) == 30
            assert env.calls.peak_rate(since=mark) == 50

            # Interaction callbacks and webhook-token calls are exempt: they pass while the bot token waits.
            result = await alice.slash("ping", channel=channel)
            assert result.message is not None and result.message.content == "shard 0"
            assert env.calls.count("POST /interactions/{interaction_id}/{interaction_token}/callback",
                                   status=204, since=mark) == 1
            assert (await me(first))[0] == 429

            await asyncio.sleep(max(body["retry_after"] for _, body, _ in limited))
            assert (await me(second))[0] == 200  # once the oldest call left the window
            assert env.calls.peak_rate(since=mark) == 50
            await raw.close()


async def test_the_limit_can_be_switched_off() -> None:
    async with DiscordEnv(global_rate_limit=None) as env, aiohttp.ClientSession() as http:
        headers = {"Authorization": f"Bot {env.token}"}

        async def me() -> int:
            async with http.get(f"{env.api_url}/users/@me", headers=headers) as response:
                return response.status

        assert set(await asyncio.gather(*(me() for _ in range(60)))) == {200}
        assert env.global_refusals == 0 and env.calls.peak_rate() == 60
