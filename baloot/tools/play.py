"""``python -m baloot play``: a Baloot table in the browser, no Discord needed.

Starts the table service on the SQLite database (``data/baloot.db`` by default,
like the bot's: the table resumes after a restart and its results count in the
statistics) and the web table on ``http://127.0.0.1:8080``. The first person
who sits plays against three bots; with ``--people N`` the table waits for N
people, who sit by opening the printed table link (anyone seated may start
earlier: bots take the empty seats).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import signal
from pathlib import Path

from ..ai import make_player
from ..stats.recorder import StatsRecorder
from ..storage import Storage
from ..tables import TableService
from ..web.rooms import LOCAL_CHANNEL, LOCAL_GUILD, Room
from ..web.server import WebTable, serve


def table_key(database: str) -> str:
    """The table link's key, kept beside the database so that links survive a restart."""
    path = Path(database).with_name("play-key")
    try:
        key = path.read_text(encoding="ascii").strip()
        if len(key) >= 16:
            return key
    except OSError:
        pass
    key = secrets.token_urlsafe(16)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(key + "\n", encoding="ascii")
    os.chmod(path, 0o600)
    return key


async def run_play(host: str, port: int, database: str, people: int, level: str, turn_seconds: float,
                   bot_delay: float, stop: asyncio.Event | None = None) -> int:
    Path(database).parent.mkdir(parents=True, exist_ok=True)
    storage = await Storage.open(database)
    service = TableService(storage, bot_factory=make_player, turn_seconds_default=turn_seconds, bot_delay=bot_delay)
    service.add_listener(StatsRecorder(storage).on_event, first=True)  # results count in the stats
    key = table_key(database)
    web = WebTable(service, local=Room(LOCAL_GUILD, LOCAL_CHANNEL, people=people, bot_level=level), key=key)
    try:
        await service.resume_all()
        service.start_sweeping()
        runner = await serve(web, host, port)
    except OSError as exc:
        await service.close()
        await storage.close()
        print(f"cannot serve on {host}:{port}: {exc.strerror or exc}")
        return 1
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    print(f"Baloot table: http://{shown}:{port}/", flush=True)
    print(f"Table link for other players: http://{shown}:{port}/?key={key}"
          + ("" if host not in ("127.0.0.1", "localhost", "::1") else
             "  (this address is this computer only: --host 0.0.0.0 to let others on your network in)"),
          flush=True)
    done = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not the main thread, or Windows
            loop.add_signal_handler(sig, done.set)
    try:
        await done.wait()
    finally:
        await runner.cleanup()
        await service.close()
        await storage.close()
    return 0
