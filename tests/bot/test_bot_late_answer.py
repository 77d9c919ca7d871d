"""A press answered after Discord's 3 s (10062 Unknown interaction): what it did is stored, and the bot
logs one warning instead of an error with a traceback and a second answer Discord would refuse too."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakediscord import DiscordEnv
from test_bot_harness import contract_policy, open_table


async def test_a_press_answered_too_late_is_kept_and_logged_once(
    discord_env: DiscordEnv, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await open_table(discord_env, tmp_path)
    turn = await table.wait_turn()
    assert turn is not None
    player, buttons = turn
    before = table.action_count()
    monkeypatch.setattr("fakediscord.rest.FIRST_RESPONSE_DEADLINE", 0.0)  # every answer now comes too late
    button = contract_policy("sun")(player, buttons)
    result = await player.person.click(button.message, button.custom_id)
    assert (404, 10062) in result.rejected and not result.messages
    await discord_env.wait_for(lambda: table.action_count() == before + 1)  # the press counted
    await discord_env.wait_for(lambda: "answered too late for Discord (10062)" in table.bot.output)
    assert table.bot.output.count("answered too late for Discord (10062)") == 1
    assert "could not answer an interaction with an error" not in table.bot.output
    table.assert_clean_log()
