"""The README's Discord set-up states what the code needs: the invite link's
scopes and permission integer, no privileged intents, and ``DEV_GUILD_ID``."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import discord

from cogs.permissions import invite_permissions, needed

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _bot_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("baloot_bot_main", ROOT / "bot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_invite_link_asks_for_the_permissions_the_bot_needs() -> None:
    # Computed here from the permissions' names, not read from the code under test.
    expected = discord.Permissions(
        view_channel=True, send_messages=True, send_messages_in_threads=True, create_public_threads=True,
        embed_links=True, attach_files=True, use_external_emojis=True,
    )
    assert invite_permissions() == expected
    links = re.findall(r"https://discord\.com/oauth2/authorize\?\S+", README)
    assert len(links) == 1
    query = dict(part.split("=", 1) for part in links[0].split("?", 1)[1].split("&"))
    assert query["scope"] == "bot+applications.commands"
    assert query["permissions"] == str(expected.value) == "309237959680"
    assert f"**{expected.value}**" in README  # the integer as the text names it
    # Everything /baloot create checks for, in a channel or a thread, is in the link.
    for thread in (False, True):
        for name in needed(thread=thread, pictures=True, new_thread=not thread):
            assert getattr(expected, name), name


def test_no_privileged_intents_and_dev_guild_documented() -> None:
    intents = _bot_module().intents()
    assert not (intents.members or intents.presences or intents.message_content)
    assert "No **Privileged Gateway Intents** are needed" in README
    assert "DEV_GUILD_ID" in README
    assert re.search(r"^DEV_GUILD_ID=", (ROOT / ".env.example").read_text(encoding="utf-8"), re.M)
