"""End to end: starting the real bot — settings, command sync, secrets kept out of the logs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from fakediscord import DiscordEnv
from test_bot_harness import REPO, bot_env


def test_missing_token_exits_2_with_a_clear_message(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(bot_env(tmp_path / "baloot.db"), DISCORD_TOKEN="")
    # Run from a folder without .env so that nothing supplies a token.
    out = subprocess.run([sys.executable, str(REPO / "bot.py")], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 2
    assert "DISCORD_TOKEN is not set" in out.stderr
    assert not (tmp_path / "baloot.db").exists()


async def test_dev_guild_sync_and_no_token_in_the_logs(discord_env: DiscordEnv, tmp_path: Path) -> None:
    guild = discord_env.create_guild("Dev")
    discord_env.create_channel(guild, "baloot")
    bot = await discord_env.start_bot(
        "bot.py", env=bot_env(tmp_path / "baloot.db", DEV_GUILD_ID=str(guild.id), LOG_LEVEL="DEBUG")
    )
    names = [c["name"] for c in discord_env.guild_commands.get(guild.id, [])]
    assert names == ["baloot"]
    assert discord_env.global_commands == []
    options = {o["name"] for o in discord_env.guild_commands[guild.id][0]["options"]}
    assert {"create", "join", "leave", "start", "bots", "hand", "score", "rules", "end", "language"} <= options
    assert await bot.stop(grace=10) == 0  # SIGTERM: a clean shutdown
    assert "INFO baloot.bot: stopped" in bot.output
    assert discord_env.token not in bot.output
    assert "token=<hidden>" in bot.output
    assert (tmp_path / "baloot.db").exists()
