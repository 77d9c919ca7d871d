"""Where a page's table is and how its people sit: the local table and Activity channels.

A *room* is the channel a page plays in: the one table of ``python -m baloot
play`` (a fixed channel id of its own, in a guild id no Discord server has), or
the Discord channel of an Activity instance, whose table is the same one the
channel's messages show. Sitting goes through the table service like
``/baloot create`` and ``/baloot join``: one table per channel, a user at one
table at a time (the service refuses a second seat).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..storage.rows import TableStatus
from ..tables import NoTableHere, TableExists, TableInfo, TableService

LOCAL_GUILD: Final = 0
"""The guild id of tables played outside Discord (no Discord server has id 0)."""
LOCAL_CHANNEL: Final = 1
"""The channel id of ``python -m baloot play``'s table (no Discord channel has id 1)."""


@dataclass(frozen=True, slots=True)
class Room:
    """A channel's table and when it starts: at ``people`` seated humans the empty seats get bots."""

    guild_id: int
    channel_id: int
    people: int = 4
    bot_level: str = "normal"


async def sit(service: TableService, room: Room, user_id: int, name: str) -> TableInfo:
    """Seat ``user_id`` at the room's table (opening it if there is none); start when enough sat.

    Raises the service's errors (already seated elsewhere, table full ...) and changes nothing then.
    """
    try:
        service.table_info(room.channel_id)
    except NoTableHere:
        try:
            info = await service.create(room.guild_id, room.channel_id, user_id, name)
        except TableExists:  # another page opened it meanwhile
            info = await service.join(room.channel_id, user_id, name)
    else:
        info = await service.join(room.channel_id, user_id, name)
    if info.status == TableStatus.OPEN and len(info.humans) >= room.people:
        info = await start(service, room, user_id)
    return info


async def start(service: TableService, room: Room, user_id: int) -> TableInfo:
    """A seated player starts the match: bots take the empty seats (as the lobby's buttons do)."""
    info = service.table_info(room.channel_id)
    if not info.full:
        await service.fill_with_bots(room.channel_id, user_id, room.bot_level)
    return await service.start(room.channel_id, user_id)
