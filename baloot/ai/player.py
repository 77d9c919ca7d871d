"""The :class:`Player` protocol every AI level implements, and the random player.

A player sees only its seat's :class:`~baloot.view.SeatView` (ARCHITECTURE.md:
nothing hidden) and a caller-supplied ``random.Random``; it returns one of
``view.legal``.
"""

from __future__ import annotations

import random
from typing import Protocol

from ..actions import Action
from ..view import SeatView


class Player(Protocol):
    """An AI seat: ``choose`` returns one of ``view.legal``."""

    name: str

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        """Pick a legal action for ``view.seat`` using only ``view`` and ``rng``."""
        ...


class RandomPlayer:
    """Uniformly random legal play: the baseline of the arena."""

    name = "random"

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action (not its turn)")
        return legal[rng.randrange(len(legal))]
