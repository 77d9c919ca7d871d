"""The values the tournament functions share: team ids and one round's pairings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

TeamId = int
"""A team's id (the storage row's id; any distinct positive ints in tests)."""

BYE: Final = 0
"""The opponent of a team that sits a round out (a bye; a bot team may fill it)."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """One table of a round: ``first`` and ``second`` meet (``second`` is :data:`BYE` for a bye).

    ``table_no`` numbers the tables of the round from 0; the duplicate orientation of the table
    (which team holds seats 0 and 2) follows from it (:func:`baloot.tournaments.team_seats`).
    """

    table_no: int
    first: TeamId
    second: TeamId

    @property
    def bye(self) -> bool:
        return self.second == BYE
