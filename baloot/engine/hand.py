"""One hand of Baloot as a state machine: deal (R2), bidding (R3), doubling (R4),
play (R5), projects and Baloot (R6) and scoring (R7).

``legal_actions()`` lists what the seat to move may do; ``apply(action)``
applies one action or raises a :class:`~baloot.engine.errors.IllegalActionError`
that names the rule, leaving the state untouched.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import Final

from .actions import BAD_SUIT, DECLARE_ACTIONS, PLAY_ACTIONS, SAWA_ACTIONS, Action, ActionType, is_seat
from .bidding import Bidding, Outcome
from .cards import (
    BEATS,
    CARD_POINTS,
    FULL_DECK,
    NO_TRUMP,
    RANK_K,
    RANK_Q,
    Card,
    cards_of,
)
from .error_codes import ErrorCode
from .errors import GameOverError, IllegalActionError, NotationError, NotYourTurnError
from .play import refusal, trick_obligations
from .projects import Project, best_projects, has_project
from .rules import Rules
from .sawa import FIRST_TRICK as SAWA_FIRST_TRICK
from .sawa import claim_holds, claim_points, claim_refusal
from .scoring import GAHWA, HandScore, score_hand
from .vocab import CardMask, Contract, Seat

# Final module constants are C statics in the compiled build (a plain global is a dict look-up).
_PLAY: Final = ActionType.PLAY
_DECLARE: Final = ActionType.DECLARE
_PASS: Final = ActionType.PASS
_SAWA: Final = ActionType.SAWA


class Phase(IntEnum):
    """The phases of a hand."""

    BIDDING = 0
    DOUBLING = 1
    PLAYING = 2
    FINISHED = 3


_BIDDING: Final = Phase.BIDDING
_DOUBLING: Final = Phase.DOUBLING
_PLAYING: Final = Phase.PLAYING
_FINISHED: Final = Phase.FINISHED
_SUN: Final = Contract.SUN
_HOKUM: Final = Contract.HOKUM


class DoubleStage(IntEnum):
    """R4: who is asked next in the doubling chain."""

    FIRST_DEFENDER = 0
    SECOND_DEFENDER = 1
    TRIPLE = 2  # the declarer: Triple or pass
    FOUR = 3  # the doubler: Four or pass
    GAHWA = 4  # the declarer: Gahwa or pass


class Hand:
    """The state of one hand. Build with the dealer, the deck, the rules and the
    match score before the hand (R4's Sun double needs it).

    Search code (the hard AI's playouts) may read these fields directly; they
    are kept stable: ``contract`` (a :class:`Contract`, None until one is
    made), ``hands`` (card masks per seat, held now), ``start_hands``
    (at the start of play, R6.1), ``trick`` (card indices in play order, from
    ``leader``), ``best`` and ``winner_seat`` (the card winning the trick and its
    seat), ``played`` (cards of completed tricks), ``trump`` (suit index, or
    NO_TRUMP in Sun), ``taker``, ``declarers`` (team), ``level``, ``locked``,
    ``trick_no``, ``card_points`` and ``tricks_won`` (per team), ``to_move``,
    ``phase``. Mutate only through :meth:`apply` (on a :meth:`clone`).
    """

    def __init__(
        self,
        dealer: object,  # a Seat; checked here (R10), as compiled code would refuse a non-int with TypeError
        deck: Sequence[Card],
        rules: Rules | None = None,
        match_score: tuple[int, int] = (0, 0),
        *,
        copy_of: Hand | None = None,
    ) -> None:
        if copy_of is not None:  # clone(): every field copied explicitly (compiled classes have no __dict__)
            self._copy_from(copy_of)
            return
        try:
            bits = [c.bit for c in deck]
        except (AttributeError, TypeError):
            raise NotationError("a deck must be a list of 32 cards", code=ErrorCode.BAD_DECK) from None
        seen = 0
        for b in bits:
            seen |= b
        if len(bits) != 32 or seen != FULL_DECK:
            raise NotationError("a deck must hold the 32 distinct cards", code=ErrorCode.BAD_DECK)
        if not is_seat(dealer):
            raise NotationError(f"dealer {dealer!r} is not 0..3", code=ErrorCode.BAD_SEAT)
        self.rules = rules or Rules()
        self.dealer: Seat = dealer
        self.deck = tuple(deck)
        self.match_score = match_score
        self.actions: list[Action] = []
        self.phase = Phase.BIDDING
        # R2.1: packets of 3 then 2, from p1.
        hands: list[CardMask] = [0, 0, 0, 0]
        p1 = (dealer + 1) & 3
        hands[p1] = bits[0] | bits[1] | bits[2] | bits[12] | bits[13]
        hands[(p1 + 1) & 3] = bits[3] | bits[4] | bits[5] | bits[14] | bits[15]
        hands[(p1 + 2) & 3] = bits[6] | bits[7] | bits[8] | bits[16] | bits[17]
        hands[(p1 + 3) & 3] = bits[9] | bits[10] | bits[11] | bits[18] | bits[19]
        first_five = tuple(hands)
        self.hands = hands
        self.up_card = deck[20].index  # R2.2
        self.bidding = Bidding(dealer, self.up_card, first_five, self.rules)
        self.to_move = self.bidding.to_move
        self.outcome: Outcome | None = None
        # Contract (set when bidding ends).
        self.contract: Contract | None = None  # None while bidding, or when thrown in (R3.2, R9)
        self.trump = NO_TRUMP
        self.taker: Seat | None = None
        self.declarers = 0
        # Doubling (R4).
        self.level = 1
        self.locked = False
        self.last_raiser: int | None = None  # seat of the last Double/Triple/Four/Gahwa
        self.doubler: int | None = None
        self.double_stage = DoubleStage.FIRST_DEFENDER
        self.defenders: tuple[int, int] = (0, 0)
        # Play (R5, R6).
        self.start_hands: tuple[CardMask, CardMask, CardMask, CardMask] = (0, 0, 0, 0)
        self.trick_no = 0
        self.trick: list[int] = []  # card indices in play order, from self.leader
        self.tricks_history: list[tuple[int, int, tuple[int, ...]]] = []  # (leader, winner, cards)
        self.leader = 0
        self.best = 0
        self.winner_seat = 0
        self.played: CardMask = 0
        self.card_points = [0, 0]
        self.tricks_won = [0, 0]
        self.declared: dict[int, tuple[Project, ...]] = {}
        self.may_declare = 0  # bit per seat: may declare now (R6.2, R11.3)
        self.project_team: int | None = None  # team with the strongest project (R6.2)
        self.baloot_holder: int | None = None
        self.baloot_shown = 0  # how many of the holder's K/Q of trump are played
        self.baloot_mask = 0  # the holder's K and Q of trumps (R6.3)
        self.result: HandScore | None = None
        self.bidding_length: int | None = None  # actions[:bidding_length] are bids (R3)
        self.play_start: int | None = None  # actions[play_start:] are declarations and plays
        self.sawa_by: int | None = None  # the seat that claimed Sawa (R12), which ended the play
        self._legal: list[Action] | None = None

    def clone(self) -> Hand:
        """An independent copy of this state (for search: apply actions to the copy)."""
        return Hand(self.dealer, self.deck, self.rules, self.match_score, copy_of=self)

    def __deepcopy__(self, memo: dict[int, object]) -> Hand:
        """``copy.deepcopy``: a clone, whose fields are copied lists or immutable values."""
        return self.clone()

    def _copy_from(self, other: Hand) -> None:
        self.actions = other.actions.copy()
        self.baloot_holder = other.baloot_holder
        self.baloot_mask = other.baloot_mask
        self.baloot_shown = other.baloot_shown
        self.best = other.best
        self.bidding = other.bidding.clone()
        self.bidding_length = other.bidding_length
        self.card_points = other.card_points.copy()
        self.contract = other.contract
        self.dealer = other.dealer
        self.deck = other.deck
        self.declared = other.declared.copy()
        self.declarers = other.declarers
        self.defenders = other.defenders
        self.double_stage = other.double_stage
        self.doubler = other.doubler
        self.hands = other.hands.copy()
        self.last_raiser = other.last_raiser
        self.leader = other.leader
        self._legal = other._legal
        self.level = other.level
        self.locked = other.locked
        self.match_score = other.match_score
        self.may_declare = other.may_declare
        self.outcome = other.outcome
        self.phase = other.phase
        self.play_start = other.play_start
        self.played = other.played
        self.project_team = other.project_team
        self.result = other.result
        self.rules = other.rules
        self.sawa_by = other.sawa_by
        self.start_hands = other.start_hands
        self.taker = other.taker
        self.to_move = other.to_move
        self.trick = other.trick.copy()
        self.trick_no = other.trick_no
        self.tricks_history = other.tricks_history.copy()
        self.tricks_won = other.tricks_won.copy()
        self.trump = other.trump
        self.up_card = other.up_card
        self.winner_seat = other.winner_seat

    # -- queries ---------------------------------------------------------------
    def position(self, seat: Seat) -> int:
        """0 for p1 .. 3 for p4 (R1)."""
        return (seat - self.dealer - 1) % 4

    @property
    def finished(self) -> bool:
        return self.phase == Phase.FINISHED

    @property
    def sun(self) -> bool:
        """Whether the contract is Sun (R3); False while bidding and in Hokum."""
        return self.contract is _SUN

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to move; empty when the hand is over.

        The list is computed once per state and cached (the hot path of search
        and of the benchmark, so it is written out in one function).
        """
        legal = self._legal
        if legal is not None:
            return legal
        phase = self.phase
        if phase is not _PLAYING:
            if phase is _BIDDING:
                legal = self.bidding.legal()
            elif phase is _DOUBLING:
                legal = self._doubling_legal()
            else:
                legal = []
            self._legal = legal
            return legal
        seat = self.to_move
        # R5.1 / R5.2, defined once in play.py
        mask = trick_obligations(
            self.hands[seat], self.trump, self.trick, self.best, self.winner_seat, self.played, self.locked, seat
        )[2]
        plays = PLAY_ACTIONS[seat]
        acts = []
        while mask:
            low = mask & -mask
            acts.append(plays[low.bit_length() - 1])
            mask ^= low
        if self.may_declare >> seat & 1:
            acts.append(DECLARE_ACTIONS[seat])
        # R12.1/R12.2 hook: Sawa at a lead from the third trick on, when the claim is certain.
        if self._sawa_bar() is None and claim_holds(self.hands[seat], self.played, self.trump, self.locked):
            acts.append(SAWA_ACTIONS[seat])
        self._legal = acts
        return acts

    def projects_of(self, seat: Seat) -> tuple[Project, ...]:
        """R6.1: the seat's projects on the hand held when play began."""
        return best_projects(
            self.start_hands[seat],
            self.contract is _SUN,
            None if self.contract is _SUN else self.trump,
            self.rules.trump_sequence_priority,
        )

    # -- applying --------------------------------------------------------------
    def apply(self, value: Action | object) -> None:
        """Apply one action (R2-R7); raises IllegalActionError and changes nothing.

        ``value`` is checked here, so a non-action is a NotationError even when compiled.
        """
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        action: Action | None = None
        for a in legal:  # actions are interned: a legal one is one of these objects
            if a is value:
                action = a
                break
        if action is None:
            action = self._resolve(value, legal)
        self._legal = None
        self.actions.append(action)
        phase = self.phase
        if phase is _PLAYING:
            card = action.card_index
            if card >= 0:
                self._play(action.seat, card)
            elif action.type is _DECLARE:
                self._declare(action.seat)
            else:
                self._claim_sawa(action.seat)
        elif phase is _BIDDING:
            bidding = self.bidding
            bidding.apply(action)
            if bidding.outcome is None:
                self.to_move = bidding.to_move
            else:
                self._end_bidding()
        else:
            self._double(action)

    def _resolve(self, action: object, legal: list[Action]) -> Action:
        """Match a non-interned or loosely written action to a legal one, or explain."""
        if not isinstance(action, Action):
            raise NotationError(f"{action!r} is not an action", code=ErrorCode.BAD_ACTION)
        if self.phase == Phase.FINISHED:
            raise GameOverError("This hand is already over (R11.5).", code=ErrorCode.HAND_OVER)
        if action.seat != self.to_move:
            raise NotYourTurnError(
                f"It is seat {self.to_move}'s turn, not seat {action.seat}'s.",
                code=ErrorCode.NOT_YOUR_TURN,
                params={"seat": self.to_move},
            )
        atype = action.type
        same = [a for a in legal if a.type is atype]
        if atype is ActionType.HOKUM and same:
            if same[0].suit is None:
                return same[0]  # a suit on a round-one or first round-two Hokum is ignored
            if action.suit is None or action.suit == BAD_SUIT:
                raise IllegalActionError(
                    "Confirming Hokum in round two must name the trump suit (R3.2, R11.4).",
                    code=ErrorCode.CONFIRM_NEEDS_SUIT,
                )
            raise self.bidding.explain(atype)
        if atype in (ActionType.DOUBLE, ActionType.FOUR) and same:
            if self.contract is _SUN:
                if action.locked:
                    raise IllegalActionError(
                        "A Sun double cannot be locked (R4, R11.4).", code=ErrorCode.SUN_DOUBLE_LOCKED
                    )
                return same[0]
            if action.locked is None:
                raise IllegalActionError(
                    f"A Hokum {atype.value} must say locked or open (R4, R11.4).",
                    code=ErrorCode.LOCK_OR_OPEN,
                    params={"action": atype.value},
                )
        if same and atype not in (_PLAY,):
            return same[0]
        raise self._explain(action)

    def _explain(self, action: Action) -> IllegalActionError:
        """Why a (well-formed) action by the seat to move is refused, as the error to raise."""
        atype = action.type
        if self.phase == Phase.BIDDING:
            return self.bidding.explain(atype)
        if self.phase == Phase.DOUBLING:
            return self._doubling_explain()
        if atype is _PLAY:
            card = action.card
            assert card is not None
            reason = refusal(self, action.seat, card.index)
            assert reason is not None, "a legal play is never explained"
            return reason
        if atype is _DECLARE:
            if not has_project(self.start_hands[action.seat]):
                return IllegalActionError("You have no project to declare (R11.3).", code=ErrorCode.NO_PROJECT)
            if action.seat in self.declared:
                return IllegalActionError(
                    "You have already declared your projects (R6.2).", code=ErrorCode.ALREADY_DECLARED
                )
            if self.trick_no == 1:
                return IllegalActionError(
                    "Only the winning project team's other player may show projects now (R6.2).",
                    code=ErrorCode.SHOW_ONLY_WINNING,
                )
            return IllegalActionError(
                "Projects are declared during the first trick, before you play (R6.2).",
                code=ErrorCode.DECLARE_FIRST_TRICK,
            )
        if atype is _SAWA:
            return self._sawa_explain()
        return IllegalActionError(
            f"You may not {atype.value} while the cards are being played (R5).",
            code=ErrorCode.NOT_DURING_PLAY,
            params={"action": atype.value},
        )

    def _sawa_bar(self) -> ErrorCode | None:
        """What keeps the seat to move from claiming Sawa whatever it holds (R9, R12.1); None if nothing.

        The one statement of when a claim may be made; whether it holds is :func:`.sawa.claim_holds`.
        """
        if self.trick:
            return ErrorCode.SAWA_MID_TRICK
        if self.trick_no < SAWA_FIRST_TRICK:
            return ErrorCode.SAWA_EARLY
        if not self.rules.sawa:
            return ErrorCode.SAWA_OFF
        return None

    def _sawa_explain(self) -> IllegalActionError:
        """Why the seat to move may not claim Sawa now (R9, R12.1, R12.2)."""
        code = self._sawa_bar()
        if code is None:
            return claim_refusal(self.hands[self.to_move], self.played, self.trump, self.locked)
        if code is ErrorCode.SAWA_OFF or not self.rules.sawa:
            return IllegalActionError("Sawa is turned off at this table (R9).", code=ErrorCode.SAWA_OFF)
        if code is ErrorCode.SAWA_MID_TRICK:
            return IllegalActionError(
                "Sawa is claimed instead of leading a trick, not during one (R12.1).", code=ErrorCode.SAWA_MID_TRICK
            )
        return IllegalActionError(
            "Sawa may be claimed only from the third trick on (R12.1).", code=ErrorCode.SAWA_EARLY
        )

    # -- bidding and the end of the deal ---------------------------------------
    def _end_bidding(self) -> None:
        bidding = self.bidding
        self.outcome = bidding.outcome
        self.bidding_length = len(self.actions)
        if bidding.outcome != Outcome.CONTRACT:
            self.phase = Phase.FINISHED
            return
        taker = bidding.taker
        assert taker is not None
        self.taker = taker
        self.declarers = taker & 1
        self.contract = bidding.contract
        if bidding.contract is _HOKUM:
            assert bidding.trump is not None
            self.trump = bidding.trump
        # R2.4: complete the deal from deck[21:], p1 first; the taker gets the up card + 2.
        deck = self.deck
        pos = 21
        hands = self.hands
        for i in range(1, 5):
            seat = (self.dealer + i) & 3
            if seat == taker:
                hands[seat] = hands[seat] | deck[pos].bit | deck[pos + 1].bit | (1 << self.up_card)
                pos += 2
            else:
                hands[seat] = hands[seat] | deck[pos].bit | deck[pos + 1].bit | deck[pos + 2].bit
                pos += 3
        self.start_hands = (hands[0], hands[1], hands[2], hands[3])
        if self.contract is not _SUN:
            kq = (1 << (self.trump * 8 + RANK_K)) | (1 << (self.trump * 8 + RANK_Q))
            for seat in range(4):
                if hands[seat] & kq == kq:
                    self.baloot_holder = seat
                    self.baloot_mask = kq
        d1, d2 = (taker + 1) % 4, (taker + 3) % 4
        self.defenders = (d1, d2) if self.position(d1) < self.position(d2) else (d2, d1)
        if self.contract is _SUN and not self._sun_double_allowed():
            self._start_play()  # R11.1: no doubling step at all
            return
        self.phase = Phase.DOUBLING
        self.double_stage = DoubleStage.FIRST_DEFENDER
        self.to_move = self.defenders[0]

    def _sun_double_allowed(self) -> bool:
        """R4, R11.9: one team above 100 and the other below 100 before this hand."""
        a, b = self.match_score
        return (a > 100 and b < 100) or (b > 100 and a < 100)

    # -- doubling (R4) -----------------------------------------------------------
    def _doubling_legal(self) -> list[Action]:
        """R4: the answers open to the player asked in the doubling chain."""
        return list(_DOUBLING_CHOICES[self.contract is _SUN][self.double_stage][self.to_move])

    def _doubling_explain(self) -> IllegalActionError:
        """R4: who may say what now, as the error to raise."""
        code, who = _DOUBLING_REFUSALS[self.double_stage]
        return IllegalActionError(f"Now {who} (R4).", code=code)

    def _double(self, action: Action) -> None:
        atype = action.type
        stage = self.double_stage
        if atype is _PASS:
            if stage == DoubleStage.FIRST_DEFENDER:
                self.double_stage = DoubleStage.SECOND_DEFENDER
                self.to_move = self.defenders[1]
                return
            self._start_play()
            return
        self.last_raiser = action.seat
        if atype is ActionType.DOUBLE:
            self.level = 2
            self.locked = bool(action.locked)
            self.doubler = action.seat
            if self.contract is _SUN:
                self.locked = False
                self._start_play()
                return
            self.double_stage = DoubleStage.TRIPLE
            assert self.taker is not None
            self.to_move = self.taker
        elif atype is ActionType.TRIPLE:
            self.level = 3
            self.locked = False
            self.double_stage = DoubleStage.FOUR
            assert self.doubler is not None
            self.to_move = self.doubler
        elif atype is ActionType.FOUR:
            self.level = 4
            self.locked = bool(action.locked)
            self.double_stage = DoubleStage.GAHWA
            assert self.taker is not None
            self.to_move = self.taker
        else:
            self.level = GAHWA
            self.locked = False
            self._start_play()

    # -- play (R5, R6) -------------------------------------------------------------
    def _start_play(self) -> None:
        self.phase = Phase.PLAYING
        self.play_start = len(self.actions)
        assert self.taker is not None
        first = self.taker if self.rules.declarer_leads else (self.dealer + 1) % 4
        self.leader = first
        self.to_move = first
        for seat in range(4):  # R6.2: anyone with a project may declare in trick 1
            if has_project(self.start_hands[seat]):
                self.may_declare |= 1 << seat

    def _declare(self, seat: Seat) -> None:
        self.declared[seat] = self.projects_of(seat)
        self.may_declare &= ~(1 << seat)

    def _play(self, seat: Seat, card: int) -> None:
        """R5: play a card; the trick goes to the highest trump, else the highest of the suit led."""
        bit = 1 << card
        hands = self.hands
        hands[seat] = hands[seat] ^ bit  # not ``^=``: a list item's augmented op is generic when compiled
        if bit & self.baloot_mask:
            self.baloot_shown += 1
        trick = self.trick
        trick.append(card)
        n = len(trick)
        if n == 1 or BEATS[(self.trump * 32 + self.best) * 32 + card]:
            self.best = card
            self.winner_seat = seat
        if n < 4:
            self.to_move = (seat + 1) & 3
        else:
            self._end_trick()

    def _end_trick(self) -> None:
        trick = self.trick
        winner = self.winner_seat
        team = winner & 1
        points = CARD_POINTS[self.trump]
        c0, c1, c2, c3 = trick
        pts = points[c0] + points[c1] + points[c2] + points[c3]
        self.played |= (1 << c0) | (1 << c1) | (1 << c2) | (1 << c3)
        self.tricks_history.append((self.leader, winner, (c0, c1, c2, c3)))
        self.trick = []
        self.trick_no += 1
        tricks_won, card_points = self.tricks_won, self.card_points
        tricks_won[team] = tricks_won[team] + 1
        if self.trick_no == 8:
            pts += 10  # R1.1: last trick
        card_points[team] = card_points[team] + pts
        if self.trick_no == 1:
            self._compare_projects()
        elif self.trick_no == 2:
            self.may_declare = 0
        if self.trick_no == 8:
            self._finish_play()
            return
        self.leader = winner
        self.to_move = winner

    def _claim_sawa(self, seat: int) -> None:
        """R12.3: play ends; every remaining trick, its card points and the last trick's 10
        go to the claimant's team (al-kaboot if it now holds all eight). A Baloot whose
        second card is unplayed counts as if played: :meth:`baloot_team` reads the deal."""
        team = seat & 1
        self.sawa_by = seat
        self.card_points[team] += claim_points(self.played, self.trump)
        self.tricks_won[team] += 8 - self.trick_no
        self._finish_play()

    def _compare_projects(self) -> None:
        """R6.2: after the first trick the strongest single declared project wins."""
        best_key: tuple[int, ...] | None = None
        for seat, projects in self.declared.items():
            if not projects:
                continue
            key = (*projects[0].strength(
                self.contract is _SUN, None if self.contract is _SUN else self.trump, self.rules.trump_sequence_priority
            ), -self.position(seat))
            if best_key is None or key > best_key:
                best_key = key
                self.project_team = seat & 1
        # R6.2: in trick 2 only the winning team's player who did not declare may show.
        team = self.project_team
        self.may_declare = 0
        if team is not None:
            for seat in (team, team + 2):
                if seat not in self.declared and has_project(self.start_hands[seat]):
                    self.may_declare |= 1 << seat

    def winning_projects(self) -> list[tuple[Seat, Project]]:
        """The projects that score (R6.2): all declared by the winning team's players."""
        team = self.project_team
        if team is None:
            return []
        return [
            (seat, p)
            for seat in sorted(self.declared, key=self.position)
            if seat & 1 == team
            for p in self.declared[seat]
        ]

    def baloot_team(self) -> int | None:
        """R6.3 and R11.8: the team of a Baloot that counts, else None."""
        holder = self.baloot_holder
        if holder is None:
            return None
        kq = self.baloot_mask
        for seat, project in self.winning_projects():
            if seat != holder:
                continue
            both = project.mask & kq == kq
            if bin(project.mask & kq).count("1") == 1 or (both and project.mask.bit_count() == 5):
                return None
        return holder & 1

    def _finish_play(self) -> None:
        project_points = [0, 0]
        for seat, project in self.winning_projects():
            project_points[seat & 1] += project.value(self.contract is _SUN)
        baloot = [0, 0]
        bt = self.baloot_team()
        if bt is not None:
            baloot[bt] = 2
        self.result = score_hand(
            sun=self.contract is _SUN,
            declarers=self.declarers,
            level=self.level,
            last_raiser_team=None if self.last_raiser is None else self.last_raiser & 1,
            card_points=(self.card_points[0], self.card_points[1]),
            tricks=(self.tricks_won[0], self.tricks_won[1]),
            project_points=(project_points[0], project_points[1]),
            baloot=(baloot[0], baloot[1]),
            rules=self.rules,
        )
        self.outcome = Outcome.CONTRACT
        self.phase = Phase.FINISHED

    # -- helpers for views and records ------------------------------------------------
    def hand_of(self, seat: Seat) -> list[Card]:
        """The cards a seat holds now."""
        return cards_of(self.hands[seat])

    @property
    def trump_suit(self) -> int | None:
        """The trump suit index in Hokum, else None."""
        return None if self.contract is _SUN or self.taker is None else self.trump

    @property
    def score(self) -> tuple[int, int] | None:
        """What the finished hand adds to the match (R7); None if not finished."""
        if self.phase != Phase.FINISHED:
            return None
        if self.result is None:
            return (0, 0)
        return self.result.score


def _doubling_choices() -> tuple[tuple[tuple[tuple[Action, ...], ...], ...], ...]:
    """``[sun][stage][seat]``: the R4 answers, with locked/open for Hokum Double and Four."""
    pass_, dbl, tpl, four, gahwa = (
        ActionType.PASS,
        ActionType.DOUBLE,
        ActionType.TRIPLE,
        ActionType.FOUR,
        ActionType.GAHWA,
    )
    by_sun = []
    for sun in (False, True):
        stages = []
        for stage in DoubleStage:
            seats = []
            for seat in range(4):
                choice: tuple[Action, ...]
                if stage <= DoubleStage.SECOND_DEFENDER:
                    if sun:
                        choice = (Action(seat, pass_), Action(seat, dbl))
                    else:
                        choice = (Action(seat, pass_), Action(seat, dbl, locked=True), Action(seat, dbl, locked=False))
                elif stage == DoubleStage.TRIPLE:
                    choice = (Action(seat, pass_), Action(seat, tpl))
                elif stage == DoubleStage.FOUR:
                    choice = (Action(seat, pass_), Action(seat, four, locked=True), Action(seat, four, locked=False))
                else:
                    choice = (Action(seat, pass_), Action(seat, gahwa))
                seats.append(choice)
            stages.append(tuple(seats))
        by_sun.append(tuple(stages))
    return tuple(by_sun)


_DOUBLING_CHOICES: Final = _doubling_choices()

_DOUBLING_REFUSALS: Final = {
    DoubleStage.FIRST_DEFENDER: (ErrorCode.DOUBLING_DEFENDER, "a defender may Double or pass"),
    DoubleStage.SECOND_DEFENDER: (ErrorCode.DOUBLING_DEFENDER, "a defender may Double or pass"),
    DoubleStage.TRIPLE: (ErrorCode.DOUBLING_TRIPLE, "the declarer may Triple or pass"),
    DoubleStage.FOUR: (ErrorCode.DOUBLING_FOUR, "the doubler may Four or pass"),
    DoubleStage.GAHWA: (ErrorCode.DOUBLING_GAHWA, "the declarer may Gahwa or pass"),
}
"""R4: the refusal in each doubling stage (its code and who may speak)."""
