"""Render a whole :class:`Match` the way the bot does: from the public view and the match summary."""

from __future__ import annotations

from baloot.engine.match import Match
from baloot.engine.summary import summarize_match
from baloot.engine.view import public_view
from baloot.render import Payload, RenderInfo, render_lobby, render_table


def table_payload(info: RenderInfo, match: Match, locale: str | None = None, index: int | None = None) -> Payload:
    """The channel message of hand ``index`` (default: the latest) of ``match``, or the lobby before a deal."""
    if not match.hands:
        return render_lobby(info, match.rules, locale)
    i = len(match.hands) - 1 if index is None else index
    hand = match.hands[i]
    return render_table(info, public_view(hand, hand.match_score), summarize_match(match), locale, index=i)
