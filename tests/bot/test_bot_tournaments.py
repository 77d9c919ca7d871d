"""End to end through the stand-in: ``/baloot tournament create``, the tournament message's buttons
(a team registered with Discord's user select and confirmed by the partner, a lone player, refusals
that change nothing, in English and Arabic), the start opening each table in its own thread with its
players pinged, and ``/baloot tournament standings``."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fakediscord import DiscordEnv, InteractionResult, Message, Person
from test_bot_harness import bot_env, plain, refused


def msg(result: InteractionResult) -> Message:
    assert result.message is not None, result.rejected
    return result.message


def text(result: InteractionResult) -> str:
    return plain(msg(result).content)


def select_id_of(result: InteractionResult) -> str:
    return str(msg(result).components[0]["components"][0]["custom_id"])


def first(messages: list[Message], wanted: Callable[[Message], bool]) -> Message | None:
    return next((m for m in messages if wanted(m)), None)


def asks(wanted: str) -> Callable[[Message], bool]:
    return lambda m: wanted in m.content and bool(m.components)


async def find(env: DiscordEnv, viewer: Person, channel: Any, wanted: Callable[[Message], bool]) -> Message:
    """The first message of ``channel`` (not an ephemeral one) that ``wanted`` takes, once there."""
    found: Message = await env.wait_for(lambda: first(viewer.messages(channel, with_ephemeral=False), wanted))
    return found


async def test_tournament_from_the_buttons(discord_env: DiscordEnv, tmp_path: Path) -> None:
    env = discord_env
    guild = env.create_guild("Diwaniya")
    channel = env.create_channel(guild, "baloot")
    admin = env.create_user("organiser").join(guild, admin=True)
    names = ("alice", "bob", "carol", "dave", "erin", "frank", "gina", "hamad")
    people = {n: env.create_user(n, locale="ar" if n == "erin" else "en-US").join(guild) for n in names}
    outsider = env.create_user("stranger")  # not in the server
    db = tmp_path / "baloot.db"
    bot = await env.start_bot("bot.py", env=bot_env(db))
    try:
        message = await run_tournament(env, channel, admin, people, outsider)
        # kill -9 in the middle of round 1, and start again: the tables resume in their threads, the
        # tournament message's buttons still work, nothing is opened twice.
        await bot.kill()
        await bot.restart()
        paused = await admin.click(message, "Pause / Resume")
        assert text(paused) == \
            "The tournament is paused; the tables of this round play on."
        resumed = await admin.click(message, "Pause / Resume")
        assert text(resumed) == "The tournament goes on."
        assert len(env.threads_started) == 2
        assert "Traceback" not in bot.output, bot.output[-4000:]
    finally:
        print(bot.output[-8000:])


async def run_tournament(env: DiscordEnv, channel: Any, admin: Person, people: dict[str, Person],
                         outsider: Person) -> Message:

    # Only an admin creates; a player is told so privately.
    denied = await people["alice"].slash("baloot", "tournament", "create", channel=channel, title="Cup")
    assert refused(denied) == "Only a server admin can create a tournament."
    created = await admin.slash("baloot", "tournament", "create", channel=channel, title="Ramadan Cup",
                                rounds=2, turn_time=600)
    assert created.response_type == 4 and not created.ephemeral, created.rejected
    message = msg(created)
    assert message.embeds[0]["title"] == "🏆 Ramadan Cup"

    # Alice registers a team with Bob: Discord's user select, then Bob confirms in the channel.
    pick = await people["alice"].click(message, "Register a team")
    assert pick.ephemeral and pick.message is not None
    chosen = await people["alice"].select_users(msg(pick), select_id_of(pick),
                                                [people["bob"]])
    assert text(chosen) == "Registered. Your partner must confirm."
    ask: Message = await env.wait_for(lambda: first(admin.messages(channel), lambda m: "Confirm?" in m.content))
    assert f"<@{people['bob'].id}>" in ask.content
    # Only Bob can confirm; Carol pressing it is refused.
    assert refused(await people["carol"].click(ask, "Confirm")) == "No team is waiting for you to confirm it."
    confirmed = await people["bob"].click(ask, "Confirm")
    assert text(confirmed) == "Your team is confirmed."

    # Refusals, private, nothing changed: twice, a partner already registered, a partner not in the server.
    assert refused(await people["alice"].click(message, "Register alone")) == \
        "You are already registered in this tournament."
    pick = await people["carol"].click(message, "Register a team")
    select_id = select_id_of(pick)
    assert refused(await people["carol"].select_users(msg(pick), select_id, [people["bob"]])) == \
        "bob is already registered in this tournament."
    assert refused(await people["carol"].select_users(msg(pick), select_id, [outsider])) == \
        "Your partner is no longer in this server."
    # Starting: not by a player; not with one team.
    assert refused(await people["carol"].click(message, "Start")) == \
        "Only the organiser or a server admin can do that."
    assert refused(await admin.click(message, "Start")) == "At least 2 teams are needed to start; 1 registered."
    # In Arabic for Erin.
    alone = await people["erin"].click(message, "Register alone")
    assert text(alone).startswith("سُجّلت منفردًا")
    assert plain(refused(await people["erin"].click(message, "Register alone"))) == "أنت مسجّل في هذه البطولة من قبل."
    await people["frank"].click(message, "Register alone")
    for a, b in (("carol", "dave"), ("gina", "hamad")):
        pick = await people[a].click(message, "Register a team")
        await people[a].select_users(msg(pick), select_id_of(pick),
                                     [people[b]])
        wanted = f"<@{people[b].id}>"
        ask = await find(env, admin, channel, asks(wanted))
        await people[b].click(ask, "Confirm")
    withdrawn = await people["gina"].click(message, "Withdraw")
    assert text(withdrawn) == "You have withdrawn."

    # The message lists the field by display names, edited live.
    def listed() -> Message | None:
        current: Message = env.messages[message.id]
        return current if current.embeds and "carol & dave" in current.embeds[0]["fields"][0]["value"] else None

    shown = await env.wait_for(listed)
    field = shown.embeds[0]["fields"][0]["value"]
    assert "alice & bob" in field and "erin" in field and "gina" not in field

    # Start: three teams (alice & bob, carol & dave, erin & frank); each table in its own thread, pinged.
    started = await admin.click(message, "Start")
    assert text(started) == "The tournament has started."
    await env.wait_for(lambda: len(env.threads_started) == 2 or None)
    pings = []
    for thread_id in env.threads_started:
        thread = env.channels[thread_id]
        assert thread.is_thread and thread.parent_id == channel.id
        ping = await find(env, admin, thread, lambda m: "round 1" in m.content)
        pings.append(ping.content)
    everyone = " ".join(pings)
    for name in ("alice", "bob", "carol", "dave", "erin", "frank"):
        assert f"<@{people[name].id}>" in everyone
    assert "Bots" in everyone  # three teams: the bye is played against a bot team (Swiss, bots allowed)
    # Registration is closed now.
    assert refused(await people["hamad"].click(message, "Pause / Resume")) == \
        "Only the organiser or a server admin can do that."

    board = await people["hamad"].slash("baloot", "tournament", "standings", channel=channel)
    assert not board.ephemeral and board.message is not None and board.message.attachments
    return message


async def test_a_start_slowed_by_a_busy_database_is_answered_within_three_seconds(discord_env: DiscordEnv,
                                                                                  tmp_path: Path) -> None:
    """Start opens every table of round 1 (threads, pings, table messages) and writes the round: with the
    database held by another program it takes longer than Discord's 3 s. The press is acknowledged in time
    (deferred) and its private answer follows, instead of Discord's "This interaction failed"."""
    env = discord_env
    guild = env.create_guild("Diwaniya")
    channel = env.create_channel(guild, "baloot")
    admin = env.create_user("organiser").join(guild, admin=True)
    people = [env.create_user(n).join(guild) for n in ("alice", "bob", "carol", "dave")]
    db = tmp_path / "baloot.db"
    await env.start_bot("bot.py", env=bot_env(db))
    created = await admin.slash("baloot", "tournament", "create", channel=channel, title="Cup", turn_time=600)
    message = msg(created)
    for person in people:
        assert text(await person.click(message, "Register alone")).startswith("Registered alone")
    holder = sqlite3.connect(db, timeout=10, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    try:
        start = asyncio.ensure_future(admin.click(message, "Start"))
        await asyncio.sleep(3.5)  # past Discord's 3 s
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    started = await start
    assert not started.rejected, started.rejected  # not (404, 10062)
    assert started.response_type == 5  # deferred, then the answer
    answer = await env.wait_for(lambda: started.message if started.message and started.message.content else None, 20)
    assert answer.ephemeral and plain(answer.content) == "The tournament has started."
    await env.wait_for(lambda: len(env.threads_started) == 1, 20)
