"""The recorder as a table-service listener: stats committed before anyone announces."""

from __future__ import annotations

import random
from pathlib import Path

from test_tables_harness import CHANNEL, GUILD, USERS, open_service, play_to_end, seat_four

from baloot.engine.records import match_from_record, replay_summary
from baloot.stats import StatsRecorder, StatsService
from baloot.stats.facts import match_facts
from baloot.tables.events import MatchFinished, TableEnded, TableEvent


async def test_a_finished_match_is_counted_before_the_other_listeners_hear_of_it(database: str | Path) -> None:
    storage, service, recorder = await open_service(database)
    stats = StatsService(storage)
    seen_by_presenter: list[int] = []

    async def presenter(event: TableEvent) -> None:  # added before the recorder, like bot.py's Presenter
        if isinstance(event, MatchFinished):
            card = await stats.player(GUILD, USERS[0])
            seen_by_presenter.append(card.tally.matches)

    service.add_listener(presenter)
    service.add_listener(StatsRecorder(storage).on_event, first=True)
    try:
        table_id = await seat_four(service, target=21)
        await play_to_end(service, table_id, random.Random(5))
        assert seen_by_presenter == [1]
        (finished,) = recorder.of(MatchFinished)
        record = await storage.game_record(table_id)
        facts = match_facts(record)
        assert facts.score == finished.score and finished.replay.to_json() == replay_summary(match_from_record(record))
        for seat, user in enumerate(USERS):
            card = await stats.player(GUILD, user)
            assert card.tally.wins == int(seat & 1 == finished.winner)
            assert card.tally.hands == sum(1 for h in facts.hands if h.contract is not None)
            assert card.rating is not None and card.rating.rated_matches == 1
    finally:
        await service.close()
        await storage.close()


async def test_an_ended_table_records_nothing_but_abandons(database: str | Path) -> None:
    storage, service, recorder = await open_service(database)
    service.add_listener(StatsRecorder(storage).on_event, first=True)
    try:
        table_id = await seat_four(service, target=152)
        for user in USERS:  # the last person is asked first: leaving closes the table, abandoned
            await service.leave(CHANNEL, user, close_if_last=user == USERS[-1])
        assert recorder.of(TableEnded)
        row = await storage.db.fetch_one("SELECT counted, rated FROM stats_matches WHERE table_id = ?", (table_id,))
        assert row is not None and tuple(row) == (0, 0)
        abandons = await storage.db.fetch_all(
            "SELECT user_id, matches, abandons FROM player_period_stats WHERE period = 'all' ORDER BY user_id")
        assert [tuple(r) for r in abandons] == [(u, 0, 1) for u in USERS]
        assert await storage.db.fetch_all("SELECT * FROM player_ratings") == []
    finally:
        await service.close()
        await storage.close()

