"""End to end: every bad input gets a short private message, and nothing in the game changes."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fakediscord import DiscordEnv
from test_bot_harness import contract_policy, forge, open_table, refused


async def test_bad_input_is_refused_privately(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path, start=False)
    alice, bob = table.players[:2]
    other = discord_env.create_channel(table.guild, "elsewhere")
    eve = discord_env.create_user("eve").join(table.guild)

    # A command in a channel with no table; joining a full table; starting twice.
    for command in ("join", "start", "hand", "score", "end", "leave"):
        text = refused(await bob.person.slash("baloot", command, channel=other))
        assert text == "There is no Baloot table in this channel.", (command, text)
    assert refused(await eve.slash("baloot", "join", channel=table.channel)) == "This table is full."
    assert refused(await eve.slash("baloot", "create", channel=table.channel)) == (
        "This channel already has a Baloot table.")
    assert refused(await bob.person.slash("baloot", "join", channel=table.channel, seat=1)) == "That seat is taken."
    started = await alice.person.slash("baloot", "start", channel=table.channel)
    assert started.response_type == 4 and not started.ephemeral
    assert refused(await bob.person.slash("baloot", "start", channel=table.channel)) == "The match has already started."

    turn = await table.wait_turn()
    assert turn is not None
    mover, buttons = turn
    waiting = next(p for p in table.players if p is not mover)
    button = contract_policy("sun")(mover, buttons)
    count = table.action_count()
    assert count == 0

    # Another player's button; out of turn; an illegal action at the right version.
    await discord_env.wait_for(waiting.views)  # their DM may arrive after the mover's (sent concurrently)
    assert refused(await forge(waiting.person, waiting.views()[0], button.custom_id)) == "These are not your cards."
    hand, index = button.version
    own_pass = f"bl:{button.table}:{waiting.seat}:{hand}:{index}:p"
    # the refusal names the player to act (the engine's words named seats)
    assert refused(await forge(waiting.person, waiting.views()[0], own_pass)) == (
        f"It is {mover.name}'s turn, not yours.")
    # a forged id of a table that never was, pressed in a DM: not "no table in this channel"
    nowhere = f"bl:987654321:{waiting.seat}:{hand}:{index}:p"
    assert refused(await forge(waiting.person, waiting.views()[0], nowhere)) == (
        "That button is not from a table of this bot; nothing changed.")
    held = {b.code for b in mover.buttons()} | {c.get("custom_id", "")[-3:] for m in mover.views()
                                                for row in m.components for c in row["components"]}
    foreign = next(f"c{r}{s}" for s in "SHDC" for r in "789TJQKA" if f"c{r}{s}" not in held)
    not_mine = f"bl:{button.table}:{mover.seat}:{hand}:{index}:{foreign}"
    assert refused(await forge(mover.person, button.message, not_mine)).startswith(
        "In the bidding you may now only:")
    # A seated player pressing "My hand" sees only their own hand; someone not seated is refused.
    mine = await discord_env.wait_for(lambda: next((m for m in table.table_messages() if m.components), None))
    assert refused(await eve.click(mine, "My hand")) == "You are not seated at this table."
    assert table.action_count() == count

    # A double click: both presses arrive, exactly one is applied.
    first, second = await asyncio.gather(
        mover.person.click(button.message, button.custom_id), mover.person.click(button.message, button.custom_id)
    )
    kinds = sorted([first.response_type or 0, second.response_type or 0])
    assert kinds == [4, 7], kinds
    late = first if first.response_type == 4 else second
    assert late.message is not None and late.message.content.startswith("That button is out of date")
    assert table.action_count() == count + 1
    table.last_version = button.version
    table.acted.append((button.seat, button.code))

    # A stale button from an earlier trick and from an earlier hand.
    policy = contract_policy("sun")
    for _ in range(12):
        assert await table.step(policy)
    count = table.action_count()
    assert refused(await forge(mover.person, mover.views()[0], button.custom_id)).startswith(
        "That button is out of date")
    await table.play_hand(policy)
    assert table.last_version[0] >= 0
    count = table.action_count()
    await discord_env.wait_for(mover.views)  # the next deal's view (the finished hand's has no buttons)
    assert refused(await forge(mover.person, mover.views()[0], button.custom_id)).startswith(
        "That button is out of date")
    assert table.action_count() == count

    # A finished table: ended by its creator; its buttons and commands are refused.
    live = await table.wait_turn()
    assert live is not None
    ended = await alice.person.slash("baloot", "end", channel=table.channel)
    assert ended.response_type == 4 and not ended.ephemeral and "closed by" in ended.message.content  # type: ignore[union-attr]
    assert table.status() == "ended"
    player, latest = live
    await discord_env.wait_for(lambda: not player.buttons())  # its private view lost its buttons
    closed = "This table was closed before its match ended; nothing changed."  # not "finished": it did not
    assert refused(await forge(player.person, latest[0].message, latest[0].custom_id)) == closed
    assert refused(await forge(bob.person, mine, f"bl:{table.table_id()}:mine")) == closed
    assert refused(await bob.person.slash("baloot", "hand", channel=table.channel)) == (
        "There is no Baloot table in this channel.")
    assert table.action_count() == count
    table.assert_private()
    table.assert_clean_log()
