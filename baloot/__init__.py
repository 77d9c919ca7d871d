"""Baloot: a pure rules engine (RULES.md R1-R11), game records, AI and the table service.

The engine modules import only the standard library.
"""

from .actions import Action, ActionType
from .cards import ALL_CARDS, Card
from .error_codes import ErrorCode
from .errors import (
    BalootError,
    GameOverError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    RecordError,
)
from .hand import Hand, Phase
from .match import Match
from .record import match_from_record, replay_summary
from .rules import Rules
from .view import SeatView, seat_view
from .vocab import CardMask, Contract, Seat

__all__ = [
    "ALL_CARDS",
    "Action",
    "ActionType",
    "BalootError",
    "Card",
    "CardMask",
    "Contract",
    "ErrorCode",
    "GameOverError",
    "Hand",
    "IllegalActionError",
    "Match",
    "NotYourTurnError",
    "NotationError",
    "Phase",
    "RecordError",
    "Rules",
    "Seat",
    "SeatView",
    "match_from_record",
    "replay_summary",
    "seat_view",
]
