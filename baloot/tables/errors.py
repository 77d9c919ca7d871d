"""The table service's errors: short messages a player can read (issue 4 "Bad input").

Each is a :class:`~baloot.errors.BalootError`, so the Discord layer's one
error handler answers every one of them privately. Engine errors
(:class:`~baloot.errors.IllegalActionError` and its kin) pass through
unchanged. When one is raised nothing has changed, in memory or on disk.

A message more specific than its class may name its own catalog key
(``catalog_key=``, one of :data:`baloot.i18n.errors.SERVICE_ERRORS`); the
Discord layer shows that key's text instead of the class's.
"""

from __future__ import annotations

from ..errors import BalootError


class TableError(BalootError):
    """Base class of the table service's errors."""

    default = "That cannot be done at this table."

    def __init__(self, message: str | None = None, *, catalog_key: str | None = None) -> None:
        super().__init__(message or self.default)
        if catalog_key is not None:
            self.catalog_key = catalog_key


class NoTableHere(TableError):
    default = "There is no Baloot table in this channel."


class TableExists(TableError):
    default = "This channel already has a Baloot table."


class TableFull(TableError):
    default = "This table is full."


class SeatTaken(TableError):
    default = "That seat is taken."


class AlreadySeated(TableError):
    default = "You are already seated at a table; leave it first."


class NotSeated(TableError):
    default = "You are not seated at this table."


class NotYourTurn(TableError):
    default = "It is not your turn."


class StaleAction(TableError):
    default = "That button is out of date; the game has moved on."


class NotAllowed(TableError):
    default = "You are not allowed to do that."


class TableNotRunning(TableError):
    default = "This table is not playing a match."


class BadOption(TableError):
    default = "That table option is not valid."
