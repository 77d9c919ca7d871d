"""Buttons and action rows as Discord JSON (``type`` 1 rows of ``type`` 2 buttons)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from .limits import BUTTONS_PER_ROW, LABEL, clip

PRIMARY: Final = 1
SECONDARY: Final = 2
SUCCESS: Final = 3
DANGER: Final = 4


def button(label: str, custom_id: str, style: int = SECONDARY, *, disabled: bool = False) -> dict[str, Any]:
    """One button; the label is clipped to Discord's 80 characters."""
    return {"type": 2, "style": style, "label": clip(label, LABEL), "custom_id": custom_id, "disabled": disabled}


def rows(buttons: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Buttons packed into action rows of at most five."""
    return [
        {"type": 1, "components": list(buttons[i : i + BUTTONS_PER_ROW])}
        for i in range(0, len(buttons), BUTTONS_PER_ROW)
    ]


def balanced_rows(buttons: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Like :func:`rows` but spread evenly (8 cards: 4 + 4 rather than 5 + 3)."""
    n = len(buttons)
    if n == 0:
        return []
    count = -(-n // BUTTONS_PER_ROW)
    size = -(-n // count)
    return [{"type": 1, "components": list(buttons[i : i + size])} for i in range(0, n, size)]
