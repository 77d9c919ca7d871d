"""The engine's error hierarchy (docs/architecture.md "Habits").

Every error a player or a record can cause is a :class:`BalootError`. It
carries a stable :class:`~baloot.engine.error_codes.ErrorCode` and parameters (what a
player reads is chosen from those, in their language) and an English message
that names the rule (R-number) it enforces, for logs and records (R10).
"""

from __future__ import annotations

from typing import ClassVar

from .error_codes import ErrorCode, ErrorParams


class BalootError(ValueError):
    """Base class of every error the engine raises on bad input.

    ``code`` is the stable reason (an :class:`ErrorCode`, the class's
    ``default_code`` when not given) and ``params`` its parameters (a suit as
    its index, a seat as its number; see :data:`baloot.engine.error_codes.CODE_PARAMS`).
    """

    default_code: ClassVar[ErrorCode] = ErrorCode.GENERIC

    def __init__(
        self,
        message: str = "",
        *,
        code: ErrorCode | None = None,
        params: ErrorParams | None = None,
    ) -> None:
        super().__init__(message)
        self.code: ErrorCode = self.default_code if code is None else code
        self.params: ErrorParams = dict(params) if params else {}


class NotationError(BalootError):
    """Text or JSON that does not describe a card, suit, action or record (R10)."""

    default_code = ErrorCode.BAD_NOTATION


class IllegalActionError(BalootError):
    """An action that the rules do not allow at this point."""


class NotYourTurnError(IllegalActionError):
    """An action by a seat that is not the one to act (R1, R3, R5)."""

    default_code = ErrorCode.NOT_YOUR_TURN


class GameOverError(IllegalActionError):
    """An action after the hand or the match is finished (R8, R11.5)."""

    default_code = ErrorCode.HAND_OVER


MESSAGE_LIMIT = 1000
"""The most characters of an R10 error message (it may quote a value of the record)."""


class RecordError(BalootError):
    """An invalid game record (R10): names the hand and action index.

    An engine error met while replaying keeps its own code and parameters.
    """

    def __init__(
        self,
        message: str,
        hand: int | None = None,
        action: int | None = None,
        *,
        code: ErrorCode | None = None,
        params: ErrorParams | None = None,
    ) -> None:
        super().__init__(message, code=code, params=params)
        self.message = message
        self.hand = hand
        self.action = action

    def to_json(self) -> dict[str, object]:
        """The R10 error object; a message that quotes a huge value from the record is cut to
        :data:`MESSAGE_LIMIT` characters."""
        message = self.message if len(self.message) <= MESSAGE_LIMIT else self.message[:MESSAGE_LIMIT - 1] + "…"
        return {"error": {"hand": self.hand, "action": self.action, "message": message}}

