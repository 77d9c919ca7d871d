"""DM presses forwarded to the process holding their table (DMs reach shard 0 only).

A press in a DM reaches the process holding shard 0, but its table lives in the
process holding its guild's shard. On PostgreSQL the receiving process
acknowledges the press to Discord at once (the Discord layer defers it) and
NOTIFYs the lease holder of the table's shard (:meth:`PressForwarder.forward`)
with the press (an opaque JSON object the Discord layer builds: custom id,
user, locale, interaction token). Every process LISTENs on a dedicated
connection; the holder named in a press, if it still holds that shard's lease
at that epoch, NOTIFYs a small acknowledgement back and hands the press to the
Discord layer's handler, which applies it as a local press and answers through
the interaction token. No live holder, or no acknowledgement within
:data:`ACK_TIMEOUT`: the press is not applied anywhere, and the receiver answers
that the table is restarting. A press heard later than :data:`APPLY_WITHIN`
after it was sent is dropped (its sender answered "restarting" meanwhile),
so no press is both refused and applied. SQLite has no forwarding (one process).
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, Final

from ..storage import Storage
from .leases import ShardLeases, shard_of

log = logging.getLogger("baloot.tables.forwarding")

PRESSES: Final = "baloot_press"
ACKS: Final = "baloot_press_ack"
ACK_TIMEOUT: Final = 2.0
"""Seconds the receiving process waits for the holder's acknowledgement before answering "restarting"."""
APPLY_WITHIN: Final = 1.5
"""Seconds after its sending within which a holder still applies a forwarded press (below ACK_TIMEOUT)."""
MAX_PAYLOAD: Final = 7900
"""PostgreSQL refuses NOTIFY payloads of 8000 bytes or more."""

Handler = Callable[[dict[str, Any]], Awaitable[None]]


class PressForwarder:
    """This process's end of the press bus: forwards presses out, applies those forwarded to it."""

    def __init__(self, storage: Storage, leases: ShardLeases) -> None:
        self.storage = storage
        self.leases = leases
        self.handler: Handler | None = None
        self._pending: dict[str, asyncio.Future[None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._listening: Any = None

    def start(self, handler: Handler) -> None:
        """LISTEN for presses (applied by ``handler``) and acknowledgements."""
        self.handler = handler
        if self._listening is None:
            self._listening = self.storage.listen((PRESSES, ACKS), self._heard)

    async def wait_listening(self, timeout: float = 10.0) -> None:
        """Until the LISTEN connection is up (start-up, tests)."""
        connected = getattr(self._listening, "connected", None)
        if connected is not None:
            await asyncio.wait_for(connected.wait(), timeout)

    async def close(self) -> None:
        if self._listening is not None:
            await self._listening.close()
            self._listening = None
        for task in list(self._tasks):
            task.cancel()

    async def forward(self, table_id: int, guild_id: int, press: dict[str, Any]) -> bool:
        """Send ``press`` to the live holder of the table's shard; True once it acknowledged (it answers).

        False: no live holder, it did not acknowledge within :data:`ACK_TIMEOUT`,
        or the database could not be reached — nothing was applied.
        """
        shard = shard_of(guild_id, self.leases.shard_count)
        try:
            lease = await self.storage.live_lease(shard)
        except Exception as exc:
            log.warning("could not read the lease of shard %s (%s): table %s is restarting", shard, exc, table_id)
            return False
        if lease is None:
            log.info("no live holder of shard %s: a DM press for table %s is answered 'restarting'", shard, table_id)
            return False
        request = uuid.uuid4().hex
        message = json.dumps({"request": request, "table_id": table_id, "guild_id": guild_id, "shard": shard,
                              "holder": lease.holder, "epoch": lease.epoch, "sender": self.leases.holder,
                              "sent_at": self.storage.clock(), "press": press}, separators=(",", ":"))
        if len(message.encode()) > MAX_PAYLOAD:
            log.error("a forwarded press for table %s is too long to send (%d bytes)", table_id, len(message))
            return False
        acked = self._pending[request] = asyncio.get_running_loop().create_future()
        try:
            await self.storage.notify(PRESSES, message)
            await asyncio.wait_for(acked, ACK_TIMEOUT)
        except TimeoutError:
            log.warning("holder %s of shard %s did not acknowledge a DM press for table %s within %.0f s",
                        lease.holder, shard, table_id, ACK_TIMEOUT)
            return False
        except Exception as exc:
            log.warning("could not forward a DM press for table %s (%s)", table_id, exc)
            return False
        finally:
            self._pending.pop(request, None)
        log.info("forwarded a DM press for table %s to %s (shard %s)", table_id, lease.holder, shard)
        return True

    def _heard(self, channel: str, payload: str) -> None:
        try:
            message = json.loads(payload)
        except ValueError:
            log.warning("ignored a malformed notification on %s", channel)
            return
        if not isinstance(message, dict):
            return
        if channel == ACKS:
            waiting = self._pending.get(str(message.get("request")))
            if waiting is not None and not waiting.done():
                waiting.set_result(None)
            return
        if message.get("holder") != self.leases.holder:
            return
        task = asyncio.create_task(self._apply(message))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _apply(self, message: dict[str, Any]) -> None:
        """A press forwarded to this process: acknowledge it and hand it to the handler, if still ours."""
        try:
            shard, epoch, table_id = int(message["shard"]), int(message["epoch"]), int(message["table_id"])
            sent_at, press = float(message["sent_at"]), message["press"]
        except (KeyError, TypeError, ValueError):
            log.warning("ignored a malformed forwarded press")
            return
        fence = self.leases.fences.get(shard)
        if fence is None or fence.epoch != epoch or self.handler is None:
            log.info("ignored a press for table %s forwarded to an earlier lease of shard %s", table_id, shard)
            return
        late = self.storage.clock() - sent_at
        if late > APPLY_WITHIN:
            log.warning("dropped a press for table %s forwarded %.1f s ago (its sender answered it)", table_id, late)
            return
        try:
            await self.storage.notify(ACKS, json.dumps({"request": message.get("request")}))
        except Exception as exc:
            log.warning("could not acknowledge a forwarded press for table %s (%s); not applying it", table_id, exc)
            return
        log.info("applying a press for table %s forwarded by %s", table_id, message.get("sender"))
        await self.handler(press)
