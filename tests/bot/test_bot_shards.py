"""End to end: two bot processes, shards [0, 1] and [2, 3] of 4, on one PostgreSQL and one stand-in.

Each process holds the guilds of its shards: it answers only their interactions,
resumes only their tables, and a restart of one leaves the other's table alone.
Players press in the channels (ephemeral "My hand" views), which reach the
guild's own shard; a press in a DM reaches shard 0 only, so one for the other
process's table is acknowledged there and forwarded (PostgreSQL NOTIFY) to the
process holding it, which applies it and answers through the token. With that
process SIGKILLed, such a press is answered "the table is restarting" and
changes nothing; restarted, it takes its lease back and they work again. A
third process started on a held shard range changes nothing. Every answered
press is in the stored records once. All the bot-token calls of both
processes together stay within Discord's global limit.
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Coroutine, Sequence
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
from fakediscord import BotProcess, Channel, DiscordEnv, Guild, Message
from fakediscord.gateway import shard_of
from fakediscord.server import GLOBAL_RATE_LIMIT
from fakediscord.users import InteractionResult
from pg_cluster import Cluster
from test_bot_harness import BotTable, Button, Player, bot_env, contract_policy, forge, plain

from baloot.i18n import t

T = TypeVar("T")
COUNT = 4
RANGES = {0: (0, 1), 1: (2, 3)}  # the shards of each process
TABLE_SHARD = {0: 1, 1: 3}  # the shard of each process's table's guild (DMs reach shard 0, process 0)
SUN = contract_policy("sun")  # a hand that is played out, not thrown in


class PgReader:
    """Synchronous reads of the bots' PostgreSQL (``?`` placeholders), for the harness's sync predicates.

    One connection on its own event loop in a thread, so a read never waits on the test's loop.
    """

    def __init__(self, url: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.conn: asyncpg.Connection[Any] = self._run(asyncpg.connect(url))

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(10)

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        numbered = iter(range(1, 100))
        sql = re.sub(r"\?", lambda _: f"${next(numbered)}", sql)
        return list(self._run(self.conn.fetch(sql, *params)))

    def close(self) -> None:
        self._run(self.conn.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


class PgTable(BotTable):
    """A :class:`BotTable` whose database is the shared PostgreSQL."""

    reader: PgReader
    last_dm: Message
    last_dm_button: str
    forwards = False  # its DM presses reach another process than its own (a table of process 1's shards)
    forwarded = 0  # presses acknowledged by one process and applied by another

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return self.reader.query(sql, params)

    async def press(self, player: Player, button: Button) -> InteractionResult:
        """A press; one in a DM for a table of process 1 is acknowledged by shard 0's process (a deferred update,
        type 6) and applied by process 1: it is in the records once, and nobody is refused."""
        if not self.forwards or player.person.dm_channel.id != self.env.channel_of(button.message).id:
            return await super().press(player, button)
        before = self.action_count()
        result = await player.person.click(button.message, button.custom_id)
        assert not result.rejected, result.rejected
        assert result.response_type == 6, (button, [m.content for m in result.messages])
        await self.env.wait_for(lambda: self.action_count() > before, 10)
        assert self.action_count() == before + 1
        assert not result.followups, [m.content for m in result.followups]
        player.presses += 1
        self.forwarded += 1
        self.last_version = button.version
        self.acted.append((button.seat, button.code))
        self.last_dm, self.last_dm_button = button.message, button.custom_id
        return result


class ChannelPlayer(Player):
    """A player who plays from their ephemeral "My hand" view in the channel, never from DMs."""

    def views(self) -> list[Message]:
        return [m for m in super().views() if m in self.person.ephemerals()]


def guild_on(env: DiscordEnv, shard: int, count: int = COUNT) -> Guild:
    """A new guild whose events Discord sends to ``shard`` of ``count``."""
    while True:
        guild = env.create_guild(f"Diwaniya {len(env.guilds)}")
        if shard_of(guild.id, count) == shard:
            return guild
        del env.guilds[guild.id]  # not announced to any bot yet: no bot runs


async def seat_table(env: DiscordEnv, guild: Guild, bot: BotProcess, reader: PgReader, *,
                     dms: Sequence[bool]) -> PgTable:
    """A table in a new channel of ``guild``: four players seated in order and the match started."""
    channel = env.create_channel(guild, "baloot")
    players = []
    for i, open_dms in enumerate(dms):
        person = env.create_user(f"p{guild.id % 1000}_{i}", accepts_dms=open_dms).join(guild, admin=(i == 0))
        players.append(Player(person) if open_dms else ChannelPlayer(person))
    table = PgTable(env, guild, channel, players, bot, Path("unused"))
    table.reader = reader
    created = await players[0].person.slash("baloot", "create", channel=channel)
    assert created.response_type == 4 and not created.ephemeral, created.rejected
    players[0].seat = 0
    for seat, player in enumerate(players[1:], start=1):
        joined = await player.person.slash("baloot", "join", channel=channel, seat=seat + 1)
        assert joined.ephemeral and joined.message is not None, joined.rejected
        player.seat = seat
    started = await players[0].person.slash("baloot", "start", channel=channel)
    assert started.response_type == 4 and not started.ephemeral, started.message
    return table


async def open_hands(table: PgTable) -> None:
    """Each channel player opens "My hand" on the table message (their DMs are closed)."""
    mine = await table.env.wait_for(lambda: next((m for m in table.table_messages() if m.components), None))
    for player in table.players:
        if isinstance(player, ChannelPlayer):
            opened = await player.person.click(mine, "My hand")
            assert opened.response_type == 4 and opened.ephemeral, opened.rejected


async def dm_press(table: PgTable, player: Player, bots: dict[int, BotProcess]) -> None:
    """The others play until it is ``player``'s turn; they press in their DM and process 1 applies it
    (forwarded from shard 0's process, which received it)."""
    while True:
        turn = await table.wait_turn()
        assert turn is not None
        if turn[0] is player:
            break
        await table.press(turn[0], SUN(*turn))
    button = SUN(*turn)
    await table.press(player, button)  # acknowledged at once by the process of shard 0, applied by process 1
    assert table.forwarded == 1
    await table.env.wait_for(
        lambda: button.custom_id not in table.env.messages[button.message.id].custom_ids(), 10)
    assert "applying a press for table" in bots[1].output and "forwarded a DM press" in bots[0].output


async def first_followup(env: DiscordEnv, answer: InteractionResult) -> Message:
    """The first followup of an interaction (a forwarded or deferred press's private answer)."""
    return await env.wait_for(lambda: answer.followups[0] if answer.followups else None, 10)


def interactions_heard(env: DiscordEnv, channel: Channel) -> int:
    return sum(1 for i in env.interactions.values() if i.channel.id == channel.id)


async def test_two_processes_each_hold_their_shards_tables(
    discord_env: DiscordEnv, pg_cluster: Cluster, tmp_path: Path
) -> None:
    env = discord_env
    env.max_concurrency = 2  # two identify buckets (shard_id % 2): the four shards connect in about 5 s
    url = await pg_cluster.new_database()
    reader = PgReader(url)
    guilds = {p: guild_on(env, TABLE_SHARD[p]) for p in (0, 1)}
    bots: dict[int, BotProcess] = {}
    all_shards = [(s, COUNT) for s in range(COUNT)]
    for p in (0, 1):  # the process holding shard 0 syncs the commands (SYNC_COMMANDS=auto); the other does not
        settings = bot_env(tmp_path / f"unused-{p}.db", DATABASE_URL=url, SHARD_COUNT=str(COUNT),
                           SHARD_IDS=",".join(map(str, RANGES[p])), TABLE_PICTURES="0", LEASE_SECONDS="3")
        bots[p] = await env.start_bot("bot.py", env=settings, expect_commands=p == 0)
    try:
        assert env.command_syncs == 1
        await env.wait_for(lambda: sorted(s.shard for s in env.gateway.sessions) == all_shards, 20)
        mark = env.calls.mark()
        # Process 0's table plays from DMs (they reach shard 0, its own process); process 1's from the channel,
        # but its host's DMs are open: the other process's DM views reach them.
        tables = {
            0: await seat_table(env, guilds[0], bots[0], reader, dms=[True, True, True, True]),
            1: await seat_table(env, guilds[1], bots[1], reader, dms=[True, False, False, False]),
        }
        # In a sharded process too, the slash commands carry the table's messages: the first
        # hand's message is a followup of /baloot start, not a bot-token message.
        for table in tables.values():
            shown = await env.wait_for(lambda table=table: table.table_messages(), 10)  # type: ignore[misc]
            assert shown[0].interaction_id is not None, "posted with the bot token"
        await open_hands(tables[1])
        tables[1].forwards = True

        # A DM press for process 1's table reaches shard 0's process: acknowledged there at once (a deferred
        # update) and forwarded through PostgreSQL to process 1, which applies it and answers through
        # the token: the DM is redrawn for the next version, and nothing is refused.
        host = tables[1].players[0]
        await dm_press(tables[1], host, bots)
        # A second press of the same (now stale) button is forwarded too, and refused there as a local one is.
        stale = await forge(host.person, tables[1].last_dm, tables[1].last_dm_button)
        assert stale.response_type == 6, stale.rejected
        refusal = await first_followup(env, stale)
        assert plain(refusal.content) == t("error.stale_button", "en") and refusal.ephemeral
        assert tables[1].action_count() == len(tables[1].acted)

        # A third process started on process 1's range, which process 1 holds, changes nothing: it takes
        # no lease, resumes no table, connects no shard (so answers no press) and applies no forwarded press.
        third = await env.start_bot("bot.py", env=bot_env(
            tmp_path / "unused-3.db", DATABASE_URL=url, SHARD_COUNT=str(COUNT), SHARD_IDS="2,3", TABLE_PICTURES="0",
            LEASE_SECONDS="3"), wait_ready=False, expect_commands=False)
        await env.wait_for(lambda: "not connecting it while another bot process holds its lease" in third.output, 20)

        # Both tables play a hand at once, each driven by its own process; the host of process 1's table plays
        # from their DM, every press of theirs forwarded from shard 0's process to process 1.
        steps = await asyncio.gather(tables[0].play_hand(SUN), tables[1].play_hand(SUN))
        assert min(steps) > 8
        assert tables[1].forwarded > 1
        assert sorted(s.shard for s in env.gateway.sessions) == all_shards  # the third never identified
        assert "resumed 0 tables of shards [2, 3] of 4" in third.output
        assert "shards [2, 3] are held by another bot process" in third.output
        assert "applying a press" not in third.output and "took the leases" not in third.output
        await third.stop()
        for table in tables.values():
            assert table.action_count() == len(table.acted)
            table.assert_private()

        # Each shard's session heard only its own guilds' interactions, and the DMs went to shard 0.
        by_shard = {s.shard[0]: s for s in env.gateway.sessions}
        dm_presses = sum(1 for i in env.interactions.values() if i.guild is None)
        assert dm_presses > 8  # process 0's players pressed in their DMs
        heard = {shard: by_shard[shard].heard["INTERACTION_CREATE"] for shard in range(COUNT)}
        assert heard == {0: dm_presses, 1: interactions_heard(env, tables[0].channel), 2: 0,
                         3: interactions_heard(env, tables[1].channel)}
        assert not [i for i in env.interactions.values() if not i.acknowledged]

        # Process 1 SIGKILLed: a DM press for its table is acknowledged, answered "the table is
        # restarting" (no acknowledgement from the dead holder, then no live holder at all) and changes nothing.
        await bots[1].kill()
        for _ in range(2):
            before = tables[1].action_count()
            answer = await forge(host.person, tables[1].last_dm, tables[1].last_dm_button)
            assert answer.response_type == 6, answer.rejected
            restarting = await first_followup(env, answer)
            assert plain(restarting.content) == t("error.table_restarting", "en") and restarting.ephemeral
            assert tables[1].action_count() == before
            await asyncio.sleep(3.5)  # the second one: after the dead process's lease ran out (LEASE_SECONDS)
        assert "no live holder of shard 3" in bots[0].output

        # Restarted, process 1 takes its leases back and resumes its own table only; process 0's plays on.
        # The killed process still holds its leases until they run out (LEASE_SECONDS): the restarted
        # one resumes the table when it takes the lease over, at once or at its next renewal.
        applied_before = bots[1].output.count("applying a press for table")
        await bots[1].start(expect_commands=False)
        await env.wait_for(lambda: "resumed 1 tables of shards [2, 3] of 4" in bots[1].output
                           or "took over shard leases [2, 3]: resumed 1 tables" in bots[1].output, 15)
        assert "resumed 0 tables of shards [0, 1] of 4" in bots[0].output
        await open_hands(tables[1])
        forwarded_before = tables[1].forwarded
        steps = await asyncio.gather(tables[0].play_hand(SUN), tables[1].play_hand(SUN))
        assert min(steps) > 8
        # ... and the DM presses for its table work again (forwarded, applied by the restarted process).
        assert tables[1].forwarded > forwarded_before
        assert bots[1].output.count("applying a press for table") >= applied_before + tables[1].forwarded - \
            forwarded_before
        for table in tables.values():  # every answered press in the records, once, in order
            stored = [(a["seat"], a["type"]) for h in table.record()["hands"] for a in h["actions"]]
            assert [seat for seat, _ in stored] == [seat for seat, _ in table.acted]
            table.assert_clean_log()

        # Both processes together never passed the global limit of bot-token calls.
        peak = env.calls.peak_rate(since=mark)
        print(f"bot-token calls: peak {peak}/s, {env.global_refusals} refused (global 429)")
        assert peak <= GLOBAL_RATE_LIMIT
    finally:
        reader.close()


async def test_a_process_killed_mid_hand_and_restarted_at_once_plays_on_within_seconds(
    discord_env: DiscordEnv, pg_cluster: Cluster, tmp_path: Path
) -> None:
    """Process 1 (shards 2, 3) SIGKILLed mid-hand and restarted at once, as systemd's
    ``Restart=always`` does, with the default 30 s lease. It used to wait for its dead predecessor's
    lease to run out: the table's next turn came 30-40 s after the crash. The restarted process proves
    its predecessor dead (this host, its process gone) and takes the leases over at start. Prints the
    freeze: from the kill to the next press applied."""
    env = discord_env
    env.max_concurrency = 2
    url = await pg_cluster.new_database()
    reader = PgReader(url)
    guild = guild_on(env, TABLE_SHARD[1])
    bots: dict[int, BotProcess] = {}
    for p in (0, 1):  # LEASE_SECONDS unset: the default 30 s
        settings = bot_env(tmp_path / f"unused-{p}.db", DATABASE_URL=url, SHARD_COUNT=str(COUNT),
                           SHARD_IDS=",".join(map(str, RANGES[p])), TABLE_PICTURES="0")
        bots[p] = await env.start_bot("bot.py", env=settings, expect_commands=p == 0)
    try:
        await env.wait_for(lambda: sorted(s.shard for s in env.gateway.sessions) == [(s, COUNT) for s in range(4)], 20)
        table = await seat_table(env, guild, bots[1], reader, dms=[False] * 4)
        await open_hands(table)
        for _ in range(3):  # mid-hand
            assert await table.step(SUN)
        turn = await table.wait_turn()
        assert turn is not None

        killed = time.monotonic()
        await bots[1].kill()
        await bots[1].start(wait_ready=False, expect_commands=False)
        await env.wait_for(lambda: ("resumed 1 tables of shards [2, 3] of 4" in bots[1].output
                                    or "took over shard leases [2, 3]: resumed 1 tables" in bots[1].output)
                           and env.gateway.sessions_of(guild.id), 60)
        player, buttons = turn
        await table.press(player, SUN(player, buttons))  # the turn that was open at the crash
        freeze = time.monotonic() - killed
        print(f"\nprocess 1 SIGKILLed mid-hand and restarted at once (lease 30 s): next press applied {freeze:.1f} s "
              "after the kill")
        assert "took over shards [2, 3] from " in bots[1].output  # at once: its predecessor's process is gone
        assert freeze < 15, freeze
        await open_hands(table)  # the others' views were refreshed through the dead process's tokens: reopened
        assert await table.step(SUN)  # and it plays on
        stored = [(a["seat"], a["type"]) for h in table.record()["hands"] for a in h["actions"]]
        assert [seat for seat, _ in stored] == [seat for seat, _ in table.acted]
        table.assert_clean_log()
        assert "resumed 0 tables of shards [0, 1] of 4" in bots[0].output  # process 0 was left alone
    finally:
        reader.close()
