"""Rendered payloads (plain dicts shaped like Discord's JSON, :mod:`baloot.render`) as discord.py arguments."""

from __future__ import annotations

import io
import logging
from collections.abc import Callable
from typing import Any, NotRequired, TypedDict

import discord

from baloot.render import Payload
from baloot.render.picture import with_picture


class MessageArgs(TypedDict):
    """Keyword arguments for ``send``/``edit`` in discord.py."""

    content: str
    embeds: list[discord.Embed]
    view: discord.ui.View
    allowed_mentions: discord.AllowedMentions


class SendArgs(MessageArgs):
    """:class:`MessageArgs` and the payload's files, for ``send``/``send_message``."""

    files: NotRequired[list[discord.File]]


class EditArgs(MessageArgs):
    """:class:`MessageArgs` and the payload's files, for ``edit``/``edit_message``/``edit_original_response``."""

    attachments: NotRequired[list[discord.File]]


log = logging.getLogger("baloot.discord")


def attach_picture(payload: Payload, draw: Callable[[], bytes]) -> Payload:
    """``payload`` with the picture ``draw()`` makes; if drawing fails, without one.

    A picture is never worth a lost move: a failure is logged and the message
    goes out as text, its earlier picture removed (``files`` empty).
    """
    try:
        return with_picture(payload, draw())
    except Exception:
        log.exception("could not draw the table picture; sending text only")
        return {**payload, "files": []}


def payload_view(components: list[dict[str, Any]]) -> discord.ui.View:
    """A view holding the payload's buttons, row by row.

    The view is stopped at once, so discord.py never stores it: presses are
    routed by custom_id to the DynamicItems of :mod:`cogs.buttons`, which
    keeps them working after a restart and keeps memory flat. A card's
    button keeps the emoji it was drawn with (:data:`~.emojis.CARD_EMOJIS`).
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
                    emoji=discord.PartialEmoji.from_dict(comp["emoji"]) if comp.get("emoji") else None,
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


def payload_files(payload: Payload) -> list[discord.File] | None:
    """The payload's ``files`` ((filename, bytes) pairs) as fresh discord.py files; None if it has none."""
    files = payload.get("files")
    if files is None:
        return None
    return [discord.File(io.BytesIO(data), filename=name) for name, data in files]


def send_args(payload: Payload) -> SendArgs:
    """:func:`message_args` with the payload's files to upload (a new message)."""
    base = message_args(payload)
    args = SendArgs(content=base["content"], embeds=base["embeds"], view=base["view"],
                    allowed_mentions=base["allowed_mentions"])
    files = payload_files(payload)
    if files is not None:
        args["files"] = files
    return args


def edit_args(payload: Payload) -> EditArgs:
    """:func:`message_args` for an edit; the payload's files replace the message's attachments.

    A payload without ``files`` leaves the attachments as they are.
    """
    base = message_args(payload)
    args = EditArgs(content=base["content"], embeds=base["embeds"], view=base["view"],
                    allowed_mentions=base["allowed_mentions"])
    files = payload_files(payload)
    if files is not None:
        args["attachments"] = files
    return args
