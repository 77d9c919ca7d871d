"""Card play (R5): which cards a player may play, and why a card is refused.

R5.1 and R5.2 are written down once, in :func:`obligations`. It returns the
legal cards *and* the obligation that excludes each other held card, so the
legal-card mask (``Hand.legal_actions``, the hot path) and the refusal a player
reads (:func:`refusal`) cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol

from .cards import HIGHER_PLAIN, HIGHER_TRUMP, NO_TRUMP, SUIT_MASK, SUIT_NAMES, SUITS
from .error_codes import ErrorCode
from .errors import IllegalActionError
from .vocab import CardMask, Seat

# Why a card is refused (R5): the engine's error codes.
NOT_HELD: Final = ErrorCode.NOT_YOUR_CARD
LOCKED_LEAD: Final = ErrorCode.LOCKED_LEAD
FOLLOW_SUIT: Final = ErrorCode.FOLLOW_SUIT
BEAT_TRUMP: Final = ErrorCode.BEAT_TRUMP
HIGHER_TRUMP_NEEDED: Final = ErrorCode.HIGHER_TRUMP
MUST_TRUMP: Final = ErrorCode.MUST_TRUMP

Obligations = tuple[CardMask, ErrorCode | None, CardMask, ErrorCode | None]
"""``(follow, follow_code, legal, legal_code)`` from :func:`obligations`."""


class TrickState(Protocol):
    """What R5 reads of a hand in play (:class:`baloot.engine.hand.Hand` is one).

    ``hands`` are the card masks held per seat, ``trump`` the trump suit
    (``NO_TRUMP`` in Sun), ``trick`` the cards played to the current trick in
    order, ``best`` and ``winner_seat`` the card winning it and its seat,
    ``played`` the cards of completed tricks, ``locked`` whether the hand is
    locked (R4).
    """

    @property
    def hands(self) -> Sequence[CardMask]: ...
    @property
    def trump(self) -> int: ...
    @property
    def trick(self) -> Sequence[int]: ...
    @property
    def best(self) -> int: ...
    @property
    def winner_seat(self) -> Seat: ...
    @property
    def played(self) -> CardMask: ...
    @property
    def locked(self) -> bool: ...


def obligations(state: TrickState, seat: Seat) -> Obligations:
    """R5.1/R5.2: the cards ``seat`` may play now, with the obligation behind each refusal.

    Returns ``(follow, follow_code, legal, legal_code)`` with
    ``legal ⊆ follow ⊆ hand``: a held card outside ``follow`` breaks the
    obligation ``follow_code`` (following suit), a card of ``follow`` outside
    ``legal`` breaks ``legal_code``. Either code is ``None`` when its mask
    excludes nothing. The rules are written in :func:`trick_obligations`.
    """
    return trick_obligations(
        state.hands[seat], state.trump, list(state.trick), state.best, state.winner_seat, state.played, state.locked,
        seat,
    )


def trick_obligations(
    hand: CardMask,
    trump: int,
    trick: list[int],
    best: int,
    winner_seat: Seat,
    played: CardMask,
    locked: bool,
    seat: Seat,
) -> Obligations:
    """R5.1/R5.2, the one definition: :func:`obligations` on the state's fields, for ``seat`` holding ``hand``.

    The engine's hot path (``Hand.legal_actions`` passes its own fields: plain arguments are
    read fast by compiled code, where a protocol's attributes are looked up by name; ``trick``
    is a list, as a ``Sequence`` is indexed and measured by generic calls).
    """
    if not trick:
        # R5.2 leading: anything, but no trump in a locked hand unless only trumps remain.
        if locked and trump != NO_TRUMP:
            plain = hand & ~SUIT_MASK[trump]
            if plain and plain != hand:
                return hand, None, plain, LOCKED_LEAD
        return hand, None, hand, None
    led = trick[0]
    led_suit = led >> 3
    suited = hand & SUIT_MASK[led_suit]
    if suited:
        # R5: follow suit when you can.
        follow_code = FOLLOW_SUIT if suited != hand else None
        if trump == NO_TRUMP or led_suit != trump or (winner_seat - seat) & 1 == 0:
            return suited, follow_code, suited, None
        # R5.2 trump led, an opponent winning: beat the winning trump if you can.
        higher = suited & HIGHER_TRUMP[best]
        if higher and higher != suited:
            return suited, follow_code, higher, BEAT_TRUMP
        return suited, follow_code, suited, None
    if trump == NO_TRUMP or led_suit == trump:
        return hand, None, hand, None  # R5.1 / R5.2: cannot follow and no duty to trump
    trumps = hand & SUIT_MASK[trump]
    if not trumps:
        return hand, None, hand, None
    if (winner_seat - seat) & 1 == 0:
        # R5.2: the partner holds the trick; the last player, or after an Ekka, is free.
        if len(trick) == 3 or is_ekka(led, trump, played):
            return hand, None, hand, None
        return hand, None, trumps, MUST_TRUMP if trumps != hand else None
    if best >> 3 != trump:
        # R5.2: an opponent wins without trump: trump
        return hand, None, trumps, MUST_TRUMP if trumps != hand else None
    higher = trumps & HIGHER_TRUMP[best]
    if higher:
        # R5.2: over-trump the opponent (even holding nothing but trumps)
        return hand, None, higher, HIGHER_TRUMP_NEEDED if higher != hand else None
    return hand, None, hand, None  # R5.2: cannot over-trump: anything


def is_ekka(card: int, trump: int, played: CardMask) -> bool:
    """R5.2 Ekka: a non-trump lead that is the highest unplayed card of its suit."""
    return trump != NO_TRUMP and card >> 3 != trump and not HIGHER_PLAIN[card] & ~played


def refusal_code(state: TrickState, seat: Seat, card: int) -> ErrorCode | None:
    """The obligation (R5) that ``seat`` playing ``card`` breaks, or ``None`` if it may."""
    bit = 1 << card
    if not state.hands[seat] & bit:
        return NOT_HELD
    follow, follow_code, legal, legal_code = obligations(state, seat)
    if not follow & bit:
        return follow_code
    if not legal & bit:
        return legal_code
    return None


def refusal_suit(code: ErrorCode, state: TrickState) -> int | None:
    """The suit a refusal names: the suit led for following, the trump for trumping."""
    if code == FOLLOW_SUIT:
        return state.trick[0] >> 3
    if code == MUST_TRUMP:
        return state.trump
    return None


def refusal(state: TrickState, seat: Seat, card: int) -> IllegalActionError | None:
    """Why ``seat`` may not play ``card`` now (R5), as the error to raise; ``None`` if it may."""
    code = refusal_code(state, seat, card)
    if code is None:
        return None
    suit = refusal_suit(code, state)
    if suit is None:
        return IllegalActionError(_MESSAGES[code], code=code)
    message = _MESSAGES[code].format(suit_name=SUIT_NAMES[suit], suit=SUITS[suit])
    return IllegalActionError(message, code=code, params={"suit": suit})


_MESSAGES: Final = {
    NOT_HELD: "You do not hold that card (R5).",
    LOCKED_LEAD: "In a locked hand you may not lead a trump while you hold other cards (R5.2).",
    FOLLOW_SUIT: "You must follow suit: play a card of {suit_name} (R5).",
    BEAT_TRUMP: "You must beat the winning trump if you can (R5.2).",
    HIGHER_TRUMP_NEEDED: "You must play a higher trump than the one winning the trick (R5.2).",
    MUST_TRUMP: "You cannot follow suit, so you must play a trump ({suit}) (R5.2).",
}
