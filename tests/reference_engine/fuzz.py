"""Differential fuzzing: ``python -m tests.reference_engine.fuzz --n 5000 [--seed 0]``.

Compares the main engine's ``replay_text`` with the reference ``replay`` on N records (full random
matches, games in progress, adversarial mutants and neighbourhoods of alternative actions) and
prints each class of disagreement with the smallest example record found.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from .corpus import Record, cut, disagreement, main_engine_game, mutate, neighbours, reference_game


def _size(rec: Record) -> int:
    return len(json.dumps(rec))


def _classify(desc: str) -> str:
    """Group disagreements: accept/reject pattern or the differing output fields."""
    if "differs" in desc:
        return "output: " + desc.split("{", 1)[-1].split(":")[0]
    return " / ".join(part.split("{")[0].strip() for part in desc.split(" / "))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=1000, help="number of records to compare")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--known", action="store_true", help="also use the mutations of known disagreements")
    ap.add_argument("--save", metavar="PREFIX", help="write each class's smallest record to PREFIX<k>.json")
    args = ap.parse_args(argv)

    rng = random.Random(args.seed)
    start = time.time()
    compared = 0
    classes: dict[tuple[str, str], tuple[int, Record, str]] = {}
    counts: dict[tuple[str, str], int] = {}
    base: Record = {}
    pending: list[tuple[str, Record]] = []
    while compared < args.n:
        if not pending:
            seed = rng.randrange(1 << 30)
            base = main_engine_game(seed) if rng.random() < 0.5 else reference_game(seed)
            pending.append(("match", base))
            pending.append(("cut", cut(base, rng)))
            for _ in range(6):
                kind, rec = mutate(base, rng, known=args.known)
                pending.append((f"mutant:{kind}", rec))
            if rng.random() < 0.1:
                pending.extend(("neighbour", r) for r in neighbours(base, rng))
        source, rec = pending.pop()
        compared += 1
        desc = disagreement(rec)
        if desc is None:
            continue
        key = (source.split(":")[0], _classify(desc))
        counts[key] = counts.get(key, 0) + 1
        if key not in classes or _size(rec) < classes[key][0]:
            classes[key] = (_size(rec), rec, desc)

    elapsed = time.time() - start
    total = sum(counts.values())
    print(f"compared {compared} records in {elapsed:.1f}s: {total} disagreement(s) in {len(classes)} class(es)")
    for k, (key, (_, rec, desc)) in enumerate(sorted(classes.items(), key=lambda kv: -counts[kv[0]])):
        small = _shrink(rec, desc)
        print(f"\n== {counts[key]} x [{key[0]}] {key[1]}\n   {desc}")
        print("   smallest record: " + json.dumps(small))
        if args.save:
            with open(f"{args.save}{k}.json", "w") as f:
                json.dump(small, f)
    return 1 if total else 0


def _shrink(rec: Record, desc: str) -> Any:
    """Drop whole hands before the disputed one and actions after it while the disagreement stays."""
    best = rec
    try:
        while len(best["hands"]) > 1:
            trial = {**best, "hands": best["hands"][:-1]}
            if disagreement(trial) is None:
                break
            best = trial
        acts = best["hands"][-1]["actions"]
        while acts:
            trial_hands = [*best["hands"][:-1], {**best["hands"][-1], "actions": acts[:-1]}]
            trial = {**best, "hands": trial_hands}
            if disagreement(trial) is None:
                break
            best, acts = trial, acts[:-1]
    except (TypeError, KeyError, IndexError, AttributeError):
        pass
    return best


if __name__ == "__main__":
    sys.exit(main())
