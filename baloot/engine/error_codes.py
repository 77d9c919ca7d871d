"""The stable codes that every engine and table-service error carries.

An error's English message is for logs, records and the R10 ``replay`` error
object; what a player reads is chosen by its :class:`ErrorCode` and its
parameters (``baloot.i18n.errors`` maps each code to a catalog key). Rewording
a message therefore cannot change another language. A code's value never
changes once released: add a new code rather than reuse one.

This module imports nothing, so the engine, the table service and the i18n
layer can all use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum, unique
from typing import Final


@unique
class ErrorCode(StrEnum):
    """Why the engine or the table service refused something."""

    # -- anything not more specific -------------------------------------------------------
    GENERIC = "generic"

    # -- notation (R10): text or JSON that is not a card, suit, seat, action, deck or rules --
    BAD_NOTATION = "bad_notation"
    BAD_CARD = "bad_card"
    BAD_SUIT = "bad_suit"
    BAD_SEAT = "bad_seat"
    BAD_ACTION = "bad_action"
    BAD_DECK = "bad_deck"
    BAD_RULES = "bad_rules"

    # -- the hand and the match (R8, R10, R11.5) ------------------------------------------
    HAND_OVER = "hand_over"
    MATCH_OVER = "match_over"
    HAND_NOT_FINISHED = "hand_not_finished"
    NOT_YOUR_TURN = "not_your_turn"

    # -- bidding (R3, R9) -----------------------------------------------------------------
    CONFIRM_NEEDS_SUIT = "confirm_needs_suit"
    ASHKAL_ACE = "ashkal_ace"
    ASHKAL_ROUND_ONE = "ashkal_round_one"
    ASHKAL_AFTER_BID = "ashkal_after_bid"
    ASHKAL_POSITION = "ashkal_position"
    KAWESH_OFF = "kawesh_off"
    KAWESH_STAGE = "kawesh_stage"
    KAWESH_CARDS = "kawesh_cards"
    ROUND_TWO_SUIT = "round_two_suit"
    ONLY_PASS_OR_SUN = "only_pass_or_sun"
    BIDDING_ONLY = "bidding_only"

    # -- doubling (R4) --------------------------------------------------------------------
    SUN_DOUBLE_LOCKED = "sun_double_locked"
    LOCK_OR_OPEN = "lock_or_open"
    DOUBLING_DEFENDER = "doubling_defender"
    DOUBLING_TRIPLE = "doubling_triple"
    DOUBLING_FOUR = "doubling_four"
    DOUBLING_GAHWA = "doubling_gahwa"

    # -- projects (R6.2, R11.3) -----------------------------------------------------------
    NO_PROJECT = "no_project"
    ALREADY_DECLARED = "already_declared"
    SHOW_ONLY_WINNING = "show_only_winning"
    DECLARE_FIRST_TRICK = "declare_first_trick"

    # -- card play (R5) -------------------------------------------------------------------
    NOT_DURING_PLAY = "not_during_play"
    NOT_YOUR_CARD = "not_your_card"
    LOCKED_LEAD = "locked_lead"
    FOLLOW_SUIT = "follow_suit"
    BEAT_TRUMP = "beat_trump"
    HIGHER_TRUMP = "higher_trump"
    MUST_TRUMP = "must_trump"

    # -- Sawa (R12) -------------------------------------------------------------------------
    SAWA_OFF = "sawa_off"
    SAWA_MID_TRICK = "sawa_mid_trick"
    SAWA_EARLY = "sawa_early"
    SAWA_LOCKED = "sawa_locked"
    SAWA_TRUMPS = "sawa_trumps"
    SAWA_HIGHER = "sawa_higher"
    SAWA_REFUSED = "sawa_refused"

    # -- game records (R10) ---------------------------------------------------------------
    RECORD_JSON = "record_json"
    RECORD_NOT_OBJECT = "record_not_object"
    RECORD_FORMAT = "record_format"
    RECORD_RULES = "record_rules"
    RECORD_HANDS = "record_hands"
    RECORD_HAND = "record_hand"
    RECORD_AFTER_WIN = "record_after_win"
    RECORD_UNFINISHED = "record_unfinished"
    RECORD_DEALER = "record_dealer"
    RECORD_DECK = "record_deck"
    RECORD_ACTIONS = "record_actions"
    RECORD_AFTER_HAND = "record_after_hand"

    # -- the table service (baloot/tables) ------------------------------------------------
    NO_TABLE = "no_table"
    UNKNOWN_TABLE = "unknown_table"  # a table id (from a button) that no table ever had
    TABLE_EXISTS = "table_exists"
    TABLE_FULL = "table_full"
    TEAM_FULL = "team_full"
    SEAT_TAKEN = "seat_taken"
    SEAT_HELD = "seat_held"  # left during this hand: kept for its person until the hand ends
    ALREADY_SEATED = "already_seated"
    NOT_SEATED = "not_seated"
    NOT_YOUR_HAND = "not_your_hand"
    STALE_BUTTON = "stale_button"
    NOT_ALLOWED = "not_allowed"
    SEATED_ONLY = "seated_only"
    CREATOR_OR_ADMIN = "creator_or_admin"
    ADMIN_ONLY = "admin_only"
    END_BY_VOTE = "end_by_vote"
    ALREADY_VOTED = "already_voted"
    NOT_RUNNING = "not_running"
    ALREADY_RUNNING = "already_running"
    NEED_FOUR = "need_four"
    TABLE_FINISHED = "table_finished"
    TABLE_CLOSED = "table_closed"  # closed before its match ended (ended by a vote, an admin, the last leaving)
    NO_DETAILS = "no_details"  # "Details" of a hand that was not scored (yet)
    FOREIGN_TABLE = "foreign_table"  # a button of another server's table
    BAD_OPTION = "bad_option"
    TABLE_ELSEWHERE = "table_elsewhere"
    TABLE_RESTARTING = "table_restarting"
    LAST_PLAYER = "last_player"
    REVIEW_IN_PROGRESS = "review_in_progress"  # the hand is still being played: nothing of it is shown
    REVIEW_NOT_AT_TABLE = "review_not_at_table"  # a hand of a running match, asked by someone not at the table
    REVIEW_NOT_A_PLAYER = "review_not_a_player"  # a quick-match hand, or one asked in DMs, by someone not at the table
    REVIEW_NO_HAND = "review_no_hand"  # no such match in this server, or no such hand in it
    REVIEW_NOTHING = "review_nothing"  # a hand thrown in (R3.2) or annulled (R9): no decision to judge
    QUEUED_ALREADY = "queued_already"  # quick match: already waiting in the queue
    NOT_QUEUED = "not_queued"  # quick match: not (or no longer) in the queue
    BOTS_NOT_YET = "bots_not_yet"  # quick match: "Play now with bots" before the documented wait
    QUICK_ONLY = "quick_only"  # quick match: a report at a table that is not a quick match

    # -- the Discord layer (cogs) ----------------------------------------------------------
    BOT_PERMISSIONS = "bot_permissions"
    THREAD_FAILED = "thread_failed"
    DMS_CLOSED = "dms_closed"  # quick match: the bot cannot send the player direct messages
    PARTNER_INVALID = "partner_invalid"  # quick match: the partner named is a bot or the asker themself
    PARTNER_BUSY = "partner_busy"  # quick match: the partner named is queued or seated already
    PARTNER_DMS_CLOSED = "partner_dms_closed"  # quick match: the partner cannot be sent the invitation
    INVITE_EXPIRED = "invite_expired"  # quick match: an invitation pressed after its time (or answered)


ErrorParams = Mapping[str, str | int]
"""An error's parameters: a suit is its index 0..3 (``S H D C``), a seat 0..3."""

