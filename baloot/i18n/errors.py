"""Engine and table-service errors as catalog keys.

The engine (``baloot/hand.py``, ``bidding.py``, ``play.py``, ``match.py``)
raises :class:`~baloot.errors.BalootError` with English messages that name the
rule; players see the catalog text of the matching key instead. The table
service's errors (``baloot.tables.errors``) are known by class name
(:data:`SERVICE_CLASSES`); any exception may also carry a ``catalog_key``
attribute (one of :data:`SERVICE_ERRORS`) and an optional ``catalog_params``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from ..errors import BalootError, NotYourTurnError
from .catalog import has_key, t

_SUIT_LETTERS: Final = "SHDC"
_SUIT_WORDS: Final = ("spades", "hearts", "diamonds", "clubs")

# (pattern on the engine's message, catalog key). Order matters: first match wins.
ENGINE_MESSAGES: Final[tuple[tuple[re.Pattern[str], str], ...]] = tuple(
    (re.compile(pattern), key)
    for pattern, key in (
        (r"^This hand is already over", "error.hand_over"),
        (r"^This hand is over; the next hand", "error.hand_over"),
        (r"^The match is over", "error.match_over"),
        (r"^The current hand is not finished", "error.hand_not_finished"),
        (r"^It is seat \d's turn", "error.not_your_turn"),
        (r"^Confirming Hokum in round two must name", "error.confirm_needs_suit"),
        (r"^A Sun double cannot be locked", "error.sun_double_locked"),
        (r"^A Hokum \w+ must say locked or open", "error.lock_or_open"),
        (r"^You have no project to declare", "error.no_project"),
        (r"^You have already declared", "error.already_declared"),
        (r"^Only the winning project team's other player", "error.show_only_winning"),
        (r"^Projects are declared during the first trick", "error.declare_first_trick"),
        (r"^You may not \w+ while the cards are being played", "error.not_during_play"),
        (r"^Now a defender may Double", "error.doubling_defender"),
        (r"^Now the declarer may Triple", "error.doubling_triple"),
        (r"^Now the doubler may Four", "error.doubling_four"),
        (r"^Now the declarer may Gahwa", "error.doubling_gahwa"),
        (r"^Ashkal is not allowed when the up card is an Ace", "error.ashkal_ace"),
        (r"^Ashkal may only be bid in round one", "error.ashkal_round_one"),
        (r"^Ashkal may only be bid while nobody has bid", "error.ashkal_after_bid"),
        (r"^Ashkal may only be bid by the third or fourth", "error.ashkal_position"),
        (r"^Kawesh is not played at this table", "error.kawesh_off"),
        (r"^Kawesh may only be called in round one", "error.kawesh_stage"),
        (r"^Kawesh needs first five cards", "error.kawesh_cards"),
        (r"^Name a trump suit other than the up card's \((?P<suit>[SHDC])\)", "error.round_two_suit"),
        (r"^Once a bid stands you may only pass or bid Sun", "error.only_pass_or_sun"),
        (r"^During bidding you may now only: (?P<allowed>[a-z, ]+) \(", "error.bidding_only"),
        (r"^You do not hold that card", "error.not_your_card"),
        (r"^In a locked hand you may not lead a trump", "error.locked_lead"),
        (r"^You must follow suit: play a card of (?P<suitword>[a-z]+)", "error.follow_suit"),
        (r"^You must beat the winning trump", "error.beat_trump"),
        (r"^You must play a higher trump", "error.higher_trump"),
        (r"^You cannot follow suit, so you must play a trump \((?P<suit>[SHDC])\)", "error.must_trump"),
        # R12 Sawa (baloot/sawa.py, Hand._sawa_explain)
        (r"^Sawa is turned off at this table", "error.sawa_off"),
        (r"^Sawa is claimed instead of leading a trick", "error.sawa_mid_trick"),
        (r"^Sawa may be claimed only from the third trick", "error.sawa_early"),
        (r"^Sawa: trumps are still out and this hand is locked", "error.sawa_locked"),
        (r"^Sawa: (?P<count>\d) trump\(s\) are still out", "error.sawa_trumps"),
        (r"^Sawa: a card of (?P<suitword>[a-z]+) higher than", "error.sawa_higher"),
        (r"^Sawa is not possible now", "error.sawa_refused"),
    )
)

SERVICE_ERRORS: Final = (
    "error.no_table",
    "error.table_exists",
    "error.table_full",
    "error.seat_taken",
    "error.team_full",
    "error.already_seated",
    "error.not_seated",
    "error.not_your_turn",
    "error.not_your_hand",
    "error.stale_button",
    "error.not_allowed",
    "error.not_running",
    "error.already_running",
    "error.need_four",
    "error.table_finished",
    "error.bad_option",
    "error.busy",
    "error.internal",
)
"""Keys the table service may attach to its own exceptions (``exc.catalog_key``)."""

SERVICE_CLASSES: Final = {
    "NoTableHere": "error.no_table",
    "TableExists": "error.table_exists",
    "TableFull": "error.table_full",
    "SeatTaken": "error.seat_taken",
    "AlreadySeated": "error.already_seated",
    "NotSeated": "error.not_seated",
    "NotYourTurn": "error.not_your_turn",
    "StaleAction": "error.stale_button",
    "NotAllowed": "error.not_allowed",
    "TableNotRunning": "error.not_running",
    "BadOption": "error.bad_option",
}
"""``baloot.tables.errors`` classes by name (no import: the service depends on us, not we on it)."""

_BID_KEYS: Final = {"pass": "bid.pass", "hokum": "bid.hokum", "sun": "bid.sun", "ashkal": "bid.ashkal",
                    "kawesh": "bid.kawesh"}


def error_key(exc: BaseException) -> tuple[str, dict[str, str]]:
    """The catalog key and raw parameters for an error.

    Parameters are engine notation (a suit letter ``suit``, a comma-separated
    list of action types ``allowed``); :func:`error_text` localizes them.
    Unknown engine messages map to ``error.generic``, anything else that is not
    a game error to ``error.internal``.
    """
    key = getattr(exc, "catalog_key", None)
    if isinstance(key, str) and has_key(key):
        raw = getattr(exc, "catalog_params", None)
        params = {str(k): str(v) for k, v in raw.items()} if isinstance(raw, Mapping) else {}
        return key, params
    if not isinstance(exc, BalootError):
        return "error.internal", {}
    for cls in type(exc).__mro__:
        key = SERVICE_CLASSES.get(cls.__name__)
        if key is not None:
            return key, ({"detail": str(exc)} if key == "error.bad_option" else {})
    message = str(exc)
    for pattern, key in ENGINE_MESSAGES:
        match = pattern.match(message)
        if match:
            params = {k: v for k, v in match.groupdict().items() if v is not None}
            if "suitword" in params:
                params["suit"] = _SUIT_LETTERS[_SUIT_WORDS.index(params.pop("suitword"))]
            return key, params
    if isinstance(exc, NotYourTurnError):
        return "error.not_your_turn", {}
    return "error.generic", {}


def error_text(exc: BaseException, locale: str) -> str:
    """What a player sees for ``exc`` in ``locale`` (a short private message)."""
    key, params = error_key(exc)
    values: dict[str, str] = dict(params)
    if "suit" in params and params["suit"] in _SUIT_LETTERS:
        values["suit"] = t(f"suit.{params['suit']}", locale)
    if "allowed" in params:
        words = [t(_BID_KEYS[w.strip()], locale) for w in params["allowed"].split(",") if w.strip() in _BID_KEYS]
        values["allowed"] = t("list.sep", locale).join(words)
    try:
        return t(key, locale, **values)
    except KeyError:
        return t("error.generic", locale)
