"""Button custom_ids: compact, ≤ 100 characters, and parsed back exactly.

An action button's id is ``bl:{table}:{seat}:{hand}:{index}:{code}``:

- ``table``: the table id, ``[0-9A-Za-z_-]{1,32}`` (a channel snowflake fits);
- ``seat``: 0..3, the seat whose hand the button belongs to;
- ``hand``, ``index``: the version — the hand's number in the match (0-based)
  and how many actions that hand had when the view was drawn. The table
  service refuses a press whose version is not the current one (a stale
  button) and a duplicate press (same version twice) is applied once;
- ``code``: the action: ``p`` pass, ``h`` Hokum, ``hS``/``hH``/``hD``/``hC``
  Hokum naming a suit (R3.2), ``s`` Sun, ``a`` Ashkal, ``k`` Kawesh, ``d`` Sun
  double, ``dL``/``dO`` Hokum double locked/open, ``t`` Triple,
  ``fL``/``fO`` Four locked/open, ``g`` Gahwa, ``x`` declare projects,
  ``c`` + card (``cQH``) play a card, ``w`` claim Sawa (R12).

A table button (on the channel message) is ``bl:{table}:{kind}`` with kind
``mine`` ("My hand").

A result button ("Details" on a finished hand's table message)
is ``bl:{table}:result:{hand}`` with the hand's 0-based number (0..999).

A review button is ``bl:{table}:review:{hand}:{step}:{seat}``: the hand (0..999), the step shown
(0 the overview with the picture, 1 the bidding, 2..9 the tricks 1..8) and the seat in focus
(0..3, or 4 for everyone). "Review" on a finished hand's message is step 0, everyone.

A lobby button is ``bl:{table}:lobby:{op}`` or ``bl:{table}:lobby:{op}:{arg}``:
``join`` (``arg`` ``t1``/``t2`` a team, ``s1``–``s4`` a seat, none: the first free seat),
``leave``, ``bots`` (``arg`` the level) and ``start``. Every number is range-checked.

The cogs make these ``discord.ui.DynamicItem``s with templates
:data:`ACTION_ID_TEMPLATE` and :data:`TABLE_ID_TEMPLATE` (matched with
``fullmatch``, as discord.py does).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from ..engine.actions import Action, ActionType
from ..engine.cards import SUITS, Card
from ..engine.errors import NotationError
from ..engine.quick_init import quick_init

PREFIX: Final = "bl"
TABLE_ID_PATTERN: Final = r"[0-9A-Za-z_-]{1,32}"
ACTION_CODE_PATTERN: Final = r"p|h[SHDC]?|s|a|k|d[LO]?|t|f[LO]|g|x|w|c[789TJQKA][SHDC]"
ACTION_ID_TEMPLATE: Final = (
    rf"{PREFIX}:(?P<table>{TABLE_ID_PATTERN}):(?P<seat>[0-3]):(?P<hand>[0-9]{{1,5}}):"
    rf"(?P<index>[0-9]{{1,5}}):(?P<action>{ACTION_CODE_PATTERN})"
)
"""The DynamicItem template of an action button (named groups: table, seat, hand, index, action)."""
TABLE_BUTTONS: Final = ("mine", "open")  # "open": the table as a Discord Activity
TABLE_ID_TEMPLATE: Final = rf"{PREFIX}:(?P<table>{TABLE_ID_PATTERN}):(?P<kind>{'|'.join(TABLE_BUTTONS)})"
"""The DynamicItem template of a table button (named groups: table, kind)."""
RESULT_ID_TEMPLATE: Final = rf"{PREFIX}:(?P<table>{TABLE_ID_PATTERN}):result:(?P<hand>[0-9]{{1,3}})"
"""The DynamicItem template of a result button (named groups: table, hand)."""
_RESULT_RE: Final = re.compile(RESULT_ID_TEMPLATE)
REVIEW_ID_TEMPLATE: Final = (
    rf"{PREFIX}:(?P<table>{TABLE_ID_PATTERN}):review:(?P<hand>[0-9]{{1,3}}):(?P<step>[0-9]):(?P<seat>[0-4])"
)
"""The DynamicItem template of a review button (named groups: table, hand, step, seat)."""
_REVIEW_RE: Final = re.compile(REVIEW_ID_TEMPLATE)
EVERYONE: Final = 4
"""The review's seat "everyone" (no seat in focus)."""
REVIEW_STEPS: Final = 10
"""The overview, the bidding and at most eight tricks (R5)."""
LOBBY_OPS: Final = ("join", "leave", "bots", "start", "quit")
"""``quit``: the last person at a table leaves during its match after being told that this closes it."""
BOT_LEVEL_NAMES: Final = ("easy", "normal", "hard")
"""The bot levels a lobby button may name (``baloot.tables.BOT_LEVELS``; a test checks they agree)."""
LOBBY_ID_TEMPLATE: Final = (
    rf"{PREFIX}:(?P<table>{TABLE_ID_PATTERN}):lobby:(?P<op>{'|'.join(LOBBY_OPS)})(?::(?P<arg>[a-z0-9]{{1,8}}))?"
)
"""The DynamicItem template of a lobby button (named groups: table, op, arg)."""
_LOBBY_RE: Final = re.compile(LOBBY_ID_TEMPLATE)
QUICK_OPS: Final = ("join", "leave", "bots")
"""Quick-match buttons: ``join`` (on the lobby and the help), ``leave`` the queue, play now with ``bots``."""
QUICK_ID_TEMPLATE: Final = rf"{PREFIX}:quick:(?P<op>{'|'.join(QUICK_OPS)})"
"""The DynamicItem template of a quick-match button (named group: op); the presser is the player."""


