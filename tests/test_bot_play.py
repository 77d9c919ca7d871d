"""End to end: four people play through the channel and their DMs, against the real bot process."""

from __future__ import annotations

from pathlib import Path

from fakediscord import DiscordEnv
from test_bot_harness import open_table


async def test_one_hand_through_dms(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path)
    steps = await table.play_hand()
    assert steps >= 4
    table.assert_private()
    table.assert_clean_log()
    assert table.action_count() == len(table.acted)
