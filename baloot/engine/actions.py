"""Actions (R10 action objects) as interned, text-round-tripping values."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Final, TypeGuard

from .cards import ALL_CARDS, SUITS, Card, parse_suit
from .error_codes import ErrorCode
from .errors import NotationError
from .vocab import Seat


class ActionType(StrEnum):
    """The R10 action types."""

    PASS = "pass"
    HOKUM = "hokum"
    SUN = "sun"
    ASHKAL = "ashkal"
    KAWESH = "kawesh"
    DOUBLE = "double"
    TRIPLE = "triple"
    FOUR = "four"
    GAHWA = "gahwa"
    DECLARE = "declare"
    PLAY = "play"
    SAWA = "sawa"  # R12: the player to lead claims every remaining trick

    def __str__(self) -> str:
        return self.value


def is_seat(value: object) -> TypeGuard[Seat]:
    """Whether ``value`` is a seat number 0..3 (an ``int``, not a ``bool``)."""
    return not isinstance(value, bool) and isinstance(value, int) and 0 <= value < 4


_BAD: Final = ErrorCode.BAD_ACTION
_TYPES: Final = {t.value: t for t in ActionType}
BAD_SUIT: Final = 4
"""``Action.suit`` of a Hokum whose ``suit`` was not a suit letter (see ``from_json``)."""


_INTERNED: Final[dict[tuple[object, str, int, int, int], Action]] = {}
"""Every action built so far, by (seat, type, card index, lock, suit); -1 for an absent part."""


class Action:
    """One player's action. Build with the class methods; instances are interned.

    ``suit`` is the trump suit index of a round-two Hokum confirmation (R3.2),
    ``locked`` the choice of a Hokum Double or Four (R4), ``card`` a played card.
    """

    __slots__ = ("card", "card_index", "locked", "seat", "suit", "type")
    seat: Seat
    type: ActionType
    card: Card | None
    card_index: int  # the card's index for a play, else -1 (saves a lookup in the hot path)
    locked: bool | None
    suit: int | None

    def __new__(
        cls,
        seat: object,
        type: object,
        card: object = None,
        locked: object = None,
        suit: object = None,
    ) -> Action:
        # Parameters are ``object``: this is the boundary for actions built from outside (custom
        # ids, records), checked here so bad input is a NotationError, never a TypeError.
        # An impossible component gets key -2, which is never interned, so it reaches the checks.
        key = (
            seat,
            str(type),
            -1 if card is None else card.index if isinstance(card, Card) else -2,
            -1 if locked is None else int(locked) if isinstance(locked, int) else -2,
            -1 if suit is None else suit if isinstance(suit, int) else -2,
        )
        try:
            found = _INTERNED.get(key)
        except TypeError:  # an unhashable seat
            raise NotationError("not an action: bad seat value", code=_BAD) from None
        if found is not None:
            return found
        if not is_seat(seat):
            raise NotationError(f"seat {seat!r} is not 0..3", code=_BAD)
        atype = _TYPES.get(str(type))
        if atype is None:
            raise NotationError(f"unknown action type {type!r}", code=_BAD)
        if card is not None and not isinstance(card, Card):
            raise NotationError(f"{card!r} is not a card", code=_BAD)
        if (atype is ActionType.PLAY) != (card is not None):
            raise NotationError("a play action names exactly one card, and only a play does", code=_BAD)
        if locked is not None and (not isinstance(locked, bool) or atype not in (ActionType.DOUBLE, ActionType.FOUR)):
            raise NotationError("only a double or a four says locked (true) or open (false)", code=_BAD)
        bad_suit = isinstance(suit, bool) or not isinstance(suit, int) or not 0 <= suit <= BAD_SUIT
        if suit is not None and (bad_suit or atype is not ActionType.HOKUM):
            raise NotationError("only a Hokum names a suit (S, H, D or C)", code=_BAD)
        action = super().__new__(cls)
        action.seat = seat
        action.type = atype
        action.card = card if isinstance(card, Card) else None
        action.card_index = -1 if action.card is None else action.card.index
        action.locked = locked if isinstance(locked, bool) else None
        action.suit = suit if isinstance(suit, int) else None
        _INTERNED[key] = action
        return action

    # Actions are interned: identity is equality.
    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (Action, (self.seat, self.type, self.card, self.locked, self.suit))

    def to_json(self) -> dict[str, Any]:
        """The R10 JSON object of this action."""
        obj: dict[str, Any] = {"seat": self.seat, "type": self.type.value}
        if self.card is not None:
            obj["card"] = self.card.text
        if self.locked is not None:
            obj["locked"] = self.locked
        if self.suit is not None:
            obj["suit"] = SUITS[self.suit] if self.suit != BAD_SUIT else "?"

        return obj

    @staticmethod
    def from_json(obj: object) -> Action:
        """Read an R10 action object; unknown extra keys are ignored (R11.4)."""
        if not isinstance(obj, dict):
            raise NotationError("an action must be a JSON object", code=_BAD)
        seat = obj.get("seat")
        if not is_seat(seat):
            raise NotationError(f"action seat {seat!r} is not 0..3", code=_BAD)
        type_text = obj.get("type")
        atype = _TYPES.get(type_text) if isinstance(type_text, str) else None
        if atype is None:
            raise NotationError(f"unknown action type {type_text!r}", code=_BAD)
        card = None
        locked = None
        suit = None
        if atype is ActionType.PLAY:
            if "card" not in obj:
                raise NotationError("a play action needs a 'card'", code=_BAD)
            card = Card.parse(obj["card"])
        if atype in (ActionType.DOUBLE, ActionType.FOUR) and obj.get("locked") is not None:
            value = obj["locked"]
            if not isinstance(value, bool):
                raise NotationError(f"'locked' must be true or false, not {value!r}", code=_BAD)
            locked = value
        if atype is ActionType.HOKUM and obj.get("suit") is not None:
            # Only a round-two confirmation reads the suit (R3.2); elsewhere it is ignored
            # (R11.4), so a malformed one is kept as BAD_SUIT and judged when applied.
            try:
                suit = parse_suit(obj["suit"])
            except NotationError:
                suit = BAD_SUIT
        return Action(seat, atype, card, locked, suit)

    def __str__(self) -> str:
        parts = [f"seat {self.seat}", self.type.value]
        if self.card is not None:
            parts.append(self.card.text)
        if self.locked is not None:
            parts.append("locked" if self.locked else "open")
        if self.suit is not None:
            parts.append(SUITS[self.suit] if self.suit != BAD_SUIT else "?")
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Action.from_json({self.to_json()!r})"

    # Convenience constructors -------------------------------------------------
    @staticmethod
    def pass_(seat: Seat) -> Action:
        return Action(seat, ActionType.PASS)

    @staticmethod
    def play(seat: Seat, card: Card | str) -> Action:
        return Action(seat, ActionType.PLAY, Card.parse(card) if isinstance(card, str) else card)


PLAY_ACTIONS: Final = tuple(
    tuple(Action(seat, ActionType.PLAY, ALL_CARDS[c]) for c in range(32)) for seat in range(4)
)
"""``PLAY_ACTIONS[seat][card_index]``: the interned play actions."""


SIMPLE_ACTIONS: Final[tuple[dict[ActionType, Action], ...]] = tuple(
    {t: Action(seat, t) for t in ActionType if t is not ActionType.PLAY} for seat in range(4)
)
"""``SIMPLE_ACTIONS[seat][type]``: interned actions with no card, lock or suit."""

DECLARE_ACTIONS: Final = tuple(Action(seat, ActionType.DECLARE) for seat in range(4))
"""``DECLARE_ACTIONS[seat]``: the interned declare actions."""

SAWA_ACTIONS: Final = tuple(Action(seat, ActionType.SAWA) for seat in range(4))
"""``SAWA_ACTIONS[seat]``: the interned Sawa claims (R12, R10 ``{"seat": s, "type": "sawa"}``)."""


def _suit_byte_tables() -> tuple[tuple[tuple[tuple[Action, ...], ...], ...], ...]:
    tables = []
    for seat in range(4):
        per_suit = []
        for suit in range(4):
            per_suit.append(
                tuple(
                    tuple(PLAY_ACTIONS[seat][suit * 8 + r] for r in range(8) if byte >> r & 1)
                    for byte in range(256)
                )
            )
        tables.append(tuple(per_suit))
    return tuple(tables)


PLAYS_BY_SUIT_BYTE: Final = _suit_byte_tables()
"""``PLAYS_BY_SUIT_BYTE[seat][suit][byte]``: play actions for the cards of one suit."""
