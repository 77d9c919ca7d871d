"""Tournaments, pure: Swiss and knockout pairing, duplicate deals and matchpoints, standings.

No I/O, no clock, no asyncio: the tables layer stores and drives what these functions decide.
The scoring and the tie-breaks are documented in docs/tournaments.md.
"""

from .duplicate import (
    DealResult,
    board_of,
    board_side,
    deal_deck,
    first_dealer,
    hand_deck,
    matchpoints,
    round_seed,
    team_seats,
)
from .knockout import bracket_order, knockout_first_round, knockout_next_round
from .model import BYE, Pairing, TeamId
from .standings import RoundOutcome, Standing, duplicate_standings, opponents_met, standings
from .swiss import swiss_pairings, swiss_round_count

__all__ = [
    "BYE", "DealResult", "Pairing", "RoundOutcome", "Standing", "TeamId", "board_of", "board_side",
    "bracket_order", "deal_deck",
    "duplicate_standings", "first_dealer", "hand_deck", "knockout_first_round", "knockout_next_round", "matchpoints",
    "opponents_met", "round_seed", "standings", "swiss_pairings", "swiss_round_count", "team_seats",
]
