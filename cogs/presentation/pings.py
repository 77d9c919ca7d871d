"""Turn pings: a notification Discord actually delivers when a human's turn starts.

Edits never notify, and every other message goes out with mentions off, so
an absent-minded player was auto-played and marked away. Now, when a human's
turn starts, the table posts one short new message in the channel that
mentions that one player, with ``allowed_mentions`` for that user only.

Choices (documented in the README):

- **At most one per turn, none for bots** (``TurnStarted`` for a seat a bot
  or the safe policy plays is ignored).
- **Not for a player who acts quickly**: the ping waits :attr:`TurnPings.delay`
  seconds (``PING_DELAY_SECONDS``, default 20, at most a third of the turn time). If the turn has moved on
  meanwhile, nothing is sent: players who are watching the table are never
  pinged, which keeps the bot-token REST calls down (each ping that is sent
  costs one POST, and one DELETE of the previous ping).
- **Superseded**: the table keeps one ping at a time; the previous one is
  deleted when a new one is sent and when the table closes, so the channel
  does not fill with pings. Its id is stored with the table's messages
  (key :data:`PING`), so a restarted bot deletes the ping of the process
  before it too (:meth:`TurnPings.adopt`).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

import discord

from baloot.i18n import t
from baloot.i18n.direction import orient_payload
from baloot.render.text import timestamp
from baloot.tables import StorageError

from .shown import TableState

if TYPE_CHECKING:
    from .shared import Shared

log = logging.getLogger("baloot.discord")

PING: Final = "ping"
"""The stored message key of a table's latest ping."""
PING_DELAY: Final = 20.0
"""Seconds a turn may last before its player is pinged (a player who acts sooner is not).

At most a third of the table's turn time, so the ping always leaves time to
act. Not shorter by default: players who are watching take a few seconds per
move, and a ping costs two bot-token calls (its post and the previous one's
delete), which at 3 s fired on most human turns and tripled the calls per hand
(``scripts/bench_tables.py``)."""


@dataclass(slots=True)
class Ping:
    timer: asyncio.TimerHandle | None = None  # the current turn's wait (a timer: most turns end before it fires)
    task: asyncio.Task[None] | None = None  # a ping being sent
    message_id: int | None = None  # the table's latest ping, deleted when superseded
    sending: bool = False  # a ping is on its way: not cancelled (its id would be lost, the message never deleted)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    sent: int = 0


