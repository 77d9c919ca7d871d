"""Projects (R6.1): detection of a hand's best disjoint set, and comparison (R6.2)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from .cards import RANK_A, RANK_J, RANK_K, RANK_Q, RANK_T, RANKS, SUITS, Card, cards_of
from .vocab import CardMask


class ProjectType(StrEnum):
    """The project names of R6.1 as written in R10."""

    SIRA = "sira"
    FIFTY = "fifty"
    HUNDRED = "hundred"
    FOUR_HUNDRED = "four_hundred"

    def __str__(self) -> str:
        return self.value


# R6.1 values in game points: (Hokum, Sun).
PROJECT_VALUES: Final = {
    ProjectType.SIRA: (2, 4),
    ProjectType.FIFTY: (5, 10),
    ProjectType.HUNDRED: (10, 20),
    ProjectType.FOUR_HUNDRED: (0, 40),
}
_SEQ_TYPES: Final = {3: ProjectType.SIRA, 4: ProjectType.FIFTY, 5: ProjectType.HUNDRED}
QUAD_RANKS: Final = (RANK_T, RANK_J, RANK_Q, RANK_K, RANK_A)  # four 9s, 8s, 7s are nothing


@dataclass(frozen=True, slots=True)
class Project:
    """One project: a sequence (``suit`` set) or four of a kind (``suit`` None)."""

    type: ProjectType
    mask: CardMask
    top: int  # highest rank in sequence order (R6.2), or the rank of four of a kind
    suit: int | None

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Explicit: a compiled frozen dataclass cannot be unpickled by assigning its fields.
        return (Project, (self.type, self.mask, self.top, self.suit))

    @property
    def is_quad(self) -> bool:
        return self.suit is None

    def value(self, sun: bool) -> int:
        """Game points before multiplying (R6.1)."""
        return PROJECT_VALUES[self.type][1 if sun else 0]

    def strength(self, sun: bool, trump: int | None, trump_priority: bool) -> tuple[int, ...]:
        """R6.2 order: value, four-of-a-kind over sequence, top card, (variant) trump sequence."""
        trump_seq = int(trump_priority and not sun and self.suit is not None and self.suit == trump)
        return (self.value(sun), int(self.is_quad), self.top, trump_seq)

    @property
    def cards(self) -> list[Card]:
        return cards_of(self.mask)

    def describe(self) -> str:
        if self.suit is None:
            return f"{self.type.value} (four {RANKS[self.top]})"
        return f"{self.type.value} ({' '.join(c.text for c in reversed(self.cards))})"

    def to_json(self, seat: int, sun: bool) -> dict[str, object]:
        """The R10 ``projects`` entry."""
        return {"seat": seat, "type": self.type.value, "value": self.value(sun)}

    def __str__(self) -> str:
        return self.describe() + (f" in {SUITS[self.suit]}" if self.suit is not None else "")


def _runs_table() -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each 8-bit suit byte, its runs of >= 3 consecutive ranks as (low, length)."""
    table = []
    for byte in range(256):
        runs = []
        r = 0
        while r < 8:
            if byte >> r & 1:
                start = r
                while r < 8 and byte >> r & 1:
                    r += 1
                if r - start >= 3:
                    runs.append((start, r - start))
            else:
                r += 1
        table.append(tuple(runs))
    return tuple(table)


_RUNS: Final = _runs_table()
_QUAD_MASKS: Final = tuple((rank, 0x01010101 << rank) for rank in QUAD_RANKS)


def has_project(hand: CardMask) -> bool:
    """Quick test: does this hand hold any project (R6.1)?"""
    if _RUNS[hand & 255] or _RUNS[hand >> 8 & 255] or _RUNS[hand >> 16 & 255] or _RUNS[hand >> 24]:
        return True
    return any(hand & m == m for _, m in _QUAD_MASKS)


def candidates(hand: CardMask, sun: bool) -> list[Project]:
    """Every project the hand could declare, before choosing a disjoint set."""
    found: list[Project] = []
    for suit in range(4):
        for low, length in _RUNS[hand >> (8 * suit) & 255]:
            for size in (3, 4, 5):
                for start in range(low, low + length - size + 1):
                    mask = ((1 << size) - 1) << (suit * 8 + start)
                    found.append(Project(_SEQ_TYPES[size], mask, start + size - 1, suit))
    for rank, mask in _QUAD_MASKS:
        if hand & mask == mask:
            kind = ProjectType.FOUR_HUNDRED if (rank == RANK_A and sun) else ProjectType.HUNDRED
            found.append(Project(kind, mask, rank, None))
    return found


_cache: dict[tuple[int, bool, int | None, bool], tuple[Project, ...]] = {}


def best_projects(
    hand: CardMask, sun: bool, trump: int | None = None, trump_priority: bool = False
) -> tuple[Project, ...]:
    """R6.1: the disjoint set of projects with the highest total value.

    Ties go to the set whose best project is strongest (R6.2), then whose second
    is. The result is ordered strongest first; empty if the hand has none.
    """
    key = (hand, sun, trump, trump_priority)
    cached = _cache.get(key)
    if cached is not None:
        return cached
    cands = candidates(hand, sun) if has_project(hand) else []
    best: tuple[Project, ...] = ()
    best_key: tuple[object, ...] = (0,)

    def strength(p: Project) -> tuple[int, ...]:
        return p.strength(sun, trump, trump_priority)

    for i, first in enumerate(cands):
        options: list[tuple[Project, ...]] = [(first,)]
        options.extend((first, second) for second in cands[i + 1 :] if not first.mask & second.mask)
        for option in options:
            ordered = tuple(sorted(option, key=strength, reverse=True))
            option_key = (
                sum(p.value(sun) for p in ordered),
                *(strength(p) for p in ordered),
            )
            if option_key > best_key:
                best, best_key = ordered, option_key
    if len(_cache) > 200_000:
        _cache.clear()
    _cache[key] = best
    return best
