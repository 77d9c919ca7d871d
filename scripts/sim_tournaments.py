"""Does duplicate remove luck? Simulated Swiss tournaments of AI teams of known strength.

    python scripts/sim_tournaments.py [--tournaments 100] [--teams 16] [--boards 16] [--max-noise 1]
                                      [--seed 1] [--workers 1]

Each team is the rule-based ``normal`` AI that, at each decision, plays a uniformly random legal
action instead with its own probability ``noise``: team ``i`` (0-based) of ``n`` has noise
``max_noise * i / (n - 1)``, so team 0 is the strongest and the true order is known and strict.
A tournament is ⌈log2(n)⌉ Swiss rounds (``baloot.tournaments.swiss_pairings``, paired on the
standings of the round before), each round ``--boards`` deals at each table, the round won by the
higher total (R7 hand scores; a Gahwa won counts the match target).

Every tournament seed is played in each way of dealing, with the same number of deals:

* **duplicate**: as the product deals a round of a fixed number of deals (``baloot.tournaments.board_of``):
  every table of a round plays the same decks; the second half of the round replays the first half's
  decks with the sides swapped (each team holds both sides of each deck against the same opponents), an
  odd deal's last hand a deck of its own; the tables' sides alternating (``team_seats``). Deal results
  are kept by board and by the side of the board's cards, and ranked by the same code as the bot's
  standings (``baloot.tournaments.duplicate_standings``: the duplicate rating, then round points,
  matchpoints, Buchholz …);
* **fresh**: the duplicate deals before the replay: every hand a fresh deck (``deal_deck(round seed, h)``),
  the same at every table, ranked the same way;
* **random**: each table its own decks. Ranked the same way, the rating fitted on the raw results
  (no par: there is no other table with the same cards), so the comparison is with the best
  ranking random deals allow, not with a weaker one.

Printed: the Kendall τ (``scipy.stats.kendalltau``) between each final ranking and the true order,
its mean over the tournaments with the standard error and the 95 % interval; the same for the
differences duplicate − random and fresh − random over the same seeds (paired); and each true strength's mean final
place. Besides the standings, the τ of round points first (the standings before the rating led) and
of the matchpoint percentage alone are shown.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
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
    Standing,
    board_of,
    board_side,
    deal_deck,
    duplicate_standings,
    first_dealer,
    hand_deck,
    matchpoints,
    round_seed,
    standings,
    swiss_pairings,
    swiss_round_count,
    team_seats,
)

MODES = ("duplicate", "fresh", "random")


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


def ranked(teams: Sequence[int], outcomes: Sequence[RoundOutcome], deals: Sequence[DealResult], mode: str,
           boards: int, *, rating_first: bool = True) -> list[Standing]:
    """The standings: with duplicate deals the tournament's own; with random deals the same keys,
    the rating fitted on the raw results (``duplicated=False``), as no other table held the cards."""
    if not rating_first:
        return standings(teams, outcomes, matchpoints(deals) if mode != "random" else {})
    return duplicate_standings(teams, outcomes, deals, deals_per_round=boards, duplicated=mode != "random")


@dataclass(frozen=True, slots=True)
class Result:
    """One tournament: τ of the standings, of round points first, of matchpoints alone; final places."""

    tau: float
    tau_points_first: float
    tau_matchpoints: float
    place: Mapping[int, int]  # team (1 = strongest) -> final place


def tau(values: Mapping[int, float]) -> float:
    """Kendall τ between ``values`` (higher = ranked better) and the true order (team 1 strongest)."""
    teams = sorted(values)
    return float(kendalltau([-t for t in teams], [values[t] for t in teams]).statistic)


def play_tournament(n: int, boards: int, seed: int, mode: str, max_noise: float = 1.0) -> Result:
    """One Swiss tournament of ``n`` teams, dealt the ``mode`` way (:data:`MODES`)."""
    rules = Rules()
    players = {t: NoisyPlayer(max_noise * (t - 1) / (n - 1)) for t in range(1, n + 1)}  # team 1 strongest
    teams = random.Random(seed + 2).sample(list(players), n)  # registration order: no hint of strength
    rng = random.Random(seed)
    play_rng = random.Random(seed + 1)
    outcomes: list[RoundOutcome] = []
    deals: list[DealResult] = []
    met: set[frozenset[int]] = set()
    had_bye: set[int] = set()
    lines = ranked(teams, outcomes, deals, mode, boards)
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
            side_first, _ = team_seats(table.table_no)
            seats: list[Player] = [players[table.first] if s % 2 == side_first else players[table.second]
                                   for s in range(4)]
            table_rng = random.Random(rng.getrandbits(62))
            total = 0  # the first team's
            for h in range(boards):
                dealer = (first_dealer(seed_r) + h) % 4  # R1: the deal passes to the right
                board, side = h, side_first  # which deal, and which side of its cards the first team holds
                if mode == "duplicate":  # as the product: the tournament service's bookkeeping
                    board, flipped = board_of(h, boards)
                    side = board_side(side_first, flipped)
                    deck = hand_deck(seed_r, h, boards)
                elif mode == "fresh":
                    deck = deal_deck(seed_r, h)
                else:
                    deck = shuffled_deck(table_rng)
                diff = team_value(play_hand(deck, dealer, seats, play_rng, rules), side_first, rules.target)
                total += diff
                deals.append(DealResult(round_no, board, table.first, side, diff))
                deals.append(DealResult(round_no, board, table.second, 1 - side, -diff))
            first_pts = 1.0 if total > 0 else 0.5 if total == 0 else 0.0
            outcomes.append(RoundOutcome(round_no, table.first, table.second, first_pts, 1 - first_pts,
                                         total, -total))
        lines = ranked(teams, outcomes, deals, mode, boards)
    place = {line.team: line.place for line in lines}
    points_first = {line.team: -line.place for line in ranked(teams, outcomes, deals, mode, boards, rating_first=False)}
    mp = matchpoints(deals)
    by_mp = {t: mp[t][0] / mp[t][1] if mp.get(t, (0, 0))[1] else 0.5 for t in players}
    return Result(tau({t: -p for t, p in place.items()}), tau(points_first), tau(by_mp), place)


def run(args: tuple[int, int, int, str, float]) -> Result:
    return play_tournament(*args)


def mean_ci(xs: Sequence[float]) -> str:
    """``mean ± 95 % half-width (se …)`` over the tournaments."""
    mean = statistics.fmean(xs)
    se = statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.nan
    return f"{mean:6.3f} ± {1.96 * se:.3f} (se {se:.3f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tournaments", type=int, default=100)
    parser.add_argument("--teams", type=int, default=16)
    parser.add_argument("--boards", type=int, default=16, help="deals a round at each table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--max-noise", type=float, default=1.0,
                        help="the weakest team's noise (team i of n: max_noise * i / (n - 1))")
    args = parser.parse_args()
    modes = MODES
    start = time.perf_counter()
    jobs = [(args.teams, args.boards, args.seed * 100_000 + k, mode, args.max_noise)
            for k in range(args.tournaments) for mode in modes]
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(run, jobs))
    by_mode = {mode: [r for job, r in zip(jobs, results, strict=True) if job[3] == mode] for mode in modes}
    print(f"{args.tournaments} tournaments per mode, {args.teams} teams, {swiss_round_count(args.teams)} Swiss "
          f"rounds, {args.boards} deals a round, noise 0..{args.max_noise:g}, seed {args.seed}; "
          f"{time.perf_counter() - start:.0f} s")
    print("Kendall τ with the true order: mean ± 95 % interval (standard error)")
    for mode in modes:
        rs = by_mode[mode]
        print(f"  {mode:<9} standings (rating first) {mean_ci([r.tau for r in rs])}")
        print(f"  {mode:<9} round points first       {mean_ci([r.tau_points_first for r in rs])}")
        if mode != "random":
            print(f"  {mode:<9} matchpoints alone        {mean_ci([r.tau_matchpoints for r in rs])}")
    for mode in ("duplicate", "fresh"):
        pairs = list(zip(by_mode[mode], by_mode["random"], strict=True))
        print(f"  {mode} − random, same seeds: standings {mean_ci([a.tau - b.tau for a, b in pairs])}; "
              f"round points first {mean_ci([a.tau_points_first - b.tau_points_first for a, b in pairs])}")
    print("Mean final place of each true strength (1 = the strongest team; noise in brackets):")
    print("  team  noise  " + "  ".join(f"{mode:>9}" for mode in modes))
    for t in range(1, args.teams + 1):
        noise = args.max_noise * (t - 1) / (args.teams - 1)
        places = "  ".join(f"{statistics.fmean(r.place[t] for r in by_mode[mode]):9.2f}" for mode in modes)
        print(f"  {t:>4}  {noise:5.2f}  {places}")


if __name__ == "__main__":
    main()
