"""The stand-in Discord drives a real discord.py bot process: login, commands, components."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from fakediscord import BotProcess, Channel, DiscordEnv, Guild, NotVisibleError, Person

EXAMPLE_BOT = Path(__file__).parents[1] / "fakediscord" / "example_bot.py"


@dataclass
class World:
    env: DiscordEnv
    guild: Guild
    general: Channel
    alice: Person
    bob: Person
    carol: Person
    bot: BotProcess


@pytest.fixture
async def world(discord_env: DiscordEnv) -> World:
    guild = discord_env.create_guild("Diwaniya", locale="ar")
    general = discord_env.create_channel(guild, "general")
    discord_env.create_channel(guild, "hands", thread_of=general)
    alice = discord_env.create_user("alice", locale="ar").join(guild)
    bob = discord_env.create_user("bob", locale="en-US").join(guild, admin=True)
    carol = discord_env.create_user("carol", accepts_dms=False).join(guild)
    bot = await discord_env.start_bot(EXAMPLE_BOT, env={"EXAMPLE_GUILD_ID": str(guild.id)})
    return World(discord_env, guild, general, alice, bob, carol, bot)


async def test_login_syncs_global_and_guild_commands(world: World) -> None:
    env = world.env
    assert env.gateway.identifies == 1
    assert world.bot.pid in env.ready_pids
    names = {c["name"] for c in env.global_commands}
    assert {"baloot", "ping", "slow", "upload"} <= names
    group = env.find_command("baloot", None)
    assert group is not None
    assert [o["name"] for o in group["options"]] == ["join", "hand"]
    assert [c["name"] for c in env.guild_commands[world.guild.id]] == ["ping"]
    calls = env.calls.by_route(kind="bot")
    assert calls["GET /users/@me"] == 1
    assert calls["PUT /applications/{application_id}/commands"] == 1
    assert calls["PUT /applications/{application_id}/guilds/{guild_id}/commands"] == 1
    assert "ready as TestBot in 1 guilds" in world.bot.output
    assert env.unhandled == []


async def test_slash_subcommand_with_option_replies_in_channel(world: World) -> None:
    result = await world.alice.slash("baloot", "join", seat=2)
    assert result.response_type == 4
    assert result.message is not None
    assert result.message.content == "alice sits in seat 2"
    assert not result.ephemeral
    # Everyone in the channel sees it, with its buttons.
    seen = world.bob.messages(world.general)
    assert [m.content for m in seen] == ["alice sits in seat 2"]
    assert seen[0].custom_ids() == ["table:pass", "table:bid", "table:suit"]


async def test_slash_checks_options_against_synced_command(world: World) -> None:
    with pytest.raises(LookupError):
        await world.alice.slash("baloot", "leave")
    with pytest.raises(ValueError, match="required"):
        await world.alice.slash("baloot", "join")
    with pytest.raises(TypeError):
        await world.alice.slash("baloot", "join", seat="two")


async def test_top_level_command_and_locales(world: World) -> None:
    result = await world.alice.slash("ping", text="hi")
    assert result.message is not None and result.message.content == "pong hi"
    thread = next(c for c in world.guild.channels.values() if c.name == "hands")
    in_thread = await world.bob.slash("ping", channel=thread, text="thread")
    assert in_thread.message is not None and in_thread.message.channel_id == thread.id
    assert [m.content for m in world.alice.messages(thread)] == ["pong thread"]
    who = await world.alice.slash("whoami")
    assert who.message is not None
    assert who.message.content == "locale=ar guild_locale=ar admin=False"
    boss = await world.bob.slash("whoami")
    assert boss.message is not None
    assert boss.message.content == "locale=en-US guild_locale=ar admin=True"


async def test_button_edits_message_and_deferred_update(world: World) -> None:
    table = await world.alice.slash("baloot", "join", seat=1)
    assert table.message is not None
    pressed = await world.bob.click(table.message, "Pass")
    assert pressed.response_type == 7
    assert world.carol.messages(world.general)[-1].content == "bob passed"
    bid = await world.carol.click(table.message, "table:bid")
    assert bid.response_type == 6
    edited = await world.env.wait_for(
        lambda: world.alice.messages(world.general)[-1].content == "carol bid"
    )
    assert edited
    assert world.alice.messages(world.general)[-1].edits == 2


async def test_select_answers_ephemerally(world: World) -> None:
    table = await world.alice.slash("baloot", "join", seat=3)
    assert table.message is not None
    chosen = await world.bob.select(table.message, "Pick a suit", ["spades"])
    assert chosen.message is not None
    assert chosen.message.content == "you chose spades"
    assert chosen.ephemeral
    with pytest.raises(ValueError):
        await world.bob.select(table.message, "table:suit", ["clubs"])


async def test_dynamic_item_button_counts(world: World) -> None:
    result = await world.alice.slash("ping")
    assert result.message is not None
    await world.bob.click(result.message, "Count 0")
    await world.alice.click(result.message, "counter:1")
    assert world.carol.messages(world.general)[-1].content == "count=2"


async def test_ephemeral_is_seen_only_by_its_user(world: World) -> None:
    result = await world.alice.slash("baloot", "hand")
    message = result.message
    assert message is not None and message.ephemeral
    assert world.alice.ephemerals() == [message]
    assert message in world.alice.messages(world.general)
    assert world.bob.ephemerals() == []
    assert message not in world.bob.messages(world.general)
    with pytest.raises(NotVisibleError):
        await world.bob.click(message, "Pass")
    # Its owner can press its buttons.
    pressed = await world.alice.click(message, "Pass")
    assert pressed.response_type == 7
    assert world.alice.ephemerals()[0].content == "alice passed"


async def test_defer_thinking_then_followups(world: World) -> None:
    result = await world.alice.slash("think")
    assert result.response_type == 5
    done = await result.wait_done()
    assert done.content == "thought about it"
    followups = await result.wait_followups(2)
    assert [m.content for m in followups] == ["thought about it", "and one more thing"]
    private = await world.bob.slash("think", private=True)
    assert (await private.wait_done()).ephemeral
    assert all(m.ephemeral_for == world.bob.id for m in world.bob.ephemerals())


async def test_dm_and_closed_dms(world: World) -> None:
    result = await world.alice.slash("dm")
    assert result.message is not None and result.message.content == "dm sent"
    dm = await world.alice.wait_dm(lambda m: "hello" in m.content)
    assert dm.content == "hello in private"
    assert world.bob.dms() == []
    with pytest.raises(NotVisibleError):
        await world.bob.click(dm, "Pass")
    pressed = await world.alice.click(dm, "Pass")
    assert pressed.response_type == 7
    refused = await world.carol.slash("dm")
    assert refused.message is not None and refused.message.content == "dm refused: 50007"
    assert world.carol.dms() == []
    assert world.env.calls.count("POST /channels/{channel_id}/messages", status=403) == 1


async def test_file_upload_png_and_json(world: World) -> None:
    result = await world.alice.slash("upload")
    assert result.message is not None
    files = {a.filename: a for a in result.message.attachments}
    assert set(files) == {"card.png", "score.json"}
    assert files["card.png"].data.startswith(b"\x89PNG\r\n\x1a\n")
    assert json.loads(files["score.json"].data) == {"score": 26}


async def test_channel_send_and_edit_counted_per_route_and_token(world: World) -> None:
    mark = world.env.calls.mark()
    result = await world.alice.slash("announce", text="hand 1")
    followups = await result.wait_followups(1)
    assert followups[0].content == "posted" and followups[0].ephemeral
    public = world.bob.messages(world.general)
    assert [m.content for m in public] == ["announcement (edited): hand 1"]
    by_route = world.env.calls.by_route(since=mark)
    assert by_route == {
        "POST /interactions/{interaction_id}/{interaction_token}/callback": 1,
        "POST /channels/{channel_id}/messages": 1,
        "PATCH /channels/{channel_id}/messages/{message_id}": 1,
        "POST /webhooks/{webhook_id}/{webhook_token}": 1,
    }
    assert world.env.calls.by_kind(since=mark) == {"bot": 2, "interaction": 2}


async def test_modal_opened_and_submitted(world: World) -> None:
    opened = await world.alice.slash("note")
    assert opened.response_type == 9
    assert opened.modal is not None and opened.modal["title"] == "Leave a note"
    with pytest.raises(LookupError):
        await world.bob.submit_modal(opened, {"Your note": "not mine"})
    submitted = await world.alice.submit_modal(opened, {"Your note": "bid Sun next time"})
    assert submitted.message is not None
    assert submitted.message.content == "noted: bid Sun next time"
    assert submitted.ephemeral
