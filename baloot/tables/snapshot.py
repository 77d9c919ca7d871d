"""The one published state of a table: a frozen snapshot after each committed change.

The table service owns the live state (:class:`~.live.LiveTable`, under its
lock). Each time it announces an event — always after what the event reports
is committed to storage — it first publishes a :class:`TableSnapshot`: the
table's :class:`~.info.TableInfo`, the current hand's
:class:`~baloot.engine.view.PublicView` (what the channel may show), each seat's
:class:`~baloot.engine.view.SeatView` (what that seat's private view may show), the
hand before it as it ended, and the match's
:class:`~baloot.engine.summary.MatchSummary`. Readers (the Discord layer) render
snapshots; they never hold or replay a second match, and a snapshot never
shows an action that is not stored.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.quick_init import quick_init
from ..engine.summary import MatchSummary
from ..engine.view import PublicView, SeatView
from .info import TableInfo, Version

SeatViews = tuple[SeatView | None, SeatView | None, SeatView | None, SeatView | None]


@quick_init
@dataclass(frozen=True, slots=True)
class HandSnapshot:
    """One hand as everyone may see it: its number, version and public view."""

    hand_no: int
    version: Version
    public: PublicView


@quick_init
@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """A table as published after its latest committed change."""

    info: TableInfo
    hand: HandSnapshot | None  # the current hand (None before the first deal)
    previous: HandSnapshot | None  # the hand before it, as it ended
    views: SeatViews  # each seat's view of the current hand (None before the first deal)
    sheet: MatchSummary | None  # the match so far (None before the first deal)
    deadline: float | None  # Unix time the current turn times out

    @property
    def table_id(self) -> int:
        return self.info.id

    @property
    def channel_id(self) -> int:
        return self.info.channel_id

    @property
    def hand_no(self) -> int | None:
        return None if self.hand is None else self.hand.hand_no

    @property
    def version(self) -> Version | None:
        return None if self.hand is None else self.hand.version

    @property
    def to_move(self) -> int | None:
        """The seat to act in the current hand (None between hands, before the deal or at the end)."""
        return None if self.hand is None else self.hand.public.to_move

    @property
    def dealer(self) -> int | None:
        return None if self.hand is None else self.hand.public.dealer

    def hand_at(self, hand_no: int) -> HandSnapshot | None:
        """The current hand or the one before it, by number (older hands are not kept)."""
        for hand in (self.hand, self.previous):
            if hand is not None and hand.hand_no == hand_no:
                return hand
        return None

    def view_of(self, seat: int) -> SeatView | None:
        return self.views[seat] if 0 <= seat < 4 else None
