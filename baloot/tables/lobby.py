"""Seating and table life: create, join, leave, start, bots, end, language.

A mixin of :class:`~baloot.tables.service.TableService`. Seating across
tables runs under the service's lobby lock (a user sits at one table at a
time); each change to a table runs under its own lock, is stored, and then
announced.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from ..engine.error_codes import ErrorCode
from ..engine.rules import Rules
from ..storage import SeatedElsewhere
from ..storage.rows import GuildSettings, TableStatus
from . import options
from .base import ServiceBase
from .errors import (
    AlreadySeated,
    BadOption,
    LastPlayer,
    NoTableHere,
    NotAllowed,
    SeatTaken,
    TableElsewhere,
    TableExists,
    TableFull,
    TableNotRunning,
)
from .events import EndReason, EndVoteCast, PlayerBack, SeatsChanged, TableCreated, TableEnded, TableSettingsChanged
from .info import EndResult, SeatInfo, TableInfo
from .live import LiveTable, seat_row


def _check_seat_and_team(seat: int | None, team: int | None) -> None:
    if seat is not None and (isinstance(seat, bool) or seat not in range(4)):
        raise BadOption("Seats are numbered 0 to 3.")
    if team is not None and (isinstance(team, bool) or team not in (0, 1)):
        raise BadOption("Teams are 0 (seats 0 and 2) and 1 (seats 1 and 3).")


def _open_seat(table: LiveTable, seat: int | None, team: int | None) -> int:
    """R1: a free seat at an open table — the chosen one, one of the team's, or the first.

    Before the match a bot's seat is free for a person: an empty seat is taken first, then a
    bot's, so that bots filling a lobby never keep out someone who comes to play.
    """
    if seat is not None:
        taken = table.seats[seat]
        if taken is not None and not taken.is_bot:
            raise SeatTaken()
        return seat
    fits = [s for s in range(4) if team is None or s & 1 == team]
    free = [s for s in fits if table.seats[s] is None] or [s for s in fits if (b := table.seats[s]) and b.is_bot]
    if not free:
        if team is not None:
            raise TableFull("That team is full.", code=ErrorCode.TEAM_FULL)
        raise TableFull()
    return free[0]


def _left_seat(table: LiveTable, user_id: int, seat: int | None, team: int | None) -> int:
    """A seat someone left during the match: theirs if they come back, else the chosen or first one.

    A seat is kept for the person who left it for the rest of the hand they left in (played for them
    meanwhile): they can come back to it, and no one else can take it before the next deal.
    """
    left = [s.seat for s in table.seats if s is not None and s.vacated]
    mine = [s for s in left if (info := table.seats[s]) is not None and info.user_id == user_id]
    held = {s for s in left if s not in mine and table.held.get(s) == table.hand_no}
    if seat is not None:
        if seat not in left:
            raise SeatTaken()
        if seat in held:
            raise SeatTaken("That seat is kept for the person who left it until this hand ends.",
                            code=ErrorCode.SEAT_HELD)
        return seat
    choices = mine or [s for s in left if (team is None or s & 1 == team) and s not in held]
    if not choices:
        if held:
            raise SeatTaken("That seat is kept for the person who left it until this hand ends.",
                            code=ErrorCode.SEAT_HELD)
        raise TableFull("The match has started and no seat is free.")
    return choices[0]


class LobbyOps(ServiceBase):
    """Table creation, seating and ending."""

    def check_create(self, guild_id: int, user_id: int) -> None:
        """Raise what :meth:`create` would for this user and guild whatever the channel (already
        seated, a guild another process holds). :meth:`create` runs it under its lock; the bot also
        runs it before opening a thread for a new table, so that a refusal leaves
        no empty thread behind."""
        if user_id in self._seated:
            raise AlreadySeated()
        if not self.holds(guild_id):
            raise TableElsewhere()

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        *,
        rules: Rules | Mapping[str, object] | None = None,
        turn_seconds: float | None = None,
        language: str | None = None,
    ) -> TableInfo:
        """Open a table in this channel with its options; the creator sits at seat 0."""
        table_rules = options.table_rules(rules)
        seconds = options.turn_seconds(
            self.turn_seconds_default if turn_seconds is None else turn_seconds, self.turn_seconds_range
        )
        lang = options.language(language)
        async with self._lobby_lock:
            if channel_id in self._by_channel:
                raise TableExists()
            self.check_create(guild_id, user_id)  # seated elsewhere; a guild another process holds
            fence = None if self.leases is None else self.leases.fence_for(guild_id)
            first = SeatInfo(0, user_id, name)
            try:
                row = await self.storage.create_table(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    creator_id=user_id,
                    rules=table_rules.to_json(),
                    turn_seconds=seconds,
                    language=lang,
                    first_seat=seat_row(0, first),
                    fence=fence,
                )
            except SeatedElsewhere as exc:  # at a table of another bot process
                raise AlreadySeated() from exc
            table = LiveTable(row, [seat_row(row.id, first)], None, self.rng_factory(row.id))
            self._register(table)
            async with table.lock:
                info = table.info()
                await self.announcer.emit(table, TableCreated(table_id=table.id, channel_id=channel_id, table=info))
        return info

    async def open_seated(
        self,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        seats: Sequence[SeatInfo],
        *,
        rules: Rules | Mapping[str, object] | None = None,
        turn_seconds: float | None = None,
        language: str | None = None,
        deal_seed: int | None = None,
    ) -> TableInfo:
        """Open a table with its four seats taken and deal at once (a tournament's table).

        ``deal_seed``: the decks and first dealer come from it (every table of a round the same).
        People already at another table raise :class:`AlreadySeated` and nothing is stored.
        """
        table_rules = options.table_rules(rules)
        seconds = options.turn_seconds(
            self.turn_seconds_default if turn_seconds is None else turn_seconds, self.turn_seconds_range
        )
        if sorted(s.seat for s in seats) != [0, 1, 2, 3]:
            raise ValueError("a seated table needs seats 0 to 3")
        async with self._lobby_lock:
            if channel_id in self._by_channel:
                raise TableExists()
            if any(s.user_id in self._seated for s in seats if s.user_id is not None and not s.is_bot):
                raise AlreadySeated()
            if not self.holds(guild_id):
                raise TableElsewhere()
            fence = None if self.leases is None else self.leases.fence_for(guild_id)
            try:
                row = await self.storage.create_table(
                    guild_id=guild_id, channel_id=channel_id, creator_id=creator_id, rules=table_rules.to_json(),
                    turn_seconds=seconds, language=options.language(language), fence=fence, deal_seed=deal_seed,
                    more_seats=[seat_row(0, s) for s in seats],
                )
            except SeatedElsewhere as exc:
                raise AlreadySeated() from exc
            rows = [seat_row(row.id, s) for s in seats]
            table = LiveTable(row, rows, None, self.rng_factory(row.id))
            self._register(table)
            async with table.lock:
                await self.announcer.emit(table, TableCreated(table_id=table.id, channel_id=channel_id,
                                                              table=table.info()))
                await self.referee.start_match(table)
                await self.turns.start_turn(table)
                return table.info()

    async def start_seated(self, table_id: int) -> TableInfo:
        """Deal the first hand (R1, R2) of a table :meth:`open_seated` stored with its four seats but did not
        deal: the process stopped between the two, and the restart resumed it as a lobby. A table already
        dealt, or short of four seats, is left as it is."""
        table = self._by_id(table_id)
        async with table.lock:
            if table.status == TableStatus.OPEN and all(s is not None for s in table.seats):
                await self.referee.start_match(table)
                await self.turns.start_turn(table)
            return table.info()

    async def join(
        self, channel_id: int, user_id: int, name: str, *, seat: int | None = None, team: int | None = None
    ) -> TableInfo:
        """Sit down: at a chosen seat, in a team (0: seats 0 and 2, 1: seats 1 and 3), or the first free.

        Before the match a seated player may move to another free seat; once it
        runs, only a seat someone left can be taken (its owner gets it back).
        """
        _check_seat_and_team(seat, team)
        async with self._lobby_lock:
            table = self._in_channel(channel_id)
            async with table.lock:
                elsewhere = self._seated.get(user_id)
                if elsewhere is not None and elsewhere != table.id:
                    raise AlreadySeated()
                current = table.seat_of(user_id)
                if table.status == TableStatus.OPEN:
                    if current is not None and seat is None and (team is None or current & 1 == team):
                        raise AlreadySeated("You are already at this table.")
                    if current is not None and seat == current:
                        raise AlreadySeated("You are already in that seat.")
                    target = _open_seat(table, seat, team)
                    new = SeatInfo(target, user_id, name)
                    try:
                        await self.storage.put_seats(
                            [seat_row(table.id, new)], remove=[] if current is None else [(table.id, current)],
                            fence=table.fence,
                        )
                    except SeatedElsewhere as exc:  # at a table of another bot process
                        raise AlreadySeated() from exc
                    if current is not None:
                        table.seats[current] = None
                    returning = False
                else:
                    if current is not None:
                        raise AlreadySeated("You are already at this table.")
                    target = _left_seat(table, user_id, seat, team)
                    old = table.seats[target]
                    assert old is not None
                    returning = old.user_id == user_id
                    new = dataclasses.replace(old, user_id=user_id, name=name, vacated=False, away=False)
                    table.held.pop(target, None)
                    try:
                        await self.storage.put_seats([seat_row(table.id, new)], fence=table.fence)
                    except SeatedElsewhere as exc:
                        raise AlreadySeated() from exc
                table.seats[target] = new
                table.timeouts[target] = 0
                self._seated[user_id] = table.id
                await self.announcer.emit(
                    table, SeatsChanged(table_id=table.id, channel_id=channel_id, table=table.info())
                )
                if table.status == TableStatus.PLAYING:
                    if returning:
                        await self.announcer.emit(
                            table,
                            PlayerBack(table_id=table.id, channel_id=channel_id, seat=target, user_id=user_id)
                        )
                    if table.to_move == target:
                        await self.turns.start_turn(table)  # now a person's turn, with the full time
                return table.info()

    async def leave(self, channel_id: int, user_id: int, *, close_if_last: bool = False) -> TableInfo:
        """Stand up. During a match the seat is played for (by a bot if there is one) until retaken.

        When no person is left at the table it is closed (abandoned). During a match that ends the
        match, so the last person is asked first: without ``close_if_last`` their leaving raises
        :class:`LastPlayer` and changes nothing. The returned info's status says whether
        the table closed.
        """
        table = self._in_channel(channel_id)
        async with table.lock:
            info = table.seated(user_id)
            seat = info.seat
            if (table.status == TableStatus.PLAYING and not close_if_last
                    and all(h.user_id == user_id for h in table.humans())):
                raise LastPlayer()
            if table.status == TableStatus.OPEN:
                await self.storage.remove_seat(table.id, seat, fence=table.fence)
                table.seats[seat] = None
            else:
                new = dataclasses.replace(info, vacated=True, away=False)
                await self.storage.put_seats([seat_row(table.id, new)], fence=table.fence)
                table.seats[seat] = new
                if table.hand_no is not None:  # kept for them until this hand ends (_left_seat)
                    table.held[seat] = table.hand_no
            self._seated.pop(user_id, None)
            table.end_votes.discard(user_id)
            if not table.humans():
                await self._close(table, TableStatus.ABANDONED, EndReason.EMPTY, user_id)
                return table.info()
            await self.announcer.emit(table, SeatsChanged(table_id=table.id, channel_id=channel_id, table=table.info()))
            if table.to_move == seat:
                await self.turns.start_turn(table)
            return table.info()

    async def start(self, channel_id: int, user_id: int) -> TableInfo:
        """Deal the first hand (R1, R2) once four are seated; by the creator or a seated player."""
        table = self._in_channel(channel_id)
        async with table.lock:
            if table.status != TableStatus.OPEN:
                raise TableNotRunning("The match has already started.", code=ErrorCode.ALREADY_RUNNING)
            if user_id != table.creator_id and table.seat_of(user_id) is None:
                raise NotAllowed("Only the table's creator or a seated player can start the match.",
                                 code=ErrorCode.SEATED_ONLY)
            seated = sum(1 for s in table.seats if s is not None)
            if seated < 4:
                raise NotAllowed(
                    f"Four players are needed to start; {seated} seated.",
                    code=ErrorCode.NEED_FOUR,
                    params={"seated": seated},
                )
            await self.referee.start_match(table)
            await self.turns.start_turn(table)
            return table.info()

    async def fill_with_bots(self, channel_id: int, user_id: int, level: str = "normal") -> TableInfo:
        """Seat a bot of ``level`` in every empty seat; by the creator or a seated player."""
        if self.bot_factory is None:
            raise NotAllowed("Bots are not available here.")
        if level not in self.bot_levels:
            raise BadOption(f"The bot level must be one of: {', '.join(self.bot_levels)}.")
        table = self._in_channel(channel_id)
        async with table.lock:
            if table.status != TableStatus.OPEN:
                raise TableNotRunning("Bots can fill seats only before the match starts.")
            if user_id != table.creator_id and table.seat_of(user_id) is None:
                raise NotAllowed("Only the table's creator or a seated player can add bots.",
                                 code=ErrorCode.SEATED_ONLY)
            empty = [s for s in range(4) if table.seats[s] is None]
            if not empty:
                raise TableFull("There are no empty seats.")
            bots = [SeatInfo(s, None, f"Bot {s + 1}", is_bot=True, bot_level=level) for s in empty]
            await self.storage.put_seats([seat_row(table.id, b) for b in bots], fence=table.fence)
            for bot in bots:
                table.seats[bot.seat] = bot
            await self.announcer.emit(table, SeatsChanged(table_id=table.id, channel_id=channel_id, table=table.info()))
            return table.info()

    async def end(self, channel_id: int, user_id: int, *, is_admin: bool = False) -> EndResult:
        """End the table: at once by its creator or a server admin, else by a majority vote of the seated."""
        table = self._in_channel(channel_id)
        async with table.lock:
            humans = table.humans()
            needed = len(humans) // 2 + 1
            if user_id == table.creator_id:
                reason = EndReason.CREATOR
            elif is_admin:
                reason = EndReason.ADMIN
            else:
                if table.seat_of(user_id) is None:
                    raise NotAllowed("Only the creator, a server admin or a vote of the seated players can end it.",
                                     code=ErrorCode.END_BY_VOTE)
                if user_id in table.end_votes:
                    raise NotAllowed("You have already voted to end this table.", code=ErrorCode.ALREADY_VOTED)
                votes = len(table.end_votes) + 1
                if votes < needed:  # stored before it is announced; the vote that closes is the closing
                    await self.storage.add_end_vote(table.id, user_id, fence=table.fence)
                    table.end_votes.add(user_id)
                    await self.announcer.emit(
                        table,
                        EndVoteCast(
                            table_id=table.id, channel_id=channel_id, user_id=user_id, votes=votes, needed=needed
                        )
                    )
                    return EndResult(False, votes, needed)
                table.end_votes.add(user_id)
                reason = EndReason.VOTE
            try:
                await self._close(table, TableStatus.ENDED, reason, user_id, needed=needed)
            except BaseException:
                if reason == EndReason.VOTE:
                    table.end_votes.discard(user_id)  # the closing failed: the vote did not happen either
                raise
            return EndResult(True, len(table.end_votes), needed, by_vote=reason == EndReason.VOTE)

    async def close_forfeit(self, table_id: int, absent: tuple[int, ...]) -> bool:
        """Close a tournament table whose team (``absent``: its players) never showed; the match under way is
        stored as abandoned. False when the table is no longer live (its match ended meanwhile)."""
        try:
            table = self._by_id(table_id)
        except NoTableHere:
            return False
        async with table.lock:
            if not table.status.live:
                return False
            await self._close(table, TableStatus.ENDED, EndReason.FORFEIT, None, absent=absent)
            return True

    async def _close(self, table: LiveTable, status: TableStatus, reason: EndReason, by_user_id: int | None,
                     *, needed: int = 0, absent: tuple[int, ...] = ()) -> None:
        """Under the lock: store the closing (with an abandoned result if a match was under way)."""
        match = table.match
        result = None
        if table.status == TableStatus.PLAYING and match is not None and not match.finished:
            result = table.result(self.clock(), abandoned=True)
        await self.storage.close_table(table.id, status, reason.value, result, fence=table.fence)
        table.status = status
        self._unregister(table)
        await self.announcer.emit(
            table,
            TableEnded(
                table_id=table.id,
                channel_id=table.channel_id,
                reason=reason,
                by_user_id=by_user_id,
                match_score=table.match_score,
                votes=len(table.end_votes) if reason == EndReason.VOTE else 0,
                needed=needed,
                abandoned=result is not None,
                absent=absent,
            )
        )

    # -- languages ------------------------------------------------------------------------------
    async def set_language(self, channel_id: int, user_id: int, language: str | None, *, is_admin: bool) -> TableInfo:
        """Set the table's language (None: follow the server); by its creator or an admin."""
        lang = options.language(language)
        table = self._in_channel(channel_id)
        async with table.lock:
            if user_id != table.creator_id and not is_admin:
                raise NotAllowed("Only the table's creator or a server admin can set its language.",
                                 code=ErrorCode.CREATOR_OR_ADMIN)
            await self.storage.set_table_language(table.id, lang, fence=table.fence)
            table.language = lang
            info = table.info()
            await self.announcer.emit(table, TableSettingsChanged(table_id=table.id, channel_id=channel_id, table=info))
            return info

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        return await self.storage.guild_settings(guild_id)

    async def set_guild_language(self, guild_id: int, language: str | None) -> GuildSettings:
        """Set a server's channel language (None: English, the default)."""
        current = await self.storage.guild_settings(guild_id)
        settings = dataclasses.replace(current, language=options.language(language))
        await self.storage.save_guild_settings(settings)
        return settings
