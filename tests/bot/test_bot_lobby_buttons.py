"""End to end: a lobby filled by its buttons and started by a button."""

from __future__ import annotations

from pathlib import Path

from fakediscord import DiscordEnv, Message
from test_bot_harness import Player, contract_policy, open_table, plain, refused

from baloot.render import decode_lobby_id


def lobby_of(table_host: Player, channel: object) -> Message:
    return next(m for m in table_host.person.messages(channel, with_ephemeral=False)  # type: ignore[arg-type]
                if m.embeds and m.components and "lobby" in str(m.components))


def button_id(message: Message, op: str, **arg: object) -> str:
    for row in message.components:
        for comp in row["components"]:
            if comp["custom_id"].startswith("bl:quick:"):  # the lobby's Quick match button (test_bot_quick.py)
                continue
            lobby = decode_lobby_id(comp["custom_id"])
            if lobby.op == op and all(getattr(lobby, k) == v for k, v in arg.items()):
                return str(comp["custom_id"])
    raise AssertionError(f"no {op} button {arg}")


async def test_a_lobby_filled_by_buttons_and_started_by_a_button(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path, names=("alice",), start=False)
    alice = table.host
    lobby = lobby_of(alice, table.channel)
    bob, carol = (discord_env.create_user(n).join(table.guild) for n in ("bob", "carol"))

    joined = await bob.click(lobby, button_id(lobby, "join", team=1))
    assert joined.ephemeral and joined.message is not None
    assert plain(joined.message.content) == "bob sits in Seat 2 (Team 2)."
    joined = await carol.click(lobby, button_id(lobby, "join", team=0))
    assert joined.message is not None and plain(joined.message.content) == "carol sits in Seat 3, partnering alice."
    assert refused(await carol.click(lobby, button_id(lobby, "join", team=0))) == "You are already seated at a table."
    left = await carol.click(lobby, button_id(lobby, "leave"))
    assert left.message is not None and plain(left.message.content) == "carol left the table."
    # The start button is disabled until four are seated; a press anyway is refused by the service.
    await discord_env.wait_for(lambda: "Seat 3: (empty seat)" in plain(lobby.embeds[0]["fields"][1]["value"]))
    start_button = next(c for r in lobby.components for c in r["components"] if "start" in c["custom_id"])
    assert start_button["disabled"]

    added = await alice.person.click(lobby, button_id(lobby, "bots", level="easy"))
    assert added.message is not None and plain(added.message.content).startswith("Bots took the empty seats: 4 of 4")
    await discord_env.wait_for(lambda: not next(c for r in lobby.components for c in r["components"]
                                                if "start" in c["custom_id"])["disabled"])
    started = await bob.click(lobby, button_id(lobby, "start"))
    assert started.response_type == 4 and not started.ephemeral and started.message is not None
    assert plain(started.message.content).startswith("The match begins!")
    assert table.status() == "playing"
    # The lobby loses its buttons once the match has begun; the match is played.
    await discord_env.wait_for(lambda: not lobby.components)
    table.players = [alice, Player(bob, seat=1)]
    for _ in range(4):
        assert await table.step(contract_policy("sun"))
    table.assert_clean_log()