def encode_quick_id(op: str) -> str:
    if op not in QUICK_OPS:
        raise ValueError(f"no quick-match button {op!r}")
    return f"{PREFIX}:quick:{op}"


INVITE_OPS: Final = ("accept", "decline")
"""A quick-match partner invitation's buttons, in the invited partner's DMs (cogs/quick.py)."""
INVITE_ID_TEMPLATE: Final = (
    rf"{PREFIX}:quick:(?P<op>{'|'.join(INVITE_OPS)}):(?P<asker>[0-9]{{1,20}}):(?P<guild>[0-9]{{1,20}})"
    rf":(?P<message>[0-9]{{1,20}}):(?P<until>[0-9]{{1,12}}):(?P<lang>[a-z]{{2}}|-)"
)
"""The DynamicItem template of an invitation button: who asked, from which server, the asker's waiting DM
message, the invitation's end (Unix seconds) and the language option (``-``: none). The invitation is in its
custom id, so any process answers a press (a DM's press reaches shard 0's process), also after a restart."""


def encode_invite_id(op: str, asker: int, guild: int, message: int, until: int, language: str | None) -> str:
    if op not in INVITE_OPS:
        raise ValueError(f"no invitation button {op!r}")
    return f"{PREFIX}:quick:{op}:{asker}:{guild}:{message}:{until}:{language or '-'}"
_ACTION_RE: Final = re.compile(ACTION_ID_TEMPLATE)
_TABLE_RE: Final = re.compile(TABLE_ID_TEMPLATE)
_TABLE_ONLY_RE: Final = re.compile(TABLE_ID_PATTERN)
_MAX_VERSION: Final = 99_999

_SIMPLE: Final = {
    ActionType.PASS: "p",
    ActionType.SUN: "s",
    ActionType.ASHKAL: "a",
    ActionType.KAWESH: "k",
    ActionType.TRIPLE: "t",
    ActionType.GAHWA: "g",
    ActionType.DECLARE: "x",
    ActionType.SAWA: "w",  # R12
}
_SIMPLE_BACK: Final = {code: typ for typ, code in _SIMPLE.items()}


class CustomIdError(NotationError):
    """A custom_id that is not one of ours, or is malformed."""


@quick_init
@dataclass(frozen=True, slots=True)
class ActionId:
    """A decoded action button: which table, whose hand, which version, which action."""

    table_id: str
    seat: int
    hand_no: int
    index: int
    action: Action

    @property
    def version(self) -> tuple[int, int]:
        """(hand number, action index) the button was drawn at."""
        return (self.hand_no, self.index)


