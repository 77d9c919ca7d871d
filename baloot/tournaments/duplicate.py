"""Duplicate deals: every table of a round plays the same deals; teams are compared with
the teams that held the same cards, in matchpoints as in duplicate bridge.

* **The deals.** A round has one stored seed (:func:`round_seed`). Hand ``h`` (0, 1, ...) of every
  table of the round is dealt the deck :func:`deal_deck` ``(seed, h)`` by the same first dealer
  (:func:`first_dealer`; the deal then passes to the right, R1), so every table plays the same
  cards (R2) in the same seats, whatever happened at another table.
* **Both sides of each deal.** Table ``k`` of a round seats its first-listed team at seats 0 and 2
  when ``k`` is even and at seats 1 and 3 when ``k`` is odd (:func:`team_seats`): half of the field
  holds each side of every deal.
* **Mirrored deals** (a round of a fixed number of deals N ≥ 2, R8): the second half of the round
  replays the first half's decks with the sides swapped (:func:`board_of`), so each team holds both
  sides of every deck against the same opponents. The deck is dealt relative to the dealer (R2) and
  the deal passes to the right (R1): a deck dealt again a number of hands later that is odd gives
  every position relative to the dealer the same cards, and those positions now belong to the other
  team. Each replay is as far as it can be from its original (people remember a deck). An odd N's
  last hand and every play-off hand (level totals, R8) are decks of their own. A round to a target
  (R8) has an unknown number of hands, so its hands are all fresh decks.
* **Matchpoints.** For each deal, a team's result is its hand score minus its opponents' (R7). It
  is compared with every other team that held the same cards (same deal, same seats) in the round:
  1 matchpoint for each such team it beat, ½ for each it tied. Its matchpoint percentage over the
  tournament is the matchpoints it won over the most it could have won. A deal played at only one
  table (a match ended sooner elsewhere) compares nothing and counts for nobody.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from ..engine.cards import Card
from ..engine.match import shuffled_deck
from ..engine.vocab import Seat
from .model import TeamId


def round_seed(rng: random.Random) -> int:
    """A fresh seed for a round's deals (stored before the round's tables open)."""
    return rng.getrandbits(62)


def deal_deck(seed: int, hand_no: int) -> list[Card]:
    """The deck of hand ``hand_no`` at every table of the round with ``seed`` (R2)."""
    return shuffled_deck(random.Random(f"duplicate:{seed}:{hand_no}"))


def board_of(hand_no: int, deals: int) -> tuple[int, bool]:
    """Which deck (board) hand ``hand_no`` (0, 1, ...) of a round of ``deals`` deals is dealt, and whether
    the sides are swapped (``flipped``: a replay, each team holding the cards the other team held).

    With ``m = deals // 2``: hands 0..m-1 are boards 0..m-1; hands m..2m-1 replay them, board ``j`` at
    hand ``m + j`` when ``m`` is odd and at hand ``m + (j ^ 1)`` when ``m`` is even (N=4: boards 0, 1, 1',
    0'; N=8: 0, 1, 2, 3, 1', 0', 3', 2'): always an odd number of hands after the original (so the
    dealer has moved an odd number of seats, R1, and the teams' cards swap) and as late as that allows.
    Any other hand (an odd N's last, a play-off after level totals, every hand of a round to a target:
    ``deals`` 0) is a board of its own, numbered by the hand itself (no first-half board has that number).
    """
    half = deals // 2 if deals >= 2 else 0
    if half <= hand_no < 2 * half:
        k = hand_no - half
        return (k if half % 2 else k ^ 1), True
    return hand_no, False


def board_side(seat_side: int, flipped: bool) -> int:
    """The side of the board's cards (as first dealt) held by the team at seats ``seat_side`` (0: 0/2)."""
    return seat_side ^ int(flipped)


def hand_deck(seed: int, hand_no: int, deals: int) -> list[Card]:
    """The deck of hand ``hand_no`` at every table of a round of ``deals`` deals (:func:`board_of`)."""
    return deal_deck(seed, board_of(hand_no, deals)[0])


def first_dealer(seed: int) -> Seat:
    """The first dealer of every table of the round (R1)."""
    return seed % 4


def team_seats(table_no: int) -> tuple[int, int]:
    """The team (0 = seats 0 and 2, 1 = seats 1 and 3) of the first- and second-listed teams."""
    return (0, 1) if table_no % 2 == 0 else (1, 0)


@dataclass(frozen=True, slots=True)
class DealResult:
    """One team's result on one deal: ``hand_no`` the board (:func:`board_of`), ``side`` the side of the
    board's cards it held (0: the cards seats 0 and 2 got when the board was first dealt;
    :func:`board_side`); ``diff`` its score minus theirs."""

    round_no: int
    hand_no: int
    team: TeamId
    side: int
    diff: int


def matchpoints(results: Iterable[DealResult]) -> dict[TeamId, tuple[float, int]]:
    """Each team's (matchpoints won, matchpoints possible) over all the deals given.

    Results are compared within (round, hand, side): the teams that held the same cards.
    """
    groups: dict[tuple[int, int, int], list[DealResult]] = defaultdict(list)
    for result in results:
        groups[(result.round_no, result.hand_no, result.side)].append(result)
    totals: dict[TeamId, tuple[float, int]] = {}
    for group in groups.values():
        for mine in group:
            won = sum(1.0 if mine.diff > other.diff else 0.5 if mine.diff == other.diff else 0.0
                      for other in group if other is not mine)
            got, most = totals.get(mine.team, (0.0, 0))
            totals[mine.team] = (got + won, most + len(group) - 1)
    return totals
