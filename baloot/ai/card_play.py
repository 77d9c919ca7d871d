"""Rule-based card play (R5) on card masks, shared by the normal level and the
hard level's playouts.

The caller describes the position with :class:`PlayPosition`: ``allowed[s]``
is every card seat ``s`` may hold (the seat's own hand for itself). From its
own view a seat passes what it deduced (:mod:`knowledge`); a playout on a full
deal passes the real hands.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.cards import (
    BEATS,
    CARD_POINTS,
    HIGHER_PLAIN,
    HIGHER_TRUMP,
    NO_TRUMP,
    PLAIN_ORDER,
    SUIT_MASK,
    TRUMP_ORDER,
)


class PlayPosition:
    """One decision in the play (R5) as masks and card indices.

    A plain class with its ``__init__`` written out (not a dataclass): the rollouts build one
    per card decision, and a compiled dataclass runs the interpreted generated ``__init__``.
    """

    __slots__ = ("allowed", "best", "declarers", "gone", "legal", "seat", "trick", "trump", "winner")

    def __init__(
        self,
        seat: int,
        trump: int,  # NO_TRUMP in Sun
        legal: int,  # cards the seat may play now
        trick: Sequence[int],  # cards of the current trick in play order (the leader's first)
        best: int,  # the card winning the trick (if any)
        winner: int,  # the seat winning the trick (if any)
        gone: int,  # every card played, the current trick included
        allowed: Sequence[int],  # per seat: cards it may hold
        declarers: int,  # the taker's team
    ) -> None:
        self.seat = seat
        self.trump = trump
        self.legal = legal
        self.trick = trick
        self.best = best
        self.winner = winner
        self.gone = gone
        self.allowed = allowed
        self.declarers = declarers

    def _fields(self) -> tuple[object, ...]:
        return (
            self.seat, self.trump, self.legal, self.trick, self.best, self.winner, self.gone, self.allowed,
            self.declarers,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PlayPosition) and self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value (as the dataclass was)

    def __repr__(self) -> str:
        names = ("seat", "trump", "legal", "trick", "best", "winner", "gone", "allowed", "declarers")
        return f"PlayPosition({', '.join(f'{n}={v!r}' for n, v in zip(names, self._fields(), strict=True))})"


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _strength(card: int, trump: int) -> int:
    """R1.1 trick order strength of a card within its suit."""
    return (TRUMP_ORDER if card >> 3 == trump else PLAIN_ORDER)[card & 7]


def _higher(card: int, trump: int) -> int:
    return HIGHER_TRUMP[card] if card >> 3 == trump else HIGHER_PLAIN[card]


def _beaten_later(pos: PlayPosition, best: int, led_suit: int, seats: Sequence[int]) -> bool:
    """Could an opponent still to play beat ``best`` (R5: follow, trump, over-trump)?"""
    trump = pos.trump
    for o in seats:
        m = pos.allowed[o]
        follows = m & SUIT_MASK[led_suit]
        if best >> 3 == led_suit:
            if m & _higher(best, trump):
                return True
            if not follows and trump != NO_TRUMP and led_suit != trump and m & SUIT_MASK[trump]:
                return True
        elif not follows and m & HIGHER_TRUMP[best]:
            return True
    return False


class CardChooser:
    """The rule-based card player; ``choose(pos)`` returns a card index of ``pos.legal``."""

    __slots__ = ("outside", "points", "pos")
    pos: PlayPosition
    points: tuple[int, ...]
    outside: int

    def choose(self, pos: PlayPosition) -> int:
        legal = _bits(pos.legal)
        if len(legal) == 1:
            return legal[0]
        self.pos = pos
        self.points = CARD_POINTS[pos.trump]
        seat = pos.seat
        outside = 0
        for s in range(4):
            if s != seat:
                outside |= pos.allowed[s]
        self.outside = outside
        if not pos.trick:
            return self._lead(legal)
        return self._follow(legal)

    # -- values ------------------------------------------------------------------
    def _is_master(self, card: int) -> bool:
        """No card that beats ``card`` in its suit can be held by another seat."""
        return not _higher(card, self.pos.trump) & self.outside

    def _keep(self, card: int) -> int:
        """How much keeping ``card`` for later is worth, in card points."""
        if card >> 3 == self.pos.trump:
            return 12 + 3 * TRUMP_ORDER[card & 7]
        if self._is_master(card):
            return 12
        return 0

    def _cheapest(self, cards: list[int]) -> int:
        """``min(cards, key=(points + keep, rank))``, written as a loop (no closure per call)."""
        points = self.points
        best = cards[0]
        best_value, best_rank = points[best] + self._keep(best), best & 7
        for c in cards:
            value, rank = points[c] + self._keep(c), c & 7
            if value < best_value or (value == best_value and rank < best_rank):
                best, best_value, best_rank = c, value, rank
        return best

    def _richest(self, cards: list[int]) -> int:
        """``max(cards, key=(points - keep, -rank))``: the first of the best, as ``max`` keeps it."""
        points = self.points
        best = cards[0]
        best_value, best_rank = points[best] - self._keep(best), best & 7
        for c in cards:
            value, rank = points[c] - self._keep(c), c & 7
            if value > best_value or (value == best_value and rank < best_rank):
                best, best_value, best_rank = c, value, rank
        return best

    # -- following -----------------------------------------------------------------
    def _follow(self, legal: list[int]) -> int:
        pos = self.pos
        seat, trump = pos.seat, pos.trump
        trick = pos.trick
        led_suit = trick[0] >> 3
        later_opps = [(seat + k) & 3 for k in range(1, 4 - len(trick)) if k & 1]
        partner_winning = pos.winner == seat ^ 2
        if partner_winning and not _beaten_later(pos, pos.best, led_suit, later_opps):
            return self._richest(legal)  # give points to a partner who wins (R5)
        base = (trump * 32 + pos.best) * 32
        winners = [c for c in legal if BEATS[base + c]]
        if winners:
            safe = [c for c in winners if not _beaten_later(pos, c, led_suit, later_opps)]
            if safe:
                return self._richest(safe)
            if not partner_winning:
                at_stake = sum(self.points[c] for c in trick)
                if at_stake >= 10:
                    return max(winners, key=lambda c: (c >> 3 == trump, _strength(c, trump)))
        return self._cheapest(legal)

    # -- leading ---------------------------------------------------------------------
    def _lead(self, legal: list[int]) -> int:
        pos = self.pos
        seat, trump = pos.seat, pos.trump
        o1, o2, partner = (seat + 1) & 3, (seat + 3) & 3, seat ^ 2
        opp = pos.allowed[o1] | pos.allowed[o2]
        if trump != NO_TRUMP:
            trumps_out = opp & SUIT_MASK[trump]
            my_trumps = [c for c in legal if c >> 3 == trump]
            if trumps_out and my_trumps and seat & 1 == pos.declarers:
                top = max(my_trumps, key=lambda c: TRUMP_ORDER[c & 7])
                if self._is_master(top):
                    return top  # draw the opponents' trumps (trump control)
        masters = []
        for c in legal:
            suit = c >> 3
            if suit == trump or not self._is_master(c):
                continue
            if trump != NO_TRUMP:
                ruffers = [
                    o for o in (o1, o2)
                    if not pos.allowed[o] & SUIT_MASK[suit] and pos.allowed[o] & SUIT_MASK[trump]
                ]
                if ruffers:
                    continue
            masters.append(c)
        if masters:
            mine = pos.allowed[seat]
            return max(masters, key=lambda c: (self.points[c], (mine & SUIT_MASK[c >> 3]).bit_count()))
        if trump != NO_TRUMP:
            pm = pos.allowed[partner]
            for c in sorted(legal, key=lambda c: self.points[c]):
                suit = c >> 3
                if (
                    suit != trump
                    and not pm & SUIT_MASK[suit]
                    and pm & SUIT_MASK[trump]
                    and not self._is_master(c)
                    and self.points[c] < 10
                ):
                    return c  # let partner ruff

        def risk(c: int) -> tuple[int, int]:
            suit = c >> 3
            value = self.points[c] + self._keep(c)
            if suit == trump and seat & 1 != pos.declarers:
                value += 10
            if trump != NO_TRUMP and suit != trump:
                for o in (o1, o2):
                    if not pos.allowed[o] & SUIT_MASK[suit] and pos.allowed[o] & SUIT_MASK[trump]:
                        value += 8
            return value, c & 7
        return min(legal, key=risk)

