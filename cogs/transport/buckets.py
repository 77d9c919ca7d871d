"""discord.py's rate-limit buckets swept at an amortized constant cost (bot CPU per press).

discord.py keeps one ``Ratelimit`` per bucket and major parameter (a channel,
a DM): about five per table. Once it holds 256 of them, it walks the whole
table on *every* new bucket to drop those idle for five minutes
(``HTTPClient._try_clear_expired_ratelimits``): at 200 tables that is about
1,000 buckets walked per new DM or channel, 2-3 % of the bot's CPU in
``scripts/bench_tables.py --profile``.

:func:`install_bucket_sweep` keeps discord.py's rule for *what* is dropped
(``Ratelimit.is_inactive``: no request for 300 s, none outgoing or waiting) and
changes only *when*: a walk happens once the table has doubled since the last
one (and holds at least 256), so each new bucket pays a constant share of it
and the table never holds more than about twice the buckets in use.
"""

from __future__ import annotations

from typing import Final

import discord

FLOOR: Final = 256
"""discord.py's own threshold: no walk below this many buckets."""


class BucketSweep:
    """``http._try_clear_expired_ratelimits``, walking the table only when it has doubled since the last walk."""

    __slots__ = ("http", "next_walk", "walks")

    def __init__(self, http: discord.http.HTTPClient) -> None:
        self.http = http
        self.next_walk = FLOOR
        self.walks = 0

    def __call__(self) -> None:
        buckets = self.http._buckets
        if len(buckets) < self.next_walk:
            return
        self.walks += 1
        for key in [key for key, bucket in buckets.items() if bucket.is_inactive()]:
            del buckets[key]
        self.next_walk = max(FLOOR, 2 * len(buckets))


def install_bucket_sweep(client: discord.Client) -> BucketSweep:
    """Replace ``client.http``'s bucket sweep with a :class:`BucketSweep` (an instance attribute shadows it)."""
    sweep = BucketSweep(client.http)
    setattr(client.http, "_try_clear_expired_ratelimits", sweep)  # noqa: B010
    return sweep
