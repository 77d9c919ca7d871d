"""``python -m baloot review --bench``: the reviewer's speed and quality on AI games.

Games are played here, from fixed seeds, by the AI levels (:mod:`baloot.tools.arena`'s
tables), so the figures are reproducible. It prints:

- **time** to review one finished hand (bids and all 32 cards) on one core:
  p50 and p95 over ``hands`` hands of normal-level games;
- **stability**: the same hands reviewed with another seed; the share of
  judged decisions whose flag (the label, or none) is the same;
- **ranking**: ``matches`` duplicate match pairs (R8) of hard against easy
  bots (the same decks, the teams swapped): the share of matches where the
  hard team's accuracy (the mean of its two seats) is higher; and the same
  for a random-card team against the easy one, where the random team should
  almost never be higher;
- **calibration**: for each level, the share of its judged decisions labelled
  inaccuracy, mistake and blunder (how :mod:`~baloot.review.accuracy`'s
  thresholds were set);
- **luck and error**: the share of judged decisions where the fair judge and
  the all-known judge disagree, and the share of the cards an all-known
  (double-dummy) judge would flag that the fair judge clears.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter

from ..ai import make_player
from ..engine.hand import Hand
from ..engine.match import Match, shuffled_deck
from ..engine.rules import Rules
from ..review.accuracy import label_for
from ..review.model import HandReview, MatchReview
from ..review.reviewer import review_hand, review_match, skip_reason
from ..review.values import Judge
from .arena import Table, Tally, percentile

HARD_BUDGET_MS = 20.0
"""The hard bots' time per decision in the games played here (kept small: the games are only material)."""


def play_match(levels: tuple[str, str], seed: int, index: int, team_a: int) -> Match:
    """One match (R8): ``levels[0]`` at team ``team_a``, the decks of match ``index`` of ``seed``."""
    a, b = (make_player(level, HARD_BUDGET_MS) for level in levels)
    deck_rng = random.Random(f"{seed}:review:{index}")
    match = Match(Rules(), first_dealer=index % 4)
    table = Table(a, b, team_a, Tally(), seed * 1_000_003 + index)
    while not match.finished:
        score = (match.score[0], match.score[1])
        hand = match.deal(shuffled_deck(deck_rng))
        table.play_hand(hand, score, match)
    return match


def finished_hands(count: int, seed: int) -> list[Hand]:
    """``count`` played-out hands of normal-level matches (thrown-in hands skipped)."""
    hands: list[Hand] = []
    index = 0
    while len(hands) < count:
        match = play_match(("normal", "normal"), seed, index, 0)
        hands.extend(h for h in match.hands if skip_reason(h) is None)
        index += 1
    return hands[:count]


def flags(review: HandReview) -> list[str | None]:
    return [d.label for d in review.decisions if not d.forced]


def team_accuracy(review: MatchReview, team: int) -> float:
    return (review.accuracy[team] + review.accuracy[team + 2]) / 2


def ranking_pair(levels: tuple[str, str], pair: int, samples: int, seed: int,
                 labels: dict[str, Counter[str]]) -> tuple[int, list[MatchReview]]:
    """Duplicate pair ``pair`` (R8: the same decks, the teams swapped) of ``levels[0]`` against
    ``levels[1]``: (matches of the two where ``levels[0]``'s team is more accurate, the reviews).
    Prints one line per match as it ends, so a long run shows its progress."""
    higher = 0
    reviews = []
    for team_a in (0, 1):
        start = time.monotonic()
        match = play_match(levels, seed, pair, team_a)
        review = review_match(match, samples=samples, seed=seed)
        reviews.append(review)
        mine, theirs = team_accuracy(review, team_a), team_accuracy(review, 1 - team_a)
        higher += mine > theirs
        for h in review.hands:
            for d in h.decisions:
                if not d.forced:
                    level = levels[0] if d.seat & 1 == team_a else levels[1]
                    labels[level][d.label or "none"] += 1
        print(f"  match {levels[0]} vs {levels[1]}, pair {pair}, {levels[0]} as team {team_a}: "
              f"accuracy {mine:.1f} vs {theirs:.1f}, {len(review.hands)} hands, "
              f"{time.monotonic() - start:.0f} s", flush=True)
    return higher, reviews


