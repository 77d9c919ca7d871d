"""The tournament service: registration, rounds that open their tables and run themselves.

Everything accepted is stored before it is announced (:class:`TournamentStore`). Each round's
tables are opened through the :class:`TableService` with every seat taken and the round's stored
deal seed (duplicate deals, :mod:`baloot.tournaments.duplicate`). When a table's match ends, its
result and its teams' deal results are stored; when every table of the round has one, the round is
closed, the standings computed (:func:`baloot.tournaments.standings`) and the next round paired and
opened — or the tournament finished. :meth:`resume` after a restart opens the tables a crash left
unopened (in the thread each was already given, if any), records results a crash left unrecorded and
makes the round opening or finish announcement a crash cut off, so nothing is lost or done twice.

A team that never shows forfeits: when a table opens, a watch is set for ``no_show_seconds`` after the
table's stored opening time (so a restart does not reset it). At that time a team neither of whose players
made a single action themselves at the table (every action of theirs auto-played by the turn timers)
forfeits the round: the opponents win it, the table closes saying so, the standings count the forfeit.

A bye is a round won; in a Swiss tournament that lets bots fill the field a bye team plays a bot
team instead (a knockout bye is never played: the top seed's free pass). Concurrent
presses are safe: one lock per tournament in this process, and the database's keys across processes
(one row per registered player, one row per round).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from ..ai.rollout import team_value
from ..engine.records import match_from_record
from ..engine.rules import Rules
from ..storage import Storage, StorageConflict
from ..storage.tournament_rows import (
    FORFEIT_FIRST,
    FORFEIT_SECOND,
    TeamRow,
    TeamStatus,
    TournamentRow,
    TournamentStatus,
    TournamentTableRow,
)
from ..storage.tournaments import TournamentStore
from ..tournaments import (
    BYE,
    DealResult,
    Pairing,
    RoundOutcome,
    Standing,
    board_of,
    board_side,
    duplicate_standings,
    knockout_first_round,
    knockout_next_round,
    round_seed,
    swiss_pairings,
    swiss_round_count,
    team_seats,
)
from .events import MatchFinished, TableEvent
from .info import SeatInfo
from .service import TableService
from .tournament_errors import TournamentRefusal

__all__ = ["BOT_TEAM", "TeamRow", "TeamStatus", "TournamentRow", "TournamentService", "TournamentStatus",
           "TournamentUpdate"]  # the rows, for the Discord layer (which does not import the storage layer)

log = logging.getLogger("baloot.tournaments")

MIN_TEAMS = 2
MAX_DEALS = 16  # the most deals a round of a fixed number of deals may have
NO_SHOW_SECONDS = 600.0  # TOURNAMENT_NO_SHOW_MINUTES (10) by default: a team that never acts by then forfeits
BOT_TEAM = -1  # the bot team that meets a bye team when bots may fill the field

ChannelOpener = Callable[[TournamentRow, int, Pairing], Awaitable[int]]
"""Opens the channel (a thread) of a round's table; returns its id. Given by the Discord layer."""
Greeter = Callable[[TournamentRow, int, Pairing, int], Awaitable[None]]
"""Tells a table's players where it is (pings them in its channel), once its channel is stored and before its
table opens there (again after a crash in between: a ping is never lost, at worst repeated)."""


@dataclass(frozen=True, slots=True)
class TournamentUpdate:
    """What listeners announce: the field changed, a round opened (with its tables), or it finished."""

    tournament: TournamentRow
    teams: tuple[TeamRow, ...]
    kind: str  # 'field', 'round', 'finished', 'paused', 'resumed', 'ended'
    round_no: int
    tables: tuple[TournamentTableRow, ...]
    standings: tuple[Standing, ...]


