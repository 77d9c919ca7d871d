"""The Discord layer (docs/architecture.md "Cogs are adapters").

Thin adapters between Discord and the table service: slash commands
(:mod:`.commands`), persistent buttons (:mod:`.buttons`), and one listener
on the service (:mod:`.presenter`) that keeps the channel's table message
(:mod:`.channel`) and every player's private hand (:mod:`.private`) up to date.
No game rule lives here; every check is the service's or the engine's.
"""

from __future__ import annotations

from typing import Final

EXTENSIONS: Final = ("cogs.commands", "cogs.stats", "cogs.tournaments")
"""Extensions ``bot.py`` loads in ``setup_hook`` (each failure is logged, not fatal)."""
