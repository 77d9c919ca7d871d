"""One hand of Baloot as a straight-line script: deal (R2), bidding (R3), doubling (R4),
play (R5) with projects (R6), scored by R7.

The script is a generator: it ``yield``s an :class:`Ask` (who must act next and which
action types are allowed there) and receives the record's next action.  Any rule broken
raises :class:`Illegal`.  When the generator returns, the hand is finished.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

from .cards import ALL_CARDS, card_value, is_card, partner, suit, team, trick_strength
from .projects import Project, best_projects
from .scoring import HandScore, score_hand


class Illegal(Exception):
    """An action (or a hand) that the rules do not allow."""


@dataclass(frozen=True)
class Rules:
    """R9 table options."""

    target: int = 152
    ashkal_on_ace: bool = False
    ashkal_round_two: bool = False
    third_round_on_ace: bool = False
    kawesh: bool = False
    declarer_leads: bool = False
    trump_sequence_priority: bool = False
    projects_multiply_fully: bool = False
    baloot_stays_with_holder: bool = False
    sawa: bool = True  # R9: on unless the record sets it to false (R12)


ACTION_TYPES = frozenset(
    {"pass", "hokum", "sun", "ashkal", "kawesh", "double", "four", "triple", "gahwa", "declare", "play", "sawa"}
)


@dataclass(frozen=True)
class Action:
    seat: int
    type: str
    raw: dict[str, Any]


@dataclass(frozen=True)
class Ask:
    seat: int
    types: frozenset[str]
    hokum_names_suit: bool = False  # R3.2 confirmation: "hokum" must carry a suit
    hokum_double: bool = False  # R4 Hokum: "double" / "four" must carry locked


Script = Generator[Ask, Action, None]


@dataclass
class Hand:
    rules: Rules
    dealer: int
    deck: list[str]
    match_score: tuple[int, int]  # before this hand (R4 Sun double condition)

    # Known once bidding ends (R10 / R11.6)
    contract: str | None = None
    trump: str | None = None
    declarer: int | None = None
    thrown_in: bool = False
    # Known once doubling ends
    level: int | str | None = None
    locked: bool | None = None
    raiser_team: int | None = None  # R4 "last raiser"
    # Known at the end
    result: HandScore | None = None

    finished: bool = False
    cards: dict[int, list[str]] = field(default_factory=dict)
    trick: list[tuple[int, str]] = field(default_factory=list)  # the trick being played
    played: set[str] = field(default_factory=set)  # cards of completed tricks
    _pending: Ask | None = None
    _script: Script | None = None

    def __post_init__(self) -> None:
        # R1: p1 = d+1, p2 = d+2, p3 = d+3, p4 = d
        self.order = [(self.dealer + 1 + i) % 4 for i in range(4)]
        # R2.1: 3 cards each from p1, then 2 cards each
        for i, seat in enumerate(self.order):
            self.cards[seat] = self.deck[3 * i : 3 * i + 3] + self.deck[12 + 2 * i : 14 + 2 * i]
        self.up_card = self.deck[20]  # R2.2
        self._script = self._run()
        self._pending = next(self._script)

    # ------------------------------------------------------------------ driving
    def apply(self, action: Action) -> None:
        if self.finished or self._pending is None or self._script is None:
            raise Illegal("the hand is already complete (R11.5)")
        ask = self._pending
        if action.seat != ask.seat:
            raise Illegal(f"it is seat {ask.seat}'s turn, not seat {action.seat}'s")
        if action.type not in ask.types:
            raise Illegal(f"{action.type!r} is not allowed here (allowed: {sorted(ask.types)})")
        try:
            self._pending = self._script.send(action)
        except StopIteration:
            self._pending = None
            self.finished = True

    def legal_actions(self) -> list[dict[str, Any]]:
        """Every legal next action as an R10 action object (used to generate random games)."""
        ask = self._pending
        if self.finished or ask is None:
            return []
        out: list[dict[str, Any]] = []
        for kind in sorted(ask.types):
            base: dict[str, Any] = {"seat": ask.seat, "type": kind}
            if kind == "play":
                for c in self._legal_cards(ask.seat, self.trick, self.played):
                    out.append({**base, "card": c})
            elif kind == "hokum" and ask.hokum_names_suit:
                out.extend({**base, "suit": s} for s in "SHDC" if s != suit(self.up_card))
            elif kind in ("double", "four") and ask.hokum_double:
                out.extend({**base, "locked": flag} for flag in (False, True))
            else:
                out.append(base)
        return out

    def _run(self) -> Script:
        taker = yield from self._bidding()
        if taker is None:
            self.thrown_in = True  # R3.2 throw-in, or Kawesh (R9)
            return
        self._complete_deal(taker)
        yield from self._doubling()
        yield from self._play()

    # ------------------------------------------------------------------ R3 bidding
    def _ashkal_card_ok(self) -> bool:
        # R3.1 / R11.2: never on an Ace unless ashkal_on_ace
        return self.up_card[0] != "A" or self.rules.ashkal_on_ace

    def _may_kawesh(self, seat: int) -> bool:
        # R9 kawesh: first five cards all 7, 8 or 9
        return self.rules.kawesh and all(c[0] in "789" for c in self.cards[seat])

    def _set_contract(self, contract: str, trump: str | None, taker: int) -> int:
        self.contract, self.trump, self.declarer = contract, trump, taker
        return taker

    def _bidding(self) -> Generator[Ask, Action, int | None]:
        p = self.order
        up_suit = suit(self.up_card)

        # R3.1 step A
        hokum_by: int | None = None
        for i, seat in enumerate(p):
            types = {"pass", "sun"}
            if hokum_by is None:
                types.add("hokum")
                if i >= 2 and self._ashkal_card_ok():
                    types.add("ashkal")  # p3 and p4 only
            if self._may_kawesh(seat):
                types.add("kawesh")  # R11.2: step A of round one, at the caller's turn
            a = yield Ask(seat, frozenset(types))
            if a.type == "kawesh":
                return None
            if a.type == "hokum":
                hokum_by = i
            elif a.type in ("sun", "ashkal"):
                # R3.1 step B: earlier players, from p1, are asked Sun or Pass
                for j in range(i):
                    b = yield Ask(p[j], frozenset({"pass", "sun"}))
                    if b.type == "sun":
                        return self._set_contract("sun", None, p[j])
                taker = seat if a.type == "sun" else partner(seat)
                return self._set_contract("sun", None, taker)

        if hokum_by is not None:
            # R3.1 step C
            for j in range(hokum_by):
                b = yield Ask(p[j], frozenset({"pass", "sun"}))
                if b.type == "sun":
                    return self._set_contract("sun", None, p[j])
            x = p[hokum_by]
            c = yield Ask(x, frozenset({"hokum", "sun"}))
            if c.type == "hokum":
                return self._set_contract("hokum", up_suit, x)
            return self._set_contract("sun", None, x)

        # R3.2 round two
        hokum_by = None
        for i, seat in enumerate(p):
            if hokum_by is None:
                types = {"pass", "sun", "hokum"}
                if self.rules.ashkal_round_two and i >= 2 and self._ashkal_card_ok():
                    types.add("ashkal")
            else:
                types = {"pass", "sun"}
            a = yield Ask(seat, frozenset(types))
            if a.type == "sun":
                return self._set_contract("sun", None, seat)
            if a.type == "ashkal":
                return self._set_contract("sun", None, partner(seat))  # R11.2
            if a.type == "hokum":
                hokum_by = i
        if hokum_by is not None:
            return (yield from self._round_two_choice(p[hokum_by]))

        # R3.2 variant third_round_on_ace (R11.2): p1 alone, like round two
        if self.rules.third_round_on_ace and self.up_card[0] == "A":
            a = yield Ask(p[0], frozenset({"pass", "sun", "hokum"}))
            if a.type == "sun":
                return self._set_contract("sun", None, p[0])
            if a.type == "hokum":
                return (yield from self._round_two_choice(p[0]))
        return None  # thrown in

    def _round_two_choice(self, x: int) -> Generator[Ask, Action, int | None]:
        """R3.2: X chooses Hokum naming a suit other than the up card's, or Sun."""
        c = yield Ask(x, frozenset({"hokum", "sun"}), hokum_names_suit=True)
        if c.type == "sun":
            return self._set_contract("sun", None, x)
        chosen = c.raw.get("suit")
        if not isinstance(chosen, str) or chosen not in "SHDC" or len(chosen) != 1:
            raise Illegal("a round-two Hokum confirmation must carry a suit (R11.4)")
        if chosen == suit(self.up_card):
            raise Illegal("round-two Hokum must name a suit other than the up card's (R3.2)")
        return self._set_contract("hokum", chosen, x)

    # ------------------------------------------------------------------ R2.4
    def _complete_deal(self, taker: int) -> None:
        rest = self.deck[21:]
        pos = 0
        for seat in self.order:
            if seat == taker:
                self.cards[seat] = [*self.cards[seat], self.up_card, *rest[pos : pos + 2]]
                pos += 2
            else:
                self.cards[seat] = self.cards[seat] + rest[pos : pos + 3]
                pos += 3
        assert pos == len(rest) == 11
        self.initial = {seat: list(cs) for seat, cs in self.cards.items()}  # R6.2: judged on this hand

    # ------------------------------------------------------------------ R4 doubling
    def _doubling(self) -> Generator[Ask, Action, None]:
        assert self.declarer is not None
        declarer = self.declarer
        defenders = [s for s in self.order if team(s) != team(declarer)]  # earlier one first
        self.level, self.locked = None, None
        level: int | str = 1
        locked = False
        if self.contract == "sun":
            s0, s1 = self.match_score
            if not ((s0 > 100 and s1 < 100) or (s1 > 100 and s0 < 100)):  # R4, R11.9
                self.level, self.locked = 1, False  # R11.1: no doubling step at all
                return
            for d in defenders:
                a = yield Ask(d, frozenset({"pass", "double"}))
                if a.type == "double":
                    # R11.4 forbids "locked": true; false or null mean "not locked"; anything else is malformed
                    if a.raw.get("locked", False) is not False and a.raw.get("locked") is not None:
                        raise Illegal("a Sun double cannot be locked (R4, R11.4)")
                    level, self.raiser_team = 2, team(d)
                    break
            self.level, self.locked = level, False  # Sun is never locked
            return

        # Hokum
        for d in defenders:
            a = yield Ask(d, frozenset({"pass", "double"}), hokum_double=True)
            if a.type != "double":
                continue
            level, locked, self.raiser_team = 2, _locked_flag(a), team(d)
            b = yield Ask(declarer, frozenset({"pass", "triple"}))
            if b.type == "triple":
                level, locked, self.raiser_team = 3, False, team(declarer)
                c = yield Ask(d, frozenset({"pass", "four"}), hokum_double=True)
                if c.type == "four":
                    level, locked, self.raiser_team = 4, _locked_flag(c), team(d)
                    e = yield Ask(declarer, frozenset({"pass", "gahwa"}))
                    if e.type == "gahwa":
                        level, locked, self.raiser_team = "gahwa", False, team(declarer)
            break
        self.level, self.locked = level, locked

    # ------------------------------------------------------------------ R5 play, R6 projects
    def _play(self) -> Generator[Ask, Action, None]:
        assert self.contract is not None and self.declarer is not None
        trump = self.trump
        tsp = self.rules.trump_sequence_priority
        own_projects = {s: best_projects(self.initial[s], self.contract, trump, tsp) for s in range(4)}
        declared: list[int] = []  # seats that declared, in declaration order
        project_team: int | None = None  # R6.2 team with the strongest project
        played = self.played
        tricks_won = [0, 0]
        card_points = [0, 0]

        leader = self.declarer if self.rules.declarer_leads else self.order[0]  # R5, R9
        claimed = False
        for trick_no in range(8):
            trick = self.trick = []
            for k in range(4):
                seat = (leader + k) % 4
                types = {"play"}
                may_declare = trick_no == 0 or (trick_no == 1 and project_team == team(seat))  # R6.2
                if own_projects[seat] and seat not in declared and may_declare:
                    types.add("declare")  # R11.3: illegal without a project
                # R12.1: from the third trick on, the player about to lead may claim instead
                if k == 0 and trick_no >= 2 and self.rules.sawa and self._sawa_is_certain(seat, played):
                    types.add("sawa")
                a = yield Ask(seat, frozenset(types))
                if a.type == "sawa":
                    # R12.3: every remaining trick, all unplayed card points and the last 10
                    unplayed = [c for c in ALL_CARDS if c not in played]
                    card_points[team(seat)] += sum(card_value(c, trump) for c in unplayed) + 10
                    tricks_won[team(seat)] += 8 - trick_no
                    claimed = True
                    break
                if a.type == "declare":
                    declared.append(seat)
                    a = yield Ask(seat, frozenset({"play"}))
                card = a.raw.get("card")
                if not is_card(card):
                    raise Illegal(f"{card!r} is not a card (R1)")
                assert isinstance(card, str)
                if card not in self.cards[seat]:
                    raise Illegal(f"seat {seat} does not hold {card}")
                allowed = self._legal_cards(seat, trick, played)
                if card not in allowed:
                    raise Illegal(f"{card} may not be played here (R5): allowed {sorted(allowed)}")
                self.cards[seat].remove(card)
                trick.append((seat, card))
            if claimed:
                break  # R12.4: nothing follows a claim in this hand
            winner = _trick_winner(trick, trump)
            points = sum(card_value(c, trump) for _, c in trick)
            if trick_no == 7:
                points += 10  # R1.1 last trick
            card_points[team(winner)] += points
            tricks_won[team(winner)] += 1
            played.update(c for _, c in trick)
            if trick_no == 0 and declared:
                project_team = self._strongest_project_team(declared, own_projects)
            leader = winner

        scoring: list[tuple[int, Project]] = []
        if project_team is not None:
            for s in declared:
                if team(s) == project_team:
                    scoring.extend((s, pr) for pr in own_projects[s])
        self.result = score_hand(
            rules=self.rules,
            contract=self.contract,
            trump=trump,
            declarer=self.declarer,
            level=self.level if self.level is not None else 1,
            raiser_team=self.raiser_team,
            card_points=card_points,
            tricks_won=tricks_won,
            project_team=project_team,
            scoring_projects=scoring,
            baloot_team=self._baloot_team(scoring),
        )

    def _sawa_is_certain(self, seat: int, played: set[str]) -> bool:
        """R12.2: the claim is certain from what ``seat`` alone sees (its cards and the played ones).

        Outstanding = neither played nor held. Every suit held (other than trumps) must have no
        outstanding card above any held card of it; in Hokum with t outstanding trumps (t > 0) the
        claimant needs t trumps above all of them, and a locked hand only if it holds nothing but
        trumps.
        """
        mine = self.cards[seat]
        outstanding = [c for c in ALL_CARDS if c not in played and c not in mine]
        trump = self.trump if self.contract == "hokum" else None
        if trump is not None:
            out_trumps = [c for c in outstanding if suit(c) == trump]
            if out_trumps:
                top = max(trick_strength(c, trump) for c in out_trumps)
                high = [c for c in mine if suit(c) == trump and trick_strength(c, trump) > top]
                if len(high) < len(out_trumps):
                    return False
                if self.locked and any(suit(c) != trump for c in mine):
                    return False
        for s in {suit(c) for c in mine}:
            if s == trump:
                continue
            lowest = min(trick_strength(c, None) for c in mine if suit(c) == s)
            if any(suit(c) == s and trick_strength(c, None) > lowest for c in outstanding):
                return False
        return True

    def _strongest_project_team(self, declared: list[int], own: dict[int, list[Project]]) -> int:
        """R6.2: compare by each declarer's single strongest project; ties go to the earlier player
        in p1..p4 order (R11.3: even under declarer_leads)."""
        tsp = self.rules.trump_sequence_priority

        def key(seat: int) -> tuple[tuple[int, int, int, int], int]:
            strongest = max(pr.strength(self.trump, tsp) for pr in own[seat])
            return (strongest, -self.order.index(seat))

        return team(max(declared, key=key))

    def _baloot_team(self, scoring: list[tuple[int, Project]]) -> int | None:
        """R6.3 / R11.8: K and Q of trumps in one player's hand, unless that player scores a project
        holding exactly one of them, or a five-card sequence holding both."""
        if self.contract != "hokum" or self.trump is None:
            return None
        k, q = "K" + self.trump, "Q" + self.trump
        for seat in range(4):
            if k in self.initial[seat] and q in self.initial[seat]:
                for s, pr in scoring:
                    if s != seat:
                        continue
                    if (k in pr.cards) != (q in pr.cards):
                        return None
                    if pr.kind == "hundred" and not pr.four_of_a_kind and k in pr.cards and q in pr.cards:
                        return None
                return team(seat)
        return None

    def _legal_cards(self, seat: int, trick: list[tuple[int, str]], played: set[str]) -> list[str]:
        hand = self.cards[seat]
        trump = self.trump
        if not trick:
            # R5.2 leading: in a locked Hokum you may not lead a trump unless you hold only trumps
            if self.contract == "hokum" and self.locked:
                non_trumps = [c for c in hand if suit(c) != trump]
                return non_trumps or hand
            return hand
        led = suit(trick[0][1])
        follow = [c for c in hand if suit(c) == led]
        if self.contract == "sun":
            return follow or hand  # R5.1
        # R5.2 Hokum
        trumps = [c for c in hand if suit(c) == trump]
        win_seat = _trick_winner(trick, trump)
        win_card = dict(trick)[win_seat]
        partner_winning = team(win_seat) == team(seat)
        if led == trump:
            if not trumps:
                return hand
            if not partner_winning:
                higher = [c for c in trumps if trick_strength(c, trump) > trick_strength(win_card, trump)]
                if higher:
                    return higher
            return trumps
        if follow:
            return follow
        if not trumps:
            return hand
        if partner_winning:
            position = len(trick)  # 1 = second player, 2 = third, 3 = fourth
            if position == 3:
                return hand
            # third player, partner led and is winning
            if self._is_ekka(trick[0][1], played):
                return hand
            return trumps
        if suit(win_card) != trump:
            return trumps  # opponent winning with a non-trump: any trump
        higher = [c for c in trumps if trick_strength(c, trump) > trick_strength(win_card, trump)]
        return higher or hand

    def _is_ekka(self, lead: str, played: set[str]) -> bool:
        """R5.2: a non-trump lead that is the highest unplayed card of its suit (an Ace always is)."""
        if suit(lead) == self.trump:
            return False
        unplayed = [r + suit(lead) for r in "789TJQKA" if r + suit(lead) not in played]
        return max(unplayed, key=lambda c: trick_strength(c, None)) == lead


def _locked_flag(a: Action) -> bool:
    """R11.4: a Hokum double or four must say locked true or false."""
    value = a.raw.get("locked")
    if not isinstance(value, bool):
        raise Illegal(f"a Hokum {a.type} must carry 'locked': true or false (R11.4)")
    return value


def _trick_winner(trick: list[tuple[int, str]], trump: str | None) -> int:
    """R5: highest trump, else highest card of the suit led."""
    led = suit(trick[0][1])

    def key(item: tuple[int, str]) -> tuple[int, int]:
        _, c = item
        if trump is not None and suit(c) == trump:
            return (2, trick_strength(c, trump))
        if suit(c) == led:
            return (1, trick_strength(c, trump))
        return (0, 0)

    return max(trick, key=key)[0]
