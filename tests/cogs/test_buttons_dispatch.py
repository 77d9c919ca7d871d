"""Presses arrive through discord.py's own dispatch (bot CPU per press).

An action button of a private view (the hot path) is no registered
``DynamicItem``: :func:`cogs.buttons.on_press`, an ``on_interaction``
listener, answers it from its id without a ``View`` rebuilt from the message.
The other buttons are discord.py's ``DynamicItem``s. A press no item takes
here - an id none of the bot's, or one that is not on the pressed message,
which discord.py drops unanswered - gets the private refusal. These drive a
real ``commands.Bot``'s gateway parser (tests only reach into discord.py to
play the gateway).
"""

from __future__ import annotations

import ast
import asyncio
import gc
import importlib
import pkgutil
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import discord
import pytest
from discord.ext import commands

import cogs
from baloot.engine.actions import Action, ActionType
from baloot.render import encode_action_id, encode_table_id
from baloot.storage import Storage
from baloot.tables.reviews import ReviewService
from baloot.tables.service import TableService
from baloot.tables.workers import ReviewBrake
from cogs import EXTENSIONS, buttons
from cogs.buttons import DYNAMIC_ITEMS, ActionButton, TableButton, on_press
from cogs.items import add_items, item_templates, registered_items, remove_items, template_of
from cogs.presentation.runtime import Languages, Runtime
from cogs.presentation.shown import ShownTables
from cogs.transport import wire
from cogs.transport.forward import forwarded_interaction, forwarded_payload
from cogs.transport.wire import discord_response, is_answered, response_type

ACTION_ID = encode_action_id("7", 1, (0, 3), Action(1, ActionType.PASS))


