"""Quick match: who plays whom. Pure — no clock, no storage, no randomness.

The queue holds *entries*: one player alone, or two who queued as a pair (a
pair is always one team, R1's partners sitting across). :func:`find_matches`
forms tables of four players (four alone, two pairs, or a pair and two alone)
from a snapshot of the queue, in two teams balanced by openskill's predicted
win chance (the model of :mod:`baloot.stats.rating`: Plackett-Luce with its
default ``mu``, ``sigma`` and ``beta``).

**The schedule** (what a player waits for, documented in the README): a group
is accepted when both of these hold for the longest waiter among them (the
*anchor*, matched first):

* its *spread* — the highest skill minus the lowest, in rating points
  (``SCALE × mu``, 40 points a ``mu``) — is at most
  ``SPREAD_START + SPREAD_PER_SECOND × waited``: 200 points at once, 400 after
  25 s, any spread after :data:`OPEN_AFTER` (90 s);
* the better team's predicted win chance is at most ``0.5 + tolerance``,
  ``tolerance`` being :data:`BALANCE_START` (0.10, i.e. 40–60 %) until
  :data:`BALANCE_WIDENS_AFTER` (60 s), then widening by
  :data:`BALANCE_PER_SECOND` to any balance at :data:`OPEN_AFTER`.

Among the acceptable groups of an anchor the matcher takes one whose entries
prefer no two different languages if it can, then the most balanced one
(ties: the smaller spread, then the longer waiters). Every entry is in at
most one group, so **a player is never matched twice** by one call; storage
makes that hold across calls and processes (the queue rows are deleted in the
transaction that seats them). After :data:`BOTS_OFFER_AFTER` seconds a waiting
player is offered to play at once with bots in the empty seats.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

MODEL: Final = PlackettLuce()
"""openskill's default Plackett-Luce model, the one the ratings are kept in (stats/rating.py)."""
NEW_MU: Final = float(MODEL.mu)
NEW_SIGMA: Final = float(MODEL.sigma)
SCALE: Final = 40.0
"""Rating points per ``mu`` (the shown rating's scale, stats/rating.py)."""

SPREAD_START: Final = 200.0
SPREAD_PER_SECOND: Final = 8.0
BALANCE_START: Final = 0.10
BALANCE_WIDENS_AFTER: Final = 60.0
BALANCE_PER_SECOND: Final = 0.40 / 30.0
OPEN_AFTER: Final = 90.0
"""After this many seconds of waiting any four players (pairs kept together) are a match."""
BOTS_OFFER_AFTER: Final = 45.0
"""After this many seconds a waiting player is offered **Play now with bots**."""
NEAREST: Final = 11
"""How many other entries, nearest in skill to the anchor, are tried with it (at most C(11, 3) groups)."""


@dataclass(frozen=True, slots=True)
class Player:
    """One queued player and openskill's estimate of them."""

    user_id: int
    mu: float = NEW_MU
    sigma: float = NEW_SIGMA


@dataclass(frozen=True, slots=True)
class Entry:
    """One place in the queue: a player alone or a pair (one team). ``queued_at`` in seconds."""

    players: tuple[Player, ...]
    queued_at: float
    language: str | None = None
    """The language the entry prefers (None: any); a group sharing one is preferred among acceptable ones."""

    def __post_init__(self) -> None:
        if len(self.players) not in (1, 2):
            raise ValueError("a queue entry is one player or a pair")
        if len({p.user_id for p in self.players}) != len(self.players):
            raise ValueError("a pair is two different players")

    @property
    def key(self) -> int:
        """The entry's id: its first player's user id (a user is in one entry at a time)."""
        return self.players[0].user_id

    @property
    def mean_mu(self) -> float:
        return sum(p.mu for p in self.players) / len(self.players)


@dataclass(frozen=True, slots=True)
class Match:
    """A table of four: ``seats[i]`` sits at seat ``i`` (teams: seats 0 and 2, seats 1 and 3)."""

    seats: tuple[Player, Player, Player, Player]
    entries: tuple[Entry, ...]
    win_chance: float
    """Team 0's predicted chance to win the match."""
    spread: float
    """Highest minus lowest skill, in rating points."""

    @property
    def user_ids(self) -> tuple[int, ...]:
        return tuple(p.user_id for p in self.seats)


