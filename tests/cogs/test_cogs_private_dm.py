"""A player's DM message whose id could not be stored (a storage fault is a warning, not an error).

The DM is sent and kept in memory; its id is stored at its next update, so a
restart edits it instead of sending another. Found by CI: a DM created while
another process held SQLite's write lock was logged as an error and its id
never stored.
"""

from __future__ import annotations

import itertools
import logging
from types import SimpleNamespace
from typing import Any

import pytest

from baloot.tables import StorageUnavailable
from cogs.presentation.private import PrivateHands, Viewer


class FakeHTTP:
    proxy = None
    proxy_auth = None

    def __init__(self) -> None:
        self.edits: list[int] = []
        self.ids = itertools.count(900)
        self.sent: list[dict[str, Any]] = []

    async def start_private_message(self, user_id: int) -> dict[str, Any]:
        return {"id": "500"}

    async def send_message(self, channel_id: int, *, params: Any) -> dict[str, Any]:
        assert channel_id == 500
        self.sent.append(params.payload)
        return {"id": str(next(self.ids)), "channel_id": str(channel_id)}

    async def edit_message(self, channel_id: int, message_id: int, *, params: Any) -> None:
        self.edits.append(message_id)


class FakeClient:
    def __init__(self) -> None:
        self.http = FakeHTTP()
        self.sent = self.http.sent


class FakeService:
    def __init__(self) -> None:
        self.fail = True
        self.stored: list[tuple[int, str, int, int]] = []

    async def remember_message(self, table_id: int, key: str, channel_id: int, message_id: int) -> None:
        if self.fail:
            raise StorageUnavailable("SQLite: database is locked")
        self.stored.append((table_id, key, channel_id, message_id))


async def test_a_dm_whose_id_could_not_be_stored_is_stored_at_its_next_update(
        caplog: pytest.LogCaptureFixture) -> None:
    client, service = FakeClient(), FakeService()
    hands = PrivateHands(SimpleNamespace(client=client, service=service), SimpleNamespace())  # type: ignore[arg-type]
    viewer = Viewer(user_id=7, table_id=3, seat=1)
    payload = {"content": "your hand", "embeds": [], "components": []}

    with caplog.at_level(logging.WARNING, logger="baloot.discord"):
        assert await hands._send_dm_now(viewer, payload)  # sent, though its id could not be stored
    assert viewer.dm_message_id == 900 and not viewer.dm_stored and service.stored == []
    assert [r.levelname for r in caplog.records] == ["WARNING"]
    assert "could not store their DM message" in caplog.records[0].getMessage()

    assert await hands._send_dm_now(viewer, payload)  # still failing: edited, not sent again
    assert client.http.edits == [900] and len(client.sent) == 1 and not viewer.dm_stored

    service.fail = False
    assert await hands._send_dm_now(viewer, payload)
    assert service.stored == [(3, "dm:7", 500, 900)] and viewer.dm_stored
    assert await hands._send_dm_now(viewer, payload)  # stored once, not at every edit
    assert len(service.stored) == 1 and client.http.edits == [900, 900, 900] and len(client.sent) == 1


async def test_an_answered_press_showing_the_latest_state_starts_no_refresh() -> None:
    """The press's own answer showed the latest snapshot through its token: the refresh asked for while it was
    being answered has nothing to send, so no task is started for it (bot CPU per press); once the table has
    moved on past what the answer showed, the refresh runs."""
    state = SimpleNamespace(version=(0, 5), closed=False)
    shown = SimpleNamespace(get=lambda table_id: state if table_id == 3 else None)
    hands = PrivateHands(SimpleNamespace(client=FakeClient(), shown=shown), SimpleNamespace())  # type: ignore[arg-type]
    press = SimpleNamespace(message=SimpleNamespace(id=901), application_id=1, token="tok")

    viewer = hands.begin(3, 7, 1)
    viewer.dirty = True  # a refresh asked for while the press was answered (PrivateHands.refresh)
    hands.end(viewer, press, ((0, 5), False))  # type: ignore[arg-type]
    assert viewer.task is None and not viewer.dirty and viewer.shown == ((0, 5), False)

    viewer = hands.begin(3, 7, 1)
    viewer.dirty = True
    state.version = (0, 6)  # a bot played after the press: its answer is already behind
    hands.end(viewer, press, ((0, 5), False))  # type: ignore[arg-type]
    assert viewer.task is not None
    viewer.task.cancel()
