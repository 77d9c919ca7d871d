"""Fault drill: tables under storage faults on a virtual clock; prints what was answered and healed.

    .venv/bin/python scripts/fault_drill.py                  # 10 tables, three fault episodes
    .venv/bin/python scripts/fault_drill.py --tables 50 --seed 3

N tables, each with two people (who press a legal button 2 virtual seconds
after their turn starts) and two bots, play on a virtual clock
(``tests/virtual_clock.py``) through the table service and a real SQLite file.
Faults come from the storage seam (:mod:`baloot.storage.faults`), in three
episodes: every write fails for 60 s ("disk full"); only actions and deals
fail for 30 s ("locked"); every call, reads included, fails for 20 s ("I/O").

Figures: faults injected; presses made during faults and how each was answered
(a storage fault the Discord layer turns into the private "could not save"
message, a refusal, or an unexpected error = a bug); for every episode, the
virtual seconds after it cleared until every table had stored a new action;
and at the end, for every table, that the stored record equals memory, replays,
and holds every accepted press and each announced action exactly once
(lost / duplicated).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from virtual_clock import VirtualClock  # noqa: E402

from baloot.engine.actions import ActionType  # noqa: E402
from baloot.engine.errors import BalootError  # noqa: E402
from baloot.engine.records import match_from_record  # noqa: E402
from baloot.engine.view import SeatView  # noqa: E402
from baloot.storage import Storage, StorageUnavailable  # noqa: E402
from baloot.storage.faults import Faults, inject_faults  # noqa: E402
from baloot.tables import TableService  # noqa: E402
from baloot.tables.events import ActionApplied, TableEvent  # noqa: E402
from baloot.tables.live import LiveTable  # noqa: E402


class LegalBot:
    def choose(self, view: SeatView, rng: random.Random) -> object:
        legal = [a for a in view.legal if a.type is not ActionType.KAWESH] or list(view.legal)
        return rng.choice(legal)


class Drill:
    def __init__(self, service: TableService, storage: Storage, faults: Faults, clock: VirtualClock,
                 seed: int) -> None:
        self.service, self.storage, self.faults, self.clock = service, storage, faults, clock
        self.rng = random.Random(seed)
        self.outcomes: Counter[str] = Counter()
        self.accepted: dict[int, list[tuple[int, int]]] = {}
        self.applied: list[ActionApplied] = []
        self.stop = False

    async def listen(self, event: TableEvent) -> None:
        if isinstance(event, ActionApplied):
            self.applied.append(event)

    async def person(self, table_id: int, user: int) -> None:
        """Press a legal button 2 s after one's turn starts, as long as the table plays."""
        while not self.stop:
            await self.clock.sleep(2.0)
            table: LiveTable | None = self.service._tables.get(table_id)
            if table is None:
                return
            seat = table.seat_of(user)
            if seat is None or table.to_move != seat:
                continue
            during = self.faults.active
            try:
                hand = await self.service.my_hand(table_id, user)
                legal = [a for a in hand.view.legal if a.type is not ActionType.KAWESH] or list(hand.view.legal)
                result = await self.service.act(table_id, user, self.rng.choice(legal).to_json(), hand.version)
            except StorageUnavailable:
                self.outcomes["storage fault answered" if during else "storage fault with no fault injected"] += 1
            except BalootError:
                self.outcomes["refused (stale or not their turn)"] += 1
            except Exception as exc:
                self.outcomes[f"unexpected {type(exc).__name__}"] += 1
            else:
                self.outcomes["accepted during a fault" if during else "accepted"] += 1
                hand_no, index = hand.version
                self.accepted.setdefault(table_id, []).append((hand_no, index))
                del result

    async def counts(self, ids: list[int]) -> dict[int, int]:
        return {t: sum(len(h.actions) for h in await self.storage.hands(t)) for t in ids}


