"""Issue 10 item 6, less noise: a deal thrown in (R4: everyone passed twice, the deal passes on) posts no
new channel message; the next deal takes over its message and says in one line how many were thrown in."""

from __future__ import annotations

from pathlib import Path

from fakediscord import DiscordEnv
from test_bot_harness import BotTable, Button, Player, contract_policy, open_table, plain

from baloot.i18n import t
from baloot.i18n.plural import count


def always_pass(player: Player, buttons: list[Button]) -> Button:
    return next(b for b in buttons if b.code == "p")


async def throw_in(table: BotTable) -> None:
    """Everyone passes in both rounds (R3.2): eight presses."""
    for _ in range(8):
        turn = await table.wait_turn()
        assert turn is not None
        await table.press(turn[0], always_pass(*turn))


def description(table: BotTable) -> str:
    messages = table.table_messages()
    return plain(messages[-1].embeds[0].get("description", "")) if messages else ""


async def test_thrown_in_deals_fold_into_the_next_hands_message(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path)
    first = await discord_env.wait_for(lambda: table.table_messages())
    assert len(first) == 1
    message = first[0]
    await throw_in(table)
    two = plain(t("table.folded", "en", hands=count("hands", 1, "en")))
    await discord_env.wait_for(lambda: two in description(table))
    assert [m.id for m in table.table_messages()] == [message.id]  # the same message, edited
    assert plain(message.embeds[0]["title"]) == plain(t("table.title", "en", n=2))
    await throw_in(table)
    twice = plain(t("table.folded", "en", hands=count("hands", 2, "en")))
    await discord_env.wait_for(lambda: twice in description(table))
    assert [m.id for m in table.table_messages()] == [message.id]
    # A deal that is played gets its own message afterwards, without the line.
    assert await table.play_hand(contract_policy("sun"))
    await discord_env.wait_for(lambda: len(table.table_messages()) == 2)
    newest = table.table_messages()[-1]
    assert newest.id != message.id
    stored = {row[0] for row in table.query("SELECT key FROM table_messages WHERE table_id = ? AND message_id = ?",
                                            (table.table_id(), message.id))}
    assert {"hand:0", "hand:2"} <= stored  # the fold is stored: edits go on after a restart
    table.assert_private()
    table.assert_clean_log()
