"""Playing a full-information hand to its end with the rule-based card player.

Used by the hard level on sampled deals: every seat plays
:class:`~baloot.ai.card_play.CardChooser` knowing all hands (the deal is a
sample, so nothing real is revealed), declares its projects when it may
(R6.2), claims Sawa when it may (R12, which ends the hand at once), and the
result is the R7 hand score.
"""

from __future__ import annotations

from ..engine.actions import PLAY_ACTIONS, ActionType
from ..engine.hand import Hand, Phase
from .card_play import CardChooser, PlayPosition
from .view_position import legal_card_mask

GAHWA_VALUE = 152
"""A Gahwa won (R4, R7) wins the match: valued as the default target (R8)."""


def play_out(hand: Hand, chooser: CardChooser) -> None:
    """Play ``hand`` (in the play phase, R5) to its end; a seat claims Sawa as soon as it may (R12)."""
    declare = ActionType.DECLARE
    sawa = ActionType.SAWA
    while hand.phase is Phase.PLAYING:
        legal = hand.legal_actions()
        if len(legal) == 1:
            hand.apply(legal[0])
            continue
        last = legal[-1]
        if last.type is declare or last.type is sawa:
            hand.apply(last)
            continue
        mask = legal_card_mask(legal)
        if mask & (mask - 1) == 0:
            hand.apply(legal[0])
            continue
        seat = hand.to_move
        trick = hand.trick
        gone = hand.played
        for c in trick:
            gone |= 1 << c
        pos = PlayPosition(
            seat=seat,
            trump=hand.trump,
            legal=mask,
            trick=trick,
            best=hand.best,
            winner=hand.winner_seat,
            gone=gone,
            allowed=hand.hands,
            declarers=hand.declarers,
        )
        hand.apply(PLAY_ACTIONS[seat][chooser.choose(pos)])


def team_value(hand: Hand, team: int, gahwa_value: int = GAHWA_VALUE) -> int:
    """``team``'s hand score minus the other team's (R7); a Gahwa won counts ``gahwa_value``."""
    result = hand.result
    if result is None:
        return 0
    if result.gahwa_winner is not None:
        return gahwa_value if result.gahwa_winner == team else -gahwa_value
    return result.score[team] - result.score[1 - team]
