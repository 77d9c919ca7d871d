"""The normal level: a rule-based player.

Bids by hand evaluation (R3, incl. Ashkal, round two, confirm or switch),
doubles on strong defence (R4), always declares its projects (R6.2), and plays
by :class:`~baloot.ai.card_play.CardChooser`: tracks played cards and shown
voids, leads from strength, draws trumps as declarer, gives points to a
partner who wins and keeps them from opponents (R5).
"""

from __future__ import annotations

import random

from ..actions import PLAY_ACTIONS, Action
from ..hand import Phase
from ..view import SeatView
from .bidding_policy import NORMAL_STYLE, BiddingStyle, choose_bid, choose_double
from .card_play import CardChooser
from .view_position import declare_action, position_from_view


class NormalPlayer:
    """Rule-based player; deterministic (``rng`` is unused)."""

    name = "normal"

    def __init__(self, style: BiddingStyle = NORMAL_STYLE) -> None:
        self.style = style
        self.cards = CardChooser()

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action (not its turn)")
        if len(legal) == 1:
            return legal[0]
        if view.phase == Phase.BIDDING:
            return choose_bid(view, self.style)
        if view.phase == Phase.DOUBLING:
            return choose_double(view, self.style)
        declare = declare_action(view)
        if declare is not None:
            return declare
        card = self.cards.choose(position_from_view(view))
        return PLAY_ACTIONS[view.seat][card]
