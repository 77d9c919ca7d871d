"""bot.py's event loop choice (issue 9: bot CPU per press): uvloop where installed, EVENT_LOOP=asyncio opts out."""

from __future__ import annotations

import asyncio

import pytest

import bot


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
