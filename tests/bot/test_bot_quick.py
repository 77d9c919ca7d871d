"""End to end: quick match — four people of four servers queue, are matched and play a whole match in DMs.

The real bot process against the Discord stand-in: ``/baloot quick`` in each
server, the queue message in each player's DMs edited live, the matcher's
table played in DMs only (no server sees a message of it), rated in each
player's own server. Refusals (DMs closed, queued twice, a stale Leave queue
button) are private and change nothing.
"""

from __future__ import annotations

import types
from functools import partial
from pathlib import Path
from typing import cast

from fakediscord import BotProcess, Channel, DiscordEnv, Guild, Message, Person
from pg_cluster import Cluster
from test_bot_harness import BotTable, Player, bot_env, contract_policy, forge
from test_bot_harness import refused as refusal
from test_bot_shards import COUNT, RANGES, SUN, PgReader, PgTable, guild_on

NAMES = ("amal", "badr", "camil", "dana")


def queue_message(player: Player) -> Message | None:
    return next((m for m in player.person.dms() if m.embeds and m.embeds[0].get("title") == "Quick match"), None)


def invitation(person: Person) -> Message | None:
    """The quick-match invitation in ``person``'s DMs (the message with Accept / Decline), if any."""
    return next((m for m in person.dms() if m.embeds and "asks you" in str(m.embeds[0].get("description"))), None)


def dm_saying(person: Person, words: str) -> Message | None:
    return next((m for m in person.dms() if m.embeds and words in str(m.embeds[0].get("description"))), None)


def found_table(player: Player) -> bool | None:
    """The player's queue message says a table was found, with no buttons left (None: not yet)."""
    message = queue_message(player)
    return True if message is not None and "Table found" in message.embeds[0]["description"] \
        and not message.components else None


def custom_ids(message: Message) -> list[str]:
    return [c.get("custom_id", "") for row in message.components for c in row.get("components", [])]


def match_over(message: Message) -> Message | None:
    """The message as it is now, once it shows the match's final score and no button but "Review hand N"
    (None: not yet)."""
    text = " ".join(str(e.get("description", "")) + str(e.get("fields", "")) for e in message.embeds)
    return message if "Final score" in text and all(":review:" in i for i in custom_ids(message)) else None


def no_channel(table_id: int) -> Channel:
    """What stands for a quick-match table's channel in the harness: its id, ``-table_id``."""
    return cast(Channel, types.SimpleNamespace(id=-table_id))


async def quick_four(env: DiscordEnv, tmp: Path, **settings: str
                     ) -> tuple[list[Player], list[Channel], tuple[BotProcess, Path, list[Guild]]]:
    guilds = [env.create_guild(f"Server {i}") for i in range(4)]
    channels = [env.create_channel(g, "general") for g in guilds]
    players = [Player(env.create_user(name).join(guilds[i])) for i, name in enumerate(NAMES)]
    db = tmp / "baloot.db"
    bot = await env.start_bot("bot.py", env=bot_env(db, **settings))
    return players, channels, (bot, db, guilds)


