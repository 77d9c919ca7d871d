"""Background tasks survive faults: the channel flusher, the sweep, the supervisor.

Storage faults come from the seam (:func:`baloot.storage.faults.inject_faults`);
the supervisor and the sweep run on a :class:`VirtualClock`.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from virtual_clock import VirtualClock

from baloot.render import Payload, render_text
from baloot.storage import Storage
from baloot.storage.faults import inject_faults
from baloot.tables import TableService
from baloot.tables.supervisor import supervise
from cogs.presentation.channel import ChannelBoard
from cogs.transport.carrier import Carriers


async def test_the_supervisor_restarts_a_task_that_ends_or_fails(caplog: pytest.LogCaptureFixture) -> None:
    clock = VirtualClock()
    runs: list[str] = []

    async def run() -> None:
        runs.append("run")
        if len(runs) == 1:
            raise RuntimeError("first run fails")
        if len(runs) == 2:
            return  # second run ends
        await clock.sleep(1e9)  # third run lasts

    with caplog.at_level(logging.ERROR, logger="baloot.tables"):
        task = supervise("probe", run, restart_after=2.0, sleep=clock.sleep)
        await clock.advance(10)
    assert runs == ["run", "run", "run"] and not task.done()
    messages = [r.getMessage() for r in caplog.records]
    assert any("probe failed" in m for m in messages) and any("probe ended" in m for m in messages)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_the_sweep_carries_on_after_errors(tmp_path: Path, monkeypatch: Any) -> None:
    clock = VirtualClock()
    storage = await Storage.open(tmp_path / "t.db", synchronous="NORMAL")
    service = TableService(storage, rng_factory=lambda t: random.Random(t), clock=clock.time, sleep=clock.sleep,
                           sweep_seconds=5.0)
    calls = itertools.count(1)
    real = service.sweep

    async def sweep() -> int:
        n = next(calls)
        if n in (2, 3):
            raise RuntimeError(f"sweep {n} fails")
        return await real()

    monkeypatch.setattr(service, "sweep", sweep)
    task = service.start_sweeping()
    await clock.advance(60)
    assert next(calls) >= 12  # every 5 s, failing ones included
    assert not task.done() and service.start_sweeping() is task
    await service.close()
    await clock.settle()
    await storage.close()


class _Channel:
    """A channel that takes every send and edit (what the flusher talks to)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.edited: list[tuple[int, str]] = []
        self._ids = itertools.count(1000)

    async def send_message(self, channel_id: int, *, params: Any) -> dict[str, Any]:
        """``client.http.send_message``: the table message is posted as a JSON body (cogs.transport.wire)."""
        self.sent.append(params.payload["content"])
        return {"id": str(next(self._ids)), "channel_id": str(channel_id)}

    async def edit_message(self, channel_id: int, message_id: int, *, params: Any) -> None:
        """``client.http.edit_message``: the table message's edits go as JSON bodies (cogs.transport.wire)."""
        self.edited.append((message_id, params.payload["content"]))


class _Board(ChannelBoard):
    """The flusher under test, rendering a plain text per key (``fail`` keys raise once)."""

    fail: set[str]

    def render(self, state: Any, key: str) -> Payload | None:
        if key in self.fail:
            self.fail.discard(key)
            raise RuntimeError(f"rendering {key} failed")
        return render_text("error.busy", "en") | {"content": f"{key} v{state.version}"}


async def test_the_channel_flusher_survives_storage_faults_and_errors(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "t.db", synchronous="NORMAL")
    faults = inject_faults(storage)
    service = TableService(storage)
    info = await service.create(1, 100, 11, "Ali")
    channel = _Channel()
    runtime = SimpleNamespace(
        client=SimpleNamespace(http=SimpleNamespace(edit_message=channel.edit_message,
                                                    send_message=channel.send_message)),
        service=service,
        shown=SimpleNamespace(forget=lambda table_id: None),
        carriers=Carriers(),  # no interaction carries these messages: the bot token sends them
        pictures="off",  # text only: the flusher is under test, not the picture
        reviews=None,  # no game reviews: no match's last message is kept for its accuracy line
    )
    board = _Board(runtime)  # type: ignore[arg-type]
    board.fail = {"hand:1"}
    state = SimpleNamespace(table_id=info.id, channel_id=100, info=SimpleNamespace(guild_id=1), closed=False,
                            closing=None, version=1, shown=lambda hand_no: None)
    faults.fail("set_message", reason="database is locked")  # every message id fails to be remembered
    board.touch(state, "hand:0", "hand:1")  # type: ignore[arg-type]
    await asyncio.sleep(0.6)
    assert channel.sent == ["hand:0 v1"]  # hand:1 failed to render: logged, kept for the next flush
    state.version = 2
    faults.clear()
    board.touch(state, "hand:0", "hand:2")  # type: ignore[arg-type]
    for _ in range(60):
        if len(channel.sent) == 3:
            break
        await asyncio.sleep(0.1)
    assert channel.sent == ["hand:0 v1", "hand:1 v2", "hand:2 v2"]
    assert channel.edited == [(1000, "hand:0 v2")]  # the message id was kept though storage refused it
    stored = {m.key for m in await storage.messages(info.id)}
    assert stored == {"hand:1", "hand:2"}
    assert faults.injected == 1
    await board.close()
    await service.close()
    await storage.close()
