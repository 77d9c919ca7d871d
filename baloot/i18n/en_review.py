"""English texts of the game review: the command, the buttons, the progress line, the result and its refusals."""

from __future__ import annotations

from typing import Final

EN_REVIEW: Final = {
    "cmd.review.name": "review",
    "cmd.review.desc": "Review a finished hand: every decision judged from what its player could see",
    "opt.match.name": "match",
    "opt.match.desc": "The match (table number) of this server; none: this channel's table",
    "opt.review_hand.name": "hand_number",
    "opt.review_hand.desc": "The hand's number in the match (1 is the first); none: the last finished hand",
    "button.review": "Review",
    "button.review_prev": "◀",
    "button.review_next": "▶",
    "button.review_everyone": "Everyone",
    "review.progress_bidding": "Reviewing the bidding…",
    "review.progress_trick": "Reviewing trick {trick} of {tricks}…",
    "review.title": "Review · hand {hand}",
    "review.step_bidding": "Review · hand {hand} · the bidding",
    "review.step_trick": "Review · hand {hand} · trick {trick}",
    "review.accuracy_head": "Accuracy",
    "review.accuracy_line": "{name}: {accuracy}",
    "review.costliest_head": "The costliest decisions",
    "review.costly_line": "{name}: {played} instead of {best}: −{loss} points, {label}. {luck}",
    "review.none_costly": "No decision of this hand lost a point.",
    "review.label.inaccuracy": "an inaccuracy",
    "review.label.mistake": "a mistake",
    "review.label.blunder": "a blunder",
    "review.label.none": "a small loss",
    "review.luck.unlucky": "Right on what they could see; the cards were against them.",
    "review.luck.lucky": "A mistake that happened to work.",
    "review.luck.error": "An error, with all the cards known too.",
    "review.legend": ("The line: the points this hand was expected to give, team 1 above, team 2 below, after every "
                      "decision. Dots: mistakes (with the seat's number); a die: luck, not error."),
    "review.played": "▸ **{option}**",
    "review.forced": "{name}: {action} (the only legal choice)",
    "review.decision": "{name}: {action}",
    "review.option": "{option} {value}",
    "review.step_none": "Nothing to show for this player here.",
    "review.unit": "Values: the points the hand adds to the player's team minus the other's (expected).",
    "review.match_accuracy": "Accuracy this match: {line}",
    "stats.accuracy": "Average accuracy: **{accuracy}** over the last {matches} reviewed",
    "error.review_in_progress": "That hand is not over: nothing of a hand in progress is shown. Try once it ends.",
    "error.review_not_at_table": "Only the players of this table can review its hands while the match runs.",
    "error.review_no_hand": "There is no such hand in a match of this server.",
    "error.review_nothing": "That hand was thrown in or annulled: there is no decision to review.",
}
