"""Through the stand-in: a tournament whose rounds are a fixed number of deals (R8, the table option
``deals``): ``/baloot tournament create deals:4`` is accepted, the message says so, and the round's
table says which hand of the four it plays."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fakediscord import DiscordEnv, Message
from test_bot_harness import bot_env, plain


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
