"""Leaderboard periods: which ISO week and calendar month (UTC) a moment belongs to.

A match counts in three period rows of each player: all time (key 0), its
week and its month. A week key is the number of the week's Monday counted
in days from 1970-01-01 (weeks start Monday 00:00 UTC); a month key is
``year * 12 + month - 1``. "This week" and "this month" are the periods
holding ``now``.
"""

from __future__ import annotations

from datetime import UTC, datetime

from ..storage.stats_rows import Period

_DAY = 86_400
ALL_TIME_KEY = 0


def week_key(when: float) -> int:
    """The day number (since 1970-01-01) of the Monday starting ``when``'s ISO week (UTC)."""
    day = int(when // _DAY)
    return day - (day + 3) % 7  # 1970-01-01 was a Thursday: (day + 3) % 7 is 0 on Mondays


def month_key(when: float) -> int:
    """``year * 12 + month - 1`` of ``when`` (UTC)."""
    moment = datetime.fromtimestamp(when, UTC)
    return moment.year * 12 + moment.month - 1


def period_key(period: Period, when: float) -> int:
    """The key of the period of kind ``period`` that holds ``when``."""
    if period is Period.WEEK:
        return week_key(when)
    if period is Period.MONTH:
        return month_key(when)
    return ALL_TIME_KEY


def period_keys(when: float) -> tuple[tuple[Period, int], ...]:
    """Every period row a match finished at ``when`` counts in."""
    return tuple((p, period_key(p, when)) for p in (Period.ALL, Period.WEEK, Period.MONTH))


def period_start(period: Period, when: float) -> float | None:
    """Unix time the period holding ``when`` began (None for all time)."""
    if period is Period.WEEK:
        return float(week_key(when) * _DAY)
    if period is Period.MONTH:
        key = month_key(when)
        return datetime(key // 12, key % 12 + 1, 1, tzinfo=UTC).timestamp()
    return None
