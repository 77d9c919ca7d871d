"""The web table under load: N tables of four pages on loopback, every move a tap.

The server (the table service on SQLite and the web table, exactly as the bot runs them) is a
process of its own; this process plays the pages: N×4 WebSockets, each seat tapping its first
legal move (Sun to open, else Pass, else its first legal card) as soon as its page shows its turn.

Printed:
* a card play reaching all four pages: from the tap leaving the page to the last of the four
  pages receiving a frame that shows it (p50, p95, p99; goal p95 ≤ 150 ms);
* the server's CPU per tap (its user + system time over the taps it applied), to compare with
  ``scripts/bench_floor.py``'s CPU per Discord press;
* memory per connected page: the server's resident memory before and after a second set of
  N×4 pages connects (each gets its seat's frames like the first).

    .venv/bin/python scripts/bench_web.py --tables 50 --seconds 30 [--think 1.0]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


async def serve(port: int, database: str, tables: int) -> None:
    """The server process: the service and the web table; sessions made up for each bench page."""
    from baloot.storage import Storage
    from baloot.tables import TableService
    from baloot.web.rooms import Room
    from baloot.web.server import Session, WebTable
    from baloot.web.server import serve as start

    storage = await Storage.open(database, synchronous="NORMAL")
    service = TableService(storage, turn_seconds_default=600.0, bot_delay=0.0,
                           rng_factory=lambda table_id: random.Random(table_id))
    table = WebTable(service)
    for t in range(tables):
        for seat in range(4):  # what the Activity's sign-in would give each player
            table.sessions[f"bench-{t}-{seat}"] = Session(10_000 + t * 4 + seat, f"P{seat + 1}", "en",
                                                         Room(1, 1_000 + t), time.time() + 86400)
    await start(table, "127.0.0.1", port)
    print("ready", flush=True)
    await asyncio.Event().wait()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Seat:
    """One page: taps when its frames show its turn; notes when each card play arrived."""

    def __init__(self, bench: Bench, table: int, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.bench, self.table, self.ws = bench, table, ws
        self.seat: int | None = None
        self.tapped: list[int] | None = None
        self.last: dict[str, Any] | None = None

    async def run(self) -> None:
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            now = time.perf_counter()
            frame = json.loads(msg.data)
            if frame.get("type") != "state" or frame.get("version") is None:
                continue
            self.seat = frame["seat"]
            self.last = frame
            self.bench.arrived(self.table, frame, now)
            await self.maybe_tap()

    async def maybe_tap(self) -> None:
        frame = self.last
        if (self.bench.playing and frame is not None and frame["to_move"] == self.seat
                and frame["version"] != self.tapped):
            self.tapped = frame["version"]
            self.bench.tasks.add(task := asyncio.create_task(self.tap(frame)))
            task.add_done_callback(self.bench.tasks.discard)

    async def tap(self, frame: dict[str, Any]) -> None:
        if self.bench.think:  # a person's time to decide: 0.5x to 1.5x --think
            await asyncio.sleep(self.bench.think * (0.5 + random.random()))
        if not self.bench.playing or self.ws.closed:
            return
        by_type = {a["type"]: a["action"] for a in frame["actions"]}
        card = None
        if "sun" in by_type and frame["phase"] == "bidding" and not frame["contract"]:
            action = by_type["sun"]
        elif "pass" in by_type:
            action = by_type["pass"]
        elif any(c["legal"] for c in frame["hand"]):
            card = next(c["code"] for c in frame["hand"] if c["legal"])
            action = {"seat": self.seat, "type": "play", "card": card}
        elif frame["actions"]:
            action = frame["actions"][0]["action"]
        else:
            return
        if card is not None:
            self.bench.sent[(self.table, card, frame["hand_no"])] = (time.perf_counter(), set())
        self.bench.taps += 1
        await self.ws.send_str(json.dumps({"type": "act", "action": action, "version": frame["version"]}))


class Bench:
    def __init__(self, think: float = 0.0) -> None:
        self.think = think
        self.tasks: set[asyncio.Task[None]] = set()
        self.sent: dict[tuple[int, str, int], tuple[float, set[int]]] = {}
        self.latencies: list[float] = []
        self.taps = 0
        self.playing = False

    def arrived(self, table: int, frame: dict[str, Any], now: float) -> None:
        for card in frame.get("played") or ():
            key = (table, card, frame["hand_no"])
            entry = self.sent.get(key)
            if entry is None:
                continue
            entry[1].add(frame["seat"])
            if len(entry[1]) == 4:
                self.latencies.append((now - entry[0]) * 1000)
                del self.sent[key]


async def connect(session: aiohttp.ClientSession, port: int, table: int, seat: int) -> aiohttp.ClientWebSocketResponse:
    return await session.ws_connect(f"http://127.0.0.1:{port}/ws?session=bench-{table}-{seat}",
                                    max_msg_size=1 << 20)


async def main(tables: int, seconds: float, port: int, think: float) -> None:
    folder = tempfile.mkdtemp(prefix="bench-web-")
    server = subprocess.Popen([sys.executable, __file__, "--serve", "--port", str(port), "--tables", str(tables),
                               "--database", f"{folder}/bench.db"], stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    if server.stdout.readline().strip() != "ready":
        raise SystemExit("the server did not start")
    bench = Bench(think)
    try:
        # no connection limit: each page holds its socket's connection (aiohttp's default allows 100)
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
            seats: list[Seat] = []
            for t in range(tables):
                for s in range(4):
                    seats.append(Seat(bench, t, await connect(session, port, t, s)))
            readers = [asyncio.create_task(s.run()) for s in seats]
            for seat in seats:  # the fourth of each table starts its match
                await seat.ws.send_str(json.dumps({"type": "sit", "name": "P"}))
            await asyncio.sleep(2.0)
            rss_before = rss_kib(server.pid)
            extra = [await connect(session, port, t, s) for t in range(tables) for s in range(4)]
            extra_readers = [asyncio.create_task(Seat(Bench(), t, ws).run()) for t, ws in
                             zip([t for t in range(tables) for _ in range(4)], extra, strict=True)]
            await asyncio.sleep(2.0)
            rss_after = rss_kib(server.pid)
            for ws in extra:
                await ws.close()
            for task in extra_readers:
                task.cancel()
            cpu0, taps0 = cpu_seconds(server.pid), bench.taps
            bench.playing = True
            started = time.perf_counter()
            for seat in seats:  # whoever is to move taps now; then every page taps on its turn's frame
                await seat.maybe_tap()
            await asyncio.sleep(seconds)
            bench.playing = False
            elapsed = time.perf_counter() - started
            cpu1, taps1 = cpu_seconds(server.pid), bench.taps
            for seat in seats:
                await seat.ws.close()
            for task in readers:
                task.cancel()
    finally:
        server.terminate()
        server.wait()
    lat = sorted(bench.latencies)
    taps = taps1 - taps0
    print(f"tables: {tables}, pages: {tables * 4}, think {think:.1f} s, played for {elapsed:.1f} s, "
          f"taps applied: {taps} ({taps / elapsed:.0f}/s), card plays timed: {len(lat)}")
    if lat:
        q = statistics.quantiles(lat, n=100)
        print(f"card play -> all four pages, ms: p50 {q[49]:.1f}  p95 {q[94]:.1f}  p99 {q[98]:.1f}  max {lat[-1]:.1f}")
    if taps:
        print(f"server CPU per tap: {(cpu1 - cpu0) / taps * 1000:.2f} ms ({cpu1 - cpu0:.1f} s over {taps} taps)")
    print(f"server memory per connected page: {(rss_after - rss_before) / (tables * 4):.1f} KiB "
          f"(RSS {rss_before / 1024:.1f} -> {rss_after / 1024:.1f} MiB with {tables * 4} more pages)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--think", type=float, default=1.0,
                        help="seconds a page waits before its tap, on average (0: at once; saturates the server)")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--database", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.port, args.database, args.tables))
    else:
        asyncio.run(main(args.tables, args.seconds, args.port, args.think))
