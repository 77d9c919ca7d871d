"""Bot processes: readiness, SIGKILL and restart, failures surfaced, nothing left behind."""

from __future__ import annotations

import os
import signal
import socket
import time
from pathlib import Path

import pytest
from fakediscord import BotDiedError, DiscordEnv
from fakediscord.validation import _load_spec

EXAMPLE_BOT = Path(__file__).parents[1] / "fakediscord" / "example_bot.py"


def port_open(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def test_server_starts_well_under_a_second() -> None:
    _load_spec.cache_clear()  # count the schema load too
    started = time.perf_counter()
    env = DiscordEnv()
    await env.start()
    elapsed = time.perf_counter() - started
    try:
        assert env.schema is not None
        assert port_open(env.port)
    finally:
        await env.close()
    assert elapsed < 0.5, f"server took {elapsed:.3f}s to start"
    assert not port_open(env.port)


async def test_sigkill_and_restart_reconnects_and_keeps_working(discord_env: DiscordEnv) -> None:
    guild = discord_env.create_guild()
    general = discord_env.create_channel(guild, "general")
    alice = discord_env.create_user("alice").join(guild)
    bot = await discord_env.start_bot(EXAMPLE_BOT)
    first_pid = bot.pid
    counter = await alice.slash("ping")
    assert counter.message is not None

    assert await bot.kill() == -signal.SIGKILL
    assert not bot.running
    await discord_env.wait_for(lambda: not discord_env.gateway.sessions)
    assert discord_env.gateway.identifies == 1

    await bot.restart()
    assert bot.pid != first_pid
    assert bot.starts == 2
    assert discord_env.gateway.identifies == 2
    assert bot.pid in discord_env.ready_pids
    assert discord_env.calls.count("PUT /applications/{application_id}/commands") == 2
    # A DynamicItem button sent by the dead process still works in the new one.
    pressed = await alice.click(counter.message, "Count 0")
    assert pressed.response_type == 7
    assert alice.messages(general)[-1].content == "count=1"
    fresh = await alice.slash("baloot", "join", seat=4)
    assert fresh.message is not None and fresh.message.content == "alice sits in seat 4"


async def test_bot_that_dies_is_reported_with_its_output(
    discord_env: DiscordEnv, tmp_path: Path
) -> None:
    script = tmp_path / "broken_bot.py"
    script.write_text("import sys\nprint('cannot start: no config')\nsys.exit(3)\n")
    with pytest.raises(BotDiedError, match="cannot start: no config"):
        await discord_env.start_bot(script)


async def test_wrong_token_fails_login(discord_env: DiscordEnv) -> None:
    with pytest.raises(BotDiedError, match="LoginFailure"):
        await discord_env.start_bot(EXAMPLE_BOT, env={"DISCORD_TOKEN": "not-the-token"})
    assert discord_env.calls.count("GET /users/@me", status=401) == 1


async def test_nothing_left_behind() -> None:
    env = DiscordEnv()
    await env.start()
    env.create_channel(env.create_guild(), "general")
    bot = await env.start_bot(EXAMPLE_BOT)
    pid, port = bot.pid, env.port
    assert pid is not None and process_exists(pid)
    await env.close()
    assert not process_exists(pid)
    with pytest.raises(ProcessLookupError):
        os.killpg(pid, 0)  # the whole process group is gone
    assert not port_open(port)
