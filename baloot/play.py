"""Card play (R5): which cards a player may play, and why a card is refused."""

from __future__ import annotations

from .cards import HIGHER_PLAIN, HIGHER_TRUMP, NO_TRUMP, SUIT_MASK, SUIT_NAMES, SUITS


def lead_mask(hand: int, trump: int, locked: bool) -> int:
    """R5.2 leading: anything, but no trump in a locked hand unless only trumps remain."""
    if locked:
        plain = hand & ~SUIT_MASK[trump]
        if plain:
            return plain
    return hand


def is_ekka(card: int, trump: int, played: int) -> bool:
    """R5.2 Ekka: a non-trump lead that is the highest unplayed card of its suit."""
    return card >> 3 != trump and not HIGHER_PLAIN[card] & ~played


def follow_mask(
    hand: int,
    trump: int,
    led: int,
    best: int,
    partner_winning: bool,
    position: int,
    ekka: bool,
) -> int:
    """R5.1/R5.2: the cards a player may play to a trick already led.

    ``led`` is the first card, ``best`` the card winning so far, ``position``
    how many cards are on the table (1..3), ``ekka`` whether the lead was one.
    """
    led_suit = led >> 3
    suited = hand & SUIT_MASK[led_suit]
    if trump == NO_TRUMP:
        return suited or hand
    if led_suit == trump:
        if not suited:
            return hand
        if partner_winning:
            return suited
        return (suited & HIGHER_TRUMP[best]) or suited
    if suited:
        return suited
    trumps = hand & SUIT_MASK[trump]
    if not trumps:
        return hand
    if partner_winning:
        if position == 3 or ekka:
            return hand
        return trumps
    if best >> 3 != trump:
        return trumps
    return (trumps & HIGHER_TRUMP[best]) or hand


def refusal(
    card: int,
    hand: int,
    trump: int,
    led: int | None,
    best: int,
    partner_winning: bool,
    locked: bool,
) -> str:
    """A player's explanation of why ``card`` may not be played now (R5)."""
    if not hand >> card & 1:
        return "You do not hold that card."
    if led is None:
        return "In a locked hand you may not lead a trump while you hold other cards (R5.2)."
    led_suit = led >> 3
    if card >> 3 != led_suit and hand & SUIT_MASK[led_suit]:
        return f"You must follow suit: play a card of {SUIT_NAMES[led_suit]} (R5)."
    if led_suit == trump:
        return "You must beat the winning trump if you can (R5.2)."
    if best >> 3 == trump and not partner_winning:
        return "You must play a higher trump than the one winning the trick (R5.2)."
    return f"You cannot follow suit, so you must play a trump ({SUITS[trump]}) (R5.2)."
