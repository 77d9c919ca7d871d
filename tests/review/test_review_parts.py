"""A hand reviewed part by part (the bot's way, one worker call per part) is exactly the whole-hand review."""

from __future__ import annotations

from played_matches import played_match

from baloot.engine.hand import Hand
from baloot.review import review_hand
from baloot.review.parts import BIDDING, assemble, pause_after_playouts, plan, playout_pause, review_part


def test_parts_cover_every_action_once_and_put_together_equal_the_whole_review() -> None:
    match = played_match(11)
    hand_no = len(match.hands) - 1
    played = match.hands[hand_no]
    parts = plan(played)
    assert parts[0].trick == BIDDING and [p.trick for p in parts[1:]] == list(range(len(parts) - 1))
    assert [i for p in parts for i in range(p.first, p.stop)] == list(range(len(played.actions)))
    record = match.to_record()
    decisions = [d for p in parts for d in review_part(record, hand_no, p, samples=2, seed=5)]
    assert assemble(played, hand_no, decisions, seed=5) == review_hand(played, hand_no, samples=2, seed=5)


def test_an_unfinished_hand_has_no_parts() -> None:
    played = played_match(3).hands[-1]
    fresh = Hand(played.dealer, played.deck, played.rules, played.match_score)
    fresh.apply(played.actions[0])
    assert plan(fresh) == [] and assemble(fresh, 0, []).reason is not None


def test_a_pause_after_every_play_out_changes_no_value() -> None:
    """A review worker offers the core back after every play-out (``pause_after_playouts``, set by
    ``baloot.tables.workers.review_worker_init``): the pause is called, and the decisions are the same."""
    match = played_match(11)
    hand_no = len(match.hands) - 1
    record = match.to_record()
    parts = plan(match.hands[hand_no])[:2]  # the bidding and the first trick
    plain = [d for p in parts for d in review_part(record, hand_no, p, samples=2, seed=5)]
    pauses: list[None] = []
    pause_after_playouts(lambda: pauses.append(None))
    try:
        paused = [d for p in parts for d in review_part(record, hand_no, p, samples=2, seed=5)]
    finally:
        pause_after_playouts(None)
    assert playout_pause() is None
    judged = [d for d in paused if not d.forced]
    assert paused == plain and judged
    assert len(pauses) >= 2 * len(judged)  # at least one play-out per option, two options per judged decision
