"""``python -m baloot arena``: AI teams against each other on duplicate deals (issue 5).

Every deal is played twice with the same deck and dealer, team A holding
seats 0 and 2 the first time and seats 1 and 3 the second (the teams are
swapped, the cards stay). A deal pair is won by A when A's score difference
(A minus B, R7 hand scores) summed over both plays is positive; ties count
half in the win rate. A Gahwa won (R4, R7) counts as the match target.

With ``--matches`` whole matches (R8) are played instead: match pair ``k``
deals the same sequence of decks in both plays, and A wins a pair when it wins
more of the two matches.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from .ai import LEVELS, Player, make_player
from .ai.rollout import team_value
from .hand import Hand, Phase
from .match import Match, shuffled_deck
from .rules import Rules
from .view import seat_view


@dataclass
class Tally:
    """Outcomes of deal (or match) pairs, score differences per hand, and decision times."""

    pair_diffs: list[int] = field(default_factory=list)  # A minus B over both plays of a pair
    pair_results: list[float] = field(default_factory=list)  # 1 win, 0.5 tie, 0 loss for A
    pair_played: list[bool] = field(default_factory=list)  # a contract was played in either play
    hand_diffs: list[int] = field(default_factory=list)  # A minus B, one entry per hand played
    times: dict[str, list[float]] = field(default_factory=dict)  # seconds per decision, by level
    sawa: list[int] = field(default_factory=lambda: [0, 0])  # Sawa claims (R12) by A, by B

    def merge(self, other: Tally) -> None:
        self.pair_diffs += other.pair_diffs
        self.pair_results += other.pair_results
        self.pair_played += other.pair_played
        self.hand_diffs += other.hand_diffs
        for level, times in other.times.items():
            self.times.setdefault(level, []).extend(times)
        self.sawa = [self.sawa[0] + other.sawa[0], self.sawa[1] + other.sawa[1]]


class Table:
    """Four AI seats: ``team_a`` sits at seats ``a_team`` (0 = seats 0 and 2)."""

    def __init__(self, a: Player, b: Player, a_team: int, tally: Tally, seed: int) -> None:
        self.seats = [a if s & 1 == a_team else b for s in range(4)]
        self.a_team = a_team
        self.rngs = [random.Random(seed * 4 + s) for s in range(4)]
        self.tally = tally

    def play_hand(self, hand: Hand, match_score: tuple[int, int], match: Match | None = None) -> None:
        """Play ``hand`` (of ``match``, if given) to its end, timing each decision."""
        apply = hand.apply if match is None else match.apply
        times = self.tally.times
        perf = time.perf_counter
        while hand.phase != Phase.FINISHED:
            seat = hand.to_move
            player = self.seats[seat]
            view = seat_view(hand, seat, match_score)
            start = perf()
            action = player.choose(view, self.rngs[seat])
            elapsed = perf() - start
            times.setdefault(player.name, []).append(elapsed)
            apply(action)  # raises IllegalActionError on an illegal choice
        if hand.sawa_by is not None:
            self.tally.sawa[0 if hand.sawa_by & 1 == self.a_team else 1] += 1


def play_deal_pairs(a_level: str, b_level: str, first: int, count: int, seed: int, budget_ms: float | None) -> Tally:
    """Deal pairs ``first .. first+count-1``: each deck played with A at team 0, then at team 1."""
    a, b = make_player(a_level, budget_ms), make_player(b_level, budget_ms)
    rules = Rules()
    tally = Tally()
    for i in range(first, first + count):
        deck = shuffled_deck(random.Random(f"{seed}:{i}"))
        dealer = i % 4
        pair = 0
        played = False
        for a_team in (0, 1):
            hand = Hand(dealer, deck, rules, (0, 0))
            Table(a, b, a_team, tally, seed * 1_000_003 + i).play_hand(hand, (0, 0))
            value = team_value(hand, a_team, rules.target)
            tally.hand_diffs.append(value)
            pair += value
            played = played or hand.result is not None
        tally.pair_diffs.append(pair)
        tally.pair_played.append(played)
        tally.pair_results.append(1.0 if pair > 0 else 0.5 if pair == 0 else 0.0)
    return tally


def play_match_pairs(a_level: str, b_level: str, first: int, count: int, seed: int, budget_ms: float | None) -> Tally:
    """Match pairs: the same sequence of decks, A at team 0 then at team 1 (R8)."""
    a, b = make_player(a_level, budget_ms), make_player(b_level, budget_ms)
    rules = Rules()
    tally = Tally()
    for i in range(first, first + count):
        outcome = 0
        diff = 0
        for a_team in (0, 1):
            deck_rng = random.Random(f"{seed}:match:{i}")
            match = Match(rules, first_dealer=i % 4)
            table = Table(a, b, a_team, tally, seed * 1_000_003 + i)
            while not match.finished:
                score = (match.score[0], match.score[1])
                hand = match.deal(shuffled_deck(deck_rng))
                table.play_hand(hand, score, match)
                tally.hand_diffs.append(team_value(hand, a_team, rules.target))
            outcome += 1 if match.winner == a_team else -1
            diff += match.score[a_team] - match.score[1 - a_team]
        tally.pair_diffs.append(diff)
        tally.pair_played.append(True)
        tally.pair_results.append(1.0 if outcome > 0 else 0.5 if outcome == 0 else 0.0)
    return tally


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (normal approximation)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def rate_text(rate: float, half_width: float) -> str:
    """A win rate with its 95% CI, clamped to 0..100% (the normal approximation can overshoot)."""
    low, high = max(0.0, rate - half_width), min(1.0, rate + half_width)
    return f"{100 * rate:.1f}% (95% CI {100 * low:.1f}% .. {100 * high:.1f}%)"


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[index]


def report(tally: Tally, args: argparse.Namespace, elapsed: float) -> str:
    """The arena's printout."""
    unit = "match" if args.matches else "deal"
    n = len(tally.pair_results)
    wins = sum(1 for r in tally.pair_results if r == 1.0)
    ties = sum(1 for r in tally.pair_results if r == 0.5)
    losses = n - wins - ties
    rate, rate_ci = mean_ci(tally.pair_results)
    decided = [r for r in tally.pair_results if r != 0.5]
    dec_rate, dec_ci = mean_ci(decided)
    contested = [r for r, p in zip(tally.pair_results, tally.pair_played, strict=True) if p]
    con_rate, con_ci = mean_ci(contested)
    diff, diff_ci = mean_ci(tally.hand_diffs)
    lines = [
        f"arena: A={args.a} vs B={args.b}, {n} duplicate {unit} pairs "
        f"({len(tally.hand_diffs)} hands), seed {args.seed}"
        + (f", hard budget {args.budget_ms} ms" if args.budget_ms is not None else "")
        + f", {elapsed:.0f} s",
        f"A won {wins}, tied {ties}, lost {losses} {unit} pairs",
        f"A win rate (ties half): {rate_text(rate, rate_ci)}",
        f"A win rate (ties half) over the {len(contested)} pairs where a contract was played "
        f"(not thrown in both times, R3.2): {rate_text(con_rate, con_ci)}",
        (
            f"A win rate (ties left out): {rate_text(dec_rate, dec_ci)}"
            if decided
            else "A win rate (ties left out): no decided pairs"
        ),
        f"mean hand score difference A-B: {diff:+.2f} per hand (95% CI {diff - diff_ci:+.2f} .. {diff + diff_ci:+.2f})",
        f"Sawa claims (R12): A {tally.sawa[0]}, B {tally.sawa[1]} (in {len(tally.hand_diffs)} hands)",
        "decision time per level (ms):",
    ]
    for level, times in sorted(tally.times.items()):
        ms = [t * 1000 for t in times]
        lines.append(
            f"  {level:7s} n={len(ms):7d}  mean {sum(ms) / len(ms):7.2f}  p95 {percentile(ms, 0.95):7.2f}  "
            f"max {max(ms):7.2f}"
        )
    return "\n".join(lines)


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m baloot arena", description=__doc__.split("\n\n")[0])
    parser.add_argument("levels", nargs="*", metavar="LEVEL", help="team A's and team B's levels (or use --a/--b)")
    parser.add_argument("--a", default="normal", choices=LEVELS, help="team A's level")
    parser.add_argument("--b", default="easy", choices=LEVELS, help="team B's level")
    parser.add_argument("--hands", type=int, default=1000, help="number of duplicate deal pairs")
    parser.add_argument("--matches", type=int, default=0, help="play this many duplicate match pairs instead")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget-ms", type=float, default=None, help="hard's time budget per decision")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1: one core)")
    if argv and argv[0] == "--":
        argv = argv[1:]
    args = parser.parse_args(argv)
    if len(args.levels) > 2 or any(level not in LEVELS for level in args.levels):
        parser.error(f"levels are two of: {', '.join(LEVELS)}")
    if args.levels:
        args.a = args.levels[0]
        args.b = args.levels[1] if len(args.levels) == 2 else args.b
    return args


def main(argv: list[str]) -> int:
    """Run the arena and print the figures; returns the exit code."""
    args = parse(argv)
    count = args.matches or args.hands
    if count < 1 or args.jobs < 1:
        print("arena: --hands/--matches and --jobs must be positive")
        return 2
    work = play_match_pairs if args.matches else play_deal_pairs
    start = time.perf_counter()
    tally = Tally()
    if args.jobs == 1:
        tally = work(args.a, args.b, 0, count, args.seed, args.budget_ms)
    else:
        size = math.ceil(count / args.jobs)
        chunks = [(i, min(size, count - i)) for i in range(0, count, size)]
        with ProcessPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(work, args.a, args.b, f, c, args.seed, args.budget_ms) for f, c in chunks]
            for future in futures:
                tally.merge(future.result())
    print(report(tally, args, time.perf_counter() - start))
    return 0


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
