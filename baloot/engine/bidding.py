"""Bidding (R3): round one steps A, B and C, round two, the R9 third round and Kawesh."""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from .actions import SIMPLE_ACTIONS, Action, ActionType
from .cards import RANK_A, SUITS
from .error_codes import ErrorCode
from .errors import IllegalActionError
from .rules import Rules
from .vocab import CardMask, Contract, Seat

# Final module constants are C statics in the compiled build (a plain global is a dict look-up).
P: Final = ActionType.PASS
H: Final = ActionType.HOKUM
S: Final = ActionType.SUN
A: Final = ActionType.ASHKAL
K: Final = ActionType.KAWESH
_SUN: Final = Contract.SUN
_HOKUM: Final = Contract.HOKUM
_LOW_RANKS: Final = 0x07070707  # 7, 8 and 9 of every suit (Kawesh, R9)


class Stage(IntEnum):
    """Where the bidding stands."""

    ROUND1_A = 0  # R3.1 step A
    ROUND1_B = 1  # R3.1 step B: earlier players asked Sun or Pass after a Sun/Ashkal
    ROUND1_C = 2  # R3.1 step C: earlier players asked Sun or Pass after a Hokum
    ROUND1_CONFIRM = 3  # R3.1 step C: the Hokum bidder confirms (hokum) or switches (sun)
    ROUND2 = 4  # R3.2
    ROUND2_CONFIRM = 5  # R3.2: the Hokum bidder names a suit (hokum) or switches (sun)
    ROUND3 = 6  # R9 third_round_on_ace: p1 alone
    DONE = 7


class Outcome(IntEnum):
    """How bidding ended."""

    CONTRACT = 0
    THROWN_IN = 1  # R3.2: four passes in round two
    ANNULLED = 2  # R9 kawesh


