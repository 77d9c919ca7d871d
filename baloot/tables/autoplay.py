"""The safe policy that plays a seat whose turn timed out (issue 4 "Turn timer").

Pass in bidding (R3) and doubling (R4), declare nothing (R6), and play the
lowest-value legal card (R1.1 values for the contract, ties broken by the
lower card in trick order). When passing is not allowed — the Hokum bidder
must confirm or switch (R3.1 C, R3.2) — it confirms Hokum.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action, ActionType
from ..cards import CARD_POINTS, NO_TRUMP, PLAIN_ORDER, TRUMP_ORDER, Card
from ..view import SeatView


def card_cost(card: Card, trump: int | None) -> tuple[int, int, int]:
    """How much playing ``card`` gives away: (value, trick strength, index) — lower is safer."""
    suit_trump = NO_TRUMP if trump is None else trump
    value = CARD_POINTS[suit_trump][card.index]
    order = TRUMP_ORDER if card.suit == trump else PLAIN_ORDER
    return (value, order[card.rank], card.index)


def safe_action(legal: Sequence[Action], trump: int | None) -> Action:
    """The safe choice among ``legal`` (which must not be empty)."""
    if not legal:
        raise ValueError("no legal action to choose from")
    plays = [a for a in legal if a.type is ActionType.PLAY and a.card is not None]
    if plays:
        return min(plays, key=lambda a: card_cost(a.card, trump))  # type: ignore[arg-type]
    for wanted in (ActionType.PASS, ActionType.HOKUM):
        for action in legal:
            if action.type is wanted:
                return action
    choices = [a for a in legal if a.type not in (ActionType.DECLARE, ActionType.KAWESH)]
    return (choices or list(legal))[0]


class SafeBot:
    """A :class:`~baloot.tables.bots.BotPlayer` that always takes :func:`safe_action`."""

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        return safe_action(view.legal, view.trump)