def spread_allowed(waited: float) -> float:
    """The largest skill spread (rating points) a group may have for an anchor who waited ``waited`` s."""
    if waited >= OPEN_AFTER:
        return float("inf")
    return SPREAD_START + SPREAD_PER_SECOND * max(0.0, waited)


def balance_allowed(waited: float) -> float:
    """How far from 50 % the predicted win chance may be for an anchor who waited ``waited`` s."""
    if waited >= OPEN_AFTER:
        return 0.5
    return BALANCE_START + BALANCE_PER_SECOND * max(0.0, waited - BALANCE_WIDENS_AFTER)


def win_chance(team0: Sequence[Player], team1: Sequence[Player]) -> float:
    """Team 0's predicted chance to beat team 1 (openskill's ``predict_win``)."""
    ratings = [[MODEL.rating(mu=p.mu, sigma=p.sigma) for p in team] for team in (team0, team1)]
    return float(MODEL.predict_win(ratings)[0])


def _splits(entries: Sequence[Entry]) -> list[tuple[tuple[Player, Player], tuple[Player, Player]]]:
    """Every way of making two teams of two from these entries (four players), a pair never split."""
    pairs = [e.players for e in entries if len(e.players) == 2]
    alone = [e.players[0] for e in entries if len(e.players) == 1]
    if len(pairs) == 2:
        return [((pairs[0][0], pairs[0][1]), (pairs[1][0], pairs[1][1]))]
    if len(pairs) == 1:
        return [((pairs[0][0], pairs[0][1]), (alone[0], alone[1]))]
    a, b, c, d = alone
    return [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]


def best_teams(entries: Sequence[Entry]) -> Match:
    """The most balanced teams these entries (four players in all) can make."""
    best: Match | None = None
    players = [p for e in entries for p in e.players]
    spread = SCALE * (max(p.mu for p in players) - min(p.mu for p in players))
    for team0, team1 in _splits(entries):
        chance = win_chance(team0, team1)
        if best is None or abs(chance - 0.5) < abs(best.win_chance - 0.5):
            best = Match((team0[0], team1[0], team0[1], team1[1]), tuple(entries), chance, spread)
    assert best is not None
    return best


def _groups(anchor: Entry, others: Sequence[Entry]) -> list[tuple[Entry, ...]]:
    """The sets of entries with ``anchor`` that make four players."""
    need = 4 - len(anchor.players)
    out: list[tuple[Entry, ...]] = []
    for size in range(1, need + 1):
        for combo in itertools.combinations(others, size):
            if sum(len(e.players) for e in combo) == need:
                out.append((anchor, *combo))
    return out


def find_matches(queue: Sequence[Entry], now: float) -> list[Match]:
    """Tables to form from ``queue`` at time ``now`` (see the module docstring for the schedule).

    The longest waiter is served first. No entry (so no player) is in two
    matches; a pair always forms one team; each match's win chance is within
    the anchor's allowed balance and its spread within the anchor's allowed spread.
    """
    seen: set[int] = set()
    for entry in queue:
        for p in entry.players:
            if p.user_id in seen:
                raise ValueError(f"user {p.user_id} is in the queue twice")
            seen.add(p.user_id)
    waiting = sorted(queue, key=lambda e: (e.queued_at, e.key))
    used: set[int] = set()
    matches: list[Match] = []
    for anchor in waiting:
        if anchor.key in used:
            continue
        waited = now - anchor.queued_at
        spread_cap, balance_cap = spread_allowed(waited), balance_allowed(waited)
        others = [e for e in waiting if e.key not in used and e.key != anchor.key]
        others.sort(key=lambda e: (abs(e.mean_mu - anchor.mean_mu), e.queued_at, e.key))
        best: tuple[tuple[float, float, float, float], Match] | None = None
        for group in _groups(anchor, others[:NEAREST]):
            match = best_teams(group)
            off = abs(match.win_chance - 0.5)
            if match.spread > spread_cap or off > balance_cap + 1e-12:
                continue
            languages = len({e.language for e in group if e.language is not None})
            rank = (float(languages > 1), round(off, 6), round(match.spread, 6), sum(e.queued_at for e in group))
            if best is None or rank < best[0]:
                best = (rank, match)
        if best is not None:
            matches.append(best[1])
            used.update(e.key for e in best[1].entries)
    return matches
