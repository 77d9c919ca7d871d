"""The hard level: perfect-information Monte Carlo within a time budget.

Bidding (R3), doubling (R4) and declaring (R6.2) follow the normal level. In
the play (R5) each sample is a deal consistent with everything the seat
knows (:mod:`deal_sampler`, replaying ``view.history`` on it); every legal
card is tried on the sample and the hand is played out by the rule-based card
player (:mod:`rollout`); the card with the best mean hand-score difference
(R7) wins. Sampling stops when ``budget_ms`` is spent (measured with
``time.perf_counter``) or after ``max_samples`` samples.
"""

from __future__ import annotations

import random
import time

from ..actions import Action
from ..hand import Phase
from ..view import SeatView
from .card_play import CardChooser
from .deal_sampler import sample_hand
from .knowledge import infer
from .normal import NormalPlayer
from .rollout import play_out, team_value


class HardPlayer:
    """PIMC player. ``budget_ms`` bounds the search time of one decision."""

    name = "hard"

    def __init__(self, budget_ms: float = 60.0, max_samples: int | None = None, min_samples: int = 1) -> None:
        self.budget_ms = budget_ms
        self.max_samples = max_samples
        self.min_samples = min_samples
        self.normal = NormalPlayer()
        self.cards = CardChooser()
        self.last_samples = 0  # samples used by the last search (for measurement)

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action (not its turn)")
        if len(legal) == 1 or view.phase != Phase.PLAYING:
            return self.normal.choose(view, rng)
        fallback = self.normal.choose(view, rng)
        if fallback.type is not fallback.type.PLAY:
            return fallback  # always declare projects (R6.2)
        return self.search(view, rng, fallback)

    def search(self, view: SeatView, rng: random.Random, fallback: Action) -> Action:
        """R5: the legal card with the best mean score over sampled deals."""
        perf = time.perf_counter
        deadline = perf() + self.budget_ms / 1000.0
        knowledge = infer(view)
        actions = list(view.legal)
        totals = [0] * len(actions)
        team = view.seat & 1
        samples = 0
        limit = self.max_samples
        while limit is None or samples < limit:
            if samples >= self.min_samples and perf() >= deadline:
                break
            hand = sample_hand(view, rng, knowledge)
            if hand is None:
                break
            samples += 1
            for i, action in enumerate(actions):
                trial = hand.clone()
                trial.apply(action)
                play_out(trial, self.cards)
                totals[i] += team_value(trial, team)
        self.last_samples = samples
        if not samples:
            return fallback
        best = max(totals)
        choices = [a for a, t in zip(actions, totals, strict=True) if t == best]
        return fallback if fallback in choices else choices[0]
