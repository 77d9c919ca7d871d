"""The CPU floor of a press's traffic alone: what any bot in this process model spends per press
before it runs a rule, renders a view or decides anything.

``scripts/bench_tables.py`` measures the bot's CPU per interaction (the issue's goal: 1.2 ms). Part of
that is traffic the product must make for every press, whatever the code around it:

- the press arriving on the gateway (a zlib-stream websocket frame holding Discord's
  INTERACTION_CREATE, with the message the button was on), decompressed and parsed;
- the accepted action committed to SQLite before it is announced (``DATABASE_SYNC=FULL``, WAL);
- the press's answer (``POST .../callback``, a type-7 update carrying the private view);
- the three other seats' private views refreshed through their interaction tokens
  (``PATCH .../messages/@original``: every turn change), each answered by Discord
  with the whole message.

This script does exactly that and nothing else, with the bot's own parts: uvloop, aiohttp's
websocket client, orjson, aiosqlite, and the interaction-token road (:class:`cogs.transport.token_http.TokenHttp`);
bodies are a real private view (``render_hand``) as ``cogs.transport.wire.message_json`` sends it. A server
process (not measured) plays Discord: it sends presses at ``--rate`` per second (200 tables with a
1.5 s think time make about 130) and answers the requests. The client's CPU (all its threads, user
and system) divided by the presses is the floor::

    .venv/bin/python scripts/bench_floor.py [--presses 6000] [--rate 130] [--sync FULL]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import resource
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

import aiohttp
import aiosqlite
import orjson
from aiohttp import web

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from baloot.engine.match import Match
from baloot.engine.rules import Rules
from baloot.engine.view import seat_view
from baloot.render.hand_view import render_hand
from baloot.render.model import RenderInfo
from cogs.transport.token_http import TokenHttp
from cogs.transport.wire import message_json


def bodies() -> list[dict[str, Any]]:
    """Private views of one random hand, one per action and seat, as the bot sends them."""
    rng = random.Random(7)
    match = Match(Rules(target=152))
    hand = match.deal(rng)
    info = RenderInfo(table_id="42", names=("Amal", "Badr", "Chadi", "Dana"), turn_deadline=int(time.time()) + 60)
    out = []
    while not hand.finished:
        out += [message_json(render_hand(info, seat_view(hand, seat), 0, "en")) for seat in range(4)]
        match.apply(rng.choice(hand.legal_actions()))
    return out


def interaction(n: int, message: dict[str, Any]) -> dict[str, Any]:
    """An INTERACTION_CREATE of a button press in a DM, shaped as the stand-in (tests/fakediscord) sends it."""
    user = {"id": str(10**17 + n % 800), "username": f"player{n % 800}", "global_name": f"Player {n % 800}",
            "discriminator": "0", "avatar": None, "public_flags": 0}
    return {"op": 0, "s": n + 2, "t": "INTERACTION_CREATE", "d": {
        "id": str(2 * 10**17 + n), "application_id": "123456789012345678", "type": 3,
        "token": f"aW50ZXJhY3Rpb246{n:012d}" + "x" * 120, "version": 1,
        "data": {"custom_id": f"p:42:1:0.{n % 40}:c{n % 32}", "component_type": 2},
        "channel_id": str(3 * 10**17 + n % 800), "channel": {"id": str(3 * 10**17 + n % 800), "type": 1},
        "locale": "en-US", "app_permissions": "1024", "entitlements": [], "attachment_size_limit": 10485760,
        "user": user, "context": 1, "authorizing_integration_owners": {"1": user["id"]},
        "message": {**message, "id": str(4 * 10**17 + n), "channel_id": str(3 * 10**17 + n % 800), "type": 0,
                    "author": {**user, "id": "123456789012345678", "bot": True}, "attachments": [],
                    "timestamp": "2026-11-26T12:00:00.000000+00:00", "edited_timestamp": None,
                    "flags": 0, "mentions": [], "mention_roles": [], "pinned": False, "tts": False},
    }}


def serve(port: multiprocessing.Queue, presses: int, rate: float) -> None:  # type: ignore[type-arg]
    """Discord's side: a gateway that sends ``presses`` presses at ``rate`` per second, and the REST routes."""
    import uvloop

    views = bodies()
    frames = [orjson.dumps(interaction(n, views[n % len(views)])) for n in range(presses)]

    async def callback(request: web.Request) -> web.Response:
        await request.read()
        return web.Response(status=204)

    async def edit(request: web.Request) -> web.Response:
        message = orjson.loads(await request.read())
        message.update(id="4" + "0" * 17, channel_id="3" + "0" * 17, type=0, attachments=[], flags=0,
                       timestamp="2026-11-26T12:00:00.000000+00:00",
                       edited_timestamp="2026-11-26T12:00:01.000000+00:00")
        return web.Response(body=orjson.dumps(message), content_type="application/json")

    async def gateway(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        deflate = zlib.compressobj()
        start = time.monotonic()
        for n, frame in enumerate(frames):
            delay = start + n / rate - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            await ws.send_bytes(deflate.compress(frame) + deflate.flush(zlib.Z_SYNC_FLUSH))
        await ws.close()
        return ws

    async def main() -> None:
        app = web.Application(client_max_size=4 * 1024 * 1024)
        app.router.add_post("/api/v10/interactions/{id}/{token}/callback", callback)
        app.router.add_patch("/api/v10/webhooks/{app}/{token}/messages/@original", edit)
        app.router.add_get("/gateway", gateway)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port.put(runner.addresses[0][1])
        await asyncio.Event().wait()

    uvloop.run(main())


async def client(port: int, presses: int, sync: str, folder: str, requests: int) -> tuple[float, int]:
    """Play Discord's presses back as the bot's traffic would; returns (CPU seconds, presses answered)."""
    views = bodies()
    base = f"http://127.0.0.1:{port}"
    db = await aiosqlite.connect(os.path.join(folder, "floor.sqlite3"), isolation_level=None)
    await db.execute("PRAGMA journal_mode=WAL")
    await db.execute(f"PRAGMA synchronous={sync}")
    await db.execute("CREATE TABLE actions (table_id INTEGER, hand_no INTEGER, seq INTEGER, action TEXT, "
                     "at REAL, PRIMARY KEY (table_id, hand_no, seq))")
    lock = asyncio.Lock()
    async with aiohttp.ClientSession() as fallback:
        session = TokenHttp(f"{base}/api/v10", "DiscordBot (floor, 1)")
        inflight: set[asyncio.Task[None]] = set()
        done = 0

        async def press(data: dict[str, Any], n: int) -> None:
            nonlocal done
            if sync != "none":
                async with lock:  # the storage layer's one connection
                    await db.execute("INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                                     (n % 200, 0, n, data["data"]["custom_id"], time.time()))
            view = views[n % len(views)]
            calls = [session.callback(int(data["id"]), data["token"], {"type": 7, "data": view})
                     ] if requests else []
            calls += [session.patch_original(123456789012345678, f"{data['token']}{k}", view)
                      for k in range(requests - 1)]
            await asyncio.gather(*calls)
            done += 1

        async with fallback.ws_connect(f"{base}/gateway", max_msg_size=0) as ws:
            inflate = zlib.decompressobj()
            cpu = time.process_time()
            n = 0
            async for message in ws:
                if message.type is not aiohttp.WSMsgType.BINARY:
                    break
                event = orjson.loads(inflate.decompress(message.data))
                task = asyncio.create_task(press(event["d"], n))
                inflight.add(task)
                task.add_done_callback(inflight.discard)
                n += 1
            await asyncio.gather(*inflight)
            cpu = time.process_time() - cpu
        await session.close()
    if sync != "none":
        async with db.execute("SELECT count(*) FROM actions") as cursor:
            row = await cursor.fetchone()
        if row is None or row[0] != done:
            raise RuntimeError(f"{done} presses answered but {row} actions stored")
    await db.close()
    return cpu, done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--presses", type=int, default=6000)
    parser.add_argument("--rate", type=float, default=130.0, help="presses per second (200 tables: about 130)")
    parser.add_argument("--sync", default="FULL", choices=("FULL", "NORMAL", "OFF", "none"),
                        help="the database's synchronous setting; none: no database write at all")
    parser.add_argument("--requests", type=int, default=4, choices=range(5),
                        help="HTTP requests per press: the callback, then up to three refreshes (0: none)")
    args = parser.parse_args()
    import uvloop

    ctx = multiprocessing.get_context("spawn")
    port: multiprocessing.Queue = ctx.Queue()  # type: ignore[type-arg]
    server = ctx.Process(target=serve, args=(port, args.presses, args.rate), daemon=True)
    server.start()
    try:
        with tempfile.TemporaryDirectory() as folder:
            before = resource.getrusage(resource.RUSAGE_SELF)
            cpu, done = uvloop.run(client(port.get(timeout=60), args.presses, args.sync, folder, args.requests))
            after = resource.getrusage(resource.RUSAGE_SELF)
    finally:
        server.terminate()
    user, system = after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime
    print(f"presses answered          {done} of {args.presses} at {args.rate:g}/s, synchronous={args.sync},"
          f" {args.requests} requests each")
    print(f"client CPU ms / press     {1000 * cpu / max(1, done):.3f}")
    print(f"  user | system ms        {1000 * user / max(1, done):.3f} | {1000 * system / max(1, done):.3f}"
          " (whole run, start-up included)")
    return 0 if done == args.presses else 1


if __name__ == "__main__":
    sys.exit(main())
