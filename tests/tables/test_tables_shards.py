"""Sharded processes: a process resumes and drives only the tables of its guilds.

Discord sends a guild's interactions to shard ``(guild_id >> 22) % shard_count``;
the bot process holding that shard holds the guild's tables. Two services on one
database stand for two processes; ``owns_guild`` (from the settings' shards) is
the only thing the table service learns of sharding.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_tables_harness import NAMES, open_service

from baloot.storage import TableStatus
from baloot.tables import TableElsewhere, TableNotRunning, TableService
from cogs.settings import ConfigError, Settings, load_settings, require_shared_database, shard_of

COUNT = 2
GUILDS = {0: (8 << 22) | 5, 1: 7 << 22}  # shard -> a guild on it
PLAYERS = {0: (21, 22, 23, 24), 1: (31, 32, 33, 34)}


def owner(shard: int) -> Settings:
    """The settings of the process holding ``shard`` of COUNT."""
    return load_settings({"DISCORD_TOKEN": "t", "SHARD_COUNT": str(COUNT), "SHARD_IDS": str(shard)})


async def open_table(service: TableService, shard: int) -> int:
    users = PLAYERS[shard]
    info = await service.create(GUILDS[shard], 500 + shard, users[0], NAMES.get(users[0], "p"), rules={"target": 21})
    for user in users[1:]:
        await service.join(500 + shard, user, f"p{user}")
    await service.start(500 + shard, users[0])
    return info.id


def test_the_guilds_are_on_the_shards_the_test_says() -> None:
    assert {shard: shard_of(guild, COUNT) for shard, guild in GUILDS.items()} == {0: 0, 1: 1}


async def test_each_process_resumes_and_plays_only_its_own_guilds_tables(database: str | Path) -> None:
    settings = {shard: owner(shard) for shard in (0, 1)}
    assert settings[0].owns_guild(GUILDS[0]) and not settings[0].owns_guild(GUILDS[1])
    storage, first, _ = await open_service(database)
    try:
        tables = {shard: await open_table(first, shard) for shard in (0, 1)}  # made by one unsharded process
    finally:
        await first.close()
        await storage.close()

    opened = [await open_service(database, owns_guild=settings[shard].owns_guild) for shard in (0, 1)]
    try:
        services = [service for _, service, _ in opened]
        for shard, service in enumerate(services):
            resumed = await service.resume_all()
            assert [t.id for t in resumed] == [tables[shard]]
            assert [t.id for t in service.tables()] == [tables[shard]]
            assert service.table_of_user(PLAYERS[1 - shard][0]) is None

        # A press reaching the other process (a DM press arrives on shard 0) is refused and changes nothing.
        zero, one = services
        storage0 = opened[0][0]
        before = [len(h.actions) for h in await storage0.hands(tables[1])]
        mover = one.table_by_id(tables[1]).to_move
        assert mover is not None
        user = PLAYERS[1][mover]
        hand = await one.my_hand(tables[1], user)
        with pytest.raises(TableElsewhere) as refused:
            await zero.act(tables[1], user, random.choice(hand.view.legal).to_json(), hand.version)
        assert refused.value.code == "table_elsewhere"
        with pytest.raises(TableElsewhere):
            await zero.my_hand(tables[1], user)
        assert [len(h.actions) for h in await storage0.hands(tables[1])] == before

        # The owner plays it.
        result = await one.act(tables[1], user, hand.view.legal[0].to_json(), hand.version)
        assert result.version > hand.version

        # Once closed, the other process says so as before (not "elsewhere").
        await storage0.close_table(tables[1], TableStatus.ABANDONED, "test")
        with pytest.raises(TableNotRunning) as closed:
            await zero.act(tables[1], user, hand.view.legal[0].to_json(), None)
        assert not isinstance(closed.value, TableElsewhere)
    finally:
        for storage_n, service_n, _ in opened:
            await service_n.close()
            await storage_n.close()


async def test_without_shards_a_service_holds_every_guild(database: str | Path) -> None:
    storage, service, _ = await open_service(database)
    try:
        ids = {await open_table(service, shard) for shard in (0, 1)}
    finally:
        await service.close()
        await storage.close()
    storage, service, _ = await open_service(database)
    try:
        assert {t.id for t in await service.resume_all()} == ids
        assert service.holds(GUILDS[0]) and service.holds(GUILDS[1])
    finally:
        await service.close()
        await storage.close()


def test_shard_settings() -> None:
    plain = load_settings({"DISCORD_TOKEN": "t"})
    assert plain.shard_count is None and not plain.sharded and plain.sync_commands
    assert plain.owns_guild(GUILDS[1])
    every = load_settings({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4"})
    assert every.shard_ids == (0, 1, 2, 3) and every.sync_commands
    upper = load_settings({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": " 3,2 "})
    assert upper.shard_ids == (2, 3) and not upper.sync_commands  # shard 0 is elsewhere: that process syncs
    assert [upper.owns_guild(g << 22) for g in range(6)] == [False, False, True, True, False, False]
    lower = load_settings({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "0,1"})
    assert lower.sync_commands
    forced = load_settings({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "2,3", "SYNC_COMMANDS": "1"})
    assert forced.sync_commands
    assert not load_settings({"DISCORD_TOKEN": "t", "SYNC_COMMANDS": "0"}).sync_commands
    assert "shard_count=4, shard_ids=[2, 3], sync_commands=False" in repr(upper)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be between"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "between 0 and SHARD_COUNT - 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,x"}, "separated by commas"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1,1"}, "twice"),
        ({"SYNC_COMMANDS": "maybe"}, "SYNC_COMMANDS must be"),
    ],
)
def test_bad_shard_settings_are_clear_errors(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_settings({"DISCORD_TOKEN": "t", **env})


def test_a_share_of_the_shards_needs_a_shared_database() -> None:
    """SHARD_IDS naming some shards means other processes hold the rest: they must share one PostgreSQL."""
    url = {"DATABASE_URL": "postgresql://baloot@localhost/baloot"}
    for env in ({}, {"SHARD_COUNT": "4"}, {"SHARD_COUNT": "4", "SHARD_IDS": "3,1,2,0"},
                {"SHARD_COUNT": "4", "SHARD_IDS": "0,1", **url}):
        require_shared_database(load_settings({"DISCORD_TOKEN": "t", **env}))
    with pytest.raises(ConfigError, match="set DATABASE_URL"):
        require_shared_database(load_settings({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "0,1"}))