def press_payload(custom_id: str, *, guild: bool, on_message: str | None = None) -> dict[str, Any]:
    """An ``INTERACTION_CREATE`` of a button press as Discord sends it, in a DM or a server channel; the pressed
    message holds one button, ``custom_id`` (or ``on_message``: the press's id is then not on it)."""
    user = {"id": "5", "username": "carol", "discriminator": "0", "global_name": "Carol", "avatar": None}
    payload: dict[str, Any] = {
        "id": "900", "application_id": "77", "type": 3, "token": "tok", "version": 1, "locale": "ar",
        "attachment_size_limit": 10 * 1024 * 1024, "entitlements": [], "app_permissions": "0",
        "data": {"custom_id": custom_id, "component_type": 2},
        "message": {"id": "321", "channel_id": "44", "type": 0, "content": "", "flags": 0, "tts": False,
                    "timestamp": "2026-11-26T10:00:00+00:00", "edited_timestamp": None, "pinned": False,
                    "mention_everyone": False, "author": {**user, "id": "77", "bot": True}, "mentions": [],
                    "embeds": [{"title": "x"}], "components": [{"type": 1, "components": [
                        {"type": 2, "style": 2, "label": "x", "custom_id": on_message or custom_id}]}],
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


class Pressed:
    """What the listener ran: the action presses, the refusals, and the table buttons discord.py ran."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.actions: list[tuple[discord.Interaction, str]] = []
        self.refused: list[str] = []
        self.tables: list[str] = []

        async def press_id(interaction: discord.Interaction, custom_id: str) -> None:
            self.actions.append((interaction, custom_id))

        async def refuse_unknown(custom_id: str) -> None:
            self.refused.append(custom_id)

        async def answered(interaction: discord.Interaction, work: Any) -> None:
            await work

        async def table_callback(item: TableButton, interaction: discord.Interaction) -> None:
            self.tables.append(item.table_id)

        monkeypatch.setattr(buttons, "press_id", press_id)
        monkeypatch.setattr(buttons, "refuse_unknown", refuse_unknown)
        monkeypatch.setattr(buttons, "answered", answered)
        monkeypatch.setattr(TableButton, "callback", table_callback)


async def gateway_press(payload: dict[str, Any], *extra: type[discord.ui.DynamicItem[Any]],
                        setup: Callable[[commands.Bot], None] | None = None) -> None:
    """A bot as ``bot.py`` sets it up (its dynamic items, and ``extra``; the listener; ``setup``'s part) receives
    ``payload`` from the gateway."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    if setup is not None:
        setup(bot)
    await bot._async_setup_hook()  # the loop, as login would set it
    state = bot._connection
    state.user = discord.ClientUser(state=state, data={  # logged in
        "id": "77", "username": "baloot", "discriminator": "0", "global_name": None, "avatar": None, "bot": True})
    add_items(bot, *DYNAMIC_ITEMS, *extra)
    bot.add_listener(on_press, "on_interaction")
    state.parsers["INTERACTION_CREATE"](payload)
    for _ in range(5):
        await asyncio.sleep(0)


@pytest.mark.parametrize("guild", [False, True], ids=["dm", "server channel"])
async def test_an_action_press_is_answered_by_the_listener_without_a_view(
        guild: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    pressed = Pressed(monkeypatch)

    def no_view(*args: object, **kwargs: object) -> None:
        raise AssertionError("a View was rebuilt from the message for an action press")

    monkeypatch.setattr(discord.ui.View, "from_message", no_view)
    await gateway_press(press_payload(ACTION_ID, guild=guild))
    [(interaction, custom_id)] = pressed.actions
    assert custom_id == ACTION_ID and pressed.refused == []
    assert (interaction.id, interaction.token, interaction.application_id) == (900, "tok", 77)
    assert (interaction.user.id, interaction.user.display_name, str(interaction.locale)) == (5, "Carol", "ar")
    assert interaction.channel_id == 44 and interaction.guild_id == (66 if guild else None)
    assert interaction.message is not None and interaction.message.id == 321
    assert not interaction.response.is_done()


@pytest.mark.parametrize("custom_id", [ACTION_ID, "no-such-button"], ids=["action", "unknown"])
async def test_every_interaction_has_the_review_workers_make_way(
        custom_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The listener holds the review workers' brake first (``baloot/tables/workers.py``, ``ReviewBrake``), for
    any interaction: they pause while the bot answers it."""
    pressed = Pressed(monkeypatch)
    storage = await Storage.open(tmp_path / "t.db")
    try:
        service = TableService(storage)
        brake = ReviewBrake(hold_seconds=600.0)
        reviews = ReviewService(storage, brake=brake)

        def attach(bot: commands.Bot) -> None:
            bot.runtime = Runtime(bot, service, ShownTables(), Languages(service, bot, "en"),  # type: ignore[attr-defined]
                                  reviews=reviews)

        assert not brake.held()
        await gateway_press(press_payload(custom_id, guild=True), setup=attach)
    finally:
        await storage.close()
    assert brake.held()
    assert len(pressed.actions) + len(pressed.refused) == 1  # and the press went on as before


class Road:
    """The token road of :mod:`cogs.transport.wire`, answering every callback (the bodies are tested elsewhere)."""

    def __init__(self) -> None:
        self.callbacks: list[int] = []
        self.edits: list[str] = []

    async def callback(self, interaction_id: int, token: str, body: dict[str, Any], **kwargs: Any) -> None:
        self.callbacks.append(body["type"])

    async def patch_original(self, application_id: int, token: str, body: dict[str, Any], files: Any) -> None:
        self.edits.append(body["content"])


@pytest.mark.parametrize("through_discord_py", [False, True], ids=["answered through the token", "response used"])
async def test_a_press_answered_through_the_token_is_freed_without_the_cyclic_collector(
        through_discord_py: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """discord.py's ``interaction.response`` points back at its interaction: once made, the press, its message,
    users and buttons wait for the cyclic collector, whose pauses delay every table's presses. A press answered
    through the token (asked ``is_answered`` and ``response_type`` before and after, as the hot path does) never
    makes it; the other case shows that the check sees the cycle where discord.py's response is used."""
    road = Road()
    monkeypatch.setattr(wire, "token_http", lambda client: road)
    pressed = Pressed(monkeypatch)
    await gateway_press(press_payload(ACTION_ID, guild=False))
    [(interaction, _)] = pressed.actions
    assert not is_answered(interaction) and response_type(interaction) is None
    if through_discord_py:
        assert not discord_response(interaction).is_done() and not is_answered(interaction)
    await wire.answer_update(interaction, {"content": "x"})
    assert is_answered(interaction) and response_type(interaction) == wire.UPDATE_MESSAGE
    await wire.answer_update(interaction, {"content": "y"})  # answered: the second is an edit, not a callback
    assert road.callbacks == [wire.UPDATE_MESSAGE] and road.edits == ["y"]
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what the collector finds unreachable is kept in gc.garbage
    try:
        pressed.actions.clear()
        del interaction
        gc.collect()
        left = {type(o).__name__ for o in gc.garbage
                if isinstance(o, discord.Interaction | discord.InteractionResponse | discord.Message)}
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert left == ({"Interaction", "InteractionResponse", "Message"} if through_discord_py else set())


def test_the_project_uses_discord_pys_response_only_through_the_wire() -> None:
    """``interaction.response`` (written ``interaction.response`` or ``self.interaction.response``) appears in
    project code only in :func:`cogs.transport.wire.discord_response`, which marks its use: elsewhere it would
    make the cycle above and hide discord.py's answers from ``is_answered``."""
    repo = Path(__file__).resolve().parents[2]
    found = []
    for path in [repo / "bot.py", *sorted((repo / "cogs").rglob("*.py")), *sorted((repo / "baloot").rglob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "response":
                owner = node.value
                name = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", "")
                if "interaction" in name:
                    found.append(f"{path.relative_to(repo)}:{node.lineno}")
    assert [where.split(":")[0] for where in found] == ["cogs/transport/wire.py"] * 2, found


@pytest.mark.parametrize("custom_id", ["garbage", "bl:", "bl:7:1:0:3:zz", "old-v1:join", "x" * 100])
async def test_a_press_no_item_takes_is_refused_not_dropped(custom_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    pressed = Pressed(monkeypatch)
    await gateway_press(press_payload(custom_id, guild=True))
    assert pressed.refused == [custom_id] and pressed.actions == [] and pressed.tables == []


@pytest.mark.parametrize("custom_id", [ACTION_ID, encode_table_id("42", "mine")], ids=["action", "my hand"])
async def test_an_id_not_on_the_pressed_message_is_refused(custom_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A forged press names a real-looking id the pressed message does not hold: discord.py's view store
    drops such a press for a DynamicItem; the listener refuses it (and never runs an action from it)."""
    pressed = Pressed(monkeypatch)
    await gateway_press(press_payload(custom_id, guild=True, on_message=encode_table_id("1", "mine")))
    assert pressed.refused == [custom_id] and pressed.actions == [] and pressed.tables == []


async def test_the_other_buttons_run_through_discord_py_as_dynamic_items(monkeypatch: pytest.MonkeyPatch) -> None:
    pressed = Pressed(monkeypatch)
    await gateway_press(press_payload(encode_table_id("42", "mine"), guild=True))
    assert pressed.tables == ["42"] and pressed.refused == [] and pressed.actions == []


async def test_a_forwarded_press_is_rebuilt_with_what_a_press_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """A DM press forwarded to the process holding its table is rebuilt from the payload the
    receiver sends, without discord.py's gateway state: ids, token, user, locale, channel, pressed message,
    and already acknowledged (its answers are edits and followups through the token)."""
    pressed = Pressed(monkeypatch)
    await gateway_press(press_payload(ACTION_ID, guild=False))
    [(received, _)] = pressed.actions
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    press = forwarded_interaction(bot, forwarded_payload(received))
    assert (press.id, press.token, press.application_id) == (900, "tok", 77)
    assert (press.user.id, press.user.display_name, str(press.locale)) == (5, "Carol", "ar")
    assert press.channel_id == 44 and press.guild_id is None
    assert press.message is not None and press.message.id == 321
    data: Any = press.data
    assert data["custom_id"] == ACTION_ID
    assert is_answered(press) and response_type(press) == discord.InteractionResponseType.deferred_message_update.value


class NewButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"new:(?P<n>[0-9]+)"):
    """An item added after the listener was written: registering it is all it takes."""

    ran: ClassVar[list[str]] = []

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> NewButton:
        return cls(match.group(0))

    async def callback(self, interaction: discord.Interaction) -> None:
        NewButton.ran.append(self.custom_id)


async def test_a_newly_registered_item_runs_through_discord_py_not_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """The listener takes the ids of whatever is registered: no hand-kept list of templates to extend."""
    pressed = Pressed(monkeypatch)
    monkeypatch.setattr(NewButton, "ran", [])
    await gateway_press(press_payload("new:12", guild=True), NewButton)
    assert NewButton.ran == ["new:12"] and pressed.refused == [] and pressed.actions == []


async def test_an_item_not_registered_or_removed_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    pressed = Pressed(monkeypatch)
    monkeypatch.setattr(NewButton, "ran", [])
    await gateway_press(press_payload("new:12", guild=True))
    assert pressed.refused == ["new:12"] and NewButton.ran == []
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    add_items(bot, TableButton, NewButton)
    remove_items(bot, NewButton)
    assert registered_items(bot) == (TableButton,) and item_templates(bot) == (template_of(TableButton),)


def cogs_items() -> set[type[discord.ui.DynamicItem[Any]]]:
    """Every ``DynamicItem`` class defined in the Discord layer's modules."""
    for module in pkgutil.walk_packages(cogs.__path__, "cogs."):
        importlib.import_module(module.name)
    found: set[type[discord.ui.DynamicItem[Any]]] = set()
    stack = list(discord.ui.DynamicItem.__subclasses__())
    while stack:
        item = stack.pop()
        stack.extend(item.__subclasses__())
        if item.__module__.split(".")[0] == "cogs":
            found.add(item)
    return found


def test_every_item_of_the_bot_is_registered_and_its_ids_are_taken() -> None:
    """What ``bot.py`` registers (:data:`DYNAMIC_ITEMS`, each extension's ``ITEMS``) is every item class of
    ``cogs`` but the action button (the listener's own); the listener takes exactly their templates."""
    registered = [*DYNAMIC_ITEMS, *(item for name in EXTENSIONS for item in
                                    getattr(importlib.import_module(name), "ITEMS", ()))]
    assert len(registered) == len(set(registered))
    assert set(registered) == cogs_items() - {ActionButton}
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    add_items(bot, *registered)
    assert {p.pattern for p in item_templates(bot)} == {template_of(item).pattern for item in registered}


def test_items_are_registered_only_through_add_items() -> None:
    """A direct ``add_dynamic_items`` would run the item, but the listener would refuse its ids."""
    repo = Path(__file__).resolve().parents[2]
    files = [repo / "bot.py", *sorted((repo / "cogs").rglob("*.py"))]
    direct = [f.relative_to(repo).as_posix() for f in files
              if f.name != "items.py" and re.search(r"\.(add|remove)_dynamic_items\(", f.read_text())]
    assert direct == []
