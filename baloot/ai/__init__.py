"""AI players: pure, standard library only, seeing only their seat's view.

Levels: ``random`` (uniform legal play, a baseline), ``easy`` (safe cards),
``normal`` (a rule-based player) and ``hard`` (perfect-information Monte Carlo
over deals consistent with the view, within a time budget).
"""

from .levels import LEVELS, make_player
from .player import Player, RandomPlayer

__all__ = ["LEVELS", "Player", "RandomPlayer", "make_player"]
