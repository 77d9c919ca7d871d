"""What the Discord layer knows of each table, rebuilt from the service's events and storage.

The table service announces every change after it is committed
(:mod:`baloot.tables.events`). :class:`Mirror` keeps, per table, the latest
:class:`~baloot.tables.TableInfo`, a replica of the match (reloaded from the
stored R10 record at every deal and restart, advanced by each
``ActionApplied``), the current turn's deadline and the latest notice. The
renderers read it at any time without the table's lock, and it never holds
an action that is not yet stored.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from baloot.errors import BalootError
from baloot.match import Match
from baloot.record import match_from_record
from baloot.render import Notice
from baloot.storage import Storage
from baloot.tables import TableInfo
from baloot.tables.events import ActionApplied
from baloot.view import SeatView, seat_view

log = logging.getLogger("baloot.discord")


@dataclass
class TableState:
    """One table as the Discord layer shows it."""

    info: TableInfo
    match: Match | None = None
    deadline: float | None = None  # Unix time the current turn times out
    notice: Notice | None = None  # the latest event worth a line on the table message
    closed: bool = False  # ended or finished: no more buttons

    @property
    def table_id(self) -> int:
        return self.info.id

    @property
    def channel_id(self) -> int:
        return self.info.channel_id

    @property
    def hand_no(self) -> int | None:
        return None if self.match is None or not self.match.hands else len(self.match.hands) - 1

    @property
    def version(self) -> tuple[int, int] | None:
        hand_no = self.hand_no
        if hand_no is None or self.match is None:
            return None
        return (hand_no, len(self.match.hands[hand_no].actions))

    def view_of(self, seat: int) -> SeatView | None:
        """``seat``'s private view of the current hand, as the service would give it."""
        match = self.match
        hand = None if match is None else match.current
        if hand is None:
            return None
        return seat_view(hand, seat, hand.match_score)


@dataclass
class Mirror:
    """Every table the bot shows, by id."""

    storage: Storage
    tables: dict[int, TableState] = field(default_factory=dict)

    def get(self, table_id: int) -> TableState | None:
        return self.tables.get(table_id)

    def track(self, info: TableInfo) -> TableState:
        """The state of a table, created or refreshed with the service's latest snapshot."""
        state = self.tables.get(info.id)
        if state is None:
            state = self.tables[info.id] = TableState(info)
        else:
            state.info = info
        return state

    async def reload(self, state: TableState) -> None:
        """Rebuild the match from the stored record (committed actions only)."""
        record = await self.storage.game_record(state.table_id)
        state.match = match_from_record(record) if record["hands"] else None

    async def advance(self, state: TableState, event: ActionApplied) -> None:
        """Apply an announced action to the replica; reload from storage if they ever differ."""
        match = state.match
        if match is None or state.version != (event.hand_no, event.index):
            await self.reload(state)
            return
        try:
            match.apply(event.action)
        except BalootError:
            log.warning("table %s: replica refused %s; reloading from storage", state.table_id, event.action)
            await self.reload(state)

    def forget(self, table_id: int) -> None:
        self.tables.pop(table_id, None)