class Bidding:
    """The R3 state machine for one hand. Seats speak in p1..p4 order."""

    __slots__ = (
        "ashkal_allowed",
        "bid_type",
        "bidder",
        "contract",
        "dealer",
        "first_five",
        "outcome",
        "queue",
        "rules",
        "stage",
        "taker",
        "to_move",
        "trump",
        "up_card",
    )

    def __init__(
        self,
        dealer: Seat,
        up_card: int,
        first_five: tuple[CardMask, ...],
        rules: Rules,
        *,
        copy_of: Bidding | None = None,
    ) -> None:
        if copy_of is not None:  # clone(): every field copied explicitly
            self._copy_from(copy_of)
            return
        self.dealer = dealer
        self.up_card = up_card
        self.first_five = first_five
        self.rules = rules
        self.ashkal_allowed = (up_card & 7) != RANK_A or rules.ashkal_on_ace
        self.stage = Stage.ROUND1_A
        # Seats still to speak in the current step, in order; queue[0] is to move.
        self.queue = [(dealer + i) % 4 for i in range(1, 5)]
        self.to_move = self.queue[0]
        self.bidder: Seat | None = None  # X: the standing bid's player
        self.bid_type: ActionType | None = None
        self.outcome: Outcome | None = None
        self.contract: Contract | None = None  # set with Outcome.CONTRACT
        self.trump: int | None = None  # the trump suit of a Hokum contract
        self.taker: Seat | None = None

    def clone(self) -> Bidding:
        """An independent copy."""
        return Bidding(self.dealer, self.up_card, self.first_five, self.rules, copy_of=self)

    def _copy_from(self, other: Bidding) -> None:
        self.ashkal_allowed = other.ashkal_allowed
        self.bid_type = other.bid_type
        self.bidder = other.bidder
        self.contract = other.contract
        self.dealer = other.dealer
        self.first_five = other.first_five
        self.outcome = other.outcome
        self.queue = other.queue.copy()
        self.rules = other.rules
        self.stage = other.stage
        self.taker = other.taker
        self.to_move = other.to_move
        self.trump = other.trump
        self.up_card = other.up_card

    def position(self, seat: Seat) -> int:
        """0 for p1 .. 3 for p4 (R1)."""
        return (seat - self.dealer - 1) % 4

    # -- legal actions ----------------------------------------------------
    def legal(self) -> list[Action]:
        """The legal actions of the seat to move (R3, R9, R11.2)."""
        seat = self.to_move
        stage = self.stage
        acts = SIMPLE_ACTIONS[seat]
        if stage == Stage.ROUND1_A:
            if self.bidder is None:
                types = [P, H, S]
                if self.position(seat) >= 2 and self.ashkal_allowed:
                    types.append(A)
            else:
                types = [P, S]
            if self.rules.kawesh and not self.first_five[seat] & ~_LOW_RANKS:
                types.append(K)
            return [acts[t] for t in types]
        if stage in (Stage.ROUND1_B, Stage.ROUND1_C):
            return [acts[P], acts[S]]
        if stage == Stage.ROUND1_CONFIRM:
            return [acts[H], acts[S]]
        if stage == Stage.ROUND2:
            if self.bidder is not None:
                return [acts[P], acts[S]]
            types = [P, S, H]
            if self.rules.ashkal_round_two and self.position(seat) >= 2 and self.ashkal_allowed:
                types.append(A)
            return [acts[t] for t in types]
        if stage == Stage.ROUND3:
            return [acts[P], acts[S], acts[H]]
        if stage == Stage.ROUND2_CONFIRM:
            up_suit = self.up_card >> 3
            return [Action(seat, H, suit=s) for s in range(4) if s != up_suit] + [acts[S]]
        return []

    def explain(self, atype: ActionType) -> IllegalActionError:
        """Why ``atype`` is not allowed now, as the error to raise (R3)."""
        stage = self.stage
        if atype is ActionType.ASHKAL:
            if not self.ashkal_allowed:
                return _refused(ErrorCode.ASHKAL_ACE, "Ashkal is not allowed when the up card is an Ace (R3.1).")
            if stage in (Stage.ROUND2, Stage.ROUND3) and not self.rules.ashkal_round_two:
                return _refused(ErrorCode.ASHKAL_ROUND_ONE, "Ashkal may only be bid in round one (R3.2).")
            if self.bidder is not None:
                return _refused(ErrorCode.ASHKAL_AFTER_BID, "Ashkal may only be bid while nobody has bid (R3.1).")
            return _refused(ErrorCode.ASHKAL_POSITION, "Ashkal may only be bid by the third or fourth player (R3.1).")
        if atype is ActionType.KAWESH:
            if not self.rules.kawesh:
                return _refused(ErrorCode.KAWESH_OFF, "Kawesh is not played at this table (R9).")
            if stage != Stage.ROUND1_A:
                return _refused(ErrorCode.KAWESH_STAGE, "Kawesh may only be called in round one, step A (R11.2).")
            return _refused(ErrorCode.KAWESH_CARDS, "Kawesh needs first five cards that are all 7, 8 or 9 (R9).")
        if atype is ActionType.HOKUM:
            if stage == Stage.ROUND2_CONFIRM:
                up_suit = self.up_card >> 3
                return IllegalActionError(
                    f"Name a trump suit other than the up card's ({SUITS[up_suit]}) (R3.2).",
                    code=ErrorCode.ROUND_TWO_SUIT,
                    params={"suit": up_suit},
                )
            return _refused(ErrorCode.ONLY_PASS_OR_SUN, "Once a bid stands you may only pass or bid Sun (R3).")
        allowed = ", ".join(sorted({a.type.value for a in self.legal()}))
        return IllegalActionError(
            f"During bidding you may now only: {allowed} (R3).",
            code=ErrorCode.BIDDING_ONLY,
            params={"allowed": allowed},
        )

    # -- applying -----------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Apply a legal action (the caller has checked legality)."""
        _APPLY_BY_STAGE[self.stage](self, action)

    def _round1_a(self, action: Action) -> None:
        """R3.1 step A (and R9 Kawesh): each player in turn passes or bids."""
        seat, atype, queue = action.seat, action.type, self.queue
        queue.pop(0)
        if atype is K:
            self._finish(Outcome.ANNULLED)
            return
        if atype is S or atype is A:
            self.bidder, self.bid_type = seat, atype
            self._ask_earlier(seat, Stage.ROUND1_B)
            return
        if atype is H:
            self.bidder, self.bid_type = seat, atype
        if queue:
            self.to_move = queue[0]
        elif self.bidder is None:
            self._ask(Stage.ROUND2, [(self.dealer + i) % 4 for i in range(1, 5)])
        else:
            self._ask_earlier(self.bidder, Stage.ROUND1_C)

    def _round1_earlier(self, action: Action) -> None:
        """R3.1 steps B and C: the earlier players may take the contract in Sun."""
        seat, queue = action.seat, self.queue
        queue.pop(0)
        if action.type is S:
            self._contract(seat, _SUN, seat)
            return
        if queue:
            self.to_move = queue[0]
            return
        bidder = self.bidder
        assert bidder is not None
        if self.stage == Stage.ROUND1_C:
            self._ask(Stage.ROUND1_CONFIRM, [bidder])
        else:
            self._sun_stands(bidder)

    def _round1_confirm(self, action: Action) -> None:
        """R3.1 step C: the Hokum bidder confirms in the up card's suit or switches to Sun."""
        seat = action.seat
        if action.type is H:
            self._contract(seat, _HOKUM, seat, self.up_card >> 3)
        else:
            self._contract(seat, _SUN, seat)

    def _round2(self, action: Action) -> None:
        """R3.2 round two (and R9's third round): Sun, Ashkal or a Hokum to confirm."""
        seat, atype, queue = action.seat, action.type, self.queue
        queue.pop(0)
        if atype is S:
            self._contract(seat, _SUN, seat)
            return
        if atype is A:
            self._contract(seat, _SUN, (seat + 2) % 4)
            return
        if atype is H:
            self.bidder, self.bid_type = seat, atype
        if queue:
            self.to_move = queue[0]
        elif self.bidder is not None:
            self._ask(Stage.ROUND2_CONFIRM, [self.bidder])
        elif self.stage == Stage.ROUND2 and self.rules.third_round_on_ace and self.up_card & 7 == RANK_A:
            self._ask(Stage.ROUND3, [(self.dealer + 1) % 4])
        else:
            self._finish(Outcome.THROWN_IN)

    def _round2_confirm(self, action: Action) -> None:
        """R3.2: the Hokum bidder names a trump suit or switches to Sun."""
        seat = action.seat
        if action.type is H:
            self._contract(seat, _HOKUM, seat, action.suit)
        else:
            self._contract(seat, _SUN, seat)

    def _done(self, action: Action) -> None:
        raise AssertionError("bidding is over")

    def _ask(self, stage: Stage, seats: list[Seat]) -> None:
        """Go to ``stage`` with ``seats`` to speak, in order."""
        self.stage = stage
        self.queue = seats
        self.to_move = seats[0]

    def _ask_earlier(self, seat: Seat, stage: Stage) -> None:
        """R3.1 steps B and C: ask each player earlier than ``seat``, from p1."""
        earlier = [(self.dealer + i) % 4 for i in range(1, 1 + self.position(seat))]
        if earlier:
            self._ask(stage, earlier)
        elif stage == Stage.ROUND1_C:
            self._ask(Stage.ROUND1_CONFIRM, [seat])
        else:  # a Sun or Ashkal by p1 stands at once
            self._sun_stands(seat)

    def _sun_stands(self, bidder: Seat) -> None:
        """R3.1: the standing Sun is taken by its bidder, an Ashkal by the bidder's partner."""
        self._contract(bidder, _SUN, (bidder + 2) % 4 if self.bid_type is A else bidder)

    def _contract(self, bidder: Seat, contract: Contract, taker: Seat, trump: int | None = None) -> None:
        self.bidder = bidder
        self.contract = contract
        self.taker = taker
        self.trump = None if contract is _SUN else trump
        self._finish(Outcome.CONTRACT)

    def _finish(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self.stage = Stage.DONE
        self.queue = []


def _refused(code: ErrorCode, message: str) -> IllegalActionError:
    """An R3 refusal with no parameters."""
    return IllegalActionError(message, code=code)


_APPLY_BY_STAGE: Final = (
    Bidding._round1_a,  # ROUND1_A
    Bidding._round1_earlier,  # ROUND1_B
    Bidding._round1_earlier,  # ROUND1_C
    Bidding._round1_confirm,  # ROUND1_CONFIRM
    Bidding._round2,  # ROUND2
    Bidding._round2_confirm,  # ROUND2_CONFIRM
    Bidding._round2,  # ROUND3
    Bidding._done,  # DONE
)
"""The step of :meth:`Bidding.apply` for each :class:`Stage`, by its value."""
