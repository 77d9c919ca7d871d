"""DM presses forwarded between bot processes (:mod:`baloot.tables.forwarding`), on PostgreSQL.

Two services on one database stand for the processes of shards 0 and 1 of 2.
A press sent for a guild of shard 1 reaches shard 1's holder (once, with the
press as sent) and is acknowledged; with no live holder, or a holder that does
not answer, the sender hears False (its answer: "the table is restarting")
and nothing is applied anywhere. A process that does not hold the lease
(a third process on a held range) never applies a press. SQLite: no forwarding.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from pg_cluster import Cluster

from baloot.storage import Storage
from baloot.tables import ShardLeases, TableService
from baloot.tables.forwarding import ACK_TIMEOUT

GUILD = 7 << 22  # on shard 1 of 2


async def process(url: str | Path, shard: int, name: str) -> tuple[TableService, list[dict[str, Any]]]:
    """A service holding ``shard`` of 2 (its lease taken), listening for forwarded presses."""
    storage = await Storage.open(url)
    service = TableService(storage, leases=ShardLeases(storage, 2, [shard], holder=name, ttl=30.0))
    await service.resume_all()
    applied: list[dict[str, Any]] = []

    async def apply(press: dict[str, Any]) -> None:
        applied.append(press)

    if service.forwarder is not None:
        service.forwarder.start(apply)
        await service.forwarder.wait_listening()
    return service, applied


async def stop(service: TableService) -> None:
    await service.close()
    await service.storage.close()


async def test_a_press_reaches_the_holder_once_and_nobody_else(pg_cluster: Cluster) -> None:
    url = await pg_cluster.new_database()
    zero, heard_zero = await process(url, 0, "zero")
    one, heard_one = await process(url, 1, "one")
    third, heard_third = await process(url, 1, "third")  # a third process on shard 1, which "one" holds
    try:
        assert zero.forwarder is not None
        assert third.leases is not None and third.leases.fences == {}
        press = {"token": "abc", "data": {"custom_id": "bl:1:0:0:0:p"}, "locale": "ar"}
        assert await zero.forwarder.forward(1, GUILD, press)
        await asyncio.sleep(0.2)
        assert heard_one == [press]
        assert heard_zero == [] and heard_third == []
    finally:
        for service in (zero, one, third):
            await stop(service)


async def test_no_live_holder_or_a_silent_one_means_restarting(pg_cluster: Cluster) -> None:
    url = await pg_cluster.new_database()
    zero, _ = await process(url, 0, "zero")
    one, heard_one = await process(url, 1, "one")
    try:
        assert zero.forwarder is not None and one.forwarder is not None
        # The holder stops listening (as a killed process): its lease is still alive, nobody acknowledges.
        await one.forwarder.close()
        started = time.monotonic()
        assert not await zero.forwarder.forward(1, GUILD, {"token": "x"})
        assert time.monotonic() - started >= ACK_TIMEOUT - 0.1
        # Its lease ends (released, or run out): no live holder, answered at once.
        assert one.leases is not None
        await one.leases.release()
        started = time.monotonic()
        assert not await zero.forwarder.forward(1, GUILD, {"token": "y"})
        assert time.monotonic() - started < ACK_TIMEOUT
        assert heard_one == []
    finally:
        await stop(zero)
        await stop(one)


async def test_sqlite_has_no_forwarding(tmp_path: Path) -> None:
    service, _ = await process(tmp_path / "baloot.db", 0, "only")
    try:
        assert service.forwarder is None
    finally:
        await stop(service)


async def test_the_listen_connection_comes_back_after_the_server_restarts(pg_cluster: Cluster) -> None:
    url = await pg_cluster.new_database()
    zero, _ = await process(url, 0, "zero")
    one, heard_one = await process(url, 1, "one")
    try:
        assert zero.forwarder is not None and one.forwarder is not None
        pg_cluster.pause()  # every connection dropped, the LISTEN ones too
        pg_cluster.resume()
        await one.forwarder.wait_listening(15)
        await zero.forwarder.wait_listening(15)
        for _ in range(20):  # the pools drop their lost connections on first use
            if await zero.forwarder.forward(1, GUILD, {"token": "again"}):
                break
            await asyncio.sleep(0.5)
        await asyncio.sleep(0.2)
        assert heard_one == [{"token": "again"}]
    finally:
        await stop(zero)
        await stop(one)