async def drill(tables: int, seed: int) -> int:
    clock = VirtualClock()
    with tempfile.TemporaryDirectory() as tmp:
        storage = await Storage.open(Path(tmp) / "drill.db", synchronous="NORMAL", clock=clock.time)
        faults = inject_faults(storage)
        service = TableService(
            storage, rng_factory=lambda t: random.Random(seed * 1000 + t), turn_seconds_range=(1.0, 600.0),
            bot_delay=1.0, bot_factory=lambda level: LegalBot(), away_after=1000, clock=clock.time,  # type: ignore[arg-type,return-value]
            sleep=clock.sleep, retry_most=5.0, sweep_seconds=5.0,
        )
        run = Drill(service, storage, faults, clock, seed)
        service.add_listener(run.listen)
        service.start_sweeping()
        ids, people = [], []
        for n in range(tables):
            a, b = 10_000 + 2 * n, 10_001 + 2 * n
            info = await service.create(1, 500 + n, a, f"P{a}", rules={"target": 1000}, turn_seconds=30)
            await service.join(500 + n, b, f"P{b}", seat=2)
            await service.fill_with_bots(500 + n, a, "easy")
            await service.start(500 + n, a)
            ids.append(info.id)
            people += [asyncio.create_task(run.person(info.id, u)) for u in (a, b)]
        await clock.advance(30)
        episodes = [("every write fails ('database or disk is full')", 60.0, {"writes_only": True,
                                                                             "reason": "database or disk is full"}),
                    ("actions and deals fail ('database is locked')", 30.0, {"reason": "database is locked"}),
                    ("every call fails, reads too ('disk I/O error')", 20.0, {"reason": "disk I/O error"})]
        healed: list[tuple[str, float, float]] = []
        for name, seconds, how in episodes:
            before_injected = faults.injected
            if "actions" in name:
                faults.fail("add_action", "add_hand", **how)  # type: ignore[arg-type]
            else:
                faults.fail(**how)  # type: ignore[arg-type]
            await clock.advance(seconds)
            faults.clear()
            cleared = clock.now
            stuck = await run.counts(ids)
            moved: dict[int, float] = {}
            while len(moved) < len(ids) and clock.now - cleared < 60:
                await clock.advance(0.25)
                for t, n in (await run.counts(ids)).items():
                    if n > stuck[t] and t not in moved:
                        moved[t] = clock.now - cleared
            print(f"{name} for {seconds:.0f} s: {faults.injected - before_injected} faults injected; "
                  f"{len(moved)}/{len(ids)} tables stored a new action after it cleared, the last after "
                  f"{max(moved.values()) if moved else float('nan'):.2f} s "
                  f"(mean {sum(moved.values()) / max(1, len(moved)):.2f} s)")
            healed.append((name, max(moved.values()) if moved else float("inf"), len(moved)))
            await clock.advance(30)
        run.stop = True
        await clock.advance(5)
        for task in people:
            task.cancel()
        lost = duplicated = mismatched = 0
        for t in ids:
            record = await storage.game_record(t)
            live = service._tables.get(t)
            if live is not None and live.match is not None and live.match.to_record() != record:
                mismatched += 1
            match_from_record(record)
            stored = {(h, i) for h, hand in enumerate(record["hands"]) for i in range(len(hand["actions"]))}
            announced = [(e.hand_no, e.index) for e in run.applied if e.table_id == t]
            duplicated += len(announced) - len(set(announced))
            lost += len(set(announced) - stored) + len(set(run.accepted.get(t, [])) - stored)
            lost += len(stored - set(announced))  # stored but never announced
        total = sum((await run.counts(ids)).values())
        print(f"{tables} tables, {total} actions stored, {faults.injected} faults injected in all")
        for outcome, count in sorted(run.outcomes.items()):
            print(f"  presses {outcome}: {count}")
        print(f"lost: {lost}, duplicated: {duplicated}, memory != database: {mismatched}")
        await service.close()
        await clock.settle()
        await storage.close()
        bad = lost or duplicated or mismatched or any(n < tables or s > 10 for _, s, n in healed)
        bad = bad or any(k.startswith(("unexpected", "storage fault with no")) for k in run.outcomes)
        return 1 if bad else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    return asyncio.run(drill(args.tables, args.seed))


if __name__ == "__main__":
    sys.exit(main())
