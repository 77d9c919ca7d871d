"""A hand's review cut into parts, one per worker call: the bidding, then each trick.

The bot reviews a hand part by part in a process pool (never on its event
loop): between parts it tells the player how far it got ("Reviewing trick 5 of
8…"), and the pool's other work (a table's bots) waits at most one part. Each
decision draws its deals from its own random stream (seed, hand, action;
:func:`~baloot.review.reviewer.judge_decision`), so the parts put together are
exactly :func:`~baloot.review.reviewer.review_hand`'s review of the whole hand.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from ..engine.hand import Hand, Phase
from ..engine.records import match_from_record
from .model import DEFAULT_SAMPLES, Decision, HandReview
from .reviewer import hand_accuracy, judge_decision, skip_reason
from .values import Judge

BIDDING: Final = -1
"""The part of the bids and doubles (R3, R4); the tricks are 0-7."""


@dataclass(frozen=True, slots=True)
class Part:
    """Actions ``first`` to ``stop`` (exclusive) of a hand: its bidding (``trick`` -1) or one trick (0-7)."""

    trick: int
    first: int
    stop: int


def plan(played: Hand) -> list[Part]:
    """The parts of a finished hand (R10 as recorded), in order; none for a hand not reviewed
    (thrown in R3.2, annulled R9, unfinished)."""
    if skip_reason(played) is not None:
        return []
    hand = Hand(played.dealer, played.deck, played.rules, played.match_score)
    parts: list[Part] = []
    for index, action in enumerate(played.actions):
        trick = hand.trick_no if hand.phase is Phase.PLAYING else BIDDING
        if parts and parts[-1].trick == trick:
            parts[-1] = Part(trick, parts[-1].first, index + 1)
        else:
            parts.append(Part(trick, index, index + 1))
        hand.apply(action)
    return parts


_JUDGES: dict[int, Judge] = {}  # one per budget in each worker process, built once
_PAUSE: list[Callable[[], None]] = []  # the pause of this process's judges (none: nothing between play-outs)


def pause_after_playouts(pause: Callable[[], None] | None) -> None:
    """Have this process's judges call ``pause`` after every play-out (about a millisecond of work).

    A review worker beside the bot passes :func:`os.sched_yield` (``baloot/tables/workers.py``): it runs
    under ``SCHED_IDLE``, yet on a kernel with lazy preemption (Linux 6.13 and later) a bot thread woken
    while the worker computes waits for the next scheduler tick (up to 4 ms at 250 Hz) unless the worker
    enters the kernel first; a press wakes the bot several times, so the waits added up
    (``scripts/bench_tables.py --reviews 4``). Where the workers share the bot's cores, the pause also
    waits while the bot answers an interaction (``ReviewBrake``). The values are the same with or without
    it."""
    _PAUSE[:] = [] if pause is None else [pause]
    _JUDGES.clear()


def playout_pause() -> Callable[[], None] | None:
    """What this process's judges call after every play-out (:func:`pause_after_playouts`)."""
    return _PAUSE[0] if _PAUSE else None


def review_part(record: dict[str, Any], hand_no: int, part: Part, samples: int = DEFAULT_SAMPLES,
                seed: int = 0) -> list[Decision]:
    """The decisions of ``part`` of hand ``hand_no`` of the R10 ``record`` (module level: a process
    pool pickles the call)."""
    played = match_from_record(record).hands[hand_no]
    judge = _JUDGES.get(samples)
    if judge is None:
        judge = _JUDGES[samples] = Judge(samples, pause=playout_pause())
    hand = Hand(played.dealer, played.deck, played.rules, played.match_score)
    decisions: list[Decision] = []
    for index, action in enumerate(played.actions[:part.stop]):
        if index >= part.first:
            decisions.append(judge_decision(hand, action, index, judge, samples=samples, seed=seed,
                                            hand_index=hand_no))
        hand.apply(action)
    return decisions


def assemble(played: Hand, hand_no: int, decisions: list[Decision], seed: int = 0) -> HandReview:
    """The hand's review from its parts' decisions (in order), as :func:`~.reviewer.review_hand` gives it."""
    reason = skip_reason(played)
    if reason is not None:
        return HandReview(hand_no, (), (100.0, 100.0, 100.0, 100.0), played.match_score, reason, seed)
    return HandReview(hand_no, tuple(decisions), hand_accuracy(decisions), played.match_score, None, seed)
