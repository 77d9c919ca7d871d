"""End to end: the table before and around the match — seats, teams, leaving, score sheet, ending by vote."""

from __future__ import annotations

import json
from pathlib import Path

from fakediscord import DiscordEnv
from test_bot_harness import contract_policy, open_table, plain, refused


async def test_seats_teams_leave_score_and_end_by_vote(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path, names=("alice",), start=False)
    alice = table.host
    bob, carol, dave = (discord_env.create_user(n).join(table.guild) for n in ("bob", "carol", "dave"))
    lobby = next(m for m in alice.person.messages(table.channel) if m.embeds and not m.ephemeral)
    assert "alice opened a Baloot table" in plain(lobby.embeds[0]["description"])

    joined = await bob.slash("baloot", "join", channel=table.channel, team=1)
    assert joined.message is not None and plain(joined.message.content) == "bob sits in Seat 2 (Team 2)."
    joined = await carol.slash("baloot", "join", channel=table.channel)
    # the partner by name (alice sits in Seat 1) rather than "Team 1".
    assert joined.message is not None and plain(joined.message.content) == "carol sits in Seat 3, partnering alice."
    assert refused(await dave.slash("baloot", "join", channel=table.channel, seat=3)) == "That seat is taken."
    left = await carol.slash("baloot", "leave", channel=table.channel)
    assert left.ephemeral and left.message is not None and plain(left.message.content) == "carol left the table."
    # The lobby message in the channel is edited (not re-sent) to show who sits where.
    await discord_env.wait_for(lambda: "Seat 2: bob" in plain(lobby.embeds[0]["fields"][1]["value"])
                               and "Seat 3: (empty seat)" in lobby.embeds[0]["fields"][1]["value"])
    assert "carol left the table." in plain(lobby.embeds[0]["description"])
    assert len([m for m in alice.person.messages(table.channel, with_ephemeral=False) if m.embeds]) == 1

    sheet = await bob.slash("baloot", "score", channel=table.channel)
    assert sheet.ephemeral and sheet.message is not None
    assert "No hand has been played yet." in str(sheet.message.embeds)
    assert refused(await bob.slash("baloot", "start", channel=table.channel)) == "Four players must be seated to start."

    for person, seat in ((carol, 3), (dave, 4)):
        await person.slash("baloot", "join", channel=table.channel, seat=seat)
    started = await bob.slash("baloot", "start", channel=table.channel)
    assert started.message is not None and started.message.content.startswith("The match begins!")
    # the lobby message says the match began (was still "Waiting for players: 4 of 4 seated.")
    await discord_env.wait_for(lambda: "The match has started" in lobby.embeds[0]["description"])
    assert "Waiting for players" not in lobby.embeds[0]["description"] and not lobby.components
    table.players = [alice, *(type(alice)(p, seat=s) for p, s in ((bob, 1), (carol, 2), (dave, 3)))]
    for _ in range(6):
        assert await table.step(contract_policy("sun"))
    sheet = await carol.slash("baloot", "score", channel=table.channel)
    assert sheet.message is not None and "in play" in str(sheet.message.embeds)

    # Ending by a vote of the seated players (the creator does not vote): 3 of 4 needed.
    votes = []
    for person in (bob, carol):
        result = await person.slash("baloot", "end", channel=table.channel)
        assert result.response_type == 4 and not result.ephemeral and result.message is not None
        votes.append(result.message.content)
    assert votes[0] == f"<@{bob.id}> votes to end the table (1 of 3)."
    again = await bob.slash("baloot", "end", channel=table.channel)
    assert refused(again) == "You have already voted to end this table."
    assert table.status() == "playing"
    last = await dave.slash("baloot", "end", channel=table.channel)
    # a vote closed it, not dave (the last voter)
    assert last.message is not None
    assert last.message.content == "The table was closed by a vote of its players (3 of 3)."
    assert table.status() == "ended"
    # The table message loses its "My hand" button once the table is over.
    await discord_env.wait_for(lambda: all(not m.components for m in table.table_messages()))
    # The channel is free for a new table.
    again = await carol.slash("baloot", "create", channel=table.channel)
    assert again.response_type == 4 and not again.ephemeral
    table.assert_clean_log()


async def test_tables_in_two_channels_one_seat_per_user(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path, start=False)
    second = discord_env.create_channel(table.guild, "second")
    erin = discord_env.create_user("erin").join(table.guild)
    created = await erin.slash("baloot", "create", channel=second)
    assert created.response_type == 4 and not created.ephemeral
    bob = table.players[1].person
    assert refused(await bob.slash("baloot", "join", channel=second)) == "You are already seated at a table."
    assert refused(await erin.slash("baloot", "join", channel=table.channel)) == "You are already seated at a table."
    await bob.slash("baloot", "leave", channel=table.channel)
    joined = await bob.slash("baloot", "join", channel=second)
    assert joined.message is not None and plain(joined.message.content) == "bob sits in Seat 2 (Team 2)."
    assert len(table.query("SELECT id FROM tables WHERE status = 'open'")) == 2
    # A server admin ends a table they did not create and do not sit at.
    ended = await table.host.person.slash("baloot", "end", channel=second)
    assert ended.message is not None and ended.message.content == f"The table was closed by <@{table.host.person.id}>."
    assert [r[0] for r in table.query("SELECT status FROM tables ORDER BY id")] == ["open", "ended"]


async def test_create_can_turn_sawa_off(discord_env: DiscordEnv, tmp_path: Path) -> None:
    """R9 option ``sawa`` (R12) through ``/baloot create``: stored with the table's rules."""
    table = await open_table(discord_env, tmp_path, start=False)
    second = discord_env.create_channel(table.guild, "no-sawa")
    erin = discord_env.create_user("erin").join(table.guild)
    created = await erin.slash("baloot", "create", channel=second, sawa=False)
    assert created.response_type == 4 and not created.ephemeral
    rules = {row[0]: json.loads(row[1]) for row in table.query("SELECT channel_id, rules FROM tables")}
    assert rules[second.id]["sawa"] is False
    assert rules[table.channel.id]["sawa"] is True  # on unless set off (R9)
    table.assert_clean_log()


async def test_names_in_command_answers_are_isolated_and_ping_nobody(discord_env: DiscordEnv, tmp_path: Path) -> None:
    """/baloot join, leave and start name a player the way every other message does (display_name): cut,
    markdown-escaped, in FSI … PDI, so a right-to-left override in a name cannot turn the rest of the line
    and a mention in it pings nobody. The start line is public."""
    names = ("\u202eAlice @everyone", "\u202eBob *b*", "\u202eCarol <@1>", "\u202eDave @here")
    table = await open_table(discord_env, tmp_path, names=names, start=False)
    dave = table.players[3].person
    left = await dave.slash("baloot", "leave", channel=table.channel)
    assert left.ephemeral and left.message is not None
    assert left.message.content == "\u2068\u202eDave @\u200bhere\u2069 left the table."
    joined = await dave.slash("baloot", "join", channel=table.channel)
    assert joined.ephemeral and joined.message is not None
    assert joined.message.content.startswith("\u2068\u202eDave @\u200bhere\u2069 sits in Seat 4")
    started = await table.host.person.slash("baloot", "start", channel=table.channel)
    assert not started.ephemeral and started.message is not None
    text = started.message.content
    assert text.startswith("The match begins! \u2068\u202e") and text.endswith("\u2069 deals first."), repr(text)
    assert "@everyone" not in text and "@here" not in text and "<@1>" not in text
    assert started.message.allowed_mentions == {"parse": []}
