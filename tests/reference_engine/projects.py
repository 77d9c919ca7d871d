"""Projects (R6.1) and their comparison (R6.2)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from .cards import RANKS, SUITS, sequence_index

# R6.1 values: (Hokum, Sun)
VALUES: dict[str, tuple[int, int]] = {
    "sira": (2, 4),
    "fifty": (5, 10),
    "hundred": (10, 20),
    "four_hundred": (0, 40),  # Sun only
}
SEQUENCE_KIND = {3: "sira", 4: "fifty", 5: "hundred"}
FOUR_OF_A_KIND_RANKS = "TJQKA"  # R6.1: four 9s, 8s or 7s are nothing


@dataclass(frozen=True)
class Project:
    kind: str  # "sira" | "fifty" | "hundred" | "four_hundred"
    cards: frozenset[str]
    value: int  # game points before multiplying (R6.1)
    top: int  # sequence index of the top card (for four-of-a-kind: its rank) (R6.2)
    four_of_a_kind: bool
    suit: str | None  # the suit of a sequence, None for four-of-a-kind

    def strength(self, trump: str | None, trump_sequence_priority: bool) -> tuple[int, int, int, int]:
        """R6.2: value, then four-of-a-kind over sequence, then top card, then (variant) trump sequence."""
        trump_seq = int(trump_sequence_priority and trump is not None and self.suit == trump)
        return (self.value, int(self.four_of_a_kind), self.top, trump_seq)


def candidate_projects(hand: list[str], contract: str) -> list[Project]:
    """Every single project formable from the hand (R6.1), including sub-runs of longer runs."""
    col = 0 if contract == "hokum" else 1
    held = set(hand)
    found: list[Project] = []
    for s in SUITS:
        for length in (3, 4, 5):
            for low in range(len(RANKS) - length + 1):
                cards = frozenset(RANKS[i] + s for i in range(low, low + length))
                if cards <= held:
                    kind = SEQUENCE_KIND[length]
                    found.append(Project(kind, cards, VALUES[kind][col], low + length - 1, False, s))
    for r in FOUR_OF_A_KIND_RANKS:
        cards = frozenset(r + s for s in SUITS)
        if cards <= held:
            # R6.1: four A in Sun is a Four Hundred; four T/J/Q/K (or four A in Hokum) a Hundred
            kind = "four_hundred" if r == "A" and contract == "sun" else "hundred"
            found.append(Project(kind, cards, VALUES[kind][col], sequence_index(r), True, None))
    return found


def best_projects(hand: list[str], contract: str, trump: str | None, trump_sequence_priority: bool) -> list[Project]:
    """R6.1: the set of disjoint projects with the highest total value; ties by the strongest best project."""
    candidates = candidate_projects(hand, contract)
    best: list[Project] = []
    best_key: tuple[int, list[tuple[int, int, int, int]]] = (0, [])
    for size in range(1, len(candidates) + 1):
        for combo in combinations(candidates, size):
            used: set[str] = set()
            disjoint = True
            for p in combo:
                if used & p.cards:
                    disjoint = False
                    break
                used |= p.cards
            if not disjoint:
                continue
            strengths = sorted((p.strength(trump, trump_sequence_priority) for p in combo), reverse=True)
            key = (sum(p.value for p in combo), strengths)
            if key > best_key:
                best_key = key
                best = list(combo)
    return best
