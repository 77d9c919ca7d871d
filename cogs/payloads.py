"""Rendered payloads (plain dicts shaped like Discord's JSON, :mod:`baloot.render`) as discord.py arguments."""

from __future__ import annotations

from typing import Any, TypedDict

import discord

from baloot.render import Payload


class MessageArgs(TypedDict):
    """Keyword arguments for ``send``/``edit`` in discord.py."""

    content: str
    embeds: list[discord.Embed]
    view: discord.ui.View
    allowed_mentions: discord.AllowedMentions


def payload_view(components: list[dict[str, Any]]) -> discord.ui.View:
    """A view holding the payload's buttons, row by row.

    The view is stopped at once, so discord.py never stores it: presses are
    routed by custom_id to the DynamicItems of :mod:`cogs.buttons`, which
    keeps them working after a restart and keeps memory flat.
    """
    view = discord.ui.View(timeout=None)
    for row_index, row in enumerate(components):
        for comp in row.get("components", []):
            view.add_item(
                discord.ui.Button(
                    style=discord.ButtonStyle(int(comp.get("style", 2))),
                    label=comp.get("label"),
                    custom_id=comp["custom_id"],
                    disabled=bool(comp.get("disabled", False)),
                    row=row_index,
                )
            )
    view.stop()
    return view


def message_args(payload: Payload) -> MessageArgs:
    """``content``, ``embeds``, ``view`` and ``allowed_mentions`` for discord.py (nobody is pinged)."""
    content = str(payload.get("content") or "")
    return MessageArgs(
        content=content,
        embeds=[discord.Embed.from_dict(e) for e in payload.get("embeds", [])],
        view=payload_view(payload.get("components", [])),
        allowed_mentions=discord.AllowedMentions.none(),
    )