class TurnPings:
    """One delayed, superseded mention per human turn."""

    def __init__(self, runtime: Shared, delay: float = PING_DELAY) -> None:
        self.runtime = runtime
        self.delay = delay
        self.tables: dict[int, Ping] = {}

    def _ping(self, table_id: int) -> Ping:
        """The table's :class:`Ping`, made on first use (not built only to be thrown away, as ``setdefault`` would)."""
        ping = self.tables.get(table_id)
        if ping is None:
            ping = self.tables[table_id] = Ping()
        return ping

    def adopt(self, table_id: int, message_id: int) -> None:
        """A resumed table's latest ping, sent before a restart: the next ping (or the table's end)
        deletes it, as it would have in the process that sent it."""
        ping = self._ping(table_id)
        if ping.message_id is None:
            ping.message_id = message_id

    def turn(self, state: TableState, seat: int) -> None:
        """``seat``'s turn started (not played for them): ping them unless they act within the delay."""
        ping = self._ping(state.table_id)
        if ping.timer is not None:
            ping.timer.cancel()
            ping.timer = None
        if ping.task is not None and not ping.task.done() and not ping.sending:
            ping.task.cancel()
        info = state.info.seats[seat]
        if info is None or not info.human or info.user_id is None or info.away:
            return
        ping.timer = asyncio.get_running_loop().call_later(
            min(self.delay, state.info.turn_seconds / 3), self._due, state, seat, info.user_id, state.version)

    def _due(self, state: TableState, seat: int, user_id: int, version: object) -> None:
        """The turn lasted the delay: ping, unless the table moved on (checked again once the lock is held)."""
        ping = self.tables.get(state.table_id)
        if ping is None:
            return
        ping.timer = None
        if self._moved_on(state, seat, version):
            return
        ping.task = asyncio.create_task(self._later(state, seat, user_id, version),
                                        name=f"baloot-ping-{state.table_id}")

    @staticmethod
    def _moved_on(state: TableState, seat: int, version: object) -> bool:
        """They acted, or the table moved on (or closed) since their turn began: no ping."""
        return state.closed or state.version != version or state.snapshot.to_move != seat

    async def _later(self, state: TableState, seat: int, user_id: int, version: object) -> None:
        ping = self._ping(state.table_id)
        try:
            await self._send_unless_moved_on(ping, state, seat, user_id, version)
        finally:
            if ping.task is asyncio.current_task():
                ping.task = None  # a finished task (and its coroutine) is not kept for every table

    async def _send_unless_moved_on(self, ping: Ping, state: TableState, seat: int, user_id: int,
                                    version: object) -> None:
        async with ping.lock:  # one ping of a table on its way at a time, so they supersede in order
            if self._moved_on(state, seat, version):
                return
            ping.sending = True  # from here on not cancelled: its id is kept and the previous one deleted
            try:
                await self._send(state, ping, user_id)
            finally:
                ping.sending = False

    async def _send(self, state: TableState, ping: Ping, user_id: int) -> None:
        runtime = self.runtime
        language = runtime.language_of(state)
        deadline = state.deadline
        mention = f"<@{user_id}>"
        # "time runs out <t:…:R>": a relative timestamp says when the turn ends, not when it starts
        text = (t("notice.ping_no_deadline", language, mention=mention) if deadline is None
                else t("notice.ping", language, mention=mention, deadline=timestamp(deadline)))
        content = str(orient_payload({"content": text}, language)["content"])
        mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                           users=[discord.Object(user_id)])
        try:
            # Through a channel interaction's token when one is fresh, else the bot token.
            sent_id = await runtime.carriers.send(runtime.client, state.channel_id,
                                                  {"content": content, "allowed_mentions": mentions.to_dict()})
            if sent_id is None:
                channel = runtime.client.get_partial_messageable(state.channel_id, guild_id=state.info.guild_id)
                sent_id = (await channel.send(content=content, allowed_mentions=mentions)).id
        except discord.HTTPException:
            log.exception("table %s: could not ping user %s", state.table_id, user_id)
            return
        ping.sent += 1
        previous, ping.message_id = ping.message_id, sent_id
        try:  # for a restart: the next process deletes it (a failure costs only that)
            await runtime.service.remember_message(state.table_id, PING, state.channel_id, sent_id)
        except StorageError as exc:
            log.warning("table %s: could not store ping %s (%s)", state.table_id, sent_id, exc)
        if previous is not None:
            await self._delete(state, previous)

    async def _delete(self, state: TableState, message_id: int) -> None:
        if await self.runtime.carriers.delete(self.runtime.client, message_id):
            return
        channel = self.runtime.client.get_partial_messageable(state.channel_id, guild_id=state.info.guild_id)
        try:
            await channel.get_partial_message(message_id).delete()
        except discord.HTTPException:
            log.info("table %s: could not delete ping %s", state.table_id, message_id)

    async def closed(self, state: TableState) -> None:
        """The table ended: no pending ping, and its last ping removed."""
        ping = self.tables.pop(state.table_id, None)
        if ping is None:
            return
        if ping.timer is not None:
            ping.timer.cancel()
        if ping.task is not None and not ping.task.done():
            if ping.sending:
                await asyncio.wait([ping.task], timeout=5.0)  # let it land, so that it is deleted below
            else:
                ping.task.cancel()
        if ping.message_id is not None:
            await self._delete(state, ping.message_id)

    async def close(self) -> None:
        for ping in self.tables.values():
            if ping.timer is not None:
                ping.timer.cancel()
            if ping.task is not None:
                ping.task.cancel()
