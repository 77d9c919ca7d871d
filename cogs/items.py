"""The bot's persistent components (docs/architecture.md): the ``DynamicItem``s registered on a client.

Every ``DynamicItem`` of this bot is registered through :func:`add_items`
(``bot.py`` for :data:`cogs.buttons.DYNAMIC_ITEMS`, each extension's
``setup`` for its ``ITEMS``), which hands them to discord.py
(``Client.add_dynamic_items``) and keeps their templates per client. The
``on_interaction`` listener (:func:`cogs.buttons.on_press`) reads the ids the
registered items take from here, so a new item is covered by registering it:
there is no second list of templates to keep in step.
"""

from __future__ import annotations

import re
from typing import Any
from weakref import WeakKeyDictionary

import discord

Item = type[discord.ui.DynamicItem[Any]]

_REGISTERED: WeakKeyDictionary[discord.Client, dict[Item, re.Pattern[str]]] = WeakKeyDictionary()
_TEMPLATES: WeakKeyDictionary[discord.Client, tuple[re.Pattern[str], ...]] = WeakKeyDictionary()


def template_of(item: Item) -> re.Pattern[str]:
    """The compiled ``template`` an item class was declared with (what ``DynamicItem.template`` returns)."""
    return item.__discord_ui_compiled_template__


def add_items(client: discord.Client, *items: Item) -> None:
    """Register ``items`` with discord.py, and their templates for the listener."""
    client.add_dynamic_items(*items)
    registered = _REGISTERED.setdefault(client, {})
    registered.update((item, template_of(item)) for item in items)
    _TEMPLATES[client] = tuple(registered.values())


def remove_items(client: discord.Client, *items: Item) -> None:
    """Undo :func:`add_items` (an extension's ``teardown``)."""
    client.remove_dynamic_items(*items)
    registered = _REGISTERED.setdefault(client, {})
    for item in items:
        registered.pop(item, None)
    _TEMPLATES[client] = tuple(registered.values())


def registered_items(client: discord.Client) -> tuple[Item, ...]:
    """The item classes registered on ``client``, in registration order."""
    return tuple(_REGISTERED.get(client, {}))


def item_templates(client: discord.Client) -> tuple[re.Pattern[str], ...]:
    """The templates of every item registered on ``client`` (matched whole, as discord.py matches them)."""
    return _TEMPLATES.get(client, ())
