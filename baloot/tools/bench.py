"""``python -m baloot bench``: random full hands per second on one core.

Rates are per second of this process's CPU time (``time.process_time``), so
other work on a shared machine does not distort them; wall time is printed too.

Each hand is dealt from a shuffled deck and played to the end with uniformly
random legal actions through the public API (``legal_actions`` / ``apply``):
bidding, doubling, declarations, 32 plays and scoring. Thrown-in hands are
dealt again and count only in the "all hands" figure.
"""

from __future__ import annotations

import random
import time
from typing import Final

from ..engine.cards import ALL_CARDS
from ..engine.hand import Hand, Phase
from ..engine.rules import Rules

FINISHED: Final = Phase.FINISHED


def random_hands(seconds: float, seed: int, rules: Rules) -> tuple[int, int, int, float]:
    """Play random hands for ``seconds``: (full hands, all hands, actions, elapsed)."""
    rng = random.Random(seed)
    rand = rng.random
    deck = list(ALL_CARDS)
    full = total = actions = 0
    start = time.process_time()
    deadline = start + seconds
    score = (0, 0)
    while True:
        for _ in range(100):
            for i in range(31, 0, -1):  # Fisher-Yates with one float per swap
                j = int(rand() * (i + 1))
                deck[i], deck[j] = deck[j], deck[i]
            hand = Hand(total & 3, deck, rules, score)
            while hand.phase is not FINISHED:
                legal = hand.legal_actions()
                # float(): a float times an int is a generic (boxed) product in compiled code
                hand.apply(legal[int(rand() * float(len(legal)))])
            actions += len(hand.actions)
            total += 1
            if hand.result is not None:
                full += 1
        now = time.process_time()
        if now >= deadline:
            return full, total, actions, now - start


def legal_generations(seconds: float, seed: int) -> tuple[int, float]:
    """Legal-action generations per second over positions from random hands."""
    rng = random.Random(seed)
    deck = list(ALL_CARDS)
    positions: list[Hand] = []
    while len(positions) < 2000:
        rng.shuffle(deck)
        hand = Hand(rng.randrange(4), deck)
        stop = rng.randrange(4, 45)
        while hand.phase != Phase.FINISHED and len(hand.actions) < stop:
            legal = hand.legal_actions()
            hand.apply(legal[rng.randrange(len(legal))])
        if hand.phase != Phase.FINISHED:
            positions.append(hand)
    count = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        for hand in positions:
            hand._legal = None
            hand.legal_actions()
        count += len(positions)
    return count, time.process_time() - start


def hard_samples(
    seconds: float, seed: int, samples: int = 20, tricks: tuple[int, int] = (0, 4)
) -> tuple[int, int, float]:
    """The hard AI's search speed: (decisions, sampled deals, CPU seconds).

    Positions are card plays (R5) of random hands in tricks ``tricks`` (0-based, inclusive):
    0..4 is the rollout regime, 5..7 the exact endgame's. Each is searched with ``samples``
    sampled deals and no time budget, so the figure is sampled deals per CPU second.
    """
    from ..ai.hard import HardPlayer
    from ..engine.view import SeatView, seat_view

    rng = random.Random(seed)
    deck = list(ALL_CARDS)
    views: list[SeatView] = []
    while len(views) < 50:
        rng.shuffle(deck)
        hand = Hand(rng.randrange(4), deck)
        stop = rng.randrange(tricks[0] * 4, tricks[1] * 4 + 4)
        plays = 0
        while hand.phase is not FINISHED:
            legal = hand.legal_actions()
            if hand.phase is Phase.PLAYING and tricks[0] <= hand.trick_no <= tricks[1] and plays >= stop:
                cards = [a for a in legal if a.card is not None]
                if len(cards) > 1 and len(cards) == len(legal):
                    views.append(seat_view(hand, hand.to_move))
                    break
            hand.apply(legal[rng.randrange(len(legal))])
            plays += hand.phase is Phase.PLAYING
    player = HardPlayer(budget_ms=1e9, max_samples=samples, min_samples=samples)
    decisions = total = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        view = views[decisions % len(views)]
        player.search(view, rng, view.legal[0])
        decisions += 1
        total += player.last_samples
    return decisions, total, time.process_time() - start


def run_bench(seconds: float, seed: int, hard: bool = False) -> int:
    """Print the engine's figures, after which build runs them."""
    from .. import engine_build  # a function: a compiled module reads no module __getattr__

    print(f"engine build:             {engine_build()}")
    if hard:
        for label, tricks in (("tricks 1-5, rollouts", (0, 4)), ("tricks 6-7, endgame", (5, 6))):
            decisions, samples, elapsed = hard_samples(seconds, seed, tricks=tricks)
            print(
                f"hard AI sampled deals:    {samples / elapsed:10,.0f} per second in {label} "
                f"({decisions / elapsed:,.1f} card decisions/s at {samples // max(decisions, 1)} deals each, "
                f"{elapsed:.1f} s CPU)"
            )
        return 0
    wall = time.perf_counter()
    full, total, actions, elapsed = random_hands(seconds, seed, Rules())
    wall = time.perf_counter() - wall
    print(
        f"random full hands:        {full / elapsed:10,.0f} per second "
        f"({full} full of {total} dealt in {elapsed:.1f} s CPU, {wall:.1f} s wall; "
        f"{actions / total:.1f} actions/hand)"
    )
    count, elapsed = legal_generations(seconds, seed)
    print(f"legal-action generations: {count / elapsed:10,.0f} per second")
    return 0
