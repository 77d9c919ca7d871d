"""The engine's error hierarchy (ARCHITECTURE.md "Habits").

Every error a player or a record can cause is a :class:`BalootError`; its
message is written for a player and names the rule (R-number) it enforces.
"""

from __future__ import annotations


class BalootError(ValueError):
    """Base class of every error the engine raises on bad input."""


class NotationError(BalootError):
    """Text or JSON that does not describe a card, suit, action or record (R10)."""


class IllegalActionError(BalootError):
    """An action that the rules do not allow at this point."""


class NotYourTurnError(IllegalActionError):
    """An action by a seat that is not the one to act (R1, R3, R5)."""


class GameOverError(IllegalActionError):
    """An action after the hand or the match is finished (R8, R11.5)."""


class RecordError(BalootError):
    """An invalid game record (R10): names the hand and action index."""

    def __init__(self, message: str, hand: int | None = None, action: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hand = hand
        self.action = action

    def to_json(self) -> dict[str, object]:
        """The R10 error object."""
        return {"error": {"hand": self.hand, "action": self.action, "message": self.message}}
