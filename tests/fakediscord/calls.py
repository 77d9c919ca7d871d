"""Counting every REST call the bot makes, per route template and per token kind."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

TokenKind = Literal["bot", "interaction", "bearer", "client", "none"]


@dataclass(frozen=True)
class CallRecord:
    method: str
    template: str  # e.g. "/channels/{channel_id}/messages" (Discord's OpenAPI path)
    kind: TokenKind
    status: int
    at: float = 0.0  # time.monotonic() when it was answered
    agent: str = ""  # the request's User-Agent (which HTTP client of the bot sent it)
    encoding: str = ""  # its Accept-Encoding ("identity" from the bot's lean client, aiohttp asks for gzip)
    content_type: str = ""  # its body's type ("multipart/form-data" when it carries files)

    @property
    def route(self) -> str:
        """``"POST /channels/{channel_id}/messages"``."""
        return f"{self.method} {self.template}"


@dataclass
class CallLog:
    """All REST calls in arrival order. ``mark()`` then ``since=mark`` scopes a count."""

    records: list[CallRecord] = field(default_factory=list)

    def add(self, record: CallRecord) -> None:
        self.records.append(record)

    def mark(self) -> int:
        return len(self.records)

    def select(
        self,
        *,
        route: str | None = None,
        kind: TokenKind | None = None,
        status: int | None = None,
        since: int = 0,
    ) -> list[CallRecord]:
        return [
            r
            for r in self.records[since:]
            if (route is None or r.route == route)
            and (kind is None or r.kind == kind)
            and (status is None or r.status == status)
        ]

    def count(
        self,
        route: str | None = None,
        *,
        kind: TokenKind | None = None,
        status: int | None = None,
        since: int = 0,
    ) -> int:
        return len(self.select(route=route, kind=kind, status=status, since=since))

    def by_route(self, *, kind: TokenKind | None = None, since: int = 0) -> Counter[str]:
        return Counter(r.route for r in self.select(kind=kind, since=since))

    def by_kind(self, *, since: int = 0) -> Counter[str]:
        return Counter(r.kind for r in self.records[since:])

    def peak_rate(
        self, *, kind: TokenKind | None = "bot", window: float = 1.0, since: int = 0, accepted: bool = True
    ) -> int:
        """The most calls of ``kind`` answered within any ``window`` seconds (by default only those not
        refused with 429): what Discord's global limit, 50 bot-token calls per second, bounds."""
        times = [
            r.at for r in self.select(kind=kind, since=since) if not (accepted and r.status == 429)
        ]
        best = start = 0
        for end, at in enumerate(times):
            while at - times[start] >= window:
                start += 1
            best = max(best, end - start + 1)
        return best

    def report(self, *, since: int = 0) -> str:
        """One line per (kind, route), most frequent first, for benchmarks."""
        counts = Counter((r.kind, r.route) for r in self.records[since:])
        return "\n".join(f"{n:5d}  {kind:<11} {route}" for (kind, route), n in counts.most_common())
