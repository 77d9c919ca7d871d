"""Reviewing a finished hand or a whole record (R10 records).

Every action of a finished hand gets one :class:`~baloot.review.model.Decision`:
an action with one legal choice is *forced* (one option, never judged, no
label); any other is judged: each legal action's value from the actor's view
(:mod:`~baloot.review.values`), the loss of the chosen one, its label and its
drop in the chance of winning the match (:mod:`~baloot.review.accuracy`), and
whether luck and error disagree. Forced actions are valued with a quarter of
the sample budget (their value only draws the evaluation line).

A thrown-in (R3.2) or annulled (R9, Kawesh) hand and an unfinished one (R10)
are listed with no decisions and a reason. Each decision draws its deals from
its own random stream (seed, hand, action), so a review is reproducible and
its decisions could be judged in any order.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..engine.actions import Action
from ..engine.bidding import Outcome
from ..engine.hand import Hand, Phase
from ..engine.match import Match
from .accuracy import EPSILON, label_for, mean_accuracy, win_drop
from .model import DEFAULT_SAMPLES, LUCKY, UNLUCKY, Decision, HandReview, MatchReview, Option
from .values import Judge

Progress = Callable[[int, int, int], None]
"""Called before each decision with (action index, number of actions, trick 0-7 or -1 while bidding)."""



def skip_reason(hand: Hand) -> str | None:
    """Why ``hand`` is not reviewed, or None (R3.2, R9, R10)."""
    if not hand.finished:
        return "unfinished: the hand is still in progress (R10)"
    if hand.outcome == Outcome.THROWN_IN:
        return "thrown in: all four passed twice (R3.2)"
    if hand.outcome == Outcome.ANNULLED:
        return "annulled by Kawesh (R9)"
    return None


def luck_of(loss: float, loss_all_known: float) -> str | None:
    """Where the fair judge and the all-known judge disagree: UNLUCKY or LUCKY, else None."""
    fair = label_for(loss) is not None
    known = label_for(loss_all_known) is not None
    if fair and not known:
        return LUCKY
    if known and not fair:
        return UNLUCKY
    return None


def review_hand(
    played: Hand,
    index: int = 0,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    judge: Judge | None = None,
    progress: Progress | None = None,
) -> HandReview:
    """Review ``played`` (a hand as recorded, R10), the ``index``-th hand of its match."""
    score = played.match_score
    reason = skip_reason(played)
    if reason is not None:
        return HandReview(index, (), (100.0, 100.0, 100.0, 100.0), score, reason, seed)
    judge = judge or Judge(samples)
    hand = Hand(played.dealer, played.deck, played.rules, score)
    decisions: list[Decision] = []
    total = len(played.actions)
    for a, action in enumerate(played.actions):
        if progress is not None:
            progress(a, total, hand.trick_no if hand.phase is Phase.PLAYING else -1)
        decisions.append(judge_decision(hand, action, a, judge, samples=samples, seed=seed, hand_index=index))
        hand.apply(action)
    return HandReview(index, tuple(decisions), hand_accuracy(decisions), score, None, seed)


def judge_decision(
    hand: Hand, action: Action, index: int, judge: Judge, *, samples: int = DEFAULT_SAMPLES, seed: int = 0,
    hand_index: int = 0,
) -> Decision:
    """The decision of ``action`` (the ``index``-th action of the hand) in the real state ``hand``.

    One legal action: forced, valued with a quarter of the budget and never judged. Otherwise
    every legal action is valued from the actor's view (:mod:`~baloot.review.values`), and the
    loss, label, drop in win chance (R8) and luck follow (:mod:`~baloot.review.accuracy`).
    """
    trick = hand.trick_no if hand.phase is Phase.PLAYING else -1
    seat = hand.to_move
    team = seat & 1
    rng = random.Random(f"review:{seed}:{hand_index}:{index}")
    forced = len(hand.legal_actions()) == 1
    judgement = judge.judge(hand, rng, max(1, samples // 4) if forced else samples)
    chosen = judgement.legal.index(action)
    options = tuple(
        Option(act, value, known)
        for act, value, known in zip(judgement.legal, judgement.values, judgement.all_known, strict=True)
    )
    if forced:
        return Decision(index, seat, trick, True, options, 0, 0.0, 0.0, None, None, judgement.samples)
    best = max(judgement.values)
    mine = judgement.values[chosen]
    loss = best - mine if best - mine > EPSILON else 0.0
    loss_known = max(judgement.all_known) - options[chosen].value_all_known
    return Decision(
        action=index, seat=seat, trick=trick, forced=False, options=options, chosen=chosen, loss=loss,
        win_drop=win_drop(best, mine, hand.match_score, team, hand.rules.target), label=label_for(loss),
        luck=luck_of(loss, loss_known), samples=judgement.samples,
    )


def hand_accuracy(decisions: list[Decision] | tuple[Decision, ...]) -> tuple[float, float, float, float]:
    """Each seat's accuracy (0-100) over its judged decisions (:mod:`~baloot.review.accuracy`)."""
    drops: list[list[float]] = [[], [], [], []]
    for d in decisions:
        if not d.forced:
            drops[d.seat].append(d.win_drop)
    a = [mean_accuracy(x) for x in drops]
    return a[0], a[1], a[2], a[3]


def review_match(
    match: Match,
    *,
    hands: list[int] | None = None,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    progress: Progress | None = None,
) -> MatchReview:
    """Review the hands ``hands`` (all by default) of ``match`` (replayed from an R10 record)."""
    judge = Judge(samples)
    chosen = range(len(match.hands)) if hands is None else hands
    reviews = tuple(
        review_hand(match.hands[i], i, samples=samples, seed=seed, judge=judge, progress=progress) for i in chosen
    )
    every = [d for r in reviews for d in r.decisions]
    return MatchReview(reviews, hand_accuracy(every))
