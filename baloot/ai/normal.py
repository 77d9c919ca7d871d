"""The normal level: a rule-based player.

Bids by hand evaluation (R3, incl. Ashkal, round two, confirm or switch),
doubles on strong defence (R4), always declares its projects (R6.2), and plays
by :class:`~baloot.ai.card_play.CardChooser`: tracks played cards and shown
voids, leads from strength, draws trumps as declarer, gives points to a
partner who wins and keeps them from opponents (R5).
"""

from __future__ import annotations

import random

from ..engine.actions import PLAY_ACTIONS, Action
from ..engine.view import SeatView
from .bidding_policy import NORMAL_STYLE, BiddingStyle
from .card_play import CardChooser
from .player import rule_based_action
from .view_position import position_from_view


class NormalPlayer:
    """Rule-based player; deterministic (``rng`` is unused)."""

    name = "normal"

    def __init__(self, style: BiddingStyle = NORMAL_STYLE) -> None:
        self.style = style
        self.cards = CardChooser()

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        action = rule_based_action(view, self.style)
        if action is not None:
            return action
        card = self.cards.choose(position_from_view(view))
        return PLAY_ACTIONS[view.seat][card]
