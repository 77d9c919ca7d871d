"""A table of a fixed number of deals (R8, the table option ``deals``): it ends after exactly that many
hands, keeps the option and the count over a crash, and says which deal of how many it plays (the texts:
tests/render/test_render_deals.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_tables_harness import CHANNEL, GUILD, NAMES, USERS, open_service, play_one, play_to_end

from baloot.engine.records import match_from_record
from baloot.engine.rules import Rules
from baloot.render.result import goal_line
from baloot.tables import BadOption


async def test_a_four_deal_table_ends_after_four_hands_and_a_crash_keeps_the_count(database: str | Path) -> None:
    """The target is 1, passed by the first scored hand: only the four deals end the match."""
    storage, service, _ = await open_service(database)
    info = await service.create(GUILD, CHANNEL, USERS[0], NAMES[USERS[0]], rules={"deals": 4, "target": 1})
    for user in USERS[1:]:
        await service.join(CHANNEL, user, NAMES[user])
    await service.start(CHANNEL, USERS[0])
    table_id = info.id
    rng = random.Random(5)
    while len(await storage.hands(table_id)) < 3:  # two hands over, the third dealt
        await play_one(service, table_id, rng)
    sheet = service.snapshot(table_id).sheet
    assert sheet is not None and sheet.deals == 4 and sheet.winner is None
    assert goal_line(sheet, 2, "en") == "Hand 3 of 4."
    # "crash": dropped without closing; a new process resumes from the database
    storage2, service2, _ = await open_service(database)
    try:
        await service2.resume_all()
        assert service2.table_by_id(table_id).rules.deals == 4
        assert len(await storage2.hands(table_id)) == 3
        await play_to_end(service2, table_id, rng)
        result = await storage2.result(table_id)
        assert result is not None
        match = match_from_record(result.record)
        assert match.rules == Rules(target=1, deals=4)
        assert len(match.hands) == 4  # this seed's totals differ after the fourth hand: no play-off
        assert result.winner_team == (0 if match.score[0] > match.score[1] else 1) and match.score[0] != match.score[1]
    finally:
        await service2.close()
        await storage2.close()
        await service.close()
        await storage.close()


async def test_a_table_refuses_a_bad_number_of_deals(database: str | Path) -> None:
    storage, service, _ = await open_service(database)
    try:
        for bad in (-1, 33):
            with pytest.raises(BadOption):
                await service.create(GUILD, CHANNEL, USERS[0], NAMES[USERS[0]], rules={"deals": bad})
        assert service.table_of_user(USERS[0]) is None
    finally:
        await service.close()
        await storage.close()