def action_code(action: Action) -> str:
    """The short code of an action (see the module docstring)."""
    typ = action.type
    simple = _SIMPLE.get(typ)
    if simple is not None:
        return simple
    if typ is ActionType.HOKUM:
        return "h" if action.suit is None else "h" + SUITS[action.suit]
    if typ is ActionType.PLAY:
        assert action.card is not None
        return play_code(action.card)
    lock = "" if action.locked is None else ("L" if action.locked else "O")
    if typ is ActionType.DOUBLE:
        return "d" + lock
    if lock == "":
        raise CustomIdError("a Four must be locked or open (R4)")
    return "f" + lock


def action_from_code(seat: int, code: str) -> Action:
    """The action of ``seat`` that ``code`` names; raises CustomIdError."""
    if not re.fullmatch(ACTION_CODE_PATTERN, code):
        raise CustomIdError(f"unknown action code {code!r}")
    simple = _SIMPLE_BACK.get(code)
    if simple is not None:
        return Action(seat, simple)
    head, rest = code[0], code[1:]
    if head == "h":
        return Action(seat, ActionType.HOKUM, suit=SUITS.index(rest) if rest else None)
    if head == "c":
        return Action(seat, ActionType.PLAY, Card.parse(rest))
    locked = None if not rest else rest == "L"
    return Action(seat, ActionType.DOUBLE if head == "d" else ActionType.FOUR, locked=locked)


def _check_table_id(table_id: str) -> None:
    if not isinstance(table_id, str) or not _TABLE_ONLY_RE.fullmatch(table_id):
        raise CustomIdError(f"table id {table_id!r} must be 1-32 characters of [0-9A-Za-z_-]")


def action_id_prefix(table_id: str, seat: int, version: tuple[int, int]) -> str:
    """Everything of ``seat``'s action button ids at ``version`` before the action's code, checked once.

    A private view draws about fifteen buttons: ``prefix + action_code(action)``
    (or ``prefix + play_code(card)``) for each is :func:`encode_action_id` without
    checking the table id and the version fifteen times.
    """
    _check_table_id(table_id)
    hand_no, index = version
    if not (0 <= hand_no <= _MAX_VERSION and 0 <= index <= _MAX_VERSION):
        raise CustomIdError(f"version {version!r} is out of range")
    if seat not in (0, 1, 2, 3):
        raise CustomIdError(f"seat {seat!r} is not 0-3")
    return f"{PREFIX}:{table_id}:{seat}:{hand_no}:{index}:"


def play_code(card: Card) -> str:
    """The code of playing ``card`` (``cQH``): :func:`action_code` of that play."""
    return "c" + card.text


def encode_action_id(table_id: str, seat: int, version: tuple[int, int], action: Action) -> str:
    """The custom_id of ``seat``'s button for ``action`` at ``version`` (hand_no, action index)."""
    prefix = action_id_prefix(table_id, seat, version)
    if action.seat != seat:
        raise CustomIdError(f"action {action} is not seat {seat}'s")
    return prefix + action_code(action)


def decode_action_id(custom_id: str) -> ActionId:
    """Parse an action button's custom_id; raises :class:`CustomIdError` if malformed."""
    if not isinstance(custom_id, str):
        raise CustomIdError(f"{custom_id!r} is not a custom_id")
    match = _ACTION_RE.fullmatch(custom_id)
    if match is None:
        raise CustomIdError(f"{custom_id[:120]!r} is not a Baloot action button id")
    seat = int(match["seat"])
    return ActionId(
        table_id=match["table"],
        seat=seat,
        hand_no=int(match["hand"]),
        index=int(match["index"]),
        action=action_from_code(seat, match["action"]),
    )


def encode_table_id(table_id: str, kind: str = "mine") -> str:
    """The custom_id of a button on the table message (``mine``: "My hand", ``open``: "Open table")."""
    _check_table_id(table_id)
    if kind not in TABLE_BUTTONS:
        raise CustomIdError(f"unknown table button {kind!r}")
    return f"{PREFIX}:{table_id}:{kind}"


def decode_table_id(custom_id: str) -> tuple[str, str]:
    """(table id, kind) of a table button; raises :class:`CustomIdError` if malformed."""
    match = _TABLE_RE.fullmatch(custom_id) if isinstance(custom_id, str) else None
    if match is None:
        raise CustomIdError(f"{str(custom_id)[:120]!r} is not a Baloot table button id")
    return match["table"], match["kind"]


