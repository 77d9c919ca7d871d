"""What the renderer needs besides the engine objects: the table's people and clock.

The table service fills a :class:`RenderInfo`; rendering never reads a clock,
a database or Discord. Payloads are plain dicts shaped like Discord's JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

from ..engine.actions import Action
from ..engine.quick_init import quick_init

Payload: TypeAlias = dict[str, Any]
"""A message body: ``content``, ``embeds`` (list of embed dicts), ``components``
(list of action rows), ``allowed_mentions``, and optionally ``files`` (a list of
(filename, bytes) uploaded with it, replacing the earlier ones on an edit); the
cogs turn it into discord objects."""

NAME_LIMIT = 32
"""Display names are cut to this many characters (Discord's nickname limit)."""


@quick_init
@dataclass(frozen=True, slots=True)
class Notice:
    """A short localized line about the latest event (the table service's words, as a key).

    ``seat`` fills ``{name}``, ``action`` fills ``{action}``; ``params`` fills
    the rest (numbers or already-plain text such as a timestamp).
    """

    key: str
    seat: int | None = None
    action: Action | None = None
    params: tuple[tuple[str, str | int], ...] = ()


@quick_init
@dataclass(frozen=True, slots=True)
class RenderInfo:
    """A table as the renderer sees it.

    ``table_id`` is a short id ([0-9A-Za-z_-], at most 32 characters; a channel
    snowflake fits) that goes into every button's custom_id. ``names`` are the
    seats' display names (None for an empty seat), ``is_bot`` and ``away``
    mark bot players and players who timed out repeatedly. ``dealer`` is informational
    (the engine's hand knows its dealer). ``turn_deadline`` is the unix second the current
    turn times out (None: no timer), ``turn_time`` the table's seconds per turn.
    ``language`` is the table's locale for channel messages; ``notice`` the
    latest event to show under the table. ``closed`` is the line saying the table was closed (and by
    whom or how) once it is: every view then says so instead of whose turn it is, and shows no turn.
    """

    table_id: str
    names: tuple[str | None, str | None, str | None, str | None] = (None, None, None, None)
    is_bot: tuple[bool, bool, bool, bool] = (False, False, False, False)
    away: tuple[bool, bool, bool, bool] = (False, False, False, False)
    dealer: int | None = None
    turn_deadline: int | None = None
    turn_time: int = 60
    language: str = "en"
    notice: Notice | None = None
    closed: Notice | None = None
    activity: bool = False  # the bot serves the table as a Discord Activity: "Open table" button

    @property
    def seated(self) -> int:
        """How many seats are taken."""
        return sum(1 for n in self.names if n is not None)
