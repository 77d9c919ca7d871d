"""The value of every legal action at one decision, judged from the actor's view.

**The unit.** A value is the points this hand adds to the actor's team's
match score minus the points it adds to the other team's: the R7 hand score
difference, doubling multiplier (R4) included, a Gahwa won or lost counting as
the match target (:func:`~baloot.ai.rollout.team_value`, R4, R8). A thrown-in
hand (R3.2) is worth 0.

**Fair values.** Only what the actor knew then is read: its
:class:`~baloot.engine.view.SeatView` (its cards, the up card, the bids and doubles,
the projects announced and shown, the cards played and the voids and R5.2
inferences they imply, :mod:`~baloot.ai.knowledge`). The hard AI's sampler
draws ``samples`` deals consistent with it, each kept with the probability
that it explains the bids (:mod:`~baloot.ai.deal_sampler`,
:mod:`~baloot.ai.bid_inference`). On each sampled deal every alternative is
applied and the hand played to its end with the same policy for all four
seats: the normal level's bids and doubles (R3, R4) and the rule-based card
player on full information, declaring projects (R6.2) and claiming Sawa (R12)
whenever legal (:mod:`~baloot.ai.rollout`). Every alternative is played on
the same sampled deals (common random numbers), so the differences between
alternatives are not sampling noise. The value is the mean over the deals.

**All known.** The same play-out on the real deal (no sampling) gives each
alternative's value with all four hands known, the double-dummy judge that
tells luck from error.

**Equal cards.** Two cards of one suit with the same card points (R1.1) and no
card between them that another seat may still hold are the same choice; they
are played out once and given the same value (not in a Hokum lead of a plain
suit, where the Ekka rule of R5.2 tells them apart). The rule-based play-out
alone could tell them apart (it breaks ties between suits by rank, so a 7
kept may be thrown where a 9 kept would not); a player would not.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..ai.card_play import CardChooser
from ..ai.hard import HardPlayer
from ..ai.knowledge import infer
from ..ai.rollout import play_out, team_value
from ..engine.actions import Action
from ..engine.cards import CARD_POINTS, NO_TRUMP, PLAIN_ORDER, TRUMP_ORDER
from ..engine.hand import Hand, Phase
from ..engine.view import seat_view


@dataclass(frozen=True, slots=True)
class Judgement:
    """The legal actions at one decision and their fair and all-known values (same order)."""

    legal: tuple[Action, ...]
    values: tuple[float, ...]
    all_known: tuple[float, ...]
    samples: int


def _order(card: int, trump: int) -> int:
    return (TRUMP_ORDER if card >> 3 == trump else PLAIN_ORDER)[card & 7]


def equal_cards(hand: Hand, legal: Sequence[Action]) -> list[int]:
    """For each legal action the index of the first legal action it equals (itself if none).

    Cards are equal when they are of one suit, worth the same card points (R1.1), and every
    card ranked between them (R1.1 order, trump or plain) is played or held by the actor.
    """
    seat = hand.to_move
    trump = hand.trump
    points = CARD_POINTS[trump]
    mine = hand.hands[seat]
    gone = hand.played
    for c in hand.trick:
        gone |= 1 << c
    leading_plain = not hand.trick and trump != NO_TRUMP
    reps = list(range(len(legal)))
    for i, a in enumerate(legal):
        ci = a.card_index
        if ci < 0 or (leading_plain and ci >> 3 != trump):
            continue
        for j in range(i):
            cj = legal[j].card_index
            if reps[j] != j or cj < 0 or cj >> 3 != ci >> 3 or points[cj] != points[ci]:
                continue
            lo, hi = sorted((_order(ci, trump), _order(cj, trump)))
            suit = ci >> 3
            between = [suit * 8 + r for r in range(8) if lo < _order(suit * 8 + r, trump) < hi]
            if all((gone | mine) >> c & 1 for c in between):
                reps[i] = j
                break
    return reps


class Judge:
    """Values legal actions with ``samples`` sampled deals per decision (see the module)."""

    def __init__(self, samples: int = 24, bid_inference: bool = True,
                 pause: Callable[[], None] | None = None) -> None:
        self.samples = samples
        self.pause = pause
        """Called after every play-out (None: nothing), where the judge shares a machine (see
        :func:`.parts.pause_after_playouts`); it changes no value."""
        self.player = HardPlayer(bid_inference=bid_inference)  # its sampler and its rollout bidding
        self.cards = CardChooser()

    def finish(self, trial: Hand, team: int, rng: random.Random) -> float:
        """Play ``trial`` to its end with the rollout policy; ``team``'s value (R7)."""
        if trial.phase is Phase.BIDDING or trial.phase is Phase.DOUBLING:
            self.player.finish_bidding(trial, rng)
        play_out(trial, self.cards)
        if self.pause is not None:
            self.pause()
        return float(team_value(trial, team))

    def judge(self, before: Hand, rng: random.Random, samples: int | None = None) -> Judgement:
        """The legal actions of the seat to move in ``before`` (a real hand) and their values."""
        seat = before.to_move
        team = seat & 1
        legal = tuple(before.legal_actions())
        reps = equal_cards(before, legal) if before.phase is Phase.PLAYING else list(range(len(legal)))
        distinct = [i for i, r in enumerate(reps) if r == i]
        all_known = [0.0] * len(legal)
        for i in distinct:
            trial = before.clone()
            trial.apply(legal[i])
            all_known[i] = self.finish(trial, team, random.Random(rng.random()))
        totals = [0.0] * len(legal)
        view = seat_view(before, seat)
        knowledge = infer(view)
        budget = self.samples if samples is None else samples
        used = 0
        for _ in range(budget):
            sampled = self.player.sample(view, rng, knowledge)
            if sampled is None:
                break
            used += 1
            seed = rng.random()
            for i in distinct:
                trial = sampled.clone()
                trial.apply(legal[i])
                totals[i] += self.finish(trial, team, random.Random(seed))
        values = [totals[i] / used if used else 0.0 for i in range(len(legal))]
        for i, r in enumerate(reps):
            values[i] = values[r]
            all_known[i] = all_known[r]
        return Judgement(legal, tuple(values), tuple(all_known), used)
