"""What a seat can deduce about the hidden cards from its view alone.

Everything here is computed from a :class:`~baloot.engine.view.SeatView`: the seat's
own cards, the cards played and by whom, the voids shown by failing to follow
suit (R5), the trumps a player cannot hold because they did not trump or
over-trump when R5.2 obliged them to, a locked-hand trump lead (R5.2: only
trumps left), and the cards of declared projects (R6.2: shown cards are
public).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.cards import BEATS, FULL_DECK, HIGHER_TRUMP, NO_TRUMP, SUIT_MASK, mask_of
from ..engine.hand import Phase
from ..engine.play import is_ekka
from ..engine.projects import Project
from ..engine.view import SeatView, TrickView


@dataclass(frozen=True, slots=True)
class Knowledge:
    """A seat's deductions, as card masks indexed by seat.

    ``allowed[s]`` holds every card seat ``s`` may hold now (for the seat
    itself: exactly its hand); ``known[s]`` the cards ``s`` is known to hold
    now; ``counts[s]`` how many cards ``s`` holds now.
    """

    seat: int
    trump: int  # NO_TRUMP in Sun and before the contract
    mine: int
    gone: int  # every card played, the current trick included
    played_by: tuple[int, int, int, int]
    allowed: tuple[int, int, int, int]
    known: tuple[int, int, int, int]
    counts: tuple[int, int, int, int]
    up_card: int | None  # the up card when the view shows it (R2.2)
    on_table: int  # the up card while bidding: face up, in nobody's hand (R2.2)

    @property
    def unseen(self) -> int:
        """Cards this seat has not seen: in other hands or (while bidding) undealt."""
        return FULL_DECK & ~self.mine & ~self.gone & ~self.on_table

    def void(self, seat: int, suit: int) -> bool:
        """True when ``seat`` certainly holds no card of ``suit``."""
        return not self.allowed[seat] & SUIT_MASK[suit]


def _all_tricks(view: SeatView) -> list[TrickView]:
    tricks = list(view.tricks)
    if view.current_trick is not None and view.current_trick.cards:
        tricks.append(view.current_trick)
    return tricks


def excluded_by_play(view: SeatView) -> tuple[int, int, int, int]:
    """Cards each seat cannot hold now, shown by how it played (R5.1, R5.2)."""
    trump = NO_TRUMP if view.trump is None else view.trump
    excluded = [0, 0, 0, 0]
    gone = 0
    for trick in _all_tricks(view):
        cards = trick.cards
        leader, led = cards[0][0], cards[0][1].index
        led_suit = led >> 3
        if trump != NO_TRUMP and view.locked and led_suit == trump:
            excluded[leader] |= FULL_DECK & ~SUIT_MASK[trump]  # R5.2: a locked trump lead means only trumps
        ekka = trump != NO_TRUMP and is_ekka(led, trump, gone)
        best, winner = led, leader
        for position, (seat, card_obj) in enumerate(cards[1:], start=1):
            card = card_obj.index
            suit = card >> 3
            partner_winning = (winner - seat) & 1 == 0
            if suit != led_suit:
                excluded[seat] |= SUIT_MASK[led_suit]  # R5: could not follow
                if trump != NO_TRUMP and led_suit != trump:
                    if suit != trump:
                        if partner_winning:
                            if position == 2 and not ekka:
                                excluded[seat] |= SUIT_MASK[trump]  # R5.2: 3rd player, partner led a non-Ekka
                        elif best >> 3 != trump:
                            excluded[seat] |= SUIT_MASK[trump]  # R5.2: must trump an opponent's plain card
                        else:
                            excluded[seat] |= HIGHER_TRUMP[best]  # R5.2: must over-trump if able
                    elif not partner_winning and best >> 3 == trump and not BEATS[(trump * 32 + best) * 32 + card]:
                        excluded[seat] |= HIGHER_TRUMP[best]  # R5.2: under-trumped, so no higher trump
            elif (
                trump != NO_TRUMP
                and suit == trump
                and not partner_winning
                and not BEATS[(trump * 32 + best) * 32 + card]
            ):
                excluded[seat] |= HIGHER_TRUMP[best]  # R5.2: trump led, must beat the opponent's trump
            if BEATS[(trump * 32 + best) * 32 + card]:
                best, winner = card, seat
        for _, card_obj in cards:
            gone |= card_obj.bit
    return excluded[0], excluded[1], excluded[2], excluded[3]


def longer_run_cards(projects: tuple[Project, ...]) -> int:
    """Cards that would have made a declared sequence a better project (R6.1).

    A Sira or Fifty with the card above or below it would have been a Fifty or
    Hundred, and a five-card run with the card above a higher Hundred, so a
    player who declared it does not hold them (unless another of its declared
    projects uses them, which the caller leaves out).
    """
    mask = 0
    for project in projects:
        if project.suit is None:
            continue
        length = project.mask.bit_count()
        base = project.suit * 8
        if project.top < 7:
            mask |= 1 << (base + project.top + 1)
        bottom = project.top - length + 1
        if length < 5 and bottom > 0:
            mask |= 1 << (base + bottom - 1)
    return mask


def infer(view: SeatView) -> Knowledge:
    """Deduce what ``view.seat`` knows about every hand (R2, R5, R6.2)."""
    seat = view.seat
    trump = NO_TRUMP if view.trump is None else view.trump
    mine = mask_of(view.hand)
    played_by = [0, 0, 0, 0]
    for trick in _all_tricks(view):
        for s, card in trick.cards:
            played_by[s] |= card.bit
    gone = played_by[0] | played_by[1] | played_by[2] | played_by[3]
    up_card = view.up_card.index if view.up_card is not None else None
    counts = [5, 5, 5, 5] if view.phase == Phase.BIDDING else [8 - played_by[s].bit_count() for s in range(4)]
    known = [0, 0, 0, 0]
    excluded = list(excluded_by_play(view))
    for s, projects in view.declared:
        used = 0
        for project in projects:
            known[s] |= project.mask & ~gone
            used |= project.mask
        excluded[s] |= longer_run_cards(projects) & ~used
    if up_card is not None and view.phase != Phase.BIDDING and view.taker is not None:
        known[view.taker] |= (1 << up_card) & ~gone  # R2.4: the taker holds the up card
    known[seat] = mine
    on_table = (1 << up_card) if up_card is not None and view.phase == Phase.BIDDING else 0
    pool = FULL_DECK & ~mine & ~gone & ~on_table
    others_known = 0
    for s in range(4):
        if s != seat:
            others_known |= known[s]
    allowed = [0, 0, 0, 0]
    for s in range(4):
        if s == seat:
            allowed[s] = mine
        else:
            allowed[s] = known[s] | (pool & ~others_known & ~excluded[s])
    return Knowledge(
        seat=seat,
        trump=trump,
        mine=mine,
        gone=gone,
        played_by=(played_by[0], played_by[1], played_by[2], played_by[3]),
        allowed=(allowed[0], allowed[1], allowed[2], allowed[3]),
        known=(known[0], known[1], known[2], known[3]),
        counts=(counts[0], counts[1], counts[2], counts[3]),
        up_card=up_card,
        on_table=on_table,
    )
