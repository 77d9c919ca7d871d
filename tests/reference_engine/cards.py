"""Cards, rankings and values (R1, R1.1)."""

from __future__ import annotations

RANKS = "789TJQKA"  # R1: ranks; this string is also the *sequence order* (R1.1), low -> high
SUITS = "SHDC"  # R1
ALL_CARDS: frozenset[str] = frozenset(r + s for r in RANKS for s in SUITS)

# R1.1 trick order, low -> high
TRUMP_ORDER = "78QKTA9J"  # J 9 A T K Q 8 7 (high -> low)
PLAIN_ORDER = "789JQKTA"  # A T K Q J 9 8 7 (high -> low)

TRUMP_VALUE = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_VALUE = {"J": 2, "9": 0, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}


def is_card(value: object) -> bool:
    """R1: a card is written rank then suit, e.g. ``TS`` (exact spelling only)."""
    return isinstance(value, str) and value in ALL_CARDS


def rank(card: str) -> str:
    return card[0]


def suit(card: str) -> str:
    return card[1]


def team(seat: int) -> int:
    """R1: team 0 = seats 0 and 2, team 1 = seats 1 and 3."""
    return seat % 2


def partner(seat: int) -> int:
    return (seat + 2) % 4


def card_value(card: str, trump: str | None) -> int:
    """R1.1 card points."""
    if trump is not None and suit(card) == trump:
        return TRUMP_VALUE[rank(card)]
    return PLAIN_VALUE[rank(card)]


def trick_strength(card: str, trump: str | None) -> int:
    """R1.1 trick order within the card's own suit (higher = stronger)."""
    if trump is not None and suit(card) == trump:
        return TRUMP_ORDER.index(rank(card))
    return PLAIN_ORDER.index(rank(card))


def sequence_index(r: str) -> int:
    """R1.1 sequence order: 7 < 8 < 9 < T < J < Q < K < A."""
    return RANKS.index(r)
