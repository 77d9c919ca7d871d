"""Building the renderer's :class:`TableInfo` from the table service's snapshot.

Duck-typed (Protocols) so that rendering does not import the service, which
depends on the engine only: any object with these attributes works.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .model import Notice, TableInfo


class SeatLike(Protocol):
    """``baloot.tables.info.SeatInfo``: who sits at a seat."""

    @property
    def name(self) -> str: ...
    @property
    def is_bot(self) -> bool: ...
    @property
    def away(self) -> bool: ...


class ServiceTableLike(Protocol):
    """``baloot.tables.info.TableInfo``: a table as the service knows it."""

    @property
    def id(self) -> int: ...
    @property
    def seats(self) -> Sequence[SeatLike | None]: ...
    @property
    def turn_seconds(self) -> float: ...
    @property
    def language(self) -> str | None: ...


def table_info_from(
    table: ServiceTableLike,
    *,
    deadline: float | None = None,
    notice: Notice | None = None,
    default_language: str = "en",
    dealer: int | None = None,
) -> TableInfo:
    """The renderer's view of a service table.

    ``deadline``: the unix time the current turn times out (from the service's
    turn events); ``default_language``: the server's locale when the table has
    no language of its own.
    """
    seats = list(table.seats) + [None] * (4 - len(table.seats))
    names = tuple(None if s is None else s.name for s in seats[:4])
    bots = tuple(s is not None and s.is_bot for s in seats[:4])
    away = tuple(s is not None and s.away for s in seats[:4])
    return TableInfo(
        table_id=str(table.id),
        names=(names[0], names[1], names[2], names[3]),
        is_bot=(bots[0], bots[1], bots[2], bots[3]),
        away=(away[0], away[1], away[2], away[3]),
        dealer=dealer,
        turn_deadline=None if deadline is None else int(deadline),
        turn_time=int(table.turn_seconds),
        language=table.language or default_language,
        notice=notice,
    )
