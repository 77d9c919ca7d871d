"""``python -m baloot arena``: AI teams against each other on duplicate deals.

Every deal is played twice with the same deck and dealer, team A holding
seats 0 and 2 the first time and seats 1 and 3 the second (the teams are
swapped, the cards stay). A deal pair is won by A when A's score difference
(A minus B, R7 hand scores) summed over both plays is positive; ties count
half in the win rate. A Gahwa won (R4, R7) counts as the match target.

With ``--matches`` whole matches (R8) are played instead: match pair ``k``
deals the same sequence of decks in both plays, and A wins a pair when it wins
more of the two matches.

Besides the win rate the arena counts, for each side, the contracts it took
(R3) by type and how many its team made (won the hand, R7), the doubles and
further raises it said (R4) and how often they won, and its Sawa claims
(R12); and for the table, the share of hands thrown in (R3.2).

Work can be split: ``--first K --hands N`` plays deal pairs ``K .. K+N-1`` of
the seed, ``--save FILE`` writes the raw counts as JSON and ``--merge FILE...``
prints the report of several saved shards together.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field

from ..ai import LEVELS, Player, make_player
from ..ai.rollout import team_value
from ..engine.actions import ActionType
from ..engine.hand import Hand, Phase
from ..engine.match import Match, shuffled_deck
from ..engine.rules import Rules
from ..engine.view import seat_view

CONTRACTS = ("sun", "hokum")
RAISES = (ActionType.DOUBLE, ActionType.TRIPLE, ActionType.FOUR, ActionType.GAHWA)


@dataclass
class SideStats:
    """What one side (A or B) did in the hands it played: R3 contracts, R4 raises, R12 claims."""

    taken: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CONTRACTS, 0))  # contracts taken by type
    made: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CONTRACTS, 0))  # of those, won (R7)
    value: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CONTRACTS, 0))  # taker's team score diff
    raised: dict[str, int] = field(default_factory=lambda: {str(t): 0 for t in RAISES})  # Double/Triple/Four/Gahwa
    raised_won: dict[str, int] = field(default_factory=lambda: {str(t): 0 for t in RAISES})  # the raiser's team won
    sawa: int = 0  # Sawa claims (R12)

    def merge(self, other: SideStats) -> None:
        for mine, theirs in (
            (self.taken, other.taken),
            (self.made, other.made),
            (self.value, other.value),
            (self.raised, other.raised),
            (self.raised_won, other.raised_won),
        ):
            for key, count in theirs.items():
                mine[key] = mine.get(key, 0) + count
        self.sawa += other.sawa


@dataclass
class Tally:
    """Outcomes of deal (or match) pairs, score differences per hand, and decision times."""

    pair_diffs: list[int] = field(default_factory=list)  # A minus B over both plays of a pair
    pair_results: list[float] = field(default_factory=list)  # 1 win, 0.5 tie, 0 loss for A
    pair_played: list[bool] = field(default_factory=list)  # a contract was played in either play
    hand_diffs: list[int] = field(default_factory=list)  # A minus B, one entry per hand played
    times: dict[str, list[float]] = field(default_factory=dict)  # seconds per decision, by level
    thrown_in: int = 0  # hands thrown in (R3.2) or annulled (R9 kawesh)
    sides: list[SideStats] = field(default_factory=lambda: [SideStats(), SideStats()])  # A, B

    def merge(self, other: Tally) -> None:
        self.pair_diffs += other.pair_diffs
        self.pair_results += other.pair_results
        self.pair_played += other.pair_played
        self.hand_diffs += other.hand_diffs
        for level, times in other.times.items():
            self.times.setdefault(level, []).extend(times)
        self.thrown_in += other.thrown_in
        for mine, theirs in zip(self.sides, other.sides, strict=True):
            mine.merge(theirs)

    @property
    def sawa(self) -> list[int]:
        """Sawa claims (R12) by A, by B."""
        return [self.sides[0].sawa, self.sides[1].sawa]

    def count_hand(self, hand: Hand, a_team: int, gahwa_value: int) -> int:
        """Record a finished hand's outcome for both sides; returns A's score difference."""
        value = team_value(hand, a_team, gahwa_value)
        self.hand_diffs.append(value)
        contract, result, taker = hand.contract, hand.result, hand.taker
        if contract is None or result is None or taker is None:
            self.thrown_in += 1
            return value
        winner = result.gahwa_winner if result.gahwa_winner is not None else result.winner
        side = self.sides[0 if taker & 1 == a_team else 1]
        side.taken[contract] += 1
        side.made[contract] += winner == taker & 1
        side.value[contract] += value if taker & 1 == a_team else -value
        for action in hand.actions:
            side = self.sides[0 if action.seat & 1 == a_team else 1]
            kind = action.type.value
            if kind in side.raised:
                side.raised[kind] += 1
                side.raised_won[kind] += winner == action.seat & 1
            elif kind == "sawa":
                side.sawa += 1
        return value

    def to_json(self) -> str:
        """The raw counts (for ``--save``)."""
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> Tally:
        """A tally written by :meth:`to_json`."""
        data = json.loads(text)
        sides = [SideStats(**side) for side in data.pop("sides")]
        return cls(**data, sides=sides)


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
            pair += tally.count_hand(hand, a_team, rules.target)
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
                tally.count_hand(hand, a_team, rules.target)
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


def ratio_text(part: int, whole: int) -> str:
    """``part`` of ``whole`` as a percentage (a dash for none)."""
    return f"{100 * part / whole:5.1f}%" if whole else "    -"


def side_lines(tally: Tally, names: tuple[str, str]) -> list[str]:
    """Per side: contracts taken and made by type (R3, R7), raises (R4), Sawa claims (R12)."""
    hands = len(tally.hand_diffs)
    lines = [
        f"hands thrown in (R3.2): {tally.thrown_in} of {hands} ({ratio_text(tally.thrown_in, hands).strip()})",
        "contracts (made = the taker's team won the hand, R7; score = its mean score difference):",
    ]
    total = SideStats()
    for side in tally.sides:
        total.merge(side)
    for label, side in ((names[0], tally.sides[0]), (names[1], tally.sides[1]), ("both", total)):
        parts = []
        for contract in CONTRACTS:
            taken, made = side.taken[contract], side.made[contract]
            mean = side.value[contract] / taken if taken else 0.0
            parts.append(f"{contract} {taken:6d} taken, {made:6d} made {ratio_text(made, taken)}, score {mean:+6.1f}")
        lines.append(f"  {label:9s} " + " | ".join(parts))
    lines.append("raises (R4; won = the raiser's team won the hand) and Sawa claims (R12):")
    for label, side in ((names[0], tally.sides[0]), (names[1], tally.sides[1])):
        raises = ", ".join(f"{kind} {count} (won {side.raised_won[kind]})" for kind, count in side.raised.items())
        lines.append(f"  {label:9s} {raises}; sawa {side.sawa}")
    return lines


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
        f"({len(tally.hand_diffs)} hands), {args.source}"
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
        *side_lines(tally, (f"A {args.a}", f"B {args.b}")),
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
    parser.add_argument("--hands", "--pairs", type=int, default=1000, help="number of duplicate deal pairs")
    parser.add_argument("--matches", type=int, default=0, help="play this many duplicate match pairs instead")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="index of the first pair (to split a run into shards)")
    parser.add_argument("--budget-ms", type=float, default=None, help="hard's time budget per decision")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1: one core)")
    parser.add_argument("--save", metavar="FILE", help="also write the raw counts to FILE (JSON)")
    parser.add_argument(
        "--merge", nargs="+", metavar="FILE", help="report the saved runs in FILE... together instead of playing"
    )
    if argv and argv[0] == "--":
        argv = argv[1:]
    args = parser.parse_args(argv)
    if len(args.levels) > 2 or any(level not in LEVELS for level in args.levels):
        parser.error(f"levels are two of: {', '.join(LEVELS)}")
    if args.levels:
        args.a = args.levels[0]
        args.b = args.levels[1] if len(args.levels) == 2 else args.b
    return args


def merge_saved(args: argparse.Namespace) -> int:
    """``--merge``: one report of several ``--save`` files (same levels and mode)."""
    tally = Tally()
    sources: list[str] = []
    elapsed = 0.0
    first: dict[str, object] | None = None
    for path in args.merge:
        try:
            with open(path, encoding="utf-8") as file:
                saved = json.load(file)
            meta, part = saved["meta"], Tally.from_json(json.dumps(saved["tally"]))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            print(f"arena: cannot read {path}: {exc}")
            return 2
        same = {k: meta[k] for k in ("a", "b", "matches", "budget_ms")}
        if first is None:
            first = same
        elif same != first:
            print(f"arena: {path} is a different run ({same}) from the first file ({first})")
            return 2
        tally.merge(part)
        sources.append(f"seed {meta['seed']} pairs {meta['first']}..{meta['first'] + meta['count'] - 1}")
        elapsed += meta["elapsed"]
    assert first is not None
    args.a, args.b, args.matches, args.budget_ms = first["a"], first["b"], first["matches"], first["budget_ms"]
    args.source = "merged: " + "; ".join(sources)
    print(report(tally, args, elapsed))
    return 0


def main(argv: list[str]) -> int:
    """Run the arena and print the figures; returns the exit code."""
    args = parse(argv)
    if args.merge:
        return merge_saved(args)
    count = args.matches or args.hands
    if count < 1 or args.jobs < 1 or args.first < 0:
        print("arena: --hands/--matches and --jobs must be positive, --first not negative")
        return 2
    work = play_match_pairs if args.matches else play_deal_pairs
    start = time.perf_counter()
    tally = Tally()
    first = args.first
    if args.jobs == 1:
        tally = work(args.a, args.b, first, count, args.seed, args.budget_ms)
    else:
        size = math.ceil(count / args.jobs)
        chunks = [(first + i, min(size, count - i)) for i in range(0, count, size)]
        with ProcessPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(work, args.a, args.b, f, c, args.seed, args.budget_ms) for f, c in chunks]
            for future in futures:
                tally.merge(future.result())
    elapsed = time.perf_counter() - start
    args.source = f"seed {args.seed}" + (f", pairs {first}..{first + count - 1}" if first else "")
    print(report(tally, args, elapsed))
    if args.save:
        meta = {
            "a": args.a,
            "b": args.b,
            "matches": args.matches,
            "budget_ms": args.budget_ms,
            "seed": args.seed,
            "first": first,
            "count": count,
            "elapsed": elapsed,
        }
        with open(args.save, "w", encoding="utf-8") as file:
            json.dump({"meta": meta, "tally": json.loads(tally.to_json())}, file)
    return 0


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