async def test_four_servers_quick_match_played_in_dms(discord_env: DiscordEnv, tmp_path: Path) -> None:
    env = discord_env
    players, channels, (bot, db, guilds) = await quick_four(env, tmp_path)
    # refused before queueing: DMs closed (nothing queued, nothing sent)
    closed = env.create_user("zed", accepts_dms=False).join(guilds[0])
    refused = await closed.slash("baloot", "quick", channel=channels[0])
    assert refused.ephemeral and "direct messages" in (refused.message.content if refused.message else "")
    for i, player in enumerate(players):
        answer = await player.person.slash("baloot", "quick", channel=channels[i])
        assert answer.ephemeral and answer.message is not None and "queue" in answer.message.content, answer
        if i == 0:  # queued twice: refused privately, nothing changed
            again = await player.person.slash("baloot", "quick", channel=channels[i])
            assert again.ephemeral and again.message is not None and "already" in again.message.content
        if i < 3:
            # honest: how many others wait, not "N of 4 found"
            assert await env.wait_for(partial(dm_saying, player.person, f"Others in the queue now: {i}."), 5)
    # the matcher's round seats them: every queue message says so, and the hand comes in a DM
    for player in players:
        await env.wait_for(partial(found_table, player), 10)
    reader = BotTable(env, guilds[0], channels[0], [], bot, db)
    table_row = await env.wait_for(lambda: reader.query("SELECT id FROM tables WHERE guild_id = 0") or None, 10)
    table_id = int(table_row[0][0])
    table = BotTable(env, guilds[0], no_channel(table_id), players, bot, db)
    for row in table.query("SELECT seat, user_id FROM seats WHERE table_id = ?", (table_id,)):
        next(p for p in players if p.person.id == row["user_id"]).seat = int(row["seat"])
    # a stale Leave queue press: the queue message has no buttons left; the service refuses a leave of no entry
    hands = 0
    while table.status() == "playing":
        assert await table.play_hand(contract_policy("sun")) > 0
        hands += 1
        table.assert_private()
        assert hands < 30
    assert table.status() == "finished"
    # the DM shows the table's public message (the final score) above the hand, with the picture, no buttons
    for player in players:
        views = [m for m in player.person.dms() if m is not queue_message(player)]
        assert len(views) == 1, [m.embeds for m in views]  # one DM message, edited all match long
        final = await env.wait_for(partial(match_over, views[0]), 10)
        assert len(final.embeds) >= 2 and final.attachments
    # nobody's server saw a message of the table
    for i, channel in enumerate(channels):
        assert not [m for m in players[i].person.messages(channel) if m.author.bot and not m.ephemeral_for]
    # rated in each player's own server
    for i, player in enumerate(players):
        rated = table.query("SELECT rated_matches FROM player_ratings WHERE guild_id = ? AND user_id = ?",
                            (guilds[i].id, player.person.id))
        assert rated and rated[0][0] == 1
    table.assert_clean_log()


async def test_four_servers_two_processes_on_postgresql_one_killed_mid_match(
    discord_env: DiscordEnv, pg_cluster: Cluster, tmp_path: Path
) -> None:
    """Two bot processes (shards 0, 1 and 2, 3 of 4) on one PostgreSQL: four people of four servers, two
    on each process's shards, queue from their servers; the process holding shard 0 (the quick-match tables,
    and the DMs) matches them; mid-match it is SIGKILLed and restarted, adopts the table and play goes on to
    the end, each action stored once, in the same DM messages."""
    env = discord_env
    env.max_concurrency = 2
    url = await pg_cluster.new_database()
    reader = PgReader(url)
    guilds = [guild_on(env, shard) for shard in (1, 3, 1, 3)]  # two on each process
    channels = [env.create_channel(g, "general") for g in guilds]
    players = [Player(env.create_user(f"{name}{i}").join(guilds[i])) for i, name in enumerate(NAMES)]
    bots: dict[int, BotProcess] = {}
    for p in (0, 1):
        settings = bot_env(tmp_path / f"unused-{p}.db", DATABASE_URL=url, SHARD_COUNT=str(COUNT),
                           SHARD_IDS=",".join(map(str, RANGES[p])), TABLE_PICTURES="0")
        bots[p] = await env.start_bot("bot.py", env=settings, expect_commands=p == 0)
    try:
        await env.wait_for(lambda: sorted(s.shard for s in env.gateway.sessions) == [(s, COUNT) for s in range(4)], 20)
        for i, player in enumerate(players):
            answer = await player.person.slash("baloot", "quick", channel=channels[i])
            assert answer.ephemeral and answer.message is not None and "queue" in answer.message.content, answer
        rows = await env.wait_for(lambda: reader.query("SELECT id FROM tables WHERE guild_id = 0") or None, 15)
        table_id = int(rows[0][0])
        table = PgTable(env, guilds[0], no_channel(table_id), players, bots[0], Path("unused"))
        table.reader = reader
        for row in reader.query("SELECT seat, user_id FROM seats WHERE table_id = ?", (table_id,)):
            next(p for p in players if p.person.id == row["user_id"]).seat = int(row["seat"])
        assert await table.play_hand(SUN) > 0  # a whole hand, then a few actions of the next
        for _ in range(3):
            assert await table.step(SUN)
        turn = await table.wait_turn()
        assert turn is not None
        await bots[0].kill()
        await bots[0].start(wait_ready=False, expect_commands=False)
        await env.wait_for(lambda: "took over shards [0, 1] from " in bots[0].output
                           and env.gateway.sessions_of(guilds[0].id), 60)
        assert await table.step(SUN)  # the turn open at the crash, pressed on the same DM message
        hands = 0
        while table.status() == "playing":
            assert await table.play_hand(SUN) >= 0
            hands += 1
            assert hands < 30
        assert table.status() == "finished"
        stored = [(a["seat"], a["type"]) for h in table.record()["hands"] for a in h["actions"]]
        assert [seat for seat, _ in stored] == [seat for seat, _ in table.acted]  # each press stored once
        for i, person in enumerate(players):  # rated in each player's own server
            rated = reader.query("SELECT rated_matches FROM player_ratings WHERE guild_id = ? AND user_id = ?",
                                 (guilds[i].id, person.person.id))
            assert rated and rated[0][0] == 1
        for i, channel in enumerate(channels):  # no server saw the table
            assert not [m for m in players[i].person.messages(channel) if m.author.bot and not m.ephemeral_for]
        table.assert_clean_log()
    finally:
        reader.close()



