"""What a road of :class:`.token_http.TokenHttp` is: one request out, its answer back whole."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, NamedTuple, Protocol

KEEPALIVE_SECONDS: Final = 30.0
"""An idle connection older than this is closed rather than reused (servers drop idle ones)."""


class Reply(NamedTuple):
    """One answer, read whole: what :class:`.token_http.TokenHttp` and ``discord.HTTPException`` read of it."""

    status: int
    reason: str
    headers: Mapping[str, str]
    """Header names in lower case (or a case-insensitive mapping)."""
    body: bytes


class Road(Protocol):
    """How one request reaches the server and its answer comes back whole."""

    async def exchange(self, method: str, target: str, body: bytes | None, content_type: str | None) -> Reply:
        """Send ``method target`` (``target``: path and query, already encoded) with ``body``; the answer."""

    async def close(self) -> None:
        """Close every connection."""

