"""End to end: answers in the asker's language, the match file sent
privately, and refusals that point where to go.

- Stats, history and leaderboard follow the language a player chose (``/baloot language … scope:
  me``), not only the server's: an English-app player who chose Arabic reads Arabic, an
  Arabic-app player who chose English reads English (before: the server's language for both).
- ``/baloot record`` sends the file to the asker alone, in a player's words (no terminal command);
  ``public: True`` posts it in the channel.
- ``/baloot join`` in the channel of a table that plays in a thread links that thread.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from fakediscord import DiscordEnv, InteractionResult, Message
from stats_helpers import kaboot_match, store_match
from test_bot_harness import bot_env, plain, refused

from baloot.stats import StatsRecorder
from baloot.storage import Storage


def message(result: InteractionResult) -> Message:
    assert result.message is not None, result.rejected
    return result.message


def embed_text(result: InteractionResult) -> str:
    return plain(str(message(result).embeds[0]))


async def test_stats_follow_the_askers_language_and_the_record_is_private(discord_env: DiscordEnv,
                                                                          tmp_path: Path) -> None:
    guild = discord_env.create_guild("Diwaniya")  # an English server, no language set
    channel = discord_env.create_channel(guild, "baloot")
    erin = discord_env.create_user("erin", locale="en-US").join(guild)
    reem = discord_env.create_user("reem", locale="ar").join(guild)
    others = [discord_env.create_user(n).join(guild) for n in ("bob", "carol")]
    db = tmp_path / "baloot.db"
    storage = await Storage.open(db)
    played = await store_match(storage, kaboot_match(), [erin.id, others[0].id, reem.id, others[1].id],
                               guild=guild.id, channel=channel.id, finished_at=time.time() - 60)
    await StatsRecorder(storage).record_result(played)
    await storage.close()
    await discord_env.start_bot("bot.py", env=bot_env(db))

    # Erin's app is English; she chooses Arabic for herself: her stats, history and leaderboard are Arabic.
    await erin.slash("baloot", "language", channel=channel, language="ar", scope="me")
    card = await erin.slash("baloot", "stats", channel=channel)
    assert "إحصائيات البلوت" in embed_text(card) and "Baloot statistics" not in embed_text(card)
    history = await erin.slash("baloot", "history", channel=channel)
    assert "آخر صكات البلوت" in embed_text(history)
    board = await erin.slash("baloot", "leaderboard", channel=channel)
    assert "ترتيب البلوت" in embed_text(board)
    # Reem's app is Arabic; she chooses English: English, though the server has no setting either way.
    await reem.slash("baloot", "language", channel=channel, language="en", scope="me")
    card = await reem.slash("baloot", "stats", channel=channel)
    assert "Baloot statistics" in embed_text(card) and "إحصائيات" not in embed_text(card)
    # A player who chose nothing reads their app's language.
    assert "إحصائيات البلوت" not in embed_text(await others[0].slash("baloot", "stats", channel=channel))

    # The record: to the asker alone, saying what the file is, in their language; no terminal command.
    sent = await erin.slash("baloot", "record", channel=channel, match=played.table_id)
    assert sent.ephemeral and message(sent).attachments
    assert message(sent).attachments[0].filename == f"baloot-match-{played.table_id}.json"
    assert plain(message(sent).content).startswith(f"ملف الصكة رقم {played.table_id}: كل توزيع وشراء وورقة")
    assert "python" not in message(sent).content
    public = await reem.slash("baloot", "record", channel=channel, match=played.table_id, public=True)
    assert not public.ephemeral and message(public).attachments
    assert plain(message(public).content).startswith(f"Match #{played.table_id} in one file: every deal, bid")


async def test_join_in_the_channel_of_a_thread_table_links_the_thread(discord_env: DiscordEnv,
                                                                       tmp_path: Path) -> None:
    guild = discord_env.create_guild("Diwaniya")
    channel = discord_env.create_channel(guild, "baloot")
    alice = discord_env.create_user("alice").join(guild)
    bob = discord_env.create_user("bob").join(guild)
    reem = discord_env.create_user("reem", locale="ar").join(guild)
    await discord_env.start_bot("bot.py", env=bot_env(tmp_path / "baloot.db"))
    await alice.slash("baloot", "create", channel=channel, thread=True)
    thread = discord_env.threads_started[0]
    # Was "There is no Baloot table in this channel." with no word of the thread.
    assert refused(await bob.slash("baloot", "join", channel=channel)) == (
        f"This channel's Baloot table is in its thread <#{thread}>: use the command there.")
    assert refused(await reem.slash("baloot", "join", channel=channel)) == (
        f"طاولة البلوت لهذه القناة في موضوعها <#{thread}>: استخدم الأمر هناك.")
    # Another channel without a table still says there is none.
    elsewhere = discord_env.create_channel(guild, "elsewhere")
    assert refused(await bob.slash("baloot", "join", channel=elsewhere)) == "There is no Baloot table in this channel."
    joined = await bob.slash("baloot", "join", channel=discord_env.channels[thread])
    assert joined.ephemeral and "bob sits in Seat 2" in plain(message(joined).content)


async def test_a_bot_dealing_first_is_named_in_the_table_s_language(discord_env: DiscordEnv, tmp_path: Path) -> None:
    """"بدأت الصكة! أول توزيع على Bot 4.": the start named a bot by its stored English name while every other
    Arabic line says "بوت 4". Tables are started until a bot deals first (the first dealer is random, R1)."""
    guild = discord_env.create_guild("Majlis", locale="ar")
    channel = discord_env.create_channel(guild, "baloot")
    reem = discord_env.create_user("reem", locale="ar").join(guild, admin=True)
    db = tmp_path / "baloot.db"
    await discord_env.start_bot("bot.py", env=bot_env(db))
    for _attempt in range(8):
        await reem.slash("baloot", "create", channel=channel)
        await reem.slash("baloot", "bots", channel=channel)
        started = plain(message(await reem.slash("baloot", "start", channel=channel)).content)
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            dealer = int(conn.execute("SELECT dealer FROM hands ORDER BY table_id DESC, hand_no LIMIT 1").fetchone()[0])
        finally:
            conn.close()
        if dealer != 0:
            break
        await reem.slash("baloot", "end", channel=channel)
    else:
        raise AssertionError("reem dealt first at every table")
    assert started == f"بدأت الصكة! أول توزيع على بوت {dealer + 1}.", started
