"""Building the renderer's :class:`RenderInfo` from the table service's snapshot.

Duck-typed (Protocols) so that rendering does not import the service, which
depends on the engine only: any object with these attributes works.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .model import Notice, RenderInfo


class SeatLike(Protocol):
    """``baloot.tables.info.SeatInfo``: who sits at a seat."""

    @property
    def name(self) -> str: ...
    @property
    def is_bot(self) -> bool: ...
    @property
    def away(self) -> bool: ...


class ServiceTableLike(Protocol):
    """``baloot.tables.info.RenderInfo``: a table as the service knows it."""

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
    closed: Notice | None = None,
    activity: bool = False,
) -> RenderInfo:
    """The renderer's view of a service table.

    ``deadline``: the unix time the current turn times out (from the service's
    turn events); ``default_language``: the server's locale when the table has
    no language of its own; ``closed``: the line saying the table was closed (None while it runs).
    """
    s0, s1, s2, s3 = (*table.seats, None, None, None, None)[:4]
    return RenderInfo(
        table_id=str(table.id),
        names=(None if s0 is None else s0.name, None if s1 is None else s1.name,
               None if s2 is None else s2.name, None if s3 is None else s3.name),
        is_bot=(s0 is not None and s0.is_bot, s1 is not None and s1.is_bot,
                s2 is not None and s2.is_bot, s3 is not None and s3.is_bot),
        away=(s0 is not None and s0.away, s1 is not None and s1.away,
              s2 is not None and s2.away, s3 is not None and s3.away),
        dealer=dealer,
        turn_deadline=None if deadline is None else int(deadline),
        turn_time=int(table.turn_seconds),
        language=table.language or default_language,
        notice=notice,
        closed=closed,
        activity=activity,
    )