CODE_PARAMS: Final[Mapping[ErrorCode, frozenset[str]]] = {
    ErrorCode.NOT_YOUR_TURN: frozenset({"seat"}),
    ErrorCode.ROUND_TWO_SUIT: frozenset({"suit"}),
    ErrorCode.BIDDING_ONLY: frozenset({"allowed"}),
    ErrorCode.LOCK_OR_OPEN: frozenset({"action"}),
    ErrorCode.NOT_DURING_PLAY: frozenset({"action"}),
    ErrorCode.FOLLOW_SUIT: frozenset({"suit"}),
    ErrorCode.MUST_TRUMP: frozenset({"suit"}),
    ErrorCode.SAWA_TRUMPS: frozenset({"count"}),
    ErrorCode.SAWA_HIGHER: frozenset({"suit"}),
    ErrorCode.NEED_FOUR: frozenset({"seated"}),
    ErrorCode.BAD_OPTION: frozenset({"detail"}),
    ErrorCode.BOT_PERMISSIONS: frozenset({"missing"}),
    ErrorCode.BOTS_NOT_YET: frozenset({"seconds"}),
    ErrorCode.NO_DETAILS: frozenset({"hand"}),
}
"""The parameters a code carries (none when absent): ``suit`` a suit index,
``seat`` the seat to move, ``count`` a number of cards, ``allowed`` comma-separated action types (R10
names), ``action`` an action type, ``seated`` a count, ``detail`` free text, ``missing`` comma-separated
permission names (discord.py's, e.g. ``embed_links,attach_files``; see :data:`PERMISSIONS`), ``seconds`` a wait,
``hand`` a hand's number as players count them (from 1)."""

PERMISSIONS: Final = (
    "view_channel", "send_messages", "send_messages_in_threads", "create_public_threads", "embed_links", "attach_files",
)
"""The channel permissions the bot checks before it opens a table there, in
the order they are named; each has a catalog name ``perm.<name>``."""
