"""A server's organisers' role (migration 13), on both backends: named, kept when the language is set, cleared."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from baloot.storage import Storage


async def test_organiser_role_is_stored_alone(database: str | Path) -> None:
    storage = await Storage.open(database, synchronous="NORMAL")
    try:
        assert (await storage.guild_settings(5)).organiser_role is None
        await storage.set_organiser_role(5, 2**62 + 7)  # a Discord id needs 8 bytes
        assert (await storage.guild_settings(5)).organiser_role == 2**62 + 7
        # Setting the language afterwards keeps the role; naming the role keeps the language.
        settings = await storage.guild_settings(5)
        await storage.save_guild_settings(dataclasses.replace(settings, language="ar"))
        assert (await storage.guild_settings(5)).organiser_role == 2**62 + 7
        await storage.set_organiser_role(5, 11)
        assert (await storage.guild_settings(5)).language == "ar"
        await storage.set_organiser_role(5, None)
        after = await storage.guild_settings(5)
        assert after.organiser_role is None and after.language == "ar"
        assert (await storage.guild_settings(6)).organiser_role is None  # another server
    finally:
        await storage.close()
