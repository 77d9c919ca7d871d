"""The reviewer's result: plain frozen dataclasses, and their JSON.

One :class:`Decision` per action of a finished hand (R10: ``action`` is the
action's index in the hand's ``actions``), one :class:`HandReview` per hand and
a :class:`MatchReview` for a record. Values are in the reviewer's one unit
(:mod:`baloot.review.values`): the points this hand adds to the actor's team's
match score minus the other team's (R7, multiplier included).

:meth:`HandReview.to_json` is both the command line's hand object and what a
stored review keeps (keyed by hand and :data:`REVIEWER_VERSION`);
:meth:`HandReview.from_json` reads it back and refuses another version, so a
review made by an older reviewer is recomputed, not shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from ..engine.actions import Action

REVIEWER_VERSION: Final = 1
"""Bump whenever the values, labels or accuracies a review gives would change."""

DEFAULT_SAMPLES: Final = 128
"""Sampled deals per judged decision: the command line's and the bot's budget (``--bench``: p95
about 2 s a hand on one core with the compiled engine, 97% of flags stable across seeds)."""

MAX_SAMPLES: Final = 2048
"""The most sampled deals per decision the command line and ``REVIEW_SAMPLES`` take (16 times the default:
about half a minute a hand, where a larger count would hold a worker for many minutes)."""

LABELS: Final = ("inaccuracy", "mistake", "blunder")

UNLUCKY: Final = "unlucky"
"""Right on what the actor could see; the cards were against it (luck, not error)."""
LUCKY: Final = "lucky"
"""A mistake on what the actor could see that happened to work with the real cards."""


def _round(value: float) -> float:
    return round(value, 2)


@dataclass(frozen=True, slots=True)
class Option:
    """One legal action at a decision: its expected value from the actor's view, and its
    value on the real deal with all four hands known (the same play-out, no sampling)."""

    action: Action
    value: float
    value_all_known: float

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action.to_json(), "value": _round(self.value),
                "value_all_known": _round(self.value_all_known)}

    @staticmethod
    def from_json(obj: dict[str, Any]) -> Option:
        return Option(Action.from_json(obj["action"]), float(obj["value"]), float(obj["value_all_known"]))


@dataclass(frozen=True, slots=True)
class Decision:
    """One action of the hand, judged (or forced: a single legal action, never judged).

    ``chosen`` indexes ``options``; ``loss`` is the best option's value minus the chosen one's
    (0 when forced or when the chosen one is as good as the best); ``win_drop`` is the same loss
    as a drop in the chance of winning the match, in percentage points; ``label`` is None or one
    of :data:`LABELS`; ``luck`` is None, :data:`UNLUCKY` or :data:`LUCKY` (where the fair judge and
    the all-known judge disagree). ``trick`` is the trick the action belongs to (0-7), or -1 for
    bids and doubles (R3, R4).
    """

    action: int
    seat: int
    trick: int
    forced: bool
    options: tuple[Option, ...]
    chosen: int
    loss: float
    win_drop: float
    label: str | None
    luck: str | None
    samples: int

    @property
    def played(self) -> Option:
        return self.options[self.chosen]

    @property
    def best(self) -> Option:
        """The option with the highest value (the chosen one among equals)."""
        top = max(o.value for o in self.options)
        return self.played if self.played.value >= top else next(o for o in self.options if o.value >= top)

    @property
    def value_all_known(self) -> float:
        return self.played.value_all_known

    @property
    def loss_all_known(self) -> float:
        """What the all-known judge says the choice cost."""
        return max(o.value_all_known for o in self.options) - self.played.value_all_known

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "seat": self.seat,
            "trick": self.trick,
            "forced": self.forced,
            "options": [o.to_json() for o in self.options],
            "chosen": self.chosen,
            "loss": _round(self.loss),
            "win_drop": _round(self.win_drop),
            "label": self.label,
            "value_all_known": _round(self.value_all_known),
            "luck": self.luck,
            "samples": self.samples,
        }

    @staticmethod
    def from_json(obj: dict[str, Any]) -> Decision:
        return Decision(
            action=int(obj["action"]), seat=int(obj["seat"]), trick=int(obj["trick"]), forced=bool(obj["forced"]),
            options=tuple(Option.from_json(o) for o in obj["options"]), chosen=int(obj["chosen"]),
            loss=float(obj["loss"]), win_drop=float(obj["win_drop"]), label=obj["label"], luck=obj["luck"],
            samples=int(obj["samples"]),
        )


@dataclass(frozen=True, slots=True)
class HandReview:
    """The review of one hand (``hand``: its index in the record).

    ``reason`` is set, and ``decisions`` empty, for a hand that is not reviewed (thrown in
    R3.2, annulled R9, or unfinished). ``accuracy`` is per seat, 0-100 (100 for a seat with no
    judged decision). ``match_score`` is the score before the hand (R8).
    """

    hand: int
    decisions: tuple[Decision, ...]
    accuracy: tuple[float, float, float, float]
    match_score: tuple[int, int]
    reason: str | None = None
    seed: int = 0
    version: int = REVIEWER_VERSION

    def to_json(self) -> dict[str, Any]:
        obj: dict[str, Any] = {
            "hand": self.hand,
            "decisions": [d.to_json() for d in self.decisions],
            "accuracy": [_round(a) for a in self.accuracy],
            "match_score": list(self.match_score),
            "seed": self.seed,
            "version": self.version,
        }
        if self.reason is not None:
            obj["reason"] = self.reason
        return obj

    @staticmethod
    def from_json(obj: dict[str, Any]) -> HandReview:
        """Read a stored review; ValueError for another reviewer version (recompute it)."""
        if obj.get("version") != REVIEWER_VERSION:
            raise ValueError(f"review version {obj.get('version')!r} is not {REVIEWER_VERSION}")
        a = [float(x) for x in obj["accuracy"]]
        s = [int(x) for x in obj["match_score"]]
        return HandReview(
            hand=int(obj["hand"]),
            decisions=tuple(Decision.from_json(d) for d in obj["decisions"]),
            accuracy=(a[0], a[1], a[2], a[3]),
            match_score=(s[0], s[1]),
            reason=obj.get("reason"),
            seed=int(obj.get("seed", 0)),
        )


@dataclass(frozen=True, slots=True)
class MatchReview:
    """Every hand of a record reviewed, and each seat's accuracy over the whole match."""

    hands: tuple[HandReview, ...]
    accuracy: tuple[float, float, float, float]

    def to_json(self) -> dict[str, Any]:
        return {"hands": [h.to_json() for h in self.hands], "accuracy": [_round(a) for a in self.accuracy]}
