"""The table service's errors: short messages a player can read.

Each is a :class:`~baloot.engine.errors.BalootError`, so the Discord layer's one
error handler answers every one of them privately. Engine errors
(:class:`~baloot.engine.errors.IllegalActionError` and its kin) pass through
unchanged. When one is raised nothing has changed, in memory or on disk.

Each class has a default :class:`~baloot.engine.error_codes.ErrorCode`; a raise that
is more specific than its class names its own ``code=`` (and ``params=``).
What a player reads is chosen by the code (``baloot.i18n.errors``), never by
the English message.
"""

from __future__ import annotations

from ..engine.error_codes import ErrorCode, ErrorParams
from ..engine.errors import BalootError


class TableError(BalootError):
    """Base class of the table service's errors."""

    default = "That cannot be done at this table."

    def __init__(
        self,
        message: str | None = None,
        *,
        code: ErrorCode | None = None,
        params: ErrorParams | None = None,
    ) -> None:
        super().__init__(message or self.default, code=code, params=params)


class NoTableHere(TableError):
    default = "There is no Baloot table in this channel."
    default_code = ErrorCode.NO_TABLE


class TableExists(TableError):
    default = "This channel already has a Baloot table."
    default_code = ErrorCode.TABLE_EXISTS


class TableFull(TableError):
    default = "This table is full."
    default_code = ErrorCode.TABLE_FULL


class SeatTaken(TableError):
    default = "That seat is taken."
    default_code = ErrorCode.SEAT_TAKEN


class AlreadySeated(TableError):
    default = "You are already seated at a table; leave it first."
    default_code = ErrorCode.ALREADY_SEATED


class NotSeated(TableError):
    default = "You are not seated at this table."
    default_code = ErrorCode.NOT_SEATED


class NotYourTurn(TableError):
    default = "It is not your turn."
    default_code = ErrorCode.NOT_YOUR_TURN


class StaleAction(TableError):
    default = "That button is out of date; the game has moved on."
    default_code = ErrorCode.STALE_BUTTON


class NotAllowed(TableError):
    default = "You are not allowed to do that."
    default_code = ErrorCode.NOT_ALLOWED


class TableNotRunning(TableError):
    default = "This table is not playing a match."
    default_code = ErrorCode.NOT_RUNNING


class TableElsewhere(TableError):
    """The table is live but held by another bot process (its guild is on another shard)."""

    default = "This table is run by another bot process."
    default_code = ErrorCode.TABLE_ELSEWHERE

    def __init__(self, message: str | None = None, *, guild_id: int | None = None) -> None:
        super().__init__(message)
        self.guild_id = guild_id  # the table's guild: its shard's holder runs it


class TableRestarting(TableError):
    """A DM press for a table whose holding process is not answering (dead or restarting):
    nothing changed; the press works again once a process holds the table's shard."""

    default = "This table is restarting; try again in a moment."
    default_code = ErrorCode.TABLE_RESTARTING


class LastPlayer(TableError):
    """The last person at a table asked to leave during its match: that closes the table, so it is asked
    for once more (``leave(..., close_if_last=True)``); nothing changed."""

    default = "You are the last person at this table: leaving closes it, and its match is recorded as abandoned."
    default_code = ErrorCode.LAST_PLAYER


class BadOption(TableError):
    """A table option that is not valid; its message (``detail``) says what is allowed."""

    default = "That table option is not valid."
    default_code = ErrorCode.BAD_OPTION

    def __init__(self, message: str | None = None, *, params: ErrorParams | None = None) -> None:
        detail = message or self.default
        super().__init__(detail, params={"detail": detail, **(params or {})})


class ReviewRefused(TableError):
    """A game review that may not be shown: the hand is still being played, the asker was not at a
    table whose match still runs, no such hand in this server, or nothing in the hand to judge."""

    default = "That hand cannot be reviewed."
    default_code = ErrorCode.REVIEW_NO_HAND
class QueuedAlready(TableError):
    """Quick match: the user (or their partner) already waits in the queue; nothing changed."""

    default = "You are already waiting for a quick match."
    default_code = ErrorCode.QUEUED_ALREADY


class NotQueued(TableError):
    """Quick match: the user is not in the queue (a stale queue button, or matched meanwhile)."""

    default = "You are not waiting for a quick match."
    default_code = ErrorCode.NOT_QUEUED


class BotsNotYet(TableError):
    """Quick match: **Play now with bots** before the documented wait (``matching.BOTS_OFFER_AFTER``)."""

    default = "Bots are offered after a short wait; keep waiting a little."
    default_code = ErrorCode.BOTS_NOT_YET

    def __init__(self, seconds: int = 0) -> None:
        super().__init__(params={"seconds": seconds})
