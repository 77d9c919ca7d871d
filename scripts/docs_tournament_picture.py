"""Draws docs/tournament-standings.png (and the Arabic one) with the project's own renderer.

    python scripts/docs_tournament_picture.py

An example 8-team Swiss field after round 2 of 3: results and deal results made up with a fixed
seed, standings from ``baloot.tournaments.standings``, next pairings from ``swiss_pairings``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from baloot.render.standings_picture import render_standings  # noqa: E402
from baloot.tournaments import (  # noqa: E402
    DealResult,
    RoundOutcome,
    matchpoints,
    standings,
    swiss_pairings,
    team_seats,
)

NAMES = {1: "Ali & Badr", 2: "Camil & Dana", 3: "Eid & Fahad", 4: "Ghada & Hind", 5: "Ibrahim & Jamal",
         6: "Khalid & Lama", 7: "Majed & Noura", 8: "Omar & Rakan"}
AR_NAMES = {1: "علي وبدر", 2: "كميل ودانة", 3: "عيد وفهد", 4: "غادة وهند", 5: "إبراهيم وجمال",
            6: "خالد ولمى", 7: "ماجد ونورة", 8: "عمر وراكان"}


def main() -> None:
    rng = random.Random(30)
    teams = list(NAMES)
    outcomes: list[RoundOutcome] = []
    deals: list[DealResult] = []
    met: set[frozenset[int]] = set()
    lines = standings(teams, [], {})
    for round_no in (1, 2):
        tables = swiss_pairings([x.team for x in lines], {x.team: x.points for x in lines}, met, set())
        for table in tables:
            met.add(frozenset((table.first, table.second)))
            side, _ = team_seats(table.table_no)
            total = 0
            for hand_no in range(6):
                diff = rng.randint(-26, 26) + (4 - table.first) * 2
                total += diff
                deals += [DealResult(round_no, hand_no, table.first, side, diff),
                          DealResult(round_no, hand_no, table.second, 1 - side, -diff)]
            won = 1.0 if total > 0 else 0.0
            outcomes.append(RoundOutcome(round_no, table.first, table.second, won, 1 - won, 152 if won else 97,
                                         97 if won else 152))
        lines = standings(teams, outcomes, matchpoints(deals))
    nxt = swiss_pairings([x.team for x in lines], {x.team: x.points for x in lines}, met, set())
    for locale, names, path in (("en", NAMES, "docs/tournament-standings.png"),
                                ("ar", AR_NAMES, "docs/tournament-standings-ar.png")):
        title = "Ramadan Cup" if locale == "en" else "كأس رمضان"
        (ROOT / path).write_bytes(render_standings(title, 2, False, lines, names, nxt, locale))
        print("wrote", path)


if __name__ == "__main__":
    main()
