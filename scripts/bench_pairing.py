"""Pairing speed: Swiss rounds of a large field, each round's pairing timed.

    python scripts/bench_pairing.py [--teams 1024] [--rounds 10] [--seed 1]

Results are random (each table's winner a coin toss, some draws); the time of each round's
``swiss_pairings`` is printed, with the worst and the median, and the rematches (there should be
none). Goal: a round of 1,024 teams in at most 1 s on one core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from baloot.tournaments import knockout_first_round, swiss_pairings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--teams", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    teams = list(range(1, args.teams + 1))
    scores = dict.fromkeys(teams, 0.0)
    met: set[frozenset[int]] = set()
    had_bye: set[int] = set()
    times = []
    rematches = 0
    for round_no in range(args.rounds):
        ranking = sorted(teams, key=lambda t: (-scores[t], t))
        start = time.perf_counter()
        tables = swiss_pairings(ranking, scores, met, had_bye)
        elapsed = time.perf_counter() - start
        times.append(elapsed)
        for table in tables:
            if table.bye:
                had_bye.add(table.first)
                scores[table.first] += 1
                continue
            key = frozenset((table.first, table.second))
            rematches += key in met
            met.add(key)
            outcome = rng.choice((0.0, 1.0, 1.0, 0.0, 0.5))
            scores[table.first] += outcome
            scores[table.second] += 1 - outcome
        print(f"round {round_no + 1:2d}: {len(tables)} tables paired in {elapsed * 1000:7.1f} ms")
    start = time.perf_counter()
    knockout_first_round(teams)
    knockout = time.perf_counter() - start
    print(f"{args.teams} teams, {args.rounds} Swiss rounds: worst {max(times) * 1000:.1f} ms, "
          f"median {statistics.median(times) * 1000:.1f} ms, rematches {rematches}; "
          f"knockout first round {knockout * 1000:.2f} ms")


if __name__ == "__main__":
    main()