async def test_quick_match_button_on_the_lobby_and_leave_queue(discord_env: DiscordEnv, tmp_path: Path) -> None:
    env = discord_env
    guild = env.create_guild("Diwaniya")
    channel = env.create_channel(guild, "baloot")
    host = env.create_user("host").join(guild)
    guest = env.create_user("guest").join(guild)
    db = tmp_path / "baloot.db"
    bot = await env.start_bot("bot.py", env=bot_env(db))
    created = await host.slash("baloot", "create", channel=channel)
    assert created.message is not None
    lobby = created.message
    # the host sits at the table: their Quick match press is refused privately, nothing queued, no DM
    refused = await host.click(lobby, "Quick match")
    assert refused.ephemeral and refused.message is not None and "already" in refused.message.content
    assert not host.dms()
    # a guest queues from the lobby's button, then leaves the queue from their DM
    queued = await guest.click(lobby, "Quick match")
    assert queued.ephemeral and queued.message is not None and "queue" in queued.message.content
    table = BotTable(env, guild, channel, [], bot, db)
    assert [r[0] for r in table.query("SELECT user_id FROM quick_queue")] == [guest.id]
    message = await env.wait_for(lambda: queue_message(Player(guest)), 5)
    left = await guest.click(message, "Leave queue")
    assert left.response_type == 7
    assert table.query("SELECT user_id FROM quick_queue") == []
    shown = env.messages[message.id]
    assert "left" in shown.embeds[0]["description"] and not shown.components
    # a stale Leave queue or Play now with bots press (a client that missed the edit): refused privately
    for stale in ("bl:quick:leave", "bl:quick:bots"):
        assert "not waiting" in refusal(await forge(guest, message, stale))
    assert table.query("SELECT user_id FROM quick_queue") == [] and not table.query(
        "SELECT id FROM tables WHERE guild_id = 0")
    # and may queue again
    again = await guest.slash("baloot", "quick", channel=channel)
    assert again.message is not None and "queue" in again.message.content
    assert [r[0] for r in table.query("SELECT user_id FROM quick_queue")] == [guest.id]
    table.assert_clean_log()


