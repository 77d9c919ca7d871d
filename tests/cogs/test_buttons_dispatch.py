"""A press on our buttons runs without discord.py rebuilding the message as a View (bot CPU per press).

``cogs.buttons.dispatch_presses_directly`` takes an action press from the
gateway before discord.py's view store, and replaces one step of the view store
for our other dynamic items; these check what it keeps: the press is answered
from its id with the interaction discord.py would give (its user, locale,
channel and the pressed message's id), a failure is logged and swallowed as
discord.py does, and any other dynamic item still goes through discord.py's
own path.
"""

from __future__ import annotations

import asyncio
import re
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from baloot.engine.actions import Action, ActionType
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


def press_payload(custom_id: str, *, guild: bool) -> dict[str, Any]:
    """An ``INTERACTION_CREATE`` of a button press as Discord sends it, in a DM or a server channel."""
    user = {"id": "5", "username": "carol", "discriminator": "0", "global_name": "Carol", "avatar": None}
    payload: dict[str, Any] = {
        "id": "900", "application_id": "77", "type": 3, "token": "tok", "version": 1, "locale": "ar",
        "attachment_size_limit": 10 * 1024 * 1024, "entitlements": [], "app_permissions": "0",
        "data": {"custom_id": custom_id, "component_type": 2},
        "message": {"id": "321", "channel_id": "44", "type": 0, "content": "", "flags": 0, "tts": False,
                    "timestamp": "2026-11-26T10:00:00+00:00", "edited_timestamp": None, "pinned": False,
                    "mention_everyone": False, "author": {**user, "id": "77", "bot": True}, "mentions": [],
                    "embeds": [{"title": "x"}], "components": [{"type": 1, "components": []}],
                    "attachments": []},
    }
    if guild:
        payload.update(guild_id="66", channel_id="44", guild={"id": "66", "locale": "en-US", "features": []},
                       channel={"id": "44", "type": 0, "guild_id": "66", "name": "baloot", "position": 0,
                                "permission_overwrites": [], "nsfw": False, "parent_id": None},
                       member={"user": user, "roles": [], "joined_at": "2026-01-01T00:00:00+00:00",
                               "deaf": False, "mute": False, "flags": 0, "permissions": "0"}, context=0)
    else:
        payload.update(channel_id="44", channel={"id": "44", "type": 1, "recipients": [user]}, user=user, context=1)
    return payload