class TournamentService:
    """Runs every tournament of this process over the table service."""

    def __init__(self, tables: TableService, storage: Storage, open_channel: ChannelOpener, *,
                 greet: Greeter | None = None, rng: random.Random | None = None, bot_level: str = "normal",
                 no_show_seconds: float = NO_SHOW_SECONDS) -> None:
        self.tables = tables
        self.store = TournamentStore(storage.db, storage.clock)
        self.storage = storage
        self.open_channel = open_channel
        self.greet = greet
        self.rng = rng or random.SystemRandom()
        self.bot_level = bot_level
        self.listeners: list[Callable[[TournamentUpdate], Awaitable[None]]] = []
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.no_show_seconds = no_show_seconds
        self._watches: dict[int, asyncio.Task[None]] = {}  # table id -> its no-show watch
        tables.add_listener(self._on_table_event)

    def lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    # -- creating and registering ----------------------------------------------------------------
    async def create(self, guild_id: int, channel_id: int, creator_id: int, name: str, *, format: str = "swiss",
                     rounds: int | None = None, rules: dict[str, object] | None = None, turn_seconds: float = 60.0,
                     rated: bool = False, bots_allowed: bool = True, language: str | None = None,
                     deals: int = 0) -> TournamentRow:
        """``deals``: 0, a round is a match to the target; N, a round is a match of N deals (R8), stored in the
        tournament's rules (every table of it gets them)."""
        if format not in ("swiss", "knockout"):
            raise TournamentRefusal("tournament.bad_format")
        if rounds is not None and not 1 <= rounds <= 20:
            raise TournamentRefusal("tournament.bad_rounds")
        name = name.strip()[:80]
        if not name:
            raise TournamentRefusal("tournament.bad_name")
        if isinstance(deals, bool) or not 0 <= deals <= MAX_DEALS:
            raise TournamentRefusal("tournament.bad_deals", most=MAX_DEALS)
        table_rules = Rules.from_json({**(rules or {}), "deals": deals}).to_json()
        return await self.store.create(guild_id=guild_id, channel_id=channel_id, creator_id=creator_id, name=name,
                                       format=format, rounds=rounds, rules=table_rules, turn_seconds=turn_seconds,
                                       rated=rated, bots_allowed=bots_allowed, language=language)

    async def _registering(self, tournament_id: int) -> TournamentRow:
        row = await self.store.tournament(tournament_id)
        if row is None:
            raise TournamentRefusal("tournament.unknown")
        if row.status != TournamentStatus.REGISTERING:
            raise TournamentRefusal("tournament.closed")
        return row

    async def register_team(self, tournament_id: int, user_id: int, name: str, partner_id: int, partner_name: str,
                            *, partner_is_bot: bool = False, partner_in_guild: bool = True) -> TeamRow:
        """A team of two; the partner confirms (:meth:`confirm`). Refused: the partner a bot, gone, oneself,
        or either already registered."""
        if partner_is_bot:
            raise TournamentRefusal("tournament.partner_bot")
        if not partner_in_guild:
            raise TournamentRefusal("tournament.partner_gone")
        if partner_id == user_id:
            raise TournamentRefusal("tournament.partner_self")
        async with self.lock(tournament_id):
            await self._registering(tournament_id)
            if await self.store.team_of(tournament_id, user_id) is not None:
                raise TournamentRefusal("tournament.already_registered")
            if await self.store.team_of(tournament_id, partner_id) is not None:
                raise TournamentRefusal("tournament.partner_registered", partner=partner_name)
            team = await self._register(tournament_id, [(user_id, name), (partner_id, partner_name)],
                                        TeamStatus.PENDING)
        await self._announce(tournament_id, "field")
        return team

    async def register_alone(self, tournament_id: int, user_id: int, name: str) -> TeamRow:
        async with self.lock(tournament_id):
            await self._registering(tournament_id)
            if await self.store.team_of(tournament_id, user_id) is not None:
                raise TournamentRefusal("tournament.already_registered")
            team = await self._register(tournament_id, [(user_id, name)], TeamStatus.ALONE)
        await self._announce(tournament_id, "field")
        return team

    async def _register(self, tournament_id: int, players: list[tuple[int, str]], status: TeamStatus) -> TeamRow:
        try:
            return await self.store.register(tournament_id, players, status)
        except StorageConflict as exc:  # another process registered one of them meanwhile
            raise TournamentRefusal("tournament.already_registered") from exc
        except ValueError as exc:
            raise TournamentRefusal("tournament.closed") from exc

    async def confirm(self, tournament_id: int, user_id: int) -> TeamRow:
        """The partner named in a pending team confirms it."""
        async with self.lock(tournament_id):
            await self._registering(tournament_id)
            team = await self.store.team_of(tournament_id, user_id)
            if team is None or team.player2 != user_id or team.status != TeamStatus.PENDING:
                raise TournamentRefusal("tournament.nothing_to_confirm")
            await self.store.set_team_status(team.id, TeamStatus.ACTIVE, [TeamStatus.PENDING])
        await self._announce(tournament_id, "field")
        return team

    async def withdraw(self, tournament_id: int, user_id: int) -> TeamRow:
        async with self.lock(tournament_id):
            await self._registering(tournament_id)
            team = await self.store.withdraw(tournament_id, user_id)
            if team is None:
                raise TournamentRefusal("tournament.not_registered")
        await self._announce(tournament_id, "field")
        return team

    # -- starting and running ----------------------------------------------------------------------
    async def start(self, tournament_id: int, user_id: int, *, is_admin: bool = False) -> TournamentRow:
        """The organiser starts: lone players paired, unconfirmed teams dropped, round 1 paired and opened."""
        async with self.lock(tournament_id):
            row = await self._registering(tournament_id)
            if user_id != row.creator_id and not is_admin:
                raise TournamentRefusal("tournament.organiser_only")
            teams = await self.store.teams(tournament_id)
            alone = [t for t in teams if t.status == TeamStatus.ALONE]
            ready = [t for t in teams if t.status == TeamStatus.ACTIVE]
            if len(ready) + len(alone) // 2 < MIN_TEAMS:
                raise TournamentRefusal("tournament.too_few", needed=MIN_TEAMS, teams=len(ready) + len(alone) // 2)
            await self.store.merge_alone(tournament_id, [(alone[i].id, alone[i + 1].id)
                                                         for i in range(0, len(alone) - 1, 2)])
            for team in teams:
                if team.status == TeamStatus.PENDING or (alone and team.id == alone[-1].id and len(alone) % 2):
                    await self.store.set_team_status(team.id, TeamStatus.WITHDRAWN,
                                                     [TeamStatus.PENDING, TeamStatus.ALONE])
            field = [t for t in await self.store.teams(tournament_id) if t.status == TeamStatus.ACTIVE]
            pairings = self._first_round(row, field, await self._ratings(row.guild_id, field))
            try:
                await self.store.start_round(tournament_id, 1, round_seed(self.rng),
                                             [(p.table_no, p.first, p.second) for p in pairings], starting=True)
            except (StorageConflict, ValueError) as exc:  # another process started it
                raise TournamentRefusal("tournament.closed") from exc
            await self._open_tables(tournament_id, 1)
        await self._announce(tournament_id, "round")
        started = await self.store.tournament(tournament_id)
        assert started is not None
        return started

    async def _ratings(self, guild_id: int, field: Sequence[TeamRow]) -> dict[int, float]:
        """Each team's seed: its players' mean shown rating in this server (a player never rated counts 0)."""
        users = [u for t in field for u in (t.player1, t.player2) if u is not None]
        if not users:
            return {}
        marks = ", ".join("?" for _ in users)
        rows = await self.storage.db.fetch_all(
            f"SELECT user_id, rating FROM player_ratings WHERE guild_id = ? AND user_id IN ({marks})",
            (guild_id, *users))
        rating = {int(r[0]): float(r[1]) for r in rows}
        return {t.id: sum(rating.get(u, 0.0) for u in (t.player1, t.player2) if u is not None) / 2 for t in field}

    def _first_round(self, row: TournamentRow, field: Sequence[TeamRow], seeds: dict[int, float]) -> list[Pairing]:
        """Knockout: seeded by rating (ties: registration order), the byes to the top seeds."""
        if row.format == "knockout":
            return knockout_first_round([t.id for t in sorted(field, key=lambda t: (-seeds.get(t.id, t.seed), t.id))])
        return swiss_pairings([t.id for t in field], {}, set(), set())

    async def _open_tables(self, tournament_id: int, round_no: int) -> None:
        """Open every table of the round that has none yet (after a crash too)."""
        row = await self.store.tournament(tournament_id)
        seed = await self.store.round_seed(tournament_id, round_no)
        assert row is not None and seed is not None
        teams = {t.id: t for t in await self.store.teams(tournament_id)}
        for table in await self.store.tables(tournament_id, round_no):
            if table.table_id is not None or table.first_points is not None:
                continue
            if table.second_team == BYE and (not row.bots_allowed or row.format == "knockout"):
                # a knockout bye is the top seed's free pass, never played: a bye team that lost to bots
                # would otherwise advance all the same (knockout_next_round passes a bye's team on)
                await self.store.set_result(tournament_id, round_no, table.table_no, (1.0, 0.0), (0, 0), ())
                continue
            pairing = Pairing(table.table_no, table.first_team, table.second_team)
            channel_id = table.channel_id
            if channel_id is None:
                channel_id = await self.open_channel(row, round_no, pairing)
                await self.store.set_channel(tournament_id, round_no, table.table_no, channel_id)
            # after a crash: the thread given before it is reused, and a table already open in it adopted
            opened = self.tables.table_id_in(channel_id)
            if opened is None:
                # the players are pinged before their table opens in the stored thread: a crash between the
                # thread's store and the ping pings once more after the restart, never not at all
                if self.greet is not None:
                    await self.greet(row, round_no, pairing, channel_id)
                seats = self._seats(teams, pairing)
                info = await self.tables.open_seated(row.guild_id, channel_id, row.creator_id, seats,
                                                     rules=row.rules, turn_seconds=row.turn_seconds,
                                                     language=row.language, deal_seed=seed)
                opened = info.id
            else:  # stored before a crash: dealt now if the crash came between its storing and its first deal
                await self.tables.start_seated(opened)
            await self.store.set_table(tournament_id, round_no, table.table_no, opened)
            await self._watch(opened)

    def _seats(self, teams: dict[int, TeamRow], pairing: Pairing) -> list[SeatInfo]:
        first_side, _ = team_seats(pairing.table_no)
        seats: list[SeatInfo] = []
        for side, team_id in ((first_side, pairing.first), (1 - first_side, pairing.second)):
            team = teams.get(team_id)
            players = [] if team is None else [(team.player1, team.name1), (team.player2, team.name2)]
            for k, seat in enumerate((side, side + 2)):
                user, name = players[k] if k < len(players) else (None, None)
                if user is None:
                    seats.append(SeatInfo(seat, None, f"Bot {seat + 1}", is_bot=True, bot_level=self.bot_level))
                else:
                    seats.append(SeatInfo(seat, user, name or str(user)))
        return seats

    # -- a team that never shows ------------------------------------------------------------------------
    async def _watch(self, table_id: int) -> None:
        """Check the table for a team that never showed ``no_show_seconds`` after its stored opening."""
        if table_id in self._watches or self.no_show_seconds <= 0:
            return
        opened = await self.store.opened_at(table_id)
        if opened is None:
            return
        deadline = opened + self.no_show_seconds
        task = asyncio.create_task(self._no_show_at(table_id, deadline), name=f"tournament-no-show-{table_id}")
        self._watches[table_id] = task
        task.add_done_callback(lambda _: self._watches.pop(table_id, None))

    async def _no_show_at(self, table_id: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - self.storage.clock()))
        try:
            await self.check_no_show(table_id, deadline)
        except Exception:
            log.exception("could not check tournament table %s for a team that never showed", table_id)

    async def check_no_show(self, table_id: int, deadline: float) -> int:
        """At the deadline: each team of the table neither of whose players made an action themselves by then
        forfeits (both may). Stored first (the round's result), then the table closes saying so, then the round
        advances. Returns the forfeit (FORFEIT_FIRST / FORFEIT_SECOND bits; 0 when both teams showed or the
        table's result is already in)."""
        spot = await self.store.table_by_id(table_id)
        if spot is None or spot.first_points is not None:
            return 0
        row = await self.store.tournament(spot.tournament_id)
        if row is None or row.status not in (TournamentStatus.RUNNING, TournamentStatus.PAUSED):
            return 0  # ended by the organiser: its tables play on, nobody forfeits
        teams = {t.id: t for t in await self.store.teams(spot.tournament_id)}
        forfeit, absent = 0, []
        for bit, team_id in ((FORFEIT_FIRST, spot.first_team), (FORFEIT_SECOND, spot.second_team)):
            team = teams.get(team_id)
            users = [] if team is None else [u for u in (team.player1, team.player2) if u is not None]
            if users and not await self.store.acted(table_id, users, deadline):  # a bot team always shows
                forfeit |= bit
                absent += users
        if not forfeit:
            return 0
        async with self.lock(spot.tournament_id):
            if await self.storage.result(table_id) is not None:
                return 0  # the match ended meanwhile: its result counts (recorded by _record)
            if not await self.store.set_forfeit(spot.tournament_id, spot.round_no, spot.table_no, forfeit):
                return 0
            log.info("tournament %s round %s table %s: forfeit %s (never showed: %s)", spot.tournament_id,
                     spot.round_no, spot.table_no, forfeit, absent)
            await self.tables.close_forfeit(table_id, tuple(absent))
            await self._advance(spot.tournament_id, spot.round_no)
        return forfeit

    async def close(self) -> None:
        """Stop the no-show watches (shutdown, tests); a restart sets them again from the stored times."""
        watches = list(self._watches.values())
        for task in watches:
            task.cancel()
        await asyncio.gather(*watches, return_exceptions=True)
        self._watches.clear()

    async def _on_table_event(self, event: TableEvent) -> None:
        """A finished match is recorded in a task of its own: the finished table's emit (its last view, the
        other tables' listeners) never waits for the next round's tables to open. A crash before the task
        stored the result is caught up by :meth:`resume`."""
        if isinstance(event, MatchFinished):
            task = asyncio.create_task(self._record_table(event.table_id), name=f"tournament-table-{event.table_id}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _record_table(self, table_id: int) -> None:
        try:
            spot = await self.store.table_by_id(table_id)
            if spot is not None:
                await self._record(spot)
        except Exception:
            log.exception("could not record the tournament result of table %s", table_id)

    async def settled(self) -> None:
        """Wait for the results being recorded (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _record(self, spot: TournamentTableRow) -> None:
        """Store a finished table's result and deal results; advance the round when it was the last."""
        assert spot.table_id is not None
        result = await self.storage.result(spot.table_id)
        if result is None or result.winner_team is None:
            return
        first_side, _ = team_seats(spot.table_no)
        match = match_from_record(result.record)
        target = match.rules.target
        deals = []
        for hand_no, hand in enumerate(match.hands):
            # compared by board and by the side of the board's cards held (a replay swaps the sides)
            board, flipped = board_of(hand_no, match.rules.deals)
            side = board_side(first_side, flipped)
            diff = team_value(hand, first_side, target)
            deals.append((board, spot.first_team, side, diff))
            if spot.second_team not in (BYE, BOT_TEAM):
                deals.append((board, spot.second_team, 1 - side, -diff))
        won = 1.0 if result.winner_team == first_side else 0.0
        scores = (result.score[first_side], result.score[1 - first_side])
        async with self.lock(spot.tournament_id):
            if not await self.store.set_result(spot.tournament_id, spot.round_no, spot.table_no, (won, 1 - won),
                                               scores, deals):
                return
            await self._advance(spot.tournament_id, spot.round_no)

    async def _advance(self, tournament_id: int, round_no: int) -> None:
        """Close the round if every table has its result; pair and open the next, or finish."""
        row = await self.store.tournament(tournament_id)
        if row is None or row.status != TournamentStatus.RUNNING or row.current_round != round_no:
            return
        tables = await self.store.tables(tournament_id, round_no)
        if any(t.first_points is None for t in tables):
            return
        await self.store.finish_round(tournament_id, round_no)
        lines, teams = await self._standings(row)
        active = [t.id for t in teams if t.status == TeamStatus.ACTIVE]
        total = row.rounds or swiss_round_count(len(active))
        if row.format == "knockout":
            winners = {t.table_no: (t.first_team if (t.first_points or 0) >= (t.second_points or 0) else t.second_team)
                       for t in tables}
            if len(tables) == 1:
                await self._finish(row, winners[0])
                return
            pairings = knockout_next_round([Pairing(t.table_no, t.first_team, t.second_team) for t in tables], winners)
        else:
            if round_no >= total:
                await self._finish(row, lines[0].team)
                return
            everyone = await self.store.tables(tournament_id)
            met = {frozenset((t.first_team, t.second_team)) for t in everyone if t.second_team != BYE}
            had_bye = {t.first_team for t in everyone if t.second_team == BYE}
            ranking = [line.team for line in lines if line.team in active]
            pairings = swiss_pairings(ranking, {line.team: line.points for line in lines}, met, had_bye)
        try:
            await self.store.start_round(tournament_id, round_no + 1, round_seed(self.rng),
                                         [(p.table_no, p.first, p.second) for p in pairings])
        except StorageConflict:
            return  # opened already (another process, or a resume)
        await self._open_tables(tournament_id, round_no + 1)
        await self._announce(tournament_id, "round")

    async def _finish(self, row: TournamentRow, winner: int) -> None:
        if await self.store.set_status(row.id, TournamentStatus.FINISHED, [TournamentStatus.RUNNING],
                                       winner_team=winner):
            await self._announce(row.id, "finished")

    # -- the organiser role -----------------------------------------------------------------------------
    async def organiser_role(self, guild_id: int) -> int | None:
        """The role whose members may create and run this server's tournaments besides its admins (None:
        admins only); a member with it may press every organiser control (``is_admin`` of the controls)."""
        return (await self.storage.guild_settings(guild_id)).organiser_role

    async def set_organiser_role(self, guild_id: int, role_id: int | None, *, is_admin: bool) -> None:
        """A server admin names (``None``: clears) the organiser role; anyone else is refused, nothing written."""
        if not is_admin:
            raise TournamentRefusal("tournament.role_admin_only")
        await self.storage.set_organiser_role(guild_id, role_id)

    # -- organiser controls ----------------------------------------------------------------------------
    async def _organiser(self, tournament_id: int, user_id: int, is_admin: bool) -> TournamentRow:
        row = await self.store.tournament(tournament_id)
        if row is None:
            raise TournamentRefusal("tournament.unknown")
        if user_id != row.creator_id and not is_admin:
            raise TournamentRefusal("tournament.organiser_only")
        return row

    async def pause(self, tournament_id: int, user_id: int, *, is_admin: bool = False) -> None:
        """No next round opens while paused (the tables of the round play on)."""
        await self._organiser(tournament_id, user_id, is_admin)
        if not await self.store.set_status(tournament_id, TournamentStatus.PAUSED, [TournamentStatus.RUNNING]):
            raise TournamentRefusal("tournament.not_running")
        await self._announce(tournament_id, "paused")

    async def resume_play(self, tournament_id: int, user_id: int, *, is_admin: bool = False) -> None:
        row = await self._organiser(tournament_id, user_id, is_admin)
        if not await self.store.set_status(tournament_id, TournamentStatus.RUNNING, [TournamentStatus.PAUSED]):
            raise TournamentRefusal("tournament.not_paused")
        async with self.lock(tournament_id):
            await self._advance(tournament_id, row.current_round)
        await self._announce(tournament_id, "resumed")

    async def drop(self, tournament_id: int, user_id: int, team_id: int, *, is_admin: bool = False) -> None:
        """The team plays no further round (its current table plays on)."""
        await self._organiser(tournament_id, user_id, is_admin)
        if not await self.store.set_team_status(team_id, TeamStatus.DROPPED, [TeamStatus.ACTIVE]):
            raise TournamentRefusal("tournament.no_such_team")
        await self._announce(tournament_id, "field")

    async def end(self, tournament_id: int, user_id: int, *, is_admin: bool = False) -> None:
        await self._organiser(tournament_id, user_id, is_admin)
        if not await self.store.set_status(tournament_id, TournamentStatus.ENDED, [
                TournamentStatus.REGISTERING, TournamentStatus.RUNNING, TournamentStatus.PAUSED]):
            raise TournamentRefusal("tournament.over")
        await self._announce(tournament_id, "ended")

    # -- reading, restarts ------------------------------------------------------------------------------
    async def _standings(self, row: TournamentRow) -> tuple[list[Standing], list[TeamRow]]:
        tournament_id = row.id
        teams = [t for t in await self.store.teams(tournament_id)
                 if t.status in (TeamStatus.ACTIVE, TeamStatus.DROPPED)]
        outcomes = [RoundOutcome(t.round_no, t.first_team, t.second_team if t.second_team != BOT_TEAM else BYE,
                                 t.first_points, t.second_points or 0.0, t.first_score, t.second_score,
                                 bool(t.forfeit & FORFEIT_FIRST), bool(t.forfeit & FORFEIT_SECOND))
                    for t in await self.store.tables(tournament_id) if t.first_points is not None]
        deals = [DealResult(*d) for d in await self.store.deals(tournament_id)]
        per_round = int(row.rules.get("deals") or 0)  # the rules do not change once the tournament is created
        # the duplicate rating first, a forfeited round scored into it (docs/tournaments.md); Swiss pairs by
        # round points all the same (score groups, in this order within each)
        return duplicate_standings([t.id for t in teams], outcomes, deals, deals_per_round=per_round), teams

    async def standings(self, tournament_id: int) -> tuple[TournamentRow, list[Standing], list[TeamRow]]:
        row = await self.store.tournament(tournament_id)
        if row is None:
            raise TournamentRefusal("tournament.unknown")
        lines, teams = await self._standings(row)
        return row, lines, teams

    async def resume(self) -> list[int]:
        """After a restart (the table service resumed first): finish what a crash interrupted."""
        resumed = []
        for row in await self.store.live():
            if row.status not in (TournamentStatus.RUNNING, TournamentStatus.PAUSED) or not self.tables.holds(
                    row.guild_id):
                continue
            for spot in await self.store.tables(row.id, row.current_round):
                if spot.table_id is not None and spot.first_points is None:
                    await self._watch(spot.table_id)  # from the stored opening time: the clock is not reset
            if row.status != TournamentStatus.RUNNING:
                continue
            for spot in await self.store.tables(row.id, row.current_round):
                if spot.table_id is not None and spot.first_points is None:
                    await self._record(spot)  # finished before the crash, its result not yet counted
            async with self.lock(row.id):
                await self._open_tables(row.id, row.current_round)
                await self._advance(row.id, row.current_round)
            resumed.append(row.id)
        for row in await self.store.unannounced():  # a crash between storing and announcing: announce now
            if self.tables.holds(row.guild_id) and row.announced != self._announcement(row):
                await self._announce(row.id, "finished" if row.status == TournamentStatus.FINISHED else "round")
        return resumed

    @staticmethod
    def _announcement(row: TournamentRow) -> str:
        """What :meth:`_announce` records once it announced the tournament's state: ``round:N`` for the
        opening of round N (the standings after N-1 and its pairings), ``finished`` for the end."""
        return "finished" if row.status == TournamentStatus.FINISHED else f"round:{row.current_round}"

    async def _announce(self, tournament_id: int, kind: str) -> None:
        row = await self.store.tournament(tournament_id)
        if row is None:
            return
        lines, teams = await self._standings(row)
        update = TournamentUpdate(row, tuple(await self.store.teams(tournament_id)), kind, row.current_round,
                                  tuple(await self.store.tables(tournament_id, row.current_round)), tuple(lines))
        del teams
        for listener in self.listeners:
            try:
                await listener(update)
            except Exception:
                log.exception("a tournament listener failed")
        if kind in ("round", "finished"):  # posted: a restart does not post it again (nor lose it)
            await self.store.set_announced(tournament_id, self._announcement(row))