async def test_report_and_leave_a_quick_table_from_a_server(discord_env: DiscordEnv, tmp_path: Path) -> None:
    env = discord_env
    players, channels, (bot, db, guilds) = await quick_four(env, tmp_path)
    for i, player in enumerate(players):
        await player.person.slash("baloot", "quick", channel=channels[i])
    reader = BotTable(env, guilds[0], channels[0], [], bot, db)
    rows = await env.wait_for(lambda: reader.query("SELECT id FROM tables WHERE guild_id = 0") or None, 10)
    table_id = int(rows[0][0])
    seats = {int(r["user_id"]): int(r["seat"]) for r in reader.query(
        "SELECT seat, user_id FROM seats WHERE table_id = ?", (table_id,))}
    first, second = players[0].person, players[1].person
    # a report, by seat number, from the reporter's own server: stored with the table
    reported = await first.slash("baloot", "report", channel=channels[0], reported=seats[second.id] + 1)
    assert reported.ephemeral and reported.message is not None and "report" in reported.message.content
    assert [tuple(r) for r in reader.query("SELECT reporter_id, reported_id FROM quick_reports")] == [
        (first.id, second.id)]
    mine = await first.slash("baloot", "report", channel=channels[0], reported=seats[first.id] + 1)
    assert mine.ephemeral and reader.query("SELECT COUNT(*) FROM quick_reports")[0][0] == 1  # refused, nothing added
    # leaving mid-match from one's server: the seat is played for, the match goes on
    left = await second.slash("baloot", "leave", channel=channels[1])
    assert left.ephemeral and left.message is not None
    row = reader.query("SELECT vacated FROM seats WHERE table_id = ? AND user_id = ?", (table_id, second.id))
    assert row[0][0] == 1
    assert reader.query("SELECT status FROM tables WHERE id = ?", (table_id,))[0][0] == "playing"
    # who left may queue again; the others may not (they sit at the table)
    again = await second.slash("baloot", "quick", channel=channels[1])
    assert again.message is not None and "queue" in again.message.content
    refused = await first.slash("baloot", "quick", channel=channels[0])
    assert refused.ephemeral and refused.message is not None and "already" in refused.message.content
    reader.assert_clean_log()


async def test_the_rules_message_offers_quick_match(discord_env: DiscordEnv, tmp_path: Path) -> None:
    env = discord_env
    guild = env.create_guild("Diwaniya")
    channel = env.create_channel(guild, "baloot")
    person = env.create_user("reader").join(guild)
    bot = await env.start_bot("bot.py", env=bot_env(tmp_path / "baloot.db"))
    rules = await person.slash("baloot", "rules", channel=channel)
    assert rules.ephemeral and rules.message is not None
    queued = await person.click(rules.message, "Quick match")
    assert queued.ephemeral and queued.message is not None and "queue" in queued.message.content
    assert [r[0] for r in BotTable(env, guild, channel, [], bot, tmp_path / "baloot.db").query(
        "SELECT user_id FROM quick_queue")] == [person.id]


async def test_play_now_with_bots_after_the_wait(discord_env: DiscordEnv, tmp_path: Path) -> None:
    """Alone in the queue: after QUICK_BOTS_SECONDS the queue message offers Play now with bots; pressed, the
    player's match with three bots is dealt in their DMs, the table above their hand."""
    env = discord_env
    guild = env.create_guild("Diwaniya")
    channel = env.create_channel(guild, "baloot")
    person = env.create_user("solo").join(guild)
    db = tmp_path / "baloot.db"
    bot = await env.start_bot("bot.py", env=bot_env(db, QUICK_BOTS_SECONDS="2"))
    await person.slash("baloot", "quick", channel=channel)
    player = Player(person)
    offer = await env.wait_for(lambda: m if (m := queue_message(player)) is not None
                               and "Play now with bots" in str(m.components) else None, 10)
    pressed = await person.click(offer, "Play now with bots")
    assert pressed.response_type == 7
    table = BotTable(env, guild, channel, [player], bot, db)
    rows = table.query("SELECT id FROM tables WHERE guild_id = 0 AND status = 'playing'")
    assert len(rows) == 1
    seats = table.query("SELECT seat, user_id, is_bot FROM seats WHERE table_id = ? ORDER BY seat", (rows[0][0],))
    assert [(r[1], r[2]) for r in seats] == [(person.id, 0), (None, 1), (None, 1), (None, 1)]
    player.seat = 0
    # the hand arrives in the DMs, with the table above it
    await env.wait_for(lambda: player.views() or None, 10)
    assert len(player.views()[0].embeds) >= 2
    table.assert_clean_log()