def run_review_bench(hand_count: int, matches: int, samples: int, seed: int,
                     minutes: float | None = None) -> int:
    """Print the figures (see the module); exit status 0. ``minutes``: no new match pair is begun
    once the whole run has taken that long (at least one pair of each kind is played)."""
    began = time.monotonic()
    import baloot

    print(f"engine: {baloot.ENGINE_BUILD}; {samples} sampled deals per judged decision; seed {seed}")
    hands = finished_hands(hand_count, seed)
    judge = Judge(samples)
    times = []
    first = []
    for i, hand in enumerate(hands):
        start = time.process_time()
        first.append(review_hand(hand, i, samples=samples, seed=seed, judge=judge))
        times.append(time.process_time() - start)
    if hands:  # --hands 0: the ranking only
        print(f"time per hand ({len(hands)} hands, CPU seconds of one core): p50 {statistics.median(times):.2f} s, "
              f"p95 {percentile(times, 0.95):.2f} s, max {max(times):.2f} s")
    same = judged = 0
    for i, hand in enumerate(hands):
        again = review_hand(hand, i, samples=samples, seed=seed + 1, judge=judge)
        a, b = flags(first[i]), flags(again)
        judged += len(a)
        same += sum(x == y for x, y in zip(a, b, strict=True))
    if hands:
        print(f"stability (seed {seed} vs {seed + 1}): {same}/{judged} judged decisions flagged alike "
              f"= {100 * same / max(1, judged):.1f}%")
    labels: dict[str, Counter[str]] = {level: Counter() for level in ("hard", "easy", "random")}
    reviews = []
    if matches:
        counts = {"hard": [0, 0], "random": [0, 0]}  # [more accurate, matches]
        r1: list[MatchReview] = []
        r2: list[MatchReview] = []
        pairs = 0
        while pairs < matches and not (pairs and minutes is not None and time.monotonic() - began > 60 * minutes):
            for first_level, kept in (("hard", r1), ("random", r2)):  # interleaved: a cut run stays balanced
                higher, done = ranking_pair((first_level, "easy"), pairs, samples, seed, labels)
                counts[first_level][0] += higher
                counts[first_level][1] += len(done)
                kept.extend(done)
            pairs += 1
        higher, total = counts["hard"]
        print(f"ranking: hard team more accurate than easy in {higher}/{total} matches = {100 * higher / total:.0f}%")
        higher, total = counts["random"]
        print(f"ranking: random-card team more accurate than easy in {higher}/{total} matches = "
              f"{100 * higher / total:.0f}%")
        reviews = r1 + r2
        for level, counter in labels.items():
            n = sum(counter.values())
            shares = ", ".join(f"{name} {100 * counter[name] / max(1, n):.1f}%"
                               for name in ("inaccuracy", "mistake", "blunder"))
            print(f"calibration: {level}: {n} judged decisions: {shares}")
    every = [d for r in first for d in r.decisions] + [d for m in reviews for h in m.hands for d in h.decisions]
    judged_all = [d for d in every if not d.forced]
    disagree = sum(d.luck is not None for d in judged_all)
    cards = [d for d in judged_all if d.played.action.card is not None]
    dd_flagged = [d for d in cards if label_for(d.loss_all_known) is not None]
    cleared = sum(d.label is None for d in dd_flagged)
    print(f"luck vs error: the two judges disagree on {disagree}/{len(judged_all)} judged decisions "
          f"= {100 * disagree / max(1, len(judged_all)):.1f}%")
    print(f"double-dummy flags cleared by the fair judge: {cleared}/{len(dd_flagged)} cards "
          f"= {100 * cleared / max(1, len(dd_flagged)):.1f}%")
    return 0
