"""The :class:`Player` protocol every AI level implements, the random player,
and the choices the rule-based levels share.

A player sees only its seat's :class:`~baloot.engine.view.SeatView` (docs/architecture.md:
nothing hidden) and a caller-supplied ``random.Random``; it returns one of
``view.legal``.
"""

from __future__ import annotations

import random
from typing import Protocol

from ..engine.actions import Action
from ..engine.hand import Phase
from ..engine.view import SeatView
from .bidding_policy import BiddingStyle, choose_bid, choose_double
from .view_position import declare_action, sawa_action


class Player(Protocol):
    """An AI seat: ``choose`` returns one of ``view.legal``."""

    name: str

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        """Pick a legal action for ``view.seat`` using only ``view`` and ``rng``."""
        ...


def legal_of(view: SeatView) -> tuple[Action, ...]:
    """``view.legal``; raises ValueError when it is empty (not ``view.seat``'s turn)."""
    legal = view.legal
    if not legal:
        raise ValueError(f"seat {view.seat} has no legal action (not its turn)")
    return legal


def rule_based_action(view: SeatView, style: BiddingStyle) -> Action | None:
    """What the rule-based levels do unless a card is to be chosen (then None).

    The only legal action; a bid (R3) or a doubling answer (R4) by ``style``;
    declaring projects whenever the seat may (R6.2); claiming Sawa whenever the
    seat may (R12).
    """
    legal = legal_of(view)
    if len(legal) == 1:
        return legal[0]
    if view.phase == Phase.BIDDING:
        return choose_bid(view, style)
    if view.phase == Phase.DOUBLING:
        return choose_double(view, style)
    return sawa_action(view) or declare_action(view)


class RandomPlayer:
    """Uniformly random legal play, the baseline of the arena; like every level it
    claims Sawa whenever it may (R12)."""

    name = "random"

    def choose(self, view: SeatView, rng: random.Random) -> Action:
        legal = legal_of(view)
        return sawa_action(view) or legal[rng.randrange(len(legal))]
