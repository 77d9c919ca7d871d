"""Less noise: compact hand-end messages (the R7 breakdown behind "Details"), and
a deal thrown in (R4: everyone passed twice, the deal passes on) posts no new channel message: the
next deal takes over its message and says in one line how many were thrown in."""

from __future__ import annotations

from pathlib import Path

from fakediscord import DiscordEnv
from test_bot_harness import BotTable, Button, Player, contract_policy, forge, open_table, plain, refused

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


async def test_a_finished_hand_is_compact_with_its_breakdown_behind_details(
    discord_env: DiscordEnv, tmp_path: Path
) -> None:
    """The hand-end message is a few lines (who won, the scores); "Details" answers the full
    R7 breakdown privately, in the presser's language; a forged or out-of-range id is refused politely."""
    table = await open_table(discord_env, tmp_path, locales=("en-US", "ar", "en-US", "en-US"))
    assert await table.play_hand(contract_policy("sun"))
    await discord_env.wait_for(lambda: len(table.table_messages()) == 2)
    first = table.table_messages()[0]
    await discord_env.wait_for(lambda: any("result:0" in c.get("custom_id", "") for row in first.components
                                           for c in row["components"]))
    assert len(first.embeds) == 1 and plain(first.embeds[0]["title"]) == plain(t("table.title", "en", n=1))
    names = {plain(f["name"]) for f in first.embeds[0]["fields"]}
    assert plain(t("result.card_points", "en")) not in names  # the breakdown is not in the channel
    assert plain(t("result.score", "en")) in names
    details = await table.players[2].person.click(first, "Details")
    assert details.ephemeral and details.message is not None
    shown = {plain(f["name"]) for f in details.message.embeds[0]["fields"]}
    assert {plain(t("result.card_points", "en")), plain(t("result.multiplier", "en"))} <= shown
    arabic = await table.players[1].person.click(first, plain(t("button.details", "en")))
    assert arabic.ephemeral and arabic.message is not None  # an Arabic-speaking player reads it in Arabic
    assert plain(arabic.message.embeds[0]["title"]) == plain(t("result.title", "ar", n=1))
    before = table.action_count()
    for forged in (f"bl:{table.table_id()}:result:7", f"bl:{table.table_id()}:result:1", "bl:999999:result:0"):
        assert refused(await forge(table.players[0].person, first, forged))
    assert table.action_count() == before
    table.assert_clean_log()
