"""End to end: the table message carries a picture of the table, replaced with each edit;
with TABLE_PICTURES=all each player's private view carries it from their own seat; 0 turns them off;
card buttons show the application's card emojis, or the text alone when they cannot be created."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from fakediscord import DiscordEnv
from fakediscord.state import Message
from PIL import Image
from test_bot_harness import BotTable, contract_policy, open_table

from baloot.engine.cards import ALL_CARDS
from baloot.render.picture import FILENAME, HEIGHT, WIDTH


def picture_of(message: Message) -> bytes:
    """The message's table picture, checked: one PNG attachment shown as the first embed's image."""
    assert [a.filename for a in message.attachments] == [FILENAME]
    attachment = message.attachments[0]
    assert message.embeds[0]["image"]["url"] == attachment.payload()["url"]
    image = Image.open(io.BytesIO(attachment.data))
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)
    return attachment.data


async def test_the_table_message_and_private_views_show_the_picture(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path, bot_settings={"TABLE_PICTURES": "all"})
    message = await discord_env.wait_for(
        lambda: next((m for m in table.table_messages() if m.attachments), None))
    first = picture_of(message)
    first_id = message.attachments[0].id
    for _ in range(6):  # bids and the first cards: each edit of the table message replaces its picture
        assert await table.step(contract_policy("hokum"))
    await discord_env.wait_for(lambda: message.edits >= 1 and message.attachments[0].id != first_id)
    assert picture_of(message) != first
    assert len(message.attachments) == 1  # replaced, not added

    # private views: the picture from the player's own seat
    for player in table.players:
        views = [m for m in player.views() if m.attachments]
        assert views, player.name
        picture_of(views[-1])
    table.assert_private()
    table.assert_clean_log()


async def test_pictures_can_be_turned_off(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path, bot_settings={"TABLE_PICTURES": "0"})
    message = await discord_env.wait_for(lambda: next(iter(table.table_messages()), None))
    for _ in range(4):
        assert await table.step(contract_policy("sun"))
    await discord_env.wait_for(lambda: message.edits >= 1, timeout=10)
    assert message.attachments == [] and "image" not in message.embeds[0]
    assert all(not m.attachments for p in table.players for m in p.views())
    table.assert_clean_log()


async def play_until_cards(table: BotTable) -> list[dict[str, Any]]:
    """Play until the player to move has card buttons; those buttons (drawn for this turn)."""
    for _ in range(40):
        turn = await table.wait_turn()
        assert turn is not None
        player, buttons = turn
        cards = {b.custom_id for b in buttons if b.code.startswith("c")}
        if cards:
            message = buttons[0].message
            return [c for row in message.components for c in row.get("components", [])
                    if c.get("custom_id") in cards]
        await table.press(player, contract_policy("sun")(player, buttons))
    raise AssertionError("no card buttons appeared")


async def test_card_buttons_show_the_applications_card_emojis(discord_env: DiscordEnv, tmp_path: Path) -> None:
    """The 32 card emojis are created once (drawn by the project, 128×128 PNG) and shown on card buttons."""
    table = await open_table(discord_env, tmp_path)
    await discord_env.wait_for(lambda: len(discord_env.app_emojis) == 32)
    names = {name for name, _ in discord_env.app_emojis.values()}
    assert names == {f"bl2_{card.text}" for card in ALL_CARDS}  # the faces with a large suit
    for _name, image in discord_env.app_emojis.values():
        assert Image.open(io.BytesIO(image)).size == (128, 128)
    ids = {str(i): name for i, (name, _) in discord_env.app_emojis.items()}
    buttons = await play_until_cards(table)
    # the default (TABLE_PICTURES=1): a picture on the table message, none in the private views
    await discord_env.wait_for(lambda: any(m.attachments for m in table.table_messages()))
    assert all(not m.attachments for p in table.players for m in p.views())
    for button in buttons:
        emoji = button.get("emoji")
        assert emoji is not None and ids[str(emoji["id"])] == emoji["name"], button
        assert button["label"]  # the text form stays beside the picture
        assert emoji["name"].endswith(button["custom_id"][-2:])  # the button's own card

    mark = discord_env.calls.mark()
    await table.bot.restart()
    assert len(discord_env.app_emojis) == 32  # found again, not re-created
    assert discord_env.calls.count("POST /applications/{application_id}/emojis", since=mark) == 0
    table.assert_clean_log()


async def test_without_card_emojis_the_cards_stay_text(discord_env: DiscordEnv, tmp_path: Path) -> None:
    """Emoji creation refused (the application's 2000 are used up): buttons show the text form, play goes on."""
    for i in range(2000):
        discord_env.app_emojis[10**17 + i] = (f"other_{i}", b"")
    table = await open_table(discord_env, tmp_path)
    buttons = await play_until_cards(table)
    assert all("emoji" not in b and b["label"] for b in buttons)
    assert len(discord_env.app_emojis) == 2000
    assert "could not create card emojis" in table.bot.output
