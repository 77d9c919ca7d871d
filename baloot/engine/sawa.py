"""Sawa (R12): the player to lead claims every remaining trick.

Pure functions on bit masks (a card set is an ``int``, bit ``i`` = card ``i``,
see :mod:`baloot.engine.cards`); :class:`~baloot.engine.hand.Hand` calls them through two
small hooks: :func:`claim_holds` when it lists the legal actions of a seat
about to lead (R12.1, R12.2) and :func:`claim_points` when the claim is
applied (R12.3).
"""

from __future__ import annotations

from typing import Final

from .cards import CARD_POINTS, FULL_DECK, NO_TRUMP, PLAIN_ORDER, SUIT_MASK, SUIT_NAMES, TRUMP_ORDER, iter_bits
from .error_codes import ErrorCode
from .errors import IllegalActionError

FIRST_TRICK: Final = 2
"""R12.1: the 0-based number of the first trick at whose lead Sawa may be claimed (the third)."""

LAST_TRICK_BONUS: Final = 10
"""R1.1: the winner of the last trick adds 10 card points; a claim takes it (R12.3)."""


def _strength_bytes(order: tuple[int, ...]) -> tuple[int, ...]:
    """``table[byte]``: the ranks of a one-suit byte re-laid so bit ``k`` is trick strength ``k`` (R1.1)."""
    table = []
    for byte in range(256):
        out = 0
        for rank in range(8):
            if byte >> rank & 1:
                out |= 1 << order[rank]
        table.append(out)
    return tuple(table)


PLAIN_STRENGTH: Final = _strength_bytes(PLAIN_ORDER)
"""A suit byte in plain trick order (A T K Q J 9 8 7): bit 7 is the Ace."""
TRUMP_STRENGTH: Final = _strength_bytes(TRUMP_ORDER)
"""A trump suit byte in trump trick order (J 9 A T K Q 8 7): bit 7 is the Jack."""


_LOWEST_PLAIN: Final = tuple(PLAIN_STRENGTH[b] & -PLAIN_STRENGTH[b] if b else 256 for b in range(256))
"""The plain strength bit of the lowest card of a held suit byte; 256 (above all) when none is held."""
_SIDE_SHIFTS: Final = tuple(tuple(8 * s for s in range(4) if s != trump) for trump in range(5))
"""``_SIDE_SHIFTS[trump]``: bit offsets of the suits judged in plain order (all four in Sun)."""


Fault = tuple[ErrorCode, int]
"""Why R12.2 refuses a claim: the code and its number (trumps out, or the suit)."""

_LOCKED: Final[Fault] = (ErrorCode.SAWA_LOCKED, 0)
_TRUMPS_OUT: Final = tuple((ErrorCode.SAWA_TRUMPS, n) for n in range(9))
_HIGHER_IN: Final = tuple((ErrorCode.SAWA_HIGHER, suit) for suit in range(4))


def claim_fault(hand: int, played: int, trump: int, locked: bool) -> Fault | None:
    """R12.2, the one definition: why a seat holding ``hand`` may not claim Sawa at its lead, or None.

    ``played`` holds the cards of the completed tricks (at a lead nothing else
    is on the table); a card is *outstanding* when it is neither played nor in
    ``hand``. ``trump`` is the trump suit index, or ``NO_TRUMP`` in Sun.

    - Sun: in each suit held, no outstanding card of that suit ranks above any
      held card of it (plain order).
    - Hokum, ``t`` outstanding trumps: if ``t > 0``, at least ``t`` held trumps
      rank above every outstanding trump, and the hand is not locked unless
      ``hand`` is all trumps; in every case each non-trump suit held meets the
      Sun condition.

    The caller checks R12.1 (third trick on, the seat about to lead) and R9's
    option. Voids shown in earlier play do not count (R12.2), so nothing else
    is read. A few table look-ups: this runs at every lead from the third trick on.
    """
    out = FULL_DECK & ~(played | hand)
    if trump != NO_TRUMP:
        shift = trump * 8
        trumps_out = out >> shift & 255
        if trumps_out:
            if locked and hand & ~SUIT_MASK[trump]:
                return _LOCKED  # R5.2: no trump lead while holding other cards
            above = TRUMP_STRENGTH[hand >> shift & 255] >> TRUMP_STRENGTH[trumps_out].bit_length()
            if above.bit_count() < trumps_out.bit_count():
                return _TRUMPS_OUT[trumps_out.bit_count()]
    for shift in _SIDE_SHIFTS[trump]:
        # Every outstanding card of the suit must rank below the lowest held one.
        if PLAIN_STRENGTH[out >> shift & 255] >= _LOWEST_PLAIN[hand >> shift & 255]:
            return _HIGHER_IN[shift >> 3]
    return None


def claim_holds(hand: int, played: int, trump: int, locked: bool) -> bool:
    """R12.2: may a seat holding ``hand`` claim Sawa at its lead (:func:`claim_fault` finds nothing)?"""
    return claim_fault(hand, played, trump, locked) is None


def claim_refusal(hand: int, played: int, trump: int, locked: bool) -> IllegalActionError:
    """Why :func:`claim_fault` refuses this claim (R12.2): the error to raise, with its code."""
    fault = claim_fault(hand, played, trump, locked)
    if fault is None:
        return IllegalActionError("Sawa is not possible now (R12).", code=ErrorCode.SAWA_REFUSED)
    code, number = fault
    if code is ErrorCode.SAWA_LOCKED:
        return IllegalActionError(
            "Sawa: trumps are still out and this hand is locked, so you could not lead trumps "
            "to draw them (R12.2, R5.2).",
            code=code,
        )
    if code is ErrorCode.SAWA_TRUMPS:
        return IllegalActionError(
            f"Sawa: {number} trump(s) are still out and you do not hold as many trumps above all of them (R12.2).",
            code=code,
            params={"count": number},
        )
    return IllegalActionError(
        f"Sawa: a card of {SUIT_NAMES[number]} higher than one of yours is still out (R12.2).",
        code=code,
        params={"suit": number},
    )


def claim_points(played: int, trump: int) -> int:
    """R12.3: the card points a claim takes: every unplayed card, plus the last trick's 10."""
    points = CARD_POINTS[trump]
    return sum(points[c] for c in iter_bits(FULL_DECK & ~played)) + LAST_TRICK_BONUS
