"""End to end: a quick-match partner invitation sent by one bot process and answered on another.

Two bot processes on one PostgreSQL (shards 0, 1 and 2, 3 of 4). The asker's server is on process 1's
shards, so ``/baloot quick partner:`` is answered there and process 1 sends the invitation; the partner's
Accept / Decline is pressed in their DMs, and a DM press reaches shard 0: process 0 answers it. It queues
the two exactly once (a second press is refused privately), and process 1's "no answer" notice at the
invitation's end leaves an answered invitation alone. With process 1 SIGKILLed before the press, process 0
answers it all the same.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from fakediscord import BotProcess, DiscordEnv, Message, Person
from pg_cluster import Cluster
from test_bot_harness import bot_env, forge
from test_bot_harness import refused as refusal
from test_bot_quick import dm_saying, invitation
from test_bot_shards import COUNT, RANGES, PgReader, guild_on

INVITE_SECONDS = 4


def queued(reader: PgReader) -> list[tuple[int, int]]:
    """(user, entry) of every queue row."""
    return sorted((int(r[0]), int(r[1])) for r in reader.query("SELECT user_id, entry_id FROM quick_queue"))


def queue_shown(person: Person) -> Message | None:
    """``person``'s DM message that is their queue message now (it offers Leave queue)."""
    return next((m for m in person.dms() if "bl:quick:leave" in str(m.components)), None)


async def test_an_invitation_sent_by_one_process_is_answered_by_another_once(
    discord_env: DiscordEnv, pg_cluster: Cluster, tmp_path: Path
) -> None:
    env = discord_env
    env.max_concurrency = 2
    url = await pg_cluster.new_database()
    reader = PgReader(url)
    guild = guild_on(env, 3)  # process 1's
    channel = env.create_channel(guild, "general")
    asker, mate, other, late = (env.create_user(n).join(guild) for n in ("asker", "mate", "other", "late"))
    bots: dict[int, BotProcess] = {}
    for p in (0, 1):
        settings = bot_env(tmp_path / f"unused-{p}.db", DATABASE_URL=url, SHARD_COUNT=str(COUNT),
                           SHARD_IDS=",".join(map(str, RANGES[p])), TABLE_PICTURES="0",
                           QUICK_INVITE_SECONDS=str(INVITE_SECONDS), REVIEW_AUTO="0")
        bots[p] = await env.start_bot("bot.py", env=settings, expect_commands=p == 0)
    try:
        await env.wait_for(lambda: sorted(s.shard for s in env.gateway.sessions) == [(s, COUNT) for s in range(4)], 20)
        # asked on process 1; Accept pressed in the partner's DMs reaches process 0, which queues them once
        asked = await asker.slash("baloot", "quick", channel=channel, partner=mate)
        assert asked.ephemeral and asked.message is not None and "asked" in asked.message.content
        invite = await env.wait_for(lambda: invitation(mate), 5)
        accept_id = invite.components[0]["components"][0]["custom_id"]
        accepted = await mate.click(invite, "Accept")
        assert accepted.response_type == 7, accepted.messages
        assert queued(reader) == sorted([(asker.id, asker.id), (mate.id, asker.id)])
        again = await forge(mate, invite, accept_id)  # a second press (a client that missed the edit)
        assert "already" in refusal(again)
        assert queued(reader) == sorted([(asker.id, asker.id), (mate.id, asker.id)])
        # process 1's timer at the invitation's end: answered, so both messages stay queue messages
        await env.wait_for(lambda: queue_shown(asker), 5)
        await asyncio.sleep(INVITE_SECONDS + 3)
        assert queue_shown(asker) is not None and queue_shown(mate) is not None, [
            m.embeds for m in asker.dms() + mate.dms()]
        assert dm_saying(asker, "did not answer") is None and "expired" not in str(env.messages[invite.id].embeds)
        assert queued(reader) == sorted([(asker.id, asker.id), (mate.id, asker.id)])
        shown = queue_shown(asker)
        assert shown is not None
        left = await asker.click(shown, "Leave queue")  # (a DM press too: process 0)
        assert left.response_type == 7 and queued(reader) == []

        # the asking process is killed before the press: process 0 answers it all the same, once
        await other.slash("baloot", "quick", channel=channel, partner=late)
        invite = await env.wait_for(lambda: invitation(late), 5)
        accept_id = invite.components[0]["components"][0]["custom_id"]
        await bots[1].kill()
        accepted = await late.click(invite, "Accept")
        assert accepted.response_type == 7, accepted.messages
        assert queued(reader) == sorted([(other.id, other.id), (late.id, other.id)])
        assert "already" in refusal(await forge(late, invite, accept_id))
        assert queued(reader) == sorted([(other.id, other.id), (late.id, other.id)])
        assert await env.wait_for(lambda: queue_shown(other), 5)  # the asker's DM became their queue message
        lines = [line for line in bots[0].output.splitlines() if " ERROR " in line or "Traceback" in line]
        assert not lines, "\n".join(lines[:20])
    finally:
        reader.close()
