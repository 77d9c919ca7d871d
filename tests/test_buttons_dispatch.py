"""A press on our buttons runs without discord.py rebuilding the message as a View (issue 9, bot CPU per press).

``cogs.buttons.dispatch_presses_directly`` replaces one step of discord.py's
view store for our dynamic items; these check what it keeps: the item is made
from the id, its callback runs, a failure is logged and swallowed as discord.py
does, and any other dynamic item still goes through discord.py's own path.
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from baloot.actions import Action, ActionType
from baloot.render import encode_action_id, encode_table_id
from cogs import buttons
from cogs.buttons import DYNAMIC_ITEMS, ActionButton, TableButton, dispatch_presses_directly


class Other(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"other:(?P<n>\d+)"):
    def __init__(self, n: str) -> None:
        super().__init__(discord.ui.Button(custom_id=f"other:{n}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> Other:
        return cls(match.group("n"))


@pytest.fixture
def store() -> Any:
    client = discord.Client(intents=discord.Intents.none())
    client.add_dynamic_items(*DYNAMIC_ITEMS, Other)
    dispatch_presses_directly(client)
    return client._connection._view_store


def pattern_of(store: Any, factory: type) -> re.Pattern[str]:
    return next(p for p, f in store._dynamic_items.items() if f is factory)


async def test_our_press_is_made_from_its_id_without_rebuilding_the_message(
        store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_view(*args: object, **kwargs: object) -> None:
        raise AssertionError("View.from_message was called")

    monkeypatch.setattr(discord.ui.View, "from_message", no_view)
    pressed: list[tuple[str, str]] = []

    async def callback(self: TableButton, interaction: object) -> None:
        pressed.append((self.table_id, self.kind))

    monkeypatch.setattr(TableButton, "callback", callback)
    custom_id = encode_table_id("42", "mine")
    match = pattern_of(store, TableButton).fullmatch(custom_id)
    assert match is not None
    interaction = SimpleNamespace(message=object())
    await store.schedule_dynamic_item_call(2, TableButton, interaction, custom_id, match)
    assert pressed == [("42", "mine")]

    # no message (Discord never sends one without it): ignored, as discord.py does
    await store.schedule_dynamic_item_call(2, TableButton, SimpleNamespace(message=None), custom_id, match)
    assert pressed == [("42", "mine")]


async def test_a_failing_callback_is_logged_not_raised(
        store: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    async def boom(interaction: object, work: Any) -> None:
        work.close()
        raise RuntimeError("boom")

    monkeypatch.setattr(buttons, "answered", boom)
    real_id = encode_action_id("7", 1, (0, 3), Action(1, ActionType.PASS))
    match = pattern_of(store, ActionButton).fullmatch(real_id)
    assert match is not None
    await store.schedule_dynamic_item_call(2, ActionButton, SimpleNamespace(message=object()), real_id, match)
    assert any("dynamic item callback" in r.getMessage() and r.exc_info for r in caplog.records)


async def test_an_action_press_is_answered_without_building_an_item(
        store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    pressed: list[tuple[object, str]] = []

    async def press_id(interaction: object, custom_id: str) -> None:
        pressed.append((interaction, custom_id))

    async def no_item(*args: object) -> None:
        raise AssertionError("no item is built for an action press")

    monkeypatch.setattr(buttons, "press_id", press_id)
    monkeypatch.setattr(ActionButton, "from_custom_id", no_item)
    real_id = encode_action_id("7", 1, (0, 3), Action(1, ActionType.PASS))
    match = pattern_of(store, ActionButton).fullmatch(real_id)
    assert match is not None
    interaction = SimpleNamespace(message=object(), client=object())
    await store.schedule_dynamic_item_call(2, ActionButton, interaction, real_id, match)
    assert pressed == [(interaction, real_id)]


async def test_other_dynamic_items_keep_discords_path(store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    rebuilt: list[object] = []

    def from_message(cls: object, message: object, /, *, timeout: object = None) -> object:
        rebuilt.append(message)
        raise LookupError("stop here")

    monkeypatch.setattr(discord.ui.View, "from_message", classmethod(from_message))
    match = pattern_of(store, Other).fullmatch("other:5")
    assert match is not None
    message = SimpleNamespace(flags=SimpleNamespace(components_v2=False))
    with pytest.raises(LookupError):
        await store.schedule_dynamic_item_call(2, Other, SimpleNamespace(message=message), "other:5", match)
    assert rebuilt == [message]


def test_the_pressed_message_reaches_discord_py_without_its_embeds_and_buttons() -> None:
    client = discord.Client(intents=discord.Intents.none())
    seen: list[dict[str, Any]] = []
    client._connection.parsers["INTERACTION_CREATE"] = seen.append
    dispatch_presses_directly(client)
    message = {"id": "1", "embeds": [{"title": "x"}], "components": [{"type": 1}], "attachments": [], "flags": 0,
               "mentions": [{"id": "5"}], "interaction_metadata": {"id": "2", "type": 3, "user": {"id": "5"}}}
    ours = {"type": 3, "data": {"custom_id": encode_action_id("7", 1, (0, 3), Action(1, ActionType.PASS)),
                                "component_type": 2}, "message": message}
    other = {"type": 3, "data": {"custom_id": "other:5", "component_type": 2}, "message": message}
    command = {"type": 2, "data": {"name": "baloot"}}
    parse = client._connection.parsers["INTERACTION_CREATE"]
    for data in (ours, other, command):
        parse(data)
    assert seen[0]["message"] == {"id": "1", "embeds": [], "components": [], "attachments": [], "flags": 0}
    assert seen[0]["data"] == ours["data"]
    assert seen[1] is other and seen[2] is command
    assert message["embeds"] == [{"title": "x"}]  # what Discord sent is left as it was
