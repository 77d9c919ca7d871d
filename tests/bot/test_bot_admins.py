"""End to end: what a server admin meets — ``/baloot create`` in a channel where
the bot lacks permissions says exactly what is missing and creates nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from fakediscord import DiscordEnv
from test_bot_harness import bot_env, plain, refused

VIEW, SEND, EMBED, ATTACH, SEND_IN_THREADS = 1 << 10, 1 << 11, 1 << 14, 1 << 15, 1 << 38
EVERYTHING = VIEW | SEND | EMBED | ATTACH | SEND_IN_THREADS


def tables(db: Path) -> list[tuple[int, str]]:
    """(channel id, status) of every stored table."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        return [(int(r[0]), str(r[1])) for r in conn.execute("SELECT channel_id, status FROM tables")]
    finally:
        conn.close()


async def test_create_names_the_missing_permissions_and_creates_nothing(
    discord_env: DiscordEnv, tmp_path: Path
) -> None:
    guild = discord_env.create_guild("Diwaniya")
    # The bot may read and write in #locked, but neither embed links nor attach files there.
    locked = discord_env.create_channel(guild, "locked", bot_permissions=VIEW | SEND)
    # In a thread, Send Messages does not let it post: Send Messages in Threads does.
    thread = discord_env.create_channel(guild, "thread", thread_of=locked,
                                        bot_permissions=EVERYTHING & ~SEND_IN_THREADS)
    fine = discord_env.create_channel(guild, "fine", bot_permissions=EVERYTHING)
    alice = discord_env.create_user("alice").join(guild, admin=True)
    reem = discord_env.create_user("reem", locale="ar").join(guild)
    db = tmp_path / "baloot.db"
    await discord_env.start_bot("bot.py", env=bot_env(db))
    mark = discord_env.calls.mark()

    answer = refused(await alice.slash("baloot", "create", channel=locked))
    assert answer == ("I cannot run a table in this channel: I am missing Embed Links, Attach Files. "
                      "Ask a server admin to allow these for me here, then try again.")
    arabic = refused(await reem.slash("baloot", "create", channel=locked))
    assert "الصلاحيات الناقصة: تضمين الروابط، إرفاق الملفات." in arabic
    assert "View Channel" not in answer and "Send Messages" not in answer
    in_thread = refused(await alice.slash("baloot", "create", channel=thread))
    assert "I am missing Send Messages in Threads." in in_thread
    # Nothing was created: no table stored, no lobby, no channel message, and the table's other
    # commands find no table there.
    assert tables(db) == []
    assert alice.messages(locked, with_ephemeral=False) == []
    assert refused(await alice.slash("baloot", "join", channel=locked)) == "There is no Baloot table in this channel."
    assert discord_env.calls.count("POST /channels/{channel_id}/messages", since=mark) == 0

    # With every permission the table opens, publicly, and is stored.
    created = await alice.slash("baloot", "create", channel=fine)
    assert created.response_type == 4 and not created.ephemeral and created.message is not None
    assert "alice opened a Baloot table" in plain(created.message.embeds[0]["description"])
    assert tables(db) == [(fine.id, "open")]
    # Once an admin grants what was missing, the same channel works too.
    locked.bot_permissions |= EMBED | ATTACH
    created = await reem.slash("baloot", "create", channel=locked)
    assert created.response_type == 4 and not created.ephemeral
    assert sorted(tables(db)) == sorted([(fine.id, "open"), (locked.id, "open")])
    assert discord_env.rejections == []
