"""The review as readable text for the command line."""

from __future__ import annotations

from ..engine.actions import Action
from ..engine.cards import SUITS
from .model import LUCKY, UNLUCKY, Decision, HandReview, MatchReview

LUCK_TEXT = {
    UNLUCKY: "right on what you could see; the cards were against you",
    LUCKY: "a mistake that happened to work",
}


def action_text(action: Action) -> str:
    """``bids hokum``, ``plays AS``, ``doubles (locked)``: one action in words."""
    words = {"play": "plays", "pass": "passes", "declare": "declares projects", "sawa": "claims Sawa"}
    kind = action.type.value
    text = words.get(kind, f"says {kind}")
    if action.card is not None:
        text += f" {action.card.text}"
    if action.locked is not None:
        text += " (locked)" if action.locked else " (open)"
    if action.suit is not None and 0 <= action.suit < len(SUITS):
        text += f" {SUITS[action.suit]}"
    return text


def decision_text(d: Decision) -> str:
    where = "bidding" if d.trick < 0 else f"trick {d.trick + 1}"
    head = f"  #{d.action:>2} {where:<9} seat {d.seat} {action_text(d.played.action)}"
    if d.forced:
        return head + "  (forced)"
    head += f"  value {d.played.value:+.1f}"
    if d.label is not None:
        best = d.best
        head += f"  {d.label.upper()}: -{d.loss:.1f} points; best {action_text(best.action)} ({best.value:+.1f})"
    elif d.loss > 0:
        head += f"  (-{d.loss:.1f})"
    if d.luck is not None:
        head += f"  [{LUCK_TEXT[d.luck]}; with all cards known {d.value_all_known:+.1f}]"
    return head


def hand_text(review: HandReview) -> str:
    lines = [f"Hand {review.hand} (match score before it {review.match_score[0]}-{review.match_score[1]})"]
    if review.reason is not None:
        lines.append(f"  not reviewed: {review.reason}")
        return "\n".join(lines)
    lines.extend(decision_text(d) for d in review.decisions)
    lines.append("  accuracy: " + ", ".join(f"seat {s} {a:.1f}" for s, a in enumerate(review.accuracy)))
    return "\n".join(lines)


def match_text(review: MatchReview) -> str:
    parts = [hand_text(h) for h in review.hands]
    parts.append("Match accuracy: " + ", ".join(f"seat {s} {a:.1f}" for s, a in enumerate(review.accuracy)))
    return "\n\n".join(parts)
