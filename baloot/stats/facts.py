"""Per-hand facts of a finished match, from its R10 record, and what they add up to per seat.

A match is replayed once, when it is recorded (:func:`match_facts`); the
facts are stored, so no query replays a record. A seat's :class:`Tally`
counts its team's results (R1: seats 0 and 2 are team 0):

- a *played* hand is one with a contract (thrown-in and annulled hands are
  not counted); it is *won* by R7's winner of the hand;
- *bought*: the seat was the taker (R3); *made*: the taker's team won it;
- *doubles*: the seat said Double, Triple or Four (R4) in the hand; *won*:
  its team won the hand; *Gahwa*: the seat said Gahwa;
- *kaboot* for / against: the seat's team / the other team took every trick (R7);
- *Sawa*: the seat ended the hand by claiming the remaining tricks (R12);
- *points*: the team's hand score (R7), which the stats card averages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..engine.actions import ActionType
from ..engine.cards import SUITS
from ..engine.hand import Hand
from ..engine.records import match_from_record
from ..storage.stats_rows import HandFactRow, ServerTally, Tally

_RAISES = {
    ActionType.DOUBLE: "double_seat",
    ActionType.TRIPLE: "triple_seat",
    ActionType.FOUR: "four_seat",
    ActionType.GAHWA: "gahwa_seat",
}


@dataclass(frozen=True, slots=True)
class MatchFacts:
    """The hands of a finished match, and its final score and winner (R8)."""

    hands: tuple[HandFactRow, ...]
    score: tuple[int, int]
    winner: int | None


def hand_facts(hand_no: int, hand: Hand) -> HandFactRow:
    """The facts of one finished hand (R7 for the winner, R4 for who raised)."""
    result = hand.result
    raisers: dict[str, int] = {}
    for action in hand.actions:
        column = _RAISES.get(action.type)
        if column is not None:
            raisers[column] = action.seat
        elif action.type is ActionType.SAWA:
            raisers["sawa_seat"] = action.seat
    score = hand.score or (0, 0)
    if result is None:  # thrown in or annulled (R3.2, R9 kawesh)
        return HandFactRow(hand_no, None, None, None, 1, None, None, None, (score[0], score[1]))
    return HandFactRow(
        hand_no=hand_no,
        contract=hand.contract,
        trump=None if hand.sun else SUITS[hand.trump],
        declarer=hand.taker,
        level=hand.level,
        winner_team=result.winner,
        kaboot_team=result.kaboot,
        baloot_team=hand.baloot_team(),
        score=(score[0], score[1]),
        **raisers,
    )


def match_facts(record: Mapping[str, Any]) -> MatchFacts:
    """Replay a record (R10) and list the facts of its finished hands.

    Raises :class:`~baloot.engine.errors.RecordError` if the record does not replay.
    """
    match = match_from_record(dict(record))
    hands = tuple(hand_facts(n, h) for n, h in enumerate(match.hands) if h.finished)
    return MatchFacts(hands, (match.score[0], match.score[1]), match.winner)


def seat_tally(facts: MatchFacts, seat: int, *, left_early: bool = False) -> Tally:
    """What one match adds to the player at ``seat`` (see the module docstring).

    The match is won when the seat's team won it and the player did not
    leave early (a player who abandons is never credited with the win).
    """
    team = seat & 1
    counts = dict.fromkeys(Tally.columns(), 0)
    counts["matches"] = 1
    counts["wins"] = int(facts.winner == team and not left_early)
    counts["abandons"] = int(left_early)
    for hand in facts.hands:
        if hand.contract is None:
            continue
        won = hand.winner_team == team
        counts["hands"] += 1
        counts["hands_won"] += won
        counts["points"] += hand.score[team]
        counts[f"{hand.contract}_hands"] += 1
        counts[f"{hand.contract}_won"] += won
        if hand.declarer == seat:
            counts["bought"] += 1
            counts["bought_made"] += won
        if hand.kaboot_team is not None:
            counts["kaboots_for" if hand.kaboot_team == team else "kaboots_against"] += 1
        if seat in (hand.double_seat, hand.triple_seat, hand.four_seat):
            counts["doubles"] += 1
            counts["doubles_won"] += won
        if hand.gahwa_seat == seat:
            counts["gahwas"] += 1
            counts["gahwas_won"] += won
        if hand.sawa_seat == seat:
            counts["sawas"] += 1
    return Tally(**counts)


def abandon_tally() -> Tally:
    """What an abandoned (uncounted) match adds to a player who left it: one abandon."""
    return Tally(abandons=1)


def server_tally(facts: MatchFacts) -> ServerTally:
    """What one match adds to its server's totals."""
    played = [h for h in facts.hands if h.contract is not None]
    return ServerTally(
        matches=1,
        hands=len(played),
        sun_hands=sum(h.contract == "sun" for h in played),
        hokum_hands=sum(h.contract == "hokum" for h in played),
        kaboots=sum(h.kaboot_team is not None for h in played),
        doubled_hands=sum(h.level >= 2 for h in played),
        gahwas=sum(h.gahwa_seat is not None for h in played),
        sawas=sum(h.sawa_seat is not None for h in played),
    )
