"""``make_player(level)``: the AI levels by name."""

from __future__ import annotations

from typing import Final

from .easy import EasyPlayer
from .normal import NormalPlayer
from .player import Player, RandomPlayer

LEVELS: Final = ("random", "easy", "normal", "hard")


def make_player(level: str, budget_ms: float | None = None) -> Player:
    """A player of ``level`` (one of :data:`LEVELS`); ``budget_ms`` is hard's time per decision."""
    if level == "random":
        return RandomPlayer()
    if level == "easy":
        return EasyPlayer()
    if level == "normal":
        return NormalPlayer()
    if level == "hard":
        from .hard import HardPlayer

        return HardPlayer() if budget_ms is None else HardPlayer(budget_ms=budget_ms)
    raise ValueError(f"unknown AI level {level!r}; choose one of {', '.join(LEVELS)}")
