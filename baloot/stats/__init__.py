"""Ratings, statistics, leaderboards and game history, derived from stored R10 records.

- :mod:`.facts` — replaying a finished match once into per-hand facts and per-seat tallies;
- :mod:`.rating` — openskill (Plackett-Luce) team ratings and the shown conservative number;
- :mod:`.periods` — this week / this month / all time (UTC);
- :mod:`.recorder` — :class:`StatsRecorder`, the table-service listener that writes it all;
- :mod:`.service` — :class:`StatsService`, what the Discord layer asks (leaderboards, cards, history, records).

No Discord here; the SQL lives in :mod:`baloot.storage.stats_writes` and
:mod:`baloot.storage.stats_queries`.
"""

from ..storage.stats_rows import BoardSort, Period
from .facts import MatchFacts, match_facts, seat_tally
from .periods import period_key, period_keys, period_start
from .rating import NEW_PLAYER, Skill, rate_match, shown_rating
from .recorder import StatsRecorder
from .service import StatsService

__all__ = [
    "NEW_PLAYER",
    "BoardSort",
    "MatchFacts",
    "Period",
    "Skill",
    "StatsRecorder",
    "StatsService",
    "match_facts",
    "period_key",
    "period_keys",
    "period_start",
    "rate_match",
    "seat_tally",
    "shown_rating",
]
