"""The safe policy that plays a seat whose turn timed out.

Pass in bidding (R3) and doubling (R4), declare nothing (R6), and play the
lowest-value legal card (R1.1 values for the contract, ties broken by the
lower card in trick order). When passing is not allowed — the Hokum bidder
must confirm or switch (R3.1 C, R3.2) — it confirms Hokum.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine.actions import Action, ActionType
from ..engine.cards import CARD_POINTS, NO_TRUMP, PLAIN_ORDER, TRUMP_ORDER, Card
from ..engine.view import SeatView

TRUMP_SURCHARGE = 20
"""What the easy AI adds to a trump's points when choosing what to give away: it keeps its trumps."""


def give_away_cost(card: int, trump: int, trump_surcharge: int = 0) -> int:
    """What playing card ``card`` (an index, R1) gives away: its points (R1.1), plus ``trump_surcharge`` for a trump.

    The one measure of a "cheap" card: the safe auto-play here counts points alone (a timed-out seat
    gives away as little as it can now); the easy AI adds :data:`TRUMP_SURCHARGE` to keep its trumps.
    """
    return CARD_POINTS[trump][card] + (trump_surcharge if card >> 3 == trump else 0)


def card_cost(card: Card, trump: int | None) -> tuple[int, int, int]:
    """How much playing ``card`` gives away: (points, trick strength, index) — lower is safer."""
    suit_trump = NO_TRUMP if trump is None else trump
    order = TRUMP_ORDER if card.suit == trump else PLAIN_ORDER
    return (give_away_cost(card.index, suit_trump), order[card.rank], card.index)


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
