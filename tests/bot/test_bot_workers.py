"""End to end: the bot's AI worker processes die with it, SIGKILL included.

The real ``bot.py`` (in its own process group) plays a table of three bots
(and a person whose turns time out) with two AI worker processes. Only its main process is SIGKILLed — no goodbye,
nothing closes the pool — and 5 s later no process of its group is left:
not the workers (``PR_SET_PDEATHSIG``, a parent watcher) and not
multiprocessing's resource tracker.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from pathlib import Path
from typing import Any

import pytest
from fakediscord import DiscordEnv
from test_bot_harness import bot_env

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")


def group_members(pgid: int) -> set[int]:
    """Live processes (not zombies) of process group ``pgid``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z" and int(fields[2]) == pgid:
            found.add(int(entry.name))
    return found


def _kind(pid: int) -> str:
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return "gone"
    return "resource tracker" if "resource_tracker" in command else "worker" if "spawn_main" in command else command

async def test_no_process_of_the_bot_survives_its_sigkill(discord_env: DiscordEnv, tmp_path: Path) -> None:
    guild = discord_env.create_guild("Diwaniya")
    channel = discord_env.create_channel(guild, "baloot")
    alice = discord_env.create_user("alice").join(guild, admin=True)
    bot = await discord_env.start_bot("bot.py", env=bot_env(tmp_path / "baloot.db", AI_WORKERS="2", TURN_SECONDS="5"))
    pid = bot.pid
    assert pid is not None and bot.proc is not None
    texts: list[str] = []
    try:
        steps: tuple[tuple[str, dict[str, Any]], ...] = (("create", {}), ("bots", {"level": "easy"}), ("start", {}))
        for command, options in steps:
            result = await alice.slash("baloot", command, channel=channel, **options)
            assert result.response_type == 4 and result.message is not None, command
            texts.append(result.message.content)
        for _ in range(300):  # the workers start with the first bot move
            helpers = group_members(pid) - {pid}
            kinds = sorted(_kind(p) for p in helpers)
            if "worker" in kinds:
                break
            await asyncio.sleep(0.1)
        assert "worker" in kinds, f"no worker process appeared: {kinds}\n{texts}\n{bot.output[-4000:]}"
        os.kill(pid, signal.SIGKILL)  # the main process only: nothing closes the pool
        await bot.proc.wait()
        await asyncio.sleep(5)
        left = group_members(pid)
        assert not left, f"processes of the killed bot still running: {sorted(left)}"
        print(f"\nbefore the SIGKILL: {kinds}; 5 s after: none left")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)
