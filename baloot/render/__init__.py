"""Everything the bot shows, as plain dicts shaped like Discord's JSON (no discord import).

docs/architecture.md "Rendering is separate": the cogs turn these payloads into
discord objects. Every payload has ``content``, ``embeds`` (embed dicts),
``components`` (action rows of buttons) and ``allowed_mentions``, and stays
within Discord's limits (:func:`check_limits`).

- :func:`render_table` — the channel message of a hand (and its end, and the match's end);
- :func:`render_lobby` — the table before the match starts;
- :func:`render_hand` — a seat's private view with its action buttons;
- :func:`render_rules`, :func:`render_score_sheet`, :func:`render_notice`,
  :func:`render_text`, :func:`render_error` — short messages;
- :mod:`.custom_ids` — button ids and their DynamicItem templates;
- :func:`table_info_from` — a :class:`RenderInfo` from the table service's snapshot.
"""

from __future__ import annotations

from .adapt import table_info_from
from .custom_ids import (
    ACTION_ID_TEMPLATE,
    LOBBY_ID_TEMPLATE,
    RESULT_ID_TEMPLATE,
    REVIEW_ID_TEMPLATE,
    TABLE_ID_TEMPLATE,
    ActionId,
    CustomIdError,
    LobbyId,
    ReviewId,
    decode_action_id,
    decode_lobby_id,
    decode_result_id,
    decode_review_id,
    decode_table_id,
    encode_action_id,
    encode_table_id,
)
from .hand_view import render_hand, render_plays_elsewhere
from .limits import LimitError, check_limits, limit_problems
from .messages import render_error, render_notice, render_rules, render_score_sheet, render_text
from .model import Notice, Payload, RenderInfo
from .table import render_lobby, render_result, render_table

__all__ = [
    "ACTION_ID_TEMPLATE",
    "LOBBY_ID_TEMPLATE",
    "RESULT_ID_TEMPLATE",
    "REVIEW_ID_TEMPLATE",
    "TABLE_ID_TEMPLATE",
    "ActionId",
    "CustomIdError",
    "LimitError",
    "LobbyId",
    "Notice",
    "Payload",
    "RenderInfo",
    "ReviewId",
    "check_limits",
    "decode_action_id",
    "decode_lobby_id",
    "decode_result_id",
    "decode_review_id",
    "decode_table_id",
    "encode_action_id",
    "encode_table_id",
    "limit_problems",
    "render_error",
    "render_hand",
    "render_lobby",
    "render_notice",
    "render_plays_elsewhere",
    "render_result",
    "render_rules",
    "render_score_sheet",
    "render_table",
    "render_text",
    "table_info_from",
]