@quick_init
@dataclass(frozen=True, slots=True)
class LobbyId:
    """A lobby button: ``op`` with its seat (0–3), team (0–1) or bot level."""

    table_id: str
    op: str
    seat: int | None = None
    team: int | None = None
    level: str | None = None

    def encode(self) -> str:
        """The custom_id (see the module docstring)."""
        _check_table_id(self.table_id)
        if self.op not in LOBBY_OPS:
            raise CustomIdError(f"unknown lobby button {self.op!r}")
        arg = None
        if self.seat is not None:
            if not 0 <= self.seat <= 3:
                raise CustomIdError(f"seat {self.seat} out of range")
            arg = f"s{self.seat + 1}"
        elif self.team is not None:
            if self.team not in (0, 1):
                raise CustomIdError(f"team {self.team} out of range")
            arg = f"t{self.team + 1}"
        elif self.level is not None:
            if self.level not in BOT_LEVEL_NAMES:
                raise CustomIdError(f"unknown bot level {self.level!r}")
            arg = self.level
        return f"{PREFIX}:{self.table_id}:lobby:{self.op}" + ("" if arg is None else f":{arg}")


def decode_lobby_id(custom_id: str) -> LobbyId:
    """The lobby button of ``custom_id``; :class:`CustomIdError` if malformed or out of range."""
    match = _LOBBY_RE.fullmatch(custom_id) if isinstance(custom_id, str) else None
    if match is None:
        raise CustomIdError(f"{str(custom_id)[:120]!r} is not a Baloot lobby button id")
    op, arg = match["op"], match["arg"]
    if arg is None:
        return LobbyId(match["table"], op)
    if op == "join" and arg[0] in "st" and arg[1:].isdigit():
        n = int(arg[1:])
        if arg[0] == "s" and 1 <= n <= 4:
            return LobbyId(match["table"], op, seat=n - 1)
        if arg[0] == "t" and 1 <= n <= 2:
            return LobbyId(match["table"], op, team=n - 1)
    if op == "bots" and arg in BOT_LEVEL_NAMES:
        return LobbyId(match["table"], op, level=arg)
    raise CustomIdError(f"{custom_id[:120]!r}: {arg!r} is not a valid choice for {op}")


def encode_result_id(table_id: str, hand: int) -> str:
    """The custom_id of a finished hand's "Details" button (hand ``hand``, 0-based)."""
    _check_table_id(table_id)
    if not 0 <= hand <= 999:
        raise CustomIdError(f"hand {hand} out of range")
    return f"{PREFIX}:{table_id}:result:{hand}"


def decode_result_id(custom_id: str) -> tuple[str, int]:
    """(table id, hand) of a result button; raises :class:`CustomIdError` if malformed."""
    match = _RESULT_RE.fullmatch(custom_id) if isinstance(custom_id, str) else None
    if match is None:
        raise CustomIdError(f"{str(custom_id)[:120]!r} is not a Baloot result button id")
    return match["table"], int(match["hand"])


@quick_init
@dataclass(frozen=True, slots=True)
class ReviewId:
    """A review button: hand ``hand`` (0-based) of a table, the step shown and the seat in focus
    (:data:`EVERYONE` for none)."""

    table_id: str
    hand: int
    step: int = 0
    seat: int = EVERYONE

    def encode(self) -> str:
        """The custom_id (see the module docstring)."""
        _check_table_id(self.table_id)
        if not 0 <= self.hand <= 999 or not 0 <= self.step < REVIEW_STEPS or not 0 <= self.seat <= EVERYONE:
            raise CustomIdError(f"review button out of range: {self.hand}, {self.step}, {self.seat}")
        return f"{PREFIX}:{self.table_id}:review:{self.hand}:{self.step}:{self.seat}"


def decode_review_id(custom_id: str) -> ReviewId:
    """The review button of ``custom_id``; :class:`CustomIdError` if malformed."""
    match = _REVIEW_RE.fullmatch(custom_id) if isinstance(custom_id, str) else None
    if match is None:
        raise CustomIdError(f"{str(custom_id)[:120]!r} is not a Baloot review button id")
    return ReviewId(match["table"], int(match["hand"]), int(match["step"]), int(match["seat"]))
