"""Does duplicate remove luck? Simulated Swiss tournaments of AI teams of known strength.

    python scripts/sim_tournaments.py [--tournaments 20] [--teams 16] [--boards 4] [--seed 1]

Each team is the rule-based ``normal`` AI that, at each decision, plays a uniformly random legal
action instead with its own probability ``noise``: team ``i`` (0-based) of ``n`` has noise
``max_noise * i / (n - 1)`` (``--max-noise``, default 1), so team 0 is the strongest and the true order is
known and strict (before, teams n-1 and n both played at random: a tie in the "true" order). A tournament is ⌈log2(n)⌉
Swiss rounds (``baloot.tournaments.swiss_pairings``), each round ``--boards`` deals at each table,
the round won by the higher total (R7 hand scores; a Gahwa won counts the match target).

Every tournament is played twice on the same seed:

* **duplicate**: every table of a round plays the same decks (``deal_deck(round seed, h)``), the
  tables' sides alternating (``team_seats``), and the standings are ranked by round points, then the
  matchpoint percentage (``baloot.tournaments.standings``);
* **random deals**: each table its own decks; the same standings, with no matchpoints (every team
  at 50 %), so Buchholz and the score difference break ties.

For each, the Kendall τ (``scipy.stats.kendalltau``) between the final standings and the true
order is printed: its mean and spread over the tournaments, and the τ of the duplicate field
ranked by matchpoint percentage alone.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scipy.stats import kendalltau  # type: ignore[import-untyped]

from baloot.ai import make_player
from baloot.ai.player import Player
from baloot.ai.rollout import team_value
from baloot.engine.actions import Action
from baloot.engine.cards import Card
from baloot.engine.hand import Hand, Phase
from baloot.engine.match import shuffled_deck
from baloot.engine.rules import Rules
from baloot.engine.view import SeatView, seat_view
from baloot.tournaments import (
    BYE,
    DealResult,
    Pairing,
    RoundOutcome,
    deal_deck,
    first_dealer,
    matchpoints,
    round_seed,
    standings,
    swiss_pairings,
    swiss_round_count,
    team_seats,
)
from baloot.tournaments.strength import duplicate_rating


class NoisyPlayer:
    """The normal AI, but a random legal action with probability ``noise`` (known strength)."""

    def __init__(self, noise: float) -> None:
        self.noise = noise
        self.inner = make_player("normal")
        self.name = f"normal~{noise:.2f}"

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        if rng.random() < self.noise:
            return rng.choice(view.legal)
        return self.inner.choose(view, rng)


def play_hand(deck: list[Card], dealer: int, seats: list[Player], rng: random.Random, rules: Rules) -> Hand:
    hand = Hand(dealer, deck, rules, (0, 0))
    while hand.phase != Phase.FINISHED:
        seat = hand.to_move
        hand.apply(seats[seat].choose(seat_view(hand, seat, (0, 0)), rng))
    return hand


def play_tournament(n: int, boards: int, seed: int, duplicate: bool, max_noise: float = 1.0
                    ) -> tuple[float, float, float]:
    """One Swiss tournament; τ against the true order of (the standings, the matchpoint ranking, the
    rating of :mod:`baloot.tournaments.strength` — on par deviations when duplicated, raw results if not)."""
    rules = Rules()
    players = {t: NoisyPlayer(max_noise * (t - 1) / (n - 1)) for t in range(1, n + 1)}  # team 1 strongest
    teams = list(players)
    rng = random.Random(seed)
    play_rng = random.Random(seed + 1)
    outcomes: list[RoundOutcome] = []
    deals: list[DealResult] = []
    met: set[frozenset[int]] = set()
    opponents: dict[tuple[int, int], int] = {}
    had_bye: set[int] = set()
    order = random.Random(seed + 2).sample(teams, n)  # registration order: no hint of strength
    lines = standings(order, outcomes, {})
    for round_no in range(1, swiss_round_count(n) + 1):
        scores = {line.team: line.points for line in lines}
        tables: list[Pairing] = swiss_pairings([line.team for line in lines], scores, met, had_bye)
        seed_r = round_seed(rng)
        for table in tables:
            if table.bye:
                had_bye.add(table.first)
                outcomes.append(RoundOutcome(round_no, table.first, BYE, 1.0, 0.0))
                continue
            met.add(frozenset((table.first, table.second)))
            opponents[(round_no, table.first)], opponents[(round_no, table.second)] = table.second, table.first
            side_first, _ = team_seats(table.table_no)
            seats: list[Player] = [players[table.first] if s % 2 == side_first else players[table.second]
                                   for s in range(4)]
            table_rng = random.Random(rng.getrandbits(62))
            total = [0, 0]  # first, second
            for h in range(boards):
                if duplicate:
                    deck, dealer = deal_deck(seed_r, h), (first_dealer(seed_r) + h) % 4
                else:
                    deck, dealer = shuffled_deck(table_rng), (first_dealer(seed_r) + h) % 4
                hand = play_hand(deck, dealer, seats, play_rng, rules)
                diff = team_value(hand, side_first, rules.target)
                total[0] += diff
                deals.append(DealResult(round_no, h, table.first, side_first, diff))
                deals.append(DealResult(round_no, h, table.second, 1 - side_first, -diff))
            first_pts = 1.0 if total[0] > 0 else 0.5 if total[0] == 0 else 0.0
            outcomes.append(RoundOutcome(round_no, table.first, table.second, first_pts, 1 - first_pts,
                                         total[0], -total[0]))
        lines = standings(order, outcomes, matchpoints(deals) if duplicate else {})
    truth = {t: -t for t in teams}  # higher is stronger
    final = {line.team: -line.place for line in lines}
    tau_standings = kendalltau([truth[t] for t in teams], [final[t] for t in teams]).statistic
    mp = matchpoints(deals)
    by_mp = {t: mp[t][0] / mp[t][1] if mp.get(t, (0, 0))[1] else 0.5 for t in teams}
    tau_mp = kendalltau([truth[t] for t in teams], [by_mp[t] for t in teams]).statistic
    rating = duplicate_rating(teams, deals, opponents, duplicated=duplicate)
    tau_rating = kendalltau([truth[t] for t in teams], [rating[t] for t in teams]).statistic
    return float(tau_standings), float(tau_mp), float(tau_rating)


def run(args: tuple[int, int, int, bool, float]) -> tuple[float, float, float]:
    return play_tournament(*args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tournaments", type=int, default=20)
    parser.add_argument("--teams", type=int, default=16)
    parser.add_argument("--boards", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--max-noise", type=float, default=1.0,
                        help="the weakest team's noise (team i of n: max_noise * i / (n - 1))")
    args = parser.parse_args()
    start = time.perf_counter()
    jobs = [(args.teams, args.boards, args.seed * 1000 + k, dup, args.max_noise) for k in range(args.tournaments)
            for dup in (True, False)]
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(run, jobs))
    dup = [r for (job, r) in zip(jobs, results, strict=True) if job[3]]
    rnd = [r for (job, r) in zip(jobs, results, strict=True) if not job[3]]

    def line(label: str, taus: list[float]) -> str:
        mean = statistics.fmean(taus)
        sd = statistics.stdev(taus) if len(taus) > 1 else math.nan
        return f"{label:<34} τ mean {mean:5.3f}  sd {sd:5.3f}  (±{1.96 * sd / math.sqrt(len(taus)):.3f} 95 %)"

    print(f"{args.tournaments} tournaments × 2, {args.teams} teams, {swiss_round_count(args.teams)} Swiss rounds, "
          f"{args.boards} deals a round, noise 0..{args.max_noise:g}; {time.perf_counter() - start:.0f} s")
    print(line("duplicate deals, standings", [d[0] for d in dup]))
    print(line("duplicate deals, matchpoints alone", [d[1] for d in dup]))
    print(line("duplicate deals, duplicate rating", [d[2] for d in dup]))
    print(line("random deals, standings", [r[0] for r in rnd]))
    print(line("random deals, rating on raw results", [r[2] for r in rnd]))


if __name__ == "__main__":
    main()
