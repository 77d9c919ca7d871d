"""Knockout: seeded by rating, the byes to the top seeds, winners meet in bracket order.

The bracket has the next power of two of slots; seed ``s`` (1 = best) takes the slot of the
standard seeding order (1 meets the last seed, 2 the second-last, and 1 and 2 can meet only in the
final). A slot without a team is a bye for the seed it faces, so the byes go to the top seeds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .model import BYE, Pairing, TeamId


def bracket_order(size: int) -> list[int]:
    """Seeds (1-based) in bracket order for ``size`` slots (a power of two): [1, 8, 4, 5, 2, 7, 3, 6]."""
    if size < 1 or size & (size - 1):
        raise ValueError("the bracket size must be a power of two")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def knockout_first_round(seeded: Sequence[TeamId]) -> list[Pairing]:
    """The first round: ``seeded`` best first. Byes (second = BYE) go to the top seeds."""
    if len(seeded) < 2:
        raise ValueError("a knockout needs at least two teams")
    size = 1
    while size < len(seeded):
        size *= 2
    slots = [seeded[s - 1] if s <= len(seeded) else BYE for s in bracket_order(size)]
    return [Pairing(i, slots[2 * i], slots[2 * i + 1]) for i in range(size // 2)]


def knockout_next_round(previous: Sequence[Pairing], winners: Mapping[int, TeamId]) -> list[Pairing]:
    """The next round from the previous one's tables and each table's winner (by ``table_no``).

    Table ``2i`` and ``2i+1``'s winners meet at table ``i``. A bye's winner is its team.
    """
    def winner(pairing: Pairing) -> TeamId:
        return pairing.first if pairing.bye else winners[pairing.table_no]

    ordered = sorted(previous, key=lambda p: p.table_no)
    if len(ordered) < 2:
        raise ValueError("the final has been played")
    return [Pairing(i, winner(ordered[2 * i]), winner(ordered[2 * i + 1])) for i in range(len(ordered) // 2)]
