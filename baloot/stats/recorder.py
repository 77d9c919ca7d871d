"""Writing a finished match's statistics and ratings: after the result, before any announcement.

:class:`StatsRecorder` is a table-service listener: on ``MatchFinished`` (and
``TableEnded``, which may store an abandoned result) it reads the stored
result, replays its R10 record once (:func:`~baloot.stats.facts.match_facts`)
and writes, in one transaction, the hand facts, every human's period totals,
partnerships, server totals and ratings. Register it before the Discord
listener so that what is announced is already counted.

Rules: an abandoned match counts for nothing except an abandon for
each player who had left it; a finished match counts for every human seat,
and changes ratings only if it had no bot seat or the server opted in
(``GuildSettings.ai_rated``). A player who left early (``left_early``) gets
an abandon, no win, and is rated as a loser (:mod:`.rating`).

Recording is idempotent (``stats_matches`` marks what is done);
:meth:`StatsRecorder.catch_up` records whatever a crash left out, and
:meth:`StatsRecorder.rebuild` empties the derived tables and records every
result again from its record, oldest first.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from ..storage import MatchResult, Storage
from ..storage import stats_writes as writes
from ..storage.quick import QUICK_GUILD_ID
from ..storage.rows import ResultSeat
from ..storage.stats_queries import StatsQueries
from ..storage.stats_rows import RatingChange, RatingRow, Tally
from ..storage.tournaments import TournamentStore
from ..tables.events import MatchFinished, TableEnded, TableEvent
from .facts import MatchFacts, abandon_tally, match_facts, seat_tally, server_tally
from .periods import period_keys
from .rating import NEW_PLAYER, Skill, rate_match, shown_rating

log = logging.getLogger("baloot.stats")

FactsFunction = Callable[[Mapping[str, Any]], MatchFacts]


def humans(result: MatchResult) -> list[ResultSeat]:
    """The seats of a result held by people (a bot seat has no stats or rating)."""
    seen: set[int] = set()
    out = []
    for seat in sorted(result.seats, key=lambda s: s.seat):
        if seat.user_id is not None and not seat.is_bot and seat.user_id not in seen:
            seen.add(seat.user_id)
            out.append(seat)
    return out


def is_counted(result: MatchResult) -> bool:
    """Whether a result counts in statistics: finished with a winner, not abandoned."""
    return not result.abandoned and result.winner_team is not None


def rating_changes(
    result: MatchResult, current: Mapping[int, RatingRow], winner: int
) -> list[RatingChange]:
    """The new ratings of a rated match's humans (bots and empty seats play as new players)."""
    people = {s.seat: s for s in humans(result)}
    skills = dict.fromkeys(range(4), NEW_PLAYER)
    for seat, person in people.items():
        known = current.get(person.user_id) if person.user_id is not None else None
        if known is not None:
            skills[seat] = Skill(known.mu, known.sigma)
    left = frozenset(s.seat for s in people.values() if s.left_early)
    after = rate_match(skills, winner, left)
    changes = []
    for seat, person in people.items():
        assert person.user_id is not None
        before = current.get(person.user_id)
        if before is None:
            before = RatingRow(person.user_id, NEW_PLAYER.mu, NEW_PLAYER.sigma, NEW_PLAYER.shown, 0)
        new = after[seat]
        changes.append(
            RatingChange(
                person.user_id,
                before,
                RatingRow(person.user_id, new.mu, new.sigma, shown_rating(new.mu, new.sigma), before.rated_matches + 1),
                person.left_early,
            )
        )
    return changes


