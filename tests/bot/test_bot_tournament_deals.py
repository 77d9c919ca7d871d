"""Through the stand-in: a tournament whose rounds are a fixed number of deals (R8, the table option
``deals``): ``/baloot tournament create deals:4`` is accepted, the message says so, and the round's
table says which hand of the four it plays; and teams that never show forfeit (TOURNAMENT_NO_SHOW_MINUTES)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fakediscord import DiscordEnv, Message
from test_bot_harness import bot_env, plain

from cogs.settings import ConfigError, load_settings

ROOT = Path(__file__).resolve().parents[2]


def embed_text(message: Message) -> str:
    parts: list[str] = []
    for embed in message.embeds:
        parts += [str(embed.get("title", "")), str(embed.get("description", ""))]
        parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields", [])]
    return plain(" ".join(parts))


async def test_a_tournament_of_four_deal_rounds(discord_env: DiscordEnv, tmp_path: Path) -> None:
    env = discord_env
    guild = env.create_guild("Diwaniya")
    channel = env.create_channel(guild, "baloot")
    admin = env.create_user("organiser").join(guild, admin=True)
    people = [env.create_user(n).join(guild) for n in ("alice", "bob", "carol", "dave")]
    bot = await env.start_bot("bot.py", env=bot_env(tmp_path / "baloot.db"))
    try:
        created = await admin.slash("baloot", "tournament", "create", channel=channel, title="Four Boards",
                                    deals=4, turn_time=600)
        assert created.response_type == 4 and not created.ephemeral and created.message is not None, created.rejected
        message = created.message
        assert "each round a match of 4 hands" in embed_text(message)
        assert "the second half of each round replays the first half's hands" in embed_text(message)
        for person in people:  # four lone players: two teams
            joined = await person.click(message, "Register alone")
            assert joined.ephemeral, joined.rejected
        started = await admin.click(message, "Start")
        assert started.message is not None and plain(started.message.content) == "The tournament has started."
        await env.wait_for(lambda: len(env.threads_started) == 1 or None)
        thread: Any = env.channels[env.threads_started[0]]

        def first_hand() -> Message | None:
            return next((m for m in admin.messages(thread, with_ephemeral=False)
                         if "Hand 1 of 4." in embed_text(m)), None)

        shown = await env.wait_for(first_hand)
        assert "Playing to" not in embed_text(shown)
        assert "Traceback" not in bot.output, bot.output[-4000:]
    finally:
        print(bot.output[-6000:])


def test_the_no_show_time_is_a_setting_in_minutes() -> None:
    assert load_settings({"DISCORD_TOKEN": "t"}).tournament_no_show_minutes == 10.0
    assert load_settings({"DISCORD_TOKEN": "t", "TOURNAMENT_NO_SHOW_MINUTES": "0.5"}).tournament_no_show_minutes == 0.5
    for bad in ("-1", "soon", "nan", "2000"):
        with pytest.raises(ConfigError, match="TOURNAMENT_NO_SHOW_MINUTES"):
            load_settings({"DISCORD_TOKEN": "t", "TOURNAMENT_NO_SHOW_MINUTES": bad})
    assert "TOURNAMENT_NO_SHOW_MINUTES=10" in (ROOT / ".env.example").read_text(encoding="utf-8")


async def test_teams_that_never_show_forfeit_and_the_thread_says_so(discord_env: DiscordEnv, tmp_path: Path) -> None:
    """TOURNAMENT_NO_SHOW_MINUTES=0.05 (3 s), turns of 600 s: nobody presses anything at the table, so both
    teams forfeit; the table's message in its thread says who never showed, and the tournament is over."""
    env = discord_env
    guild = env.create_guild("Diwaniya")
    channel = env.create_channel(guild, "baloot")
    admin = env.create_user("organiser").join(guild, admin=True)
    people = [env.create_user(n).join(guild) for n in ("alice", "bob", "carol", "dave")]
    bot = await env.start_bot("bot.py", env=bot_env(tmp_path / "baloot.db", TOURNAMENT_NO_SHOW_MINUTES="0.05"))
    try:
        created = await admin.slash("baloot", "tournament", "create", channel=channel, title="Sleepy Cup",
                                    turn_time=600)
        assert created.message is not None, created.rejected
        for person in people:
            await person.click(created.message, "Register alone")
        await admin.click(created.message, "Start")
        await env.wait_for(lambda: len(env.threads_started) == 1 or None)
        thread: Any = env.channels[env.threads_started[0]]

        def closed() -> Message | None:
            return next((m for m in admin.messages(thread, with_ephemeral=False)
                         if "forfeit this round" in plain(m.content) + embed_text(m)), None)

        notice = await env.wait_for(closed, timeout=30)
        said = plain(notice.content) + embed_text(notice)
        assert "did not play a single turn themselves in time" in said
        assert all(f"<@{p.id}>" in said for p in people)
        final = await find_final(env, admin, channel)
        assert final is not None
        assert "Traceback" not in bot.output, bot.output[-4000:]
    finally:
        print(bot.output[-6000:])


async def find_final(env: DiscordEnv, viewer: Any, channel: Any) -> Message | None:
    """The tournament's final standings picture, posted in its channel."""
    found: Message = await env.wait_for(lambda: next(
        (m for m in viewer.messages(channel, with_ephemeral=False) if m.attachments), None), timeout=30)
    return found
