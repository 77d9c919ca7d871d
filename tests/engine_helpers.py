"""Helpers for scripting engine scenarios (R2 deal, R10 actions).

``build_deck`` turns the four intended 8-card hands into the 32-card deck that
R2 deals into exactly those hands; ``play`` runs a short text script of actions
against a :class:`~baloot.Hand` or :class:`~baloot.Match`.

Seats are 0..3 in playing order; team 0 = seats 0 and 2, team 1 = seats 1
and 3 (R1). In the tests that follow the source's examples, N=0, W=1, S=2,
E=3 (anticlockwise play: N, W, S, E).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from baloot import Action, ActionType, Card, Hand, Match, Rules
from baloot.engine.cards import SUITS, parse_suit

ROOT = Path(__file__).resolve().parent.parent

# R1.1 values, written out independently of baloot.engine.cards for cross-checks.
_TRUMP_VALUES = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
_PLAIN_VALUES = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
_TRUMP_ORDER = "78QKTA9J"  # low -> high
_PLAIN_ORDER = "789JQKTA"


def cards(text: str) -> list[Card]:
    """``"AS KS QS"`` -> cards."""
    return [Card.parse(t) for t in text.split()]


def build_deck(
    dealer: int,
    hands: Sequence[str],
    up: str,
    taker: int | None = None,
) -> list[Card]:
    """The deck that R2 deals into exactly ``hands`` (indexed by seat).

    Each hand is 8 cards as text. The up card ``up`` must be in the taker's
    hand (``taker`` defaults to the seat holding it). For every seat, the first
    five cards listed (not counting the up card) are its first five (R2.1):
    p1's first three are ``deck[0:3]``, its next two ``deck[12:14]``, and so
    on; the rest complete the deal from ``deck[21:]`` (R2.4).
    """
    parsed = [cards(h) for h in hands]
    up_card = Card.parse(up)
    if len(parsed) != 4 or any(len(h) != 8 for h in parsed):
        raise ValueError("four hands of 8 cards are needed")
    holders = [s for s in range(4) if up_card in parsed[s]]
    if len(holders) != 1:
        raise ValueError(f"the up card {up} must be in exactly one hand")
    if taker is None:
        taker = holders[0]
    if holders[0] != taker:
        raise ValueError(f"the up card {up} must be in the taker's (seat {taker}) hand")
    rest = [[c for c in h if c is not up_card] for h in parsed]
    deck: list[Card] = [None] * 32  # type: ignore[list-item]
    order = [(dealer + i) % 4 for i in range(1, 5)]
    for i, seat in enumerate(order):
        deck[3 * i : 3 * i + 3] = rest[seat][0:3]
        deck[12 + 2 * i : 14 + 2 * i] = rest[seat][3:5]
    deck[20] = up_card
    pos = 21
    for seat in order:
        extra = rest[seat][5:]
        deck[pos : pos + len(extra)] = extra
        pos += len(extra)
    if len(set(deck)) != 32:
        raise ValueError("the hands must hold the 32 distinct cards")
    return deck


def new_hand(
    dealer: int,
    hands: Sequence[str],
    up: str,
    taker: int | None = None,
    rules: Rules | None = None,
    match_score: tuple[int, int] = (0, 0),
) -> Hand:
    """A hand dealt from :func:`build_deck`."""
    return Hand(dealer, build_deck(dealer, hands, up, taker), rules, match_score)


_NO_ARG = {t.value: t for t in ActionType if t not in (ActionType.PLAY,)}


def parse_script(script: str) -> list[Action]:
    """Read a script like ``"1 pass 2 hokum 3 double locked 0 QH 1 declare"``.

    Grammar (commas and semicolons are ignored): ``SEAT CARD`` plays a card;
    ``SEAT TYPE`` with TYPE an R10 action type; ``double``/``four`` take
    ``locked`` or ``open``; ``hokum`` may take a suit letter (R3.2).
    """
    tokens = script.replace(",", " ").replace(";", " ").split()
    out: list[Action] = []
    i = 0
    while i < len(tokens):
        seat = int(tokens[i])
        word = tokens[i + 1]
        i += 2
        if len(word) == 2 and word[0].upper() in "789TJQKA" and word[1].upper() in SUITS:
            out.append(Action.play(seat, word))
            continue
        if word == "play":
            out.append(Action.play(seat, tokens[i]))
            i += 1
            continue
        atype = _NO_ARG[word]
        locked: bool | None = None
        suit: int | None = None
        if atype in (ActionType.DOUBLE, ActionType.FOUR) and i < len(tokens) and tokens[i] in ("locked", "open"):
            locked = tokens[i] == "locked"
            i += 1
        elif atype is ActionType.HOKUM and i < len(tokens) and tokens[i].upper() in SUITS and len(tokens[i]) == 1:
            suit = parse_suit(tokens[i].upper())
            i += 1
        out.append(Action(seat, atype, locked=locked, suit=suit))
    return out


def play(target: Hand | Match, script: str) -> list[Action]:
    """Apply every action of ``script`` to a hand or match; returns the actions."""
    actions = parse_script(script)
    for action in actions:
        target.apply(action)
    return actions


def snapshot(hand: Hand) -> tuple[Any, ...]:
    """Everything an action may change, to check a refused action changed nothing."""
    return (
        hand.actions[:],
        hand.hands[:],
        hand.phase,
        hand.to_move,
        hand.trick[:],
        hand.trick_no,
        hand.card_points[:],
        dict(hand.declared),
        hand.may_declare,
        hand.level,
        hand.locked,
        hand.taker,
        hand.bidding.stage,
        hand.bidding.queue[:],
        hand.bidding.bidder,
        hand.double_stage,
    )


def match_with_hand(
    dealer: int,
    hands: Sequence[str],
    up: str,
    taker: int | None = None,
    rules: Rules | None = None,
) -> tuple[Match, Hand]:
    """A match whose first hand is dealt from :func:`build_deck`."""
    match = Match(rules, dealer)
    hand = match.deal(build_deck(dealer, hands, up, taker))
    return match, hand


def replay_cli(path: str | Path, stdin: str | None = None) -> tuple[int, Any]:
    """Run ``python -m baloot replay FILE`` and parse its one JSON object (R10)."""
    proc = subprocess.run(
        [sys.executable, "-m", "baloot", "replay", str(path)],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    assert len(lines) == 1, f"replay must print exactly one JSON line, got {proc.stdout!r} / {proc.stderr!r}"
    assert proc.stderr == "", proc.stderr
    return proc.returncode, json.loads(lines[0])


def random_game(
    rng: random.Random,
    rules: Rules | None = None,
    max_hands: int = 40,
    first_dealer: int | None = None,
) -> Match:
    """A match played with uniformly random legal actions."""
    match = Match(rules, rng.randrange(4) if first_dealer is None else first_dealer)
    for _ in range(max_hands):
        if match.finished:
            break
        hand = match.deal(rng)
        while not hand.finished:
            match.apply(rng.choice(hand.legal_actions()))
    return match


def trick_points_independent(trump: str | None, plays: Iterable[tuple[int, str]]) -> list[int]:
    """Card points per team from the plays of a whole hand, recomputed from R1.1 and R5.

    ``plays`` are (seat, card text) in play order, 32 of them; tricks are
    consecutive groups of four. Independent of the engine's tables.
    """
    points = [0, 0]
    seq = list(plays)
    assert len(seq) == 32
    for t in range(8):
        trick = seq[4 * t : 4 * t + 4]
        led = trick[0][1][1]

        def key(play: tuple[int, str], led: str = led) -> tuple[int, int]:
            rank, suit = play[1][0], play[1][1]
            if suit == trump:
                return (2, _TRUMP_ORDER.index(rank))
            if suit == led:
                return (1, _PLAIN_ORDER.index(rank))
            return (0, 0)

        winner = max(trick, key=key)[0]
        pts = sum((_TRUMP_VALUES if c[1] == trump else _PLAIN_VALUES)[c[0]] for _, c in trick)
        if t == 7:
            pts += 10
        points[winner % 2] += pts
    return points


def fill_hands(specs: Sequence[tuple[str, str]]) -> list[str]:
    """Complete four partial hands to 8 cards each.

    ``specs[seat] = (cards, voids)``: the cards the seat must hold, and the
    suits (letters) it must hold no further cards of. The remaining cards
    are dealt deterministically (backtracking) respecting the voids.
    """
    fixed = [cards(c) for c, _ in specs]
    used = {c for h in fixed for c in h}
    if len(used) != sum(len(h) for h in fixed):
        raise ValueError("a card is given twice")
    rest = [c for c in (Card.parse(r + s) for s in SUITS for r in "789TJQKA") if c not in used]
    hands = [list(h) for h in fixed]

    def allowed(seat: int, card: Card) -> bool:
        return len(hands[seat]) < 8 and card.text[1] not in specs[seat][1].upper()

    def place(i: int) -> bool:
        if i == len(rest):
            return True
        card = rest[i]
        for seat in sorted(range(4), key=lambda s: len(hands[s])):
            if allowed(seat, card):
                hands[seat].append(card)
                if place(i + 1):
                    return True
                hands[seat].pop()
        return False

    if not place(0):
        raise ValueError("cannot complete the hands with these voids")
    return [" ".join(c.text for c in h) for h in hands]


def hokum_by_p1(
    hands: Sequence[str],
    up: str,
    rules: Rules | None = None,
    doubling: str = "1 pass 3 pass",
) -> Hand:
    """Dealer 3, so p1 = seat 0; seat 0 bids Hokum in the up card's suit, all pass,
    seat 0 confirms (R3.1 step C), then ``doubling`` (defenders 1 and 3, R4)."""
    hand = new_hand(3, hands, up, 0, rules)
    play(hand, "0 hokum 1 pass 2 pass 3 pass 0 hokum " + doubling)
    return hand


def sun_by_p1(hands: Sequence[str], up: str, rules: Rules | None = None) -> Hand:
    """Dealer 3, p1 = seat 0 bids Sun at once (R3.1 step A/B: no one earlier)."""
    hand = new_hand(3, hands, up, 0, rules)
    play(hand, "0 sun")
    return hand


def legal_cards(hand: Hand) -> set[str]:
    """The cards the seat to move may play (declarations left out)."""
    return {a.card.text for a in hand.legal_actions() if a.card is not None}
