"""pytest fixtures; registered from ``tests/conftest.py`` with ``pytest_plugins``."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from .harness import DiscordEnv


@pytest.fixture
async def discord_env() -> AsyncIterator[DiscordEnv]:
    """A running stand-in Discord for one test; every bot it started is killed after."""
    env = DiscordEnv()
    await env.start()
    try:
        yield env
    finally:
        await env.close()
