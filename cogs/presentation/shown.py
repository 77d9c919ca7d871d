"""What the Discord layer shows of each table: the service's latest snapshot and the latest notice.

The table service publishes a frozen :class:`~baloot.tables.TableSnapshot`
with every event, after what the event reports is committed. This
module keeps, per table, the latest one, the final snapshots of hands whose
channel message still has to be brought up to date, and the latest notice
worth a line under the table. It holds no engine state: nothing here can
replay, advance or disagree with the service's match.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from baloot.engine.view import SeatView
from baloot.render import Notice, RenderInfo
from baloot.tables import HandSnapshot, TableInfo, TableSnapshot, Version


@dataclass(slots=True)
class TableState:
    """One table as the Discord layer shows it."""

    snapshot: TableSnapshot
    notice: Notice | None = None  # the latest event worth a line on the table message
    closed: bool = False  # ended or finished: no more buttons
    closing: Notice | None = None  # closed before the match's end: the line saying so and by whom
    hands: dict[int, HandSnapshot] = field(default_factory=dict)  # hands whose message may still change
    # the renderer's TableInfos of ``snapshot`` drawn so far, by (deadline, notice, language): Runtime.render_info
    render_infos: tuple[TableSnapshot, dict[tuple[Any, ...], RenderInfo]] | None = None

    def update(self, snapshot: TableSnapshot) -> None:
        """Take the service's latest snapshot; keep the earlier hand as it ended for its message."""
        self.snapshot = snapshot
        for hand in (snapshot.previous, snapshot.hand):
            if hand is not None:
                self.hands[hand.hand_no] = hand

    @property
    def info(self) -> TableInfo:
        return self.snapshot.info

    @property
    def table_id(self) -> int:
        return self.snapshot.table_id

    @property
    def channel_id(self) -> int:
        return self.snapshot.channel_id

    @property
    def hand_no(self) -> int | None:
        return self.snapshot.hand_no

    @property
    def version(self) -> Version | None:
        return self.snapshot.version

    @property
    def deadline(self) -> float | None:
        return self.snapshot.deadline

    def hand_at(self, hand_no: int) -> HandSnapshot | None:
        """Hand ``hand_no`` as last published (the current one, or an earlier one as it ended)."""
        return self.snapshot.hand_at(hand_no) or self.hands.get(hand_no)

    def shown(self, hand_no: int) -> None:
        """The message of an earlier hand is up to date: forget that hand."""
        if hand_no != self.hand_no:
            self.hands.pop(hand_no, None)

    def view_of(self, seat: int) -> SeatView | None:
        """``seat``'s private view of the current hand, or None before the deal."""
        return self.snapshot.view_of(seat)


@dataclass
class ShownTables:
    """Every table the bot shows, by id."""

    tables: dict[int, TableState] = field(default_factory=dict)

    def get(self, table_id: int) -> TableState | None:
        return self.tables.get(table_id)

    def track(self, snapshot: TableSnapshot) -> TableState:
        """The state of a table, created or brought up to date with the service's snapshot."""
        state = self.tables.get(snapshot.table_id)
        if state is None:
            state = self.tables[snapshot.table_id] = TableState(snapshot)
        state.update(snapshot)
        return state

    def forget(self, table_id: int) -> None:
        self.tables.pop(table_id, None)