@pytest.mark.parametrize("guild", [False, True], ids=["dm", "server channel"])
async def test_an_action_press_is_answered_from_the_gateway_without_an_item_or_a_view(
        guild: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    pressed: list[tuple[discord.Interaction, str]] = []

    async def press_id(interaction: discord.Interaction, custom_id: str) -> None:
        pressed.append((interaction, custom_id))

    def nothing_built(*args: object, **kwargs: object) -> None:
        raise AssertionError("an item, a view or a full Message was built for an action press")

    monkeypatch.setattr(buttons, "press_id", press_id)
    monkeypatch.setattr(ActionButton, "from_custom_id", nothing_built)
    monkeypatch.setattr(discord.ui.View, "from_message", nothing_built)
    monkeypatch.setattr(discord.Message, "__init__", nothing_built)
    client = discord.Client(intents=discord.Intents.none())
    client._connection.user = discord.ClientUser(state=client._connection, data={  # logged in
        "id": "77", "username": "baloot", "discriminator": "0", "global_name": None, "avatar": None, "bot": True})
    client.add_dynamic_items(*DYNAMIC_ITEMS)
    dispatch_presses_directly(client)
    events: list[object] = []
    monkeypatch.setattr(client._connection, "dispatch", lambda event, *args: events.append((event, *args)))
    real_id = encode_action_id("7", 1, (0, 3), Action(1, ActionType.PASS))
    client._connection.parsers["INTERACTION_CREATE"](press_payload(real_id, guild=guild))
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    [(interaction, custom_id)] = pressed
    assert custom_id == real_id
    assert (interaction.id, interaction.token, interaction.application_id) == (900, "tok", 77)
    assert (interaction.user.id, interaction.user.display_name, str(interaction.locale)) == (5, "Carol", "ar")
    assert interaction.channel_id == 44 and interaction.guild_id == (66 if guild else None)
    assert interaction.message is not None
    assert (interaction.message.id, interaction.message.channel.id) == (321, 44)
    assert interaction.data == {"custom_id": real_id, "component_type": 2}
    assert not interaction.response.is_done()
    assert events == [("interaction", interaction)]


async def test_a_failing_action_press_is_logged_not_raised(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    async def boom(interaction: object, work: Any) -> None:
        work.close()
        raise RuntimeError("boom")

    monkeypatch.setattr(buttons, "answered", boom)
    client = discord.Client(intents=discord.Intents.none())
    dispatch_presses_directly(client)
    real_id = encode_action_id("7", 1, (0, 3), Action(1, ActionType.PASS))
    client._connection.parsers["INTERACTION_CREATE"](press_payload(real_id, guild=False))
    for _ in range(3):
        await asyncio.sleep(0)
    assert any("dynamic item callback" in r.getMessage() and r.exc_info for r in caplog.records)


async def test_a_failing_item_callback_is_logged_not_raised(
        store: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    async def boom(interaction: object, work: Any) -> None:
        work.close()
        raise RuntimeError("boom")

    monkeypatch.setattr(buttons, "answered", boom)
    custom_id = encode_table_id("42", "mine")
    match = pattern_of(store, TableButton).fullmatch(custom_id)
    assert match is not None
    await store.schedule_dynamic_item_call(2, TableButton, SimpleNamespace(message=object()), custom_id, match)
    assert any("dynamic item callback" in r.getMessage() and r.exc_info for r in caplog.records)


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
    client.add_dynamic_items(*DYNAMIC_ITEMS, Other)
    seen: list[dict[str, Any]] = []
    client._connection.parsers["INTERACTION_CREATE"] = seen.append
    dispatch_presses_directly(client)
    message = {"id": "1", "embeds": [{"title": "x"}], "components": [{"type": 1}], "attachments": [], "flags": 0,
               "mentions": [{"id": "5"}], "interaction_metadata": {"id": "2", "type": 3, "user": {"id": "5"}}}
    ours = {"type": 3, "data": {"custom_id": encode_table_id("7", "mine"), "component_type": 2}, "message": message}
    other = {"type": 3, "data": {"custom_id": "other:5", "component_type": 2}, "message": message}
    command = {"type": 2, "data": {"name": "baloot"}}
    parse = client._connection.parsers["INTERACTION_CREATE"]
    for data in (ours, other, command):
        parse(data)
    assert seen[0]["message"] == {"id": "1", "embeds": [], "components": [], "attachments": [], "flags": 0}
    assert seen[0]["data"] == ours["data"]
    assert seen[1] is other and seen[2] is command
    assert message["embeds"] == [{"title": "x"}]  # what Discord sent is left as it was


@pytest.mark.parametrize("guild", [False, True], ids=["dm", "server channel"])
async def test_a_press_no_item_takes_is_refused_not_dropped(guild: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """discord.py drops a component press that no dynamic item's template and no stored view's item takes,
    and Discord then shows "This interaction failed": such a press (a retired version's button, a tampered
    client) gets the private "not a valid action" instead, and never reaches the view store."""
    client = discord.Client(intents=discord.Intents.none())
    client._connection.user = discord.ClientUser(state=client._connection, data={  # logged in
        "id": "77", "username": "baloot", "discriminator": "0", "global_name": None, "avatar": None, "bot": True})
    client.add_dynamic_items(*DYNAMIC_ITEMS, Other)
    seen: list[str] = []
    client._connection.parsers["INTERACTION_CREATE"] = lambda data: seen.append(data["data"]["custom_id"])
    dispatch_presses_directly(client)
    refusals: list[tuple[int, str]] = []

    async def answered(interaction: discord.Interaction, work: Any) -> None:
        try:
            await work
        except Exception as exc:
            refusals.append((interaction.id, type(exc).__name__))

    monkeypatch.setattr(buttons, "answered", answered)
    kept = discord.ui.View(timeout=None)  # a view stored for message 321 claims its own items' ids
    kept.add_item(discord.ui.Button[Any](custom_id="kept"))
    client._connection.store_view(kept, 321)
    parse = client._connection.parsers["INTERACTION_CREATE"]
    for custom_id in ("garbage", f"{encode_table_id('7', 'mine')}:x", "kept", "other:5", encode_table_id("7", "mine"),
                      "bl:", "x" * 100):
        parse(press_payload(custom_id, guild=guild))
    for _ in range(3):
        await asyncio.sleep(0)
    assert seen == ["kept", "other:5", encode_table_id("7", "mine")]
    assert refusals == [(900, "BadInput")] * 4
