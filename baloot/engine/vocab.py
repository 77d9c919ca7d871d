"""The engine's small shared vocabulary: seats, card masks and contracts (R1, R3).

>>> Contract.SUN == "sun"
True
"""

from __future__ import annotations

from enum import StrEnum
from typing import TypeAlias

Seat: TypeAlias = int
"""A seat 0..3 in playing order; team = seat & 1 (R1)."""

CardMask: TypeAlias = int
"""A set of cards as a bit mask: bit ``i`` is card ``i = suit * 8 + rank`` (R1)."""


class Contract(StrEnum):
    """The contract a hand is played in (R3). The values are R10's ``contract`` strings."""

    SUN = "sun"
    HOKUM = "hokum"
