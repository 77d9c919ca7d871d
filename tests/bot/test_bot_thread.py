"""End to end: a table in its own thread (less noise in the channel).

``/baloot create thread:True`` opens a public thread of the channel and runs the whole table
there; the channel keeps one line linking to it. Without Create Public Threads the creator is told
exactly that and nothing is created; a refused create leaves no empty thread behind; in a thread
the option plays right there.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from fakediscord import DiscordEnv
from test_bot_harness import BotTable, Player, bot_env, contract_policy, plain, refused

CREATE_PUBLIC_THREADS = 1 << 35
ALL = ((1 << 50) - 1) & ~(1 << 3)  # every permission but Administrator (which grants them all)


def stored_channels(db: Path) -> list[int]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        return sorted(int(r[0]) for r in conn.execute("SELECT channel_id FROM tables"))
    finally:
        conn.close()


async def test_a_table_plays_in_the_thread_it_opens(discord_env: DiscordEnv, tmp_path: Path) -> None:
    guild = discord_env.create_guild("Diwaniya")
    channel = discord_env.create_channel(guild, "baloot")
    people = [discord_env.create_user(n).join(guild, admin=(n == "alice")) for n in ("alice", "bob", "carol", "dave")]
    alice = people[0]
    db = tmp_path / "baloot.db"
    bot = await discord_env.start_bot("bot.py", env=bot_env(db))

    created = await alice.slash("baloot", "create", channel=channel, thread=True)
    assert created.response_type == 4 and not created.ephemeral and created.message is not None
    assert discord_env.threads_started and len(discord_env.threads_started) == 1
    thread = discord_env.channels[discord_env.threads_started[0]]
    assert thread.is_thread and thread.parent_id == channel.id and thread.name == "Baloot · alice"
    # The channel's one line links to the thread (a channel mention notifies nobody).
    line = plain(created.message.content)
    assert line == f"alice opened a Baloot table in <#{thread.id}>. Join it there.", line
    assert created.message.allowed_mentions is not None and not created.message.allowed_mentions.get("parse")
    assert stored_channels(db) == [thread.id]

    # The lobby, with its buttons, is in the thread.
    lobby = await discord_env.wait_for(lambda: next(
        (m for m in alice.messages(thread, with_ephemeral=False) if m.components and "lobby" in str(m.components)),
        None))
    assert "alice opened a Baloot table" in plain(lobby.embeds[0]["description"])
    # The slash commands work in the thread like in any channel.
    for seat, person in enumerate(people[1:], start=2):
        joined = await person.slash("baloot", "join", channel=thread, seat=seat)
        assert joined.ephemeral and joined.message is not None and "sits in" in joined.message.content
    started = await alice.slash("baloot", "start", channel=thread)
    assert started.response_type == 4 and not started.ephemeral
    table = BotTable(discord_env, guild, thread, [Player(p, seat=i) for i, p in enumerate(people)], bot, db)
    for _ in range(8):
        assert await table.step(contract_policy("sun"))
    await discord_env.wait_for(lambda: table.table_messages())

    # Everything of the table went to the thread: the channel holds the one line only.
    in_channel = alice.messages(channel, with_ephemeral=False)
    assert [m.id for m in in_channel] == [created.message.id]
    assert table.table_messages() and all(m.channel_id == thread.id for m in table.table_messages())
    table.assert_private()

    # A second create by a seated player is refused before any thread is opened.
    again = refused(await alice.slash("baloot", "create", channel=channel, thread=True))
    assert again == "You are already seated at a table."
    assert len(discord_env.threads_started) == 1
    table.assert_clean_log()
    assert discord_env.rejections == []


async def test_without_create_public_threads_nothing_is_created(discord_env: DiscordEnv, tmp_path: Path) -> None:
    guild = discord_env.create_guild("Majlis", locale="ar")
    closed = discord_env.create_channel(guild, "no-threads", bot_permissions=ALL & ~CREATE_PUBLIC_THREADS)
    reem = discord_env.create_user("reem", locale="ar").join(guild)
    sara = discord_env.create_user("sara").join(guild)
    db = tmp_path / "baloot.db"
    await discord_env.start_bot("bot.py", env=bot_env(db))

    answer = refused(await sara.slash("baloot", "create", channel=closed, thread=True))
    assert answer == ("I cannot run a table in this channel: I am missing Create Public Threads. "
                      "Ask a server admin to allow these for me here, then try again.")
    assert "إنشاء مواضيع عامة" in refused(await reem.slash("baloot", "create", channel=closed, thread=True))
    assert discord_env.threads_started == [] and stored_channels(db) == []
    assert reem.messages(closed, with_ephemeral=False) == []

    # In a thread, the option plays right there: no thread is opened inside a thread.
    side = discord_env.create_channel(guild, "side", thread_of=closed, bot_permissions=ALL)
    created = await reem.slash("baloot", "create", channel=side, thread=True)
    assert created.response_type == 4 and not created.ephemeral and created.message is not None
    assert created.message.embeds and created.message.components  # the lobby itself, in the thread
    assert discord_env.threads_started == [] and stored_channels(db) == [side.id]

    # Without the option, the channel that may not hold threads still takes a table.
    created = await sara.slash("baloot", "create", channel=closed)
    assert created.response_type == 4 and not created.ephemeral
    assert stored_channels(db) == sorted([side.id, closed.id])
    assert discord_env.rejections == []


async def test_an_arabic_server_names_the_thread_in_arabic(discord_env: DiscordEnv, tmp_path: Path) -> None:
    guild = discord_env.create_guild("Majlis", locale="ar")
    channel = discord_env.create_channel(guild, "بلوت")
    reem = discord_env.create_user("reem", locale="ar").join(guild, admin=True)
    await discord_env.start_bot("bot.py", env=bot_env(tmp_path / "baloot.db", DEFAULT_LANGUAGE="ar"))
    created = await reem.slash("baloot", "create", channel=channel, thread=True)
    assert created.message is not None
    thread = discord_env.channels[discord_env.threads_started[0]]
    assert thread.name == "بلوت · reem"
    assert re.search(rf"طاولة بلوت جديدة من .* في .*<#{thread.id}>", created.message.content)
