"""End to end: starting the real bot — settings, command sync, secrets kept out of the logs."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from fakediscord import DiscordEnv
from fakediscord.process import REDIRECT_DIR
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


@pytest.mark.parametrize(("setting", "message"), [
    ({"EVENT_LOOP": "asyncoi"}, "EVENT_LOOP must be uvloop or asyncio"),
    ({"SHARD_COUNT": "2", "SHARD_IDS": "0"}, "set DATABASE_URL (PostgreSQL)"),
])
def test_a_bad_setting_exits_2_in_one_line_before_touching_anything(
        tmp_path: Path, setting: dict[str, str], message: str) -> None:
    """A typo in EVENT_LOOP, or a share of the shards on SQLite (its other processes could not share the
    file), is refused at start-up like every other malformed setting: one line, exit code 2, no database."""
    env = {k: v for k, v in os.environ.items() if k not in ("EVENT_LOOP", "SHARD_COUNT", "SHARD_IDS")}
    env.update(bot_env(tmp_path / "baloot.db"), DISCORD_TOKEN="a.b.c", **setting)
    out = subprocess.run([sys.executable, str(REPO / "bot.py")], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 2, out.stderr
    assert out.stderr.strip().splitlines() == [out.stderr.strip()] and message in out.stderr, out.stderr
    assert "Traceback" not in out.stderr and not (tmp_path / "baloot.db").exists()


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


async def _run_bot(tmp: Path, url: str, token: str) -> tuple[int, str]:
    """Run ``bot.py`` against Discord at ``url`` (through the stand-in's redirect) until it exits:
    (exit code, everything it printed)."""
    env = dict(os.environ)
    env.update(bot_env(tmp / "baloot.db", TABLE_PICTURES="0"), FAKEDISCORD_URL=url, DISCORD_TOKEN=token,
               PYTHONPATH=str(REDIRECT_DIR))
    env.pop("FAKEDISCORD_GATEWAY", None)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(REPO / "bot.py"), cwd=tmp, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(proc.communicate(), timeout=60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(errors="replace")


def _errors(output: str) -> list[str]:
    return [line for line in output.splitlines() if " ERROR " in line or "Traceback" in line]


async def test_discord_unreachable_is_one_clear_line(tmp_path: Path) -> None:
    """No network (here a closed port) is one line and exit code 1, no traceback."""
    with socket.socket() as sock:  # a port nobody listens on once it is closed
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    code, output = await _run_bot(tmp_path, f"http://127.0.0.1:{port}", "fake.token")
    assert code == 1, output
    assert "Traceback" not in output
    assert _errors(output) == [next(line for line in output.splitlines() if "cannot reach Discord" in line)]
    assert f"cannot reach Discord (http://127.0.0.1:{port}/api/v10): Cannot connect to host" in output
    assert "fake.token" not in output


async def test_a_refused_token_is_one_clear_line(discord_env: DiscordEnv, tmp_path: Path) -> None:
    """Discord answers 401 to ``GET /users/@me`` (discord.py's first call): one line, exit code 2."""
    mark = discord_env.calls.mark()
    code, output = await _run_bot(tmp_path, discord_env.url, "wrong." + discord_env.token)
    assert code == 2, output
    assert "Traceback" not in output
    assert len(_errors(output)) == 1
    assert "ERROR baloot.bot: Discord refused the token (DISCORD_TOKEN)" in output
    assert discord_env.calls.count("GET /users/@me", status=401, since=mark) == 1
    assert discord_env.token not in output
