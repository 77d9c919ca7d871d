"""Turning a :class:`~baloot.engine.view.SeatView` in the play phase into a
:class:`~baloot.ai.card_play.PlayPosition` (from the seat's knowledge only)."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.actions import Action, ActionType
from ..engine.cards import BEATS, NO_TRUMP
from ..engine.view import SeatView
from .card_play import PlayPosition
from .knowledge import Knowledge, infer


def legal_card_mask(legal: Sequence[Action]) -> int:
    """The cards of the play actions among ``legal`` (only a play names a card)."""
    mask = 0
    for action in legal:
        card = action.card
        if card is not None:
            mask |= card.bit
    return mask


def current_trick(view: SeatView, trump: int) -> tuple[list[int], int, int]:
    """The current trick's card indices in play order, the card winning it and its seat (R5; 0, 0 if empty)."""
    trick: list[int] = []
    best = winner = 0
    if view.current_trick is not None:
        for seat, card in view.current_trick.cards:
            c = card.index
            if not trick or BEATS[(trump * 32 + best) * 32 + c]:
                best, winner = c, seat
            trick.append(c)
    return trick, best, winner


def position_from_view(view: SeatView, knowledge: Knowledge | None = None) -> PlayPosition:
    """The play position seen by ``view.seat`` (R5), with its deductions about other hands."""
    k = knowledge if knowledge is not None else infer(view)
    trump = NO_TRUMP if view.trump is None else view.trump
    trick, best, winner = current_trick(view, trump)
    taker = view.taker if view.taker is not None else 0
    return PlayPosition(
        seat=view.seat,
        trump=trump,
        legal=legal_card_mask(view.legal),
        trick=trick,
        best=best,
        winner=winner,
        gone=k.gone,
        allowed=k.allowed,
        declarers=taker & 1,
    )


def sawa_action(view: SeatView) -> Action | None:
    """The Sawa claim when it is legal (R12): every AI level claims it at once.

    The engine offers it only when the claim is certain (R12.2), and a certain claim
    takes every remaining trick, the best any play could do.
    """
    for action in reversed(view.legal):  # the engine lists it last
        if action.type is ActionType.SAWA:
            return action
    return None


def declare_action(view: SeatView) -> Action | None:
    """The declare action when it is legal (R6.2): the AI always declares its projects."""
    for action in view.legal:
        if action.type is ActionType.DECLARE:
            return action
    return None
