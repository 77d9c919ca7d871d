"""Playing at a table: actions, private hands, the score sheet and what the bot keeps.

A mixin of :class:`~baloot.tables.service.TableService`. An action is checked
in this order — the table runs, the user sits there, the action is theirs,
the button is current (``expected_version``), it is their turn, the engine
accepts it — then committed and announced. Any failure raises and changes
nothing.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..engine.actions import Action
from ..engine.error_codes import ErrorCode
from ..engine.records import match_from_record
from ..engine.summary import MatchSummary, summarize_match
from ..engine.view import PublicView, public_view
from ..storage.rows import StoredMessage, TableStatus
from .base import ServiceBase
from .errors import NoTableHere, NotAllowed, NotYourTurn, StaleAction, TableElsewhere, TableNotRunning
from .info import ActResult, PlayerHand, StoredHand, Version
from .live import LiveTable, seat_row
from .snapshot import TableSnapshot


class GameplayOps(ServiceBase):
    """Actions and views of a running table."""

    async def _running(self, table_id: int) -> LiveTable:
        """The live table of a button, or the right error for one that closed or never was."""
        table = self._tables.get(table_id)
        if table is not None:
            return table
        row = await self.storage.table(table_id)
        if row is None:
            # a forged or foreign id (a DM has no channel to speak of): not "no table in this channel"
            raise NoTableHere("That table does not exist.", code=ErrorCode.UNKNOWN_TABLE)
        if row.status.live and not self.holds(row.guild_id):
            # a DM press reaches shard 0; the table lives with its guild's shard
            raise TableElsewhere(guild_id=row.guild_id)
        if row.status == TableStatus.FINISHED:
            raise TableNotRunning("This table has finished; its match is over.", code=ErrorCode.TABLE_FINISHED)
        raise TableNotRunning("This table was closed before its match ended.", code=ErrorCode.TABLE_CLOSED)

    async def check_running(self, table_id: int) -> None:
        """Raise what a button of table ``table_id`` is answered when that table is not live here: it closed
        (finished, or closed before its end), never was, or runs in another process."""
        await self._running(table_id)

    @staticmethod
    def _seat_in_match(table: LiveTable, user_id: int) -> int:
        if table.status != TableStatus.PLAYING:
            raise TableNotRunning("The match has not started yet.")
        return table.seated(user_id).seat

    async def act(
        self,
        table_id: int,
        user_id: int,
        action: Action | Mapping[str, Any],
        expected_version: Version | None,
    ) -> ActResult:
        """Apply a seated player's action (an Action or its R10 JSON; a missing ``seat`` is theirs).

        ``expected_version`` is the (hand, action count) the button was drawn
        for; a stale button or a second press of the same one raises
        StaleAction. Pass None only where no button is involved.
        """
        table = await self._running(table_id)
        async with table.lock:
            seat = self._seat_in_match(table, user_id)
            if not isinstance(action, Action):
                obj = dict(action)
                obj.setdefault("seat", seat)
                action = Action.from_json(obj)
            if action.seat != seat:
                raise NotAllowed("That is not your hand.", code=ErrorCode.NOT_YOUR_HAND)
            if expected_version is not None and tuple(expected_version) != table.version:
                raise StaleAction()
            to_move = table.to_move
            if to_move != seat:  # the refusal names who is to act
                raise NotYourTurn(params=None if to_move is None else {"seat": to_move})
            hand_no = table.hand_no
            assert table.match is not None and hand_no is not None
            was_away = bool((info := table.seats[seat]) and info.away)
            applied = await self.referee.apply(table, action, by_user_id=user_id, auto=False, by_bot=False)
            table.timeouts[seat] = 0
            if was_away:
                await self.turns.set_away_after_commit(table, seat, False)
            await self.turns.start_turn(table)
            version = table.version
            assert version is not None
            return ActResult(
                table_id=table.id,
                action_json=applied.to_json(),
                version=version,
                hand_finished=table.match.hands[hand_no].finished,
                match_finished=table.match.finished,
                hand=None if table.match.finished else self._player_hand(table, seat),
            )

    def _player_hand(self, table: LiveTable, seat: int) -> PlayerHand:
        """``seat``'s view from the table's published snapshot (all of it is committed)."""
        snapshot = table.published
        if snapshot is None or snapshot.version != table.version:
            snapshot = table.publish()
        view = snapshot.view_of(seat)
        hand_no = snapshot.hand_no
        version = snapshot.version
        assert view is not None and hand_no is not None and version is not None
        deadline = snapshot.deadline if snapshot.to_move == seat else None
        return PlayerHand(table.id, seat, hand_no, version, view, deadline)

    async def my_hand(self, table_id: int, user_id: int) -> PlayerHand:
        """The seated player's private view; a player marked away is back (with a fresh turn)."""
        table = await self._running(table_id)
        async with table.lock:
            seat = self._seat_in_match(table, user_id)
            await self._come_back(table, seat)
            return self._player_hand(table, seat)

    async def my_hand_in(self, channel_id: int, user_id: int) -> PlayerHand:
        """:meth:`my_hand` at the live table of a channel."""
        return await self.my_hand(self._in_channel(channel_id).id, user_id)

    async def back(self, table_id: int, user_id: int) -> bool:
        """A player says they are back; True if they were away."""
        table = await self._running(table_id)
        async with table.lock:
            seat = self._seat_in_match(table, user_id)
            return await self._come_back(table, seat)

    async def _come_back(self, table: LiveTable, seat: int) -> bool:
        info = table.seats[seat]
        if info is None or not info.away:
            return False
        await self.turns.set_away(table, seat, False)
        if table.to_move == seat:
            await self.turns.start_turn(table)
        return True

    def score_sheet(self, channel_id: int) -> MatchSummary:
        """The match so far at a channel's table: each hand's summary and the score (R8)."""
        table = self._in_channel(channel_id)
        sheet = self.snapshot(table.id).sheet
        if sheet is not None:
            return sheet
        return MatchSummary((), (0, 0), None, table.rules.target, table.rules.deals)

    def public_view(self, table_id: int) -> PublicView | None:
        """What everyone may see of the current hand (R2-R8's public facts)."""
        return self._by_id(table_id).public_view()

    def snapshot(self, table_id: int) -> TableSnapshot:
        """The live table's latest published snapshot (what the Discord layer renders)."""
        table = self._by_id(table_id)
        return table.published if table.published is not None else table.publish()

    async def stored_hand(self, table_id: int, hand_no: int) -> StoredHand | None:
        """Hand ``hand_no`` of a table as stored, with the match around it, whether the table runs or closed
        (a finished hand's "Details" answers for as long as its message lives); None if the hand is not
        stored; :class:`NoTableHere` if the table never was."""
        row = await self.storage.table(table_id)
        if row is None:
            raise NoTableHere("That table does not exist.", code=ErrorCode.UNKNOWN_TABLE)
        record = await self.storage.game_record(table_id)
        if not 0 <= hand_no < len(record["hands"]):
            return None
        match = match_from_record(record)
        hand = match.hands[hand_no]
        info = LiveTable(row, await self.storage.seats(table_id), match, self.rng_factory(table_id)).info()
        return StoredHand(info, public_view(hand, hand.match_score), summarize_match(match))

    # -- what the Discord layer keeps --------------------------------------------------------------
    async def set_dm_closed(self, table_id: int, user_id: int, closed: bool = True) -> bool:
        """Note that a player's DMs are closed (or open again); True if this changed (tell them once)."""
        table = self._by_id(table_id)
        async with table.lock:
            info = table.seated(user_id)
            seat = info.seat
            if info.dm_closed == closed:
                return False
            new = dataclasses.replace(info, dm_closed=closed)
            await self.storage.put_seats([seat_row(table.id, new)], fence=table.fence)
            table.seats[seat] = new
            return True

    async def remember_message(self, table_id: int, key: str, channel_id: int, message_id: int) -> None:
        """Keep a message id (e.g. ``"hand:3"``, ``"dm:<user>"``) to edit it after a restart."""
        await self.storage.set_message(table_id, key, channel_id, message_id)

    async def messages(self, table_id: int) -> dict[str, StoredMessage]:
        return {m.key: m for m in await self.storage.messages(table_id)}
