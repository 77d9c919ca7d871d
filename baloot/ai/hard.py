"""The hard level: perfect-information Monte Carlo within a time budget.

Declaring (R6.2) follows the normal level, and so do bidding (R3, with
``style``) and doubling (R4) unless ``search_bidding`` or ``search_doubling``
is set (off by default: on full information the playouts overrate contracts,
and the arena showed no gain; doubling by search won 14 of 28 doubles).
For every searched decision (cards R5, and bids/doubles when enabled) each
sample is a deal consistent with everything
the seat knows (:mod:`deal_sampler`, replaying ``view.history`` on it), kept
with the probability that it explains the bids (:mod:`bid_inference`). Every
legal action is tried on the sample and the hand is finished by the normal
level's bidding and doubling and the rule-based card player on full
information (:mod:`rollout`), or, with ``endgame_tricks`` tricks or fewer
left, played out exactly by every seat (:mod:`endgame`); the action with the
best mean hand-score difference (R7) wins. Sampling stops when ``budget_ms`` is spent (measured
with ``time.perf_counter``) or after ``max_samples`` samples.
"""

from __future__ import annotations

import random
import time

from ..engine.actions import Action, ActionType
from ..engine.hand import Hand, Phase
from ..engine.view import SeatView, seat_view
from .bid_inference import bid_weight
from .bidding_policy import HARD_STYLE, BiddingStyle
from .card_play import CardChooser
from .deal_sampler import replay, sample_deck, sample_hand
from .endgame import TIE_BREAK, Endgame, leaf_value
from .knowledge import Knowledge, infer
from .normal import NormalPlayer
from .player import legal_of
from .rollout import play_out, team_value

ENDGAME_TRICKS = 3
"""From this many tricks left the sampled deals are played out exactly (:mod:`endgame`);
with four left one search takes about 6 ms (median), too slow for enough samples."""


class HardPlayer:
    """PIMC player. ``budget_ms`` bounds the search time of one decision."""

    name = "hard"

    def __init__(
        self,
        budget_ms: float = 60.0,
        max_samples: int | None = None,
        min_samples: int = 1,
        bid_inference: bool = True,
        search_bidding: bool = False,
        bid_margin: float = 0.0,
        style: BiddingStyle = HARD_STYLE,
        search_doubling: bool = False,
        double_margin: float = 0.0,
        endgame_tricks: int = ENDGAME_TRICKS,
    ) -> None:
        self.budget_ms = budget_ms
        self.search_bidding = search_bidding
        self.bid_margin = bid_margin
        self.bid_inference = bid_inference
        self.max_samples = max_samples
        self.min_samples = min_samples
        self.endgame_tricks = endgame_tricks
        self.search_doubling = search_doubling
        self.double_margin = double_margin
        self.own = NormalPlayer(style)  # its own bids (R3) and doubles (R4)
        self.normal = NormalPlayer()  # how the others are expected to bid in rollouts
        self.cards = CardChooser()
        self.last_samples = 0  # samples used by the last search (for measurement)

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        legal = legal_of(view)
        fallback = self.own.choose(view, rng)
        if len(legal) == 1:
            return fallback
        if view.phase == Phase.DOUBLING and self.search_doubling:
            return self.search(view, rng, fallback)
        if view.phase != Phase.PLAYING:
            return self.search(view, rng, fallback) if self.search_bidding else fallback
        if fallback.type is not ActionType.PLAY:
            return fallback  # always declare projects (R6.2)
        return self.search(view, rng, fallback)

    def search(self, view: SeatView, rng: random.Random, fallback: Action) -> Action:
        """The legal action with the best mean score over sampled deals (R3, R4, R5, R7).

        After the action the sampled hand is finished by the normal level's
        bidding and doubling and the rule-based card player. In the play, the
        card-point difference breaks ties between equal scores.
        """
        perf = time.perf_counter
        deadline = perf() + self.budget_ms / 1000.0
        knowledge = infer(view)
        actions = list(view.legal)
        totals = [0.0] * len(actions)
        playing = view.phase == Phase.PLAYING
        exact = playing and len(view.tricks) >= 8 - self.endgame_tricks
        team = view.seat & 1
        samples = 0
        limit = self.max_samples
        while limit is None or samples < limit:
            if samples >= self.min_samples and perf() >= deadline:
                break
            hand = self.sample(view, rng, knowledge)
            if hand is None:
                break
            samples += 1
            if exact:
                endgame = Endgame(hand, team)
                for i, action in enumerate(actions):
                    trial = hand.clone()
                    trial.apply(action)
                    totals[i] += endgame.value(trial) if trial.phase is Phase.PLAYING else leaf_value(trial, team)
                continue
            for i, action in enumerate(actions):
                trial = hand.clone()
                trial.apply(action)
                if not playing:
                    self.finish_bidding(trial, rng)
                play_out(trial, self.cards)
                totals[i] += team_value(trial, team)
                if playing:
                    points = trial.card_points
                    totals[i] += TIE_BREAK * (points[team] - points[1 - team])
        self.last_samples = samples
        if not samples:
            return fallback
        margin_per_sample = self.double_margin if view.phase == Phase.DOUBLING else self.bid_margin
        if not playing and margin_per_sample:
            margin = margin_per_sample * samples
            totals = [t - (0.0 if a.type is ActionType.PASS else margin) for a, t in zip(actions, totals, strict=True)]
        best = max(totals)
        choices = [a for a, t in zip(actions, totals, strict=True) if t == best]
        return fallback if fallback in choices else choices[0]

    def finish_bidding(self, hand: Hand, rng: random.Random) -> None:
        """Bid (R3) and double (R4) the rest of a sampled hand as the normal level would."""
        normal = self.normal
        while hand.phase is Phase.BIDDING or hand.phase is Phase.DOUBLING:
            seat = hand.to_move
            hand.apply(normal.choose(seat_view(hand, seat), rng))

    def sample(self, view: SeatView, rng: random.Random, knowledge: Knowledge) -> Hand | None:
        """A deal consistent with the view, kept with the probability that it explains the bids."""
        for _ in range(12):
            deck = sample_deck(view, rng, knowledge)
            if deck is None:
                continue
            if self.bid_inference:
                weight = bid_weight(view.bids, view.dealer, [c.index for c in deck], view.seat)
                if weight < 1.0 and rng.random() > weight:
                    continue
            hand = replay(view, deck)
            if hand is not None:
                return hand
        return sample_hand(view, rng, knowledge)