class StatsRecorder:
    """Derives and stores statistics and ratings of stored match results."""

    def __init__(self, storage: Storage, *, facts: FactsFunction = match_facts) -> None:
        self.storage = storage
        self.facts = facts
        self.queries = StatsQueries(storage.db)

    async def on_event(self, event: TableEvent) -> None:
        """The table-service listener: record a match when its result is stored."""
        if isinstance(event, MatchFinished | TableEnded):
            await self.record_match(event.table_id)

    async def tournament_rated(self, table_id: int) -> bool:
        """False for a table of a tournament created unrated; True for any other table."""
        store = TournamentStore(self.storage.db, self.storage.clock)
        spot = await store.table_by_id(table_id)
        if spot is None:
            return True
        row = await store.tournament(spot.tournament_id)
        return row is None or row.rated

    async def record_match(self, table_id: int) -> bool:
        """Record a stored result; False if there is none or it was already recorded."""
        result = await self.storage.result(table_id)
        if result is None:
            return False
        return await self.record_result(result)

    async def record_result(self, result: MatchResult, facts: MatchFacts | None = None) -> bool:
        """Record one stored result (``facts``: its replay, if already known); False if already done.

        A quick match (guild :data:`~baloot.storage.quick.QUICK_GUILD_ID`, players of several servers) is
        counted and rated in each player's own server: their figures, rating and partnership there, and
        the match in each of those servers' totals."""
        counted = is_counted(result)
        if counted and facts is None:
            facts = self.facts(result.record)
        quick = result.guild_id == QUICK_GUILD_ID
        own = await self.storage.quick_guilds(result.table_id) if quick else {}
        people = humans(result)

        def guild_of(user_id: int) -> int:
            return own.get(user_id, result.guild_id)

        guilds = sorted({guild_of(s.user_id) for s in people if s.user_id is not None}) if quick else [
            result.guild_id]
        # bots at a quick table count as a server's own opt-in would (every player's server must have opted in)
        opted = [(await self.storage.guild_settings(g)).ai_rated for g in guilds]
        rated = counted and bool(people) and (not result.has_bots or (bool(opted) and all(opted)))
        when = result.finished_at
        if rated and not await self.tournament_rated(result.table_id):  # a tournament played unrated
            rated = False
        periods = period_keys(when)
        async with self.storage.db.transaction() as db:
            if await writes.is_recorded(db, result.table_id):
                return False
            await writes.mark_recorded(db, result.table_id, result.guild_id, when, counted=counted, rated=rated)
            if not counted or facts is None:
                for guild in guilds:
                    leavers = [(s.user_id, abandon_tally(), None) for s in people
                               if s.user_id is not None and s.left_early and guild_of(s.user_id) == guild]
                    await writes.add_player_tallies(db, guild, periods, leavers, when)
                return True
            await writes.insert_hand_facts(db, result.table_id, result.guild_id, when, facts.hands)  # keyed by table
            current: dict[int, RatingRow] = {}
            for guild in guilds:
                users = [s.user_id for s in people if s.user_id is not None and guild_of(s.user_id) == guild]
                current.update(await writes.ratings_of(db, guild, users))
            if rated:
                assert result.winner_team is not None
                changes = rating_changes(result, current, result.winner_team)
                for guild in guilds:
                    await writes.save_ratings(db, result.table_id, guild, when,
                                              [c for c in changes if guild_of(c.user_id) == guild])
                current = {**current, **{c.user_id: c.after for c in changes}}
            tallies: dict[int, Tally] = {}
            for seat in people:
                assert seat.user_id is not None
                tallies[seat.user_id] = seat_tally(facts, seat.seat, left_early=seat.left_early)
            by_seat = {s.seat: s.user_id for s in people}
            pairs = [
                (user, partner, tallies[user].wins > 0)
                for seat, user in by_seat.items()
                if user is not None and (partner := by_seat.get((seat + 2) % 4)) is not None
            ]
            for guild in guilds:
                await writes.add_player_tallies(
                    db,
                    guild,
                    periods,
                    [(u, t, current[u].rating if u in current else None) for u, t in tallies.items()
                     if guild_of(u) == guild],
                    when,
                )
                await writes.add_server_tally(db, guild, periods, server_tally(facts))
                await writes.add_partnerships(db, guild, [p for p in pairs if guild_of(p[0]) == guild])
        return True

    async def catch_up(self) -> int:
        """Record every stored result not yet recorded, oldest first; returns how many."""
        done = 0
        for table_id in await self.queries.unrecorded():
            try:
                done += await self.record_match(table_id)
            except Exception:
                log.exception("statistics of match %s could not be recorded", table_id)
        return done

    async def rebuild(self) -> int:
        """Recompute every statistic and rating from the stored records; returns the matches recorded.

        The derived tables are emptied, then every result is recorded again in
        the order the matches finished (ratings depend on that order).
        """
        async with self.storage.db.transaction() as db:
            await writes.clear_derived(db)
        return await self.catch_up()
