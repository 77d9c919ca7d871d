"""End to end (issue 10): the table message carries a picture of the table, replaced with each edit;
each player's private view carries the same picture from their own seat; TABLE_PICTURES=0 turns them off."""

from __future__ import annotations

import io
from pathlib import Path

from fakediscord import DiscordEnv
from fakediscord.state import Message
from PIL import Image
from test_bot_harness import contract_policy, open_table

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
    table = await open_table(discord_env, tmp_path)
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
