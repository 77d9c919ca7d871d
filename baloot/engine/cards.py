"""Cards, suits and ranks (R1) with the bit tables the engine runs on.

A card is an index ``suit * 8 + rank`` where suits are ``S H D C`` (0..3) and
ranks are ``7 8 9 T J Q K A`` (0..7), which is also the sequence order of R1.1.
A set of cards is an ``int`` bit mask (bit ``i`` = card ``i``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from .error_codes import ErrorCode
from .errors import NotationError
from .vocab import CardMask

SUITS: Final = "SHDC"
RANKS: Final = "789TJQKA"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS: Final = ("♠", "♥", "♦", "♣")
NO_TRUMP: Final = 4  # index used for Sun in per-trump tables

RANK_7, RANK_8, RANK_9, RANK_T, RANK_J, RANK_Q, RANK_K, RANK_A = range(8)

FULL_DECK: Final = (1 << 32) - 1
SUIT_MASK: Final = tuple(0xFF << (8 * s) for s in range(4))


class Card:
    """One of the 32 cards; instances are interned, so ``is`` and ``==`` agree.

    >>> Card.parse("QH")
    Card.parse('QH')
    """

    __slots__ = ("bit", "index", "rank", "suit", "text")
    index: int
    suit: int
    rank: int
    bit: int
    text: str

    def __new__(cls, index: int) -> Card:
        if not 0 <= index < 32:
            raise NotationError(f"card index {index} is not 0..31", code=ErrorCode.BAD_CARD)
        if len(ALL_CARDS) == 32:
            return ALL_CARDS[index]
        card = super().__new__(cls)  # only while ALL_CARDS is built, below
        card.index = index
        card.suit = index >> 3
        card.rank = index & 7
        card.bit = 1 << index
        card.text = RANKS[card.rank] + SUITS[card.suit]
        return card

    @staticmethod
    def parse(text: object) -> Card:
        """Read ``QH``-style notation (rank then suit, R1); raises NotationError."""
        if not isinstance(text, str) or len(text) != 2:
            raise NotationError(f"{text!r} is not a card (rank then suit, like 'QH')", code=ErrorCode.BAD_CARD)
        rank = RANKS.find(text[0])
        suit = SUITS.find(text[1])
        if rank < 0 or suit < 0:
            raise NotationError(f"{text!r} is not a card (ranks 789TJQKA, suits SHDC)", code=ErrorCode.BAD_CARD)
        return ALL_CARDS[suit * 8 + rank]

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card.parse({self.text!r})"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card, (self.index,))

    def __hash__(self) -> int:  # explicit: a compiled class defining ``__lt__`` gets no default hash
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index


ALL_CARDS: list[Card] = []
ALL_CARDS.extend(Card(i) for i in range(32))


def parse_suit(text: object) -> int:
    """A suit letter ``S H D C`` to its index; raises NotationError."""
    if not isinstance(text, str) or len(text) != 1 or text not in SUITS:
        raise NotationError(f"{text!r} is not a suit (one of S, H, D, C)", code=ErrorCode.BAD_SUIT)
    return SUITS.index(text)


def cards_of(mask: CardMask) -> list[Card]:
    """The cards of a mask, in index order (suit, then sequence order)."""
    return [ALL_CARDS[i] for i in iter_bits(mask)]


def iter_bits(mask: CardMask) -> Iterator[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[Card]) -> CardMask:
    """The bit mask of some cards."""
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask


# R1.1 trick order, as a strength 0..7 per rank (higher wins).
TRUMP_ORDER: Final = (0, 1, 6, 4, 7, 2, 3, 5)  # J 9 A T K Q 8 7
PLAIN_ORDER: Final = (0, 1, 2, 6, 3, 4, 5, 7)  # A T K Q J 9 8 7
# R1.1 card values.
TRUMP_VALUE: Final = (0, 0, 14, 10, 20, 3, 4, 11)
PLAIN_VALUE: Final = (0, 0, 0, 10, 2, 3, 4, 11)


def _points_table() -> tuple[tuple[int, ...], ...]:
    tables = []
    for trump in range(5):
        tables.append(
            tuple(
                (TRUMP_VALUE if c >> 3 == trump else PLAIN_VALUE)[c & 7] for c in range(32)
            )
        )
    return tuple(tables)


CARD_POINTS: Final = _points_table()
"""``CARD_POINTS[trump][card]``: R1.1 value; ``trump`` is NO_TRUMP (4) in Sun."""


def _beats_table() -> bytes:
    table = bytearray(5 * 32 * 32)
    for trump in range(5):
        for best in range(32):
            for card in range(32):
                bs, cs = best >> 3, card >> 3
                if cs == trump:
                    wins = bs != trump or TRUMP_ORDER[card & 7] > TRUMP_ORDER[best & 7]
                elif cs == bs and bs != trump:
                    wins = PLAIN_ORDER[card & 7] > PLAIN_ORDER[best & 7]
                else:
                    wins = False
                table[(trump * 32 + best) * 32 + card] = wins
    return bytes(table)


BEATS: Final = _beats_table()
"""``BEATS[(trump*32 + best)*32 + card]``: does ``card`` take the trick from ``best`` (R5)."""


def _higher_masks(order: tuple[int, ...]) -> tuple[int, ...]:
    masks = []
    for card in range(32):
        suit, rank = card >> 3, card & 7
        mask = 0
        for other in range(8):
            if order[other] > order[rank]:
                mask |= 1 << (suit * 8 + other)
        masks.append(mask)
    return tuple(masks)


HIGHER_TRUMP: Final = _higher_masks(TRUMP_ORDER)
"""Cards of the same suit that beat ``card`` when that suit is trump."""
HIGHER_PLAIN: Final = _higher_masks(PLAIN_ORDER)
"""Cards of the same suit that beat ``card`` in plain order (used for Ekka, R5.2)."""
