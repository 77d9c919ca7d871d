"""bot.py's event loop choice (bot CPU per press): uvloop where installed, EVENT_LOOP=asyncio opts out."""

from __future__ import annotations

import asyncio

import pytest

import bot
from cogs.settings import ConfigError


def test_uvloop_by_default_and_asyncio_on_request(monkeypatch: pytest.MonkeyPatch) -> None:
    uvloop = pytest.importorskip("uvloop")  # in requirements.txt for Linux and macOS, not on Windows
    monkeypatch.delenv("EVENT_LOOP", raising=False)
    factory = bot.event_loop_factory()
    assert factory is uvloop.new_event_loop
    loop = factory()
    try:
        assert isinstance(loop, asyncio.AbstractEventLoop) and type(loop).__module__.startswith("uvloop")
    finally:
        loop.close()
    for value in ("asyncio", " AsyncIO "):
        monkeypatch.setenv("EVENT_LOOP", value)
        assert bot.event_loop_factory() is None


def test_another_event_loop_name_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A typo (``asyncoi``) is a setting error, not a silent uvloop."""
    monkeypatch.setenv("EVENT_LOOP", "asyncoi")
    with pytest.raises(ConfigError, match="EVENT_LOOP must be uvloop or asyncio"):
        bot.event_loop_factory()
    uvloop = pytest.importorskip("uvloop")
    monkeypatch.setenv("EVENT_LOOP", " ")  # empty: the default
    assert bot.event_loop_factory() is uvloop.new_event_loop