async def test_a_partner_is_asked_before_anyone_is_queued(discord_env: DiscordEnv, tmp_path: Path) -> None:
    """``/baloot quick partner:`` queues nobody until the partner accepts in their DMs;
    Decline (or no answer in QUICK_INVITE_SECONDS) tells the asker and queues nobody; a bot, oneself, or a
    partner already queued or seated is refused at once, privately, nothing sent."""
    env = discord_env
    guild = env.create_guild("Diwaniya")
    channel = env.create_channel(guild, "baloot")
    asker, mate, other, seated = (env.create_user(n).join(guild) for n in ("asker", "mate", "other", "seated"))
    db = tmp_path / "baloot.db"
    bot = await env.start_bot("bot.py", env=bot_env(db, QUICK_INVITE_SECONDS="3"))
    table = BotTable(env, guild, channel, [], bot, db)

    def queued() -> list[int]:
        return sorted(int(r[0]) for r in table.query("SELECT user_id FROM quick_queue"))

    # refused at once: oneself, a bot, a seated partner, a queued partner, a partner whose DMs are closed
    assert (await seated.slash("baloot", "create", channel=channel)).message is not None
    await other.slash("baloot", "quick", channel=channel)
    closed_user = env.create_user("shut", accepts_dms=False).join(guild)
    for partner, words in ((asker, "another person"), (env.bot_user, "another person"), (seated, "seated"),
                           (other, "already waiting"), (closed_user, "cannot send your partner")):
        answer = await asker.slash("baloot", "quick", channel=channel, partner=partner)
        assert words in refusal(answer), partner
    assert queued() == [other.id] and not asker.dms() and not seated.dms()
    # asked: nobody queued; the partner has Accept / Decline in their DMs
    asked = await asker.slash("baloot", "quick", channel=channel, partner=mate)
    assert asked.ephemeral and asked.message is not None and "asked" in asked.message.content
    assert queued() == [other.id]
    invite = await env.wait_for(lambda: invitation(mate), 5)
    assert "asker" in invite.embeds[0]["description"]
    accept_id = invite.components[0]["components"][0]["custom_id"]
    accepted = await mate.click(invite, "Accept")
    assert accepted.response_type == 7
    rows = table.query("SELECT user_id, entry_id FROM quick_queue WHERE user_id != ?", (other.id,))
    assert sorted((int(r[0]), int(r[1])) for r in rows) == sorted([(asker.id, asker.id), (mate.id, asker.id)])
    # the two DM messages became the queue messages: one other waits (their entry is one team)
    shown = env.messages[invite.id]
    assert "Others in the queue now: 1." in shown.embeds[0]["description"], shown.embeds
    assert await env.wait_for(lambda: dm_saying(asker, "Others in the queue now: 1."), 5)
    # a second press of the (old) Accept: refused, nothing changed
    again = await forge(mate, invite, accept_id)
    assert "already" in refusal(again)
    left = await asker.click(await env.wait_for(lambda: queue_message(Player(asker)), 5), "Leave queue")
    assert left.response_type == 7 and queued() == [other.id]
    # declined: the asker is told in their DMs, nobody queued
    decliner = env.create_user("decliner").join(guild)
    await asker.slash("baloot", "quick", channel=channel, partner=decliner)
    invite = await env.wait_for(lambda: invitation(decliner), 5)
    assert (await decliner.click(invite, "Decline")).response_type == 7
    assert await env.wait_for(lambda: dm_saying(asker, "decliner declined"), 5)
    assert queued() == [other.id] and not env.messages[invite.id].components
    # no answer in time: both are told, nobody queued, and a late Accept is refused
    silent = env.create_user("silent").join(guild)
    await asker.slash("baloot", "quick", channel=channel, partner=silent)
    invite = await env.wait_for(lambda: invitation(silent), 5)
    accept_id = invite.components[0]["components"][0]["custom_id"]
    assert await env.wait_for(lambda: dm_saying(asker, "silent did not answer"), 10)
    assert not env.messages[invite.id].components and "expired" in env.messages[invite.id].embeds[0]["description"]
    late = await forge(silent, invite, accept_id)
    assert "expired" in refusal(late)
    assert queued() == [other.id]
    table.assert_clean_log()
