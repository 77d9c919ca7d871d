"""Engine and table-service errors as catalog keys.

Every :class:`~baloot.engine.errors.BalootError` carries a stable
:class:`~baloot.engine.error_codes.ErrorCode` and parameters; :data:`CODE_KEYS` maps
each code to the catalog key a player reads, and :func:`error_text` fills it
with the parameters in the player's language (a suit by its name there). The
English message is never read here, so rewording it cannot change what a
player sees. An exception may instead name its key itself with a
``catalog_key`` attribute and optional ``catalog_params`` (the statistics
service and the Discord layer do).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ..engine.cards import SUITS
from ..engine.error_codes import PERMISSIONS, ErrorCode
from ..engine.errors import BalootError
from .catalog import has_key, resolve_locale, t
from .plural import count

E = ErrorCode

CODE_KEYS: Final[Mapping[ErrorCode, str]] = {
    E.GENERIC: "error.generic",
    # Notation is never typed by a player (buttons build the actions): the generic refusal.
    E.BAD_NOTATION: "error.generic",
    E.BAD_CARD: "error.generic",
    E.BAD_SUIT: "error.generic",
    E.BAD_SEAT: "error.generic",
    E.BAD_ACTION: "error.generic",
    E.BAD_DECK: "error.generic",
    E.BAD_RULES: "error.generic",
    E.HAND_OVER: "error.hand_over",
    E.MATCH_OVER: "error.match_over",
    E.HAND_NOT_FINISHED: "error.hand_not_finished",
    E.NOT_YOUR_TURN: "error.not_your_turn",
    E.CONFIRM_NEEDS_SUIT: "error.confirm_needs_suit",
    E.ASHKAL_ACE: "error.ashkal_ace",
    E.ASHKAL_ROUND_ONE: "error.ashkal_round_one",
    E.ASHKAL_AFTER_BID: "error.ashkal_after_bid",
    E.ASHKAL_POSITION: "error.ashkal_position",
    E.KAWESH_OFF: "error.kawesh_off",
    E.KAWESH_STAGE: "error.kawesh_stage",
    E.KAWESH_CARDS: "error.kawesh_cards",
    E.ROUND_TWO_SUIT: "error.round_two_suit",
    E.ONLY_PASS_OR_SUN: "error.only_pass_or_sun",
    E.BIDDING_ONLY: "error.bidding_only",
    E.SUN_DOUBLE_LOCKED: "error.sun_double_locked",
    E.LOCK_OR_OPEN: "error.lock_or_open",
    E.DOUBLING_DEFENDER: "error.doubling_defender",
    E.DOUBLING_TRIPLE: "error.doubling_triple",
    E.DOUBLING_FOUR: "error.doubling_four",
    E.DOUBLING_GAHWA: "error.doubling_gahwa",
    E.NO_PROJECT: "error.no_project",
    E.ALREADY_DECLARED: "error.already_declared",
    E.SHOW_ONLY_WINNING: "error.show_only_winning",
    E.DECLARE_FIRST_TRICK: "error.declare_first_trick",
    E.NOT_DURING_PLAY: "error.not_during_play",
    E.NOT_YOUR_CARD: "error.not_your_card",
    E.LOCKED_LEAD: "error.locked_lead",
    E.FOLLOW_SUIT: "error.follow_suit",
    E.BEAT_TRUMP: "error.beat_trump",
    E.HIGHER_TRUMP: "error.higher_trump",
    E.MUST_TRUMP: "error.must_trump",
    E.SAWA_OFF: "error.sawa_off",
    E.SAWA_MID_TRICK: "error.sawa_mid_trick",
    E.SAWA_EARLY: "error.sawa_early",
    E.SAWA_LOCKED: "error.sawa_locked",
    E.SAWA_TRUMPS: "error.sawa_trumps",
    E.SAWA_HIGHER: "error.sawa_higher",
    E.SAWA_REFUSED: "error.sawa_refused",
    E.RECORD_JSON: "error.bad_record",
    E.RECORD_NOT_OBJECT: "error.bad_record",
    E.RECORD_FORMAT: "error.bad_record",
    E.RECORD_RULES: "error.bad_record",
    E.RECORD_HANDS: "error.bad_record",
    E.RECORD_HAND: "error.bad_record",
    E.RECORD_AFTER_WIN: "error.bad_record",
    E.RECORD_UNFINISHED: "error.bad_record",
    E.RECORD_DEALER: "error.bad_record",
    E.RECORD_DECK: "error.bad_record",
    E.RECORD_ACTIONS: "error.bad_record",
    E.RECORD_AFTER_HAND: "error.bad_record",
    E.NO_TABLE: "error.no_table",
    E.UNKNOWN_TABLE: "error.unknown_table",
    E.TABLE_EXISTS: "error.table_exists",
    E.TABLE_FULL: "error.table_full",
    E.TEAM_FULL: "error.team_full",
    E.SEAT_TAKEN: "error.seat_taken",
    E.SEAT_HELD: "error.seat_held",
    E.ALREADY_SEATED: "error.already_seated",
    E.NOT_SEATED: "error.not_seated",
    E.NOT_YOUR_HAND: "error.not_your_hand",
    E.STALE_BUTTON: "error.stale_button",
    E.NOT_ALLOWED: "error.not_allowed",
    E.SEATED_ONLY: "error.seated_only",
    E.CREATOR_OR_ADMIN: "error.creator_or_admin",
    E.ADMIN_ONLY: "error.admin_only",
    E.END_BY_VOTE: "error.end_by_vote",
    E.ALREADY_VOTED: "error.already_voted",
    E.NOT_RUNNING: "error.not_running",
    E.ALREADY_RUNNING: "error.already_running",
    E.NEED_FOUR: "error.need_four",
    E.TABLE_FINISHED: "error.table_finished",
    E.TABLE_CLOSED: "error.table_closed",
    E.NO_DETAILS: "error.no_details",
    E.FOREIGN_TABLE: "error.foreign_table",
    E.BAD_OPTION: "error.bad_option",
    E.TABLE_ELSEWHERE: "error.table_elsewhere",
    E.TABLE_RESTARTING: "error.table_restarting",
    E.LAST_PLAYER: "error.last_player",
    E.REVIEW_IN_PROGRESS: "error.review_in_progress",
    E.REVIEW_NOT_AT_TABLE: "error.review_not_at_table",
    E.REVIEW_NOT_A_PLAYER: "error.review_not_a_player",
    E.REVIEW_NO_HAND: "error.review_no_hand",
    E.REVIEW_NOTHING: "error.review_nothing",
    E.QUEUED_ALREADY: "error.queued_already",
    E.NOT_QUEUED: "error.not_queued",
    E.BOTS_NOT_YET: "error.bots_not_yet",
    E.QUICK_ONLY: "error.quick_only",
    E.DMS_CLOSED: "error.dms_closed",
    E.PARTNER_INVALID: "error.partner_invalid",
    E.PARTNER_BUSY: "error.partner_busy",
    E.PARTNER_DMS_CLOSED: "error.partner_dms_closed",
    E.INVITE_EXPIRED: "error.invite_expired",
    E.BOT_PERMISSIONS: "error.bot_permissions",
    E.THREAD_FAILED: "error.thread_failed",
}
"""The catalog key of every error code (a test checks it is total and both catalogs hold each)."""

SERVICE_ERRORS: Final = (
    "error.no_table",
    "error.unknown_table",
    "error.table_exists",
    "error.table_full",
    "error.seat_taken",
    "error.seat_held",
    "error.team_full",
    "error.already_seated",
    "error.not_seated",
    "error.not_your_turn",
    "error.not_your_hand",
    "error.stale_button",
    "error.not_allowed",
    "error.seated_only",
    "error.creator_or_admin",
    "error.admin_only",
    "error.end_by_vote",
    "error.already_voted",
    "error.not_running",
    "error.already_running",
    "error.need_four",
    "error.table_finished",
    "error.table_closed",
    "error.foreign_table",
    "error.bad_option",
    "error.table_elsewhere",
    "error.table_restarting",
    "error.review_in_progress",
    "error.review_not_at_table",
    "error.review_not_a_player",
    "error.review_no_hand",
    "error.review_nothing",
    "error.queued_already",
    "error.not_queued",
    "error.quick_only",
    "error.busy",
    "error.internal",
)
"""Keys of the table service's refusals and of the Discord layer's own (busy, internal)."""

_BID_KEYS: Final = {"pass": "bid.pass", "hokum": "bid.hokum", "sun": "bid.sun", "ashkal": "bid.ashkal",
                    "kawesh": "bid.kawesh"}


def _raw(name: str, value: object) -> str:
    """A parameter in engine notation: a suit index becomes its letter (``S H D C``)."""
    if name == "suit" and isinstance(value, int) and 0 <= value < 4:
        return SUITS[value]
    return str(value)


def error_key(exc: BaseException) -> tuple[str, dict[str, str]]:
    """The catalog key and raw parameters for an error.

    Parameters are engine notation (a suit letter ``suit``, a comma-separated
    list of action types ``allowed``); :func:`error_text` localizes them.
    A code with no key maps to ``error.generic``, anything that is not a game
    error to ``error.internal``.
    """
    key = getattr(exc, "catalog_key", None)
    if isinstance(key, str) and has_key(key):
        raw = getattr(exc, "catalog_params", None)
        params = {str(k): str(v) for k, v in raw.items()} if isinstance(raw, Mapping) else {}
        return key, params
    if not isinstance(exc, BalootError):
        return "error.internal", {}
    key = CODE_KEYS.get(exc.code, "error.generic")
    return key, {name: _raw(name, value) for name, value in exc.params.items()}


def error_text(exc: BaseException, locale: str) -> str:
    """What a player sees for ``exc`` in ``locale`` (a short private message)."""
    key, params = error_key(exc)
    values: dict[str, str] = dict(params)
    if params.get("suit", "") in tuple(SUITS):
        values["suit"] = t(f"suit.{params['suit']}", locale)
    if "allowed" in params:
        words = [t(_BID_KEYS[w.strip()], locale) for w in params["allowed"].split(",") if w.strip() in _BID_KEYS]
        values["allowed"] = t("list.sep", locale).join(words)
    if isinstance(exc, BalootError) and exc.code is ErrorCode.BAD_OPTION and "detail" in params \
            and resolve_locale(locale) != "en":
        # The detail is the table service's English free text: another language gets its own words.
        values["detail"] = t("error.bad_option.detail", locale)
    if key == "error.sawa_trumps" and params.get("count", "").isdigit():  # "1 trump", "ورقتا حكم" (R12)
        values["count"] = count("trumps", int(params["count"]), resolve_locale(locale))
    if "missing" in params:
        names = [t(f"perm.{w.strip()}", locale) for w in params["missing"].split(",") if w.strip() in PERMISSIONS]
        values["missing"] = t("list.sep", locale).join(names)
    try:
        return t(key, locale, **values)
    except KeyError:
        return t("error.generic", locale)
