"""The easy level: follows the rules and plays safe cards.

Bids only with plain strength (R3, never Ashkal, no round two, never
doubles, R4), declares its projects (R6.2), and in play (R5) wins a trick only
when it plays last and can, otherwise plays its cheapest legal card.
"""

from __future__ import annotations

import random

from ..engine.actions import PLAY_ACTIONS, Action
from ..engine.cards import BEATS, CARD_POINTS, NO_TRUMP
from ..engine.view import SeatView
from .autoplay import TRUMP_SURCHARGE, give_away_cost
from .bidding_policy import EASY_STYLE
from .player import rule_based_action
from .view_position import current_trick, legal_card_mask


class EasyPlayer:
    """Simple, safe play; random only to break ties between equally cheap cards."""

    name = "easy"

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        action = rule_based_action(view, EASY_STYLE)
        if action is not None:
            return action
        trump = NO_TRUMP if view.trump is None else view.trump
        points = CARD_POINTS[trump]
        mask = legal_card_mask(view.legal)
        cards = [c for c in range(32) if mask >> c & 1]
        trick, best, winner = current_trick(view, trump)
        if len(trick) == 3:  # last to play: take the trick cheaply if it is the opponents'
            if winner != view.seat ^ 2:
                winners = [c for c in cards if BEATS[(trump * 32 + best) * 32 + c]]
                if winners:
                    return PLAY_ACTIONS[view.seat][min(winners, key=lambda c: (c >> 3 == trump, -points[c]))]
            else:
                return PLAY_ACTIONS[view.seat][max(cards, key=lambda c: (c >> 3 != trump, points[c]))]
        low = min(give_away_cost(c, trump, TRUMP_SURCHARGE) for c in cards)
        cheap = [c for c in cards if give_away_cost(c, trump, TRUMP_SURCHARGE) == low]
        return PLAY_ACTIONS[view.seat][cheap[rng.randrange(len(cheap))]]
