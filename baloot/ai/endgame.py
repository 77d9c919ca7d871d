"""Exact play of a hand's last tricks on a full deal (R5, R7), for the hard level.

With few cards left the hard level no longer finishes its sampled deals with
the rule-based card player: it searches every legal card of every seat
(minimax with alpha-beta pruning) and scores each finished hand by R7, the
team's hand score difference, with the card-point difference breaking ties.
The search works on card masks with the engine's own R5 rules
(:func:`~baloot.engine.play.trick_obligations`, the one definition of R5.1/R5.2, Ekka
included) and its R7 scoring; after the second trick projects and Baloot no longer depend
on the play (R6.2, R6.3), so only card points and tricks change. The deal is
a sample, so nothing hidden is read.
"""

from __future__ import annotations

from ..engine.cards import BEATS, CARD_POINTS
from ..engine.hand import Hand, Phase
from ..engine.play import trick_obligations
from ..engine.scoring import score_hand
from .rollout import GAHWA_VALUE, team_value

TIE_BREAK = 0.02
"""Weight of the card-point difference next to the R7 score difference."""


class Endgame:
    """The exact value of a position for ``team`` (a hand in the play phase, past the second trick)."""

    def __init__(self, hand: Hand, team: int) -> None:
        if hand.phase is not Phase.PLAYING or hand.trick_no < 2:
            raise ValueError("the endgame search starts in the play, after the second trick (R6.2)")
        self.team = team
        self.trump = hand.trump
        self.locked = hand.locked
        self.sun = hand.sun
        self.declarers = hand.declarers
        self.level = hand.level
        self.raiser = None if hand.last_raiser is None else hand.last_raiser & 1
        self.rules = hand.rules
        projects = [0, 0]
        for seat, project in hand.winning_projects():
            projects[seat & 1] += project.value(hand.sun)
        baloot = [0, 0]
        baloot_team = hand.baloot_team()
        if baloot_team is not None:
            baloot[baloot_team] = 2
        self.projects = (projects[0], projects[1])
        self.baloot = (baloot[0], baloot[1])
        self.leaves: dict[tuple[int, int, int], float] = {}
        self.nodes = 0

    def leaf(self, cp0: int, cp1: int, tricks0: int) -> float:
        """R7 score difference for the team (a Gahwa as in :func:`~baloot.ai.rollout.team_value`)."""
        key = (cp0, cp1, tricks0)
        value = self.leaves.get(key)
        if value is None:
            result = score_hand(
                sun=self.sun,
                declarers=self.declarers,
                level=self.level,
                last_raiser_team=self.raiser,
                card_points=(cp0, cp1),
                tricks=(tricks0, 8 - tricks0),
                project_points=self.projects,
                baloot=self.baloot,
                rules=self.rules,
            )
            team = self.team
            if result.gahwa_winner is not None:
                value = float(GAHWA_VALUE if result.gahwa_winner == team else -GAHWA_VALUE)
            else:
                value = float(result.score[team] - result.score[1 - team])
            cps = (cp0, cp1)
            value += TIE_BREAK * (cps[team] - cps[1 - team])
            self.leaves[key] = value
        return value

    def value(self, hand: Hand) -> float:
        """The value of ``hand``'s position when every seat plays perfectly from here."""
        return self.search(
            list(hand.hands),
            hand.to_move,
            list(hand.trick),
            hand.best,
            hand.winner_seat,
            hand.played,
            hand.card_points[0],
            hand.card_points[1],
            hand.tricks_won[0],
            hand.trick_no,
            -1e9,
            1e9,
        )

    def search(
        self,
        hands: list[int],
        seat: int,
        trick: list[int],
        best: int,
        winner: int,
        played: int,
        cp0: int,
        cp1: int,
        tricks0: int,
        trick_no: int,
        alpha: float,
        beta: float,
    ) -> float:
        self.nodes += 1
        trump = self.trump
        hand = hands[seat]
        n = len(trick)
        mask = trick_obligations(hand, trump, trick, best, winner, played, self.locked, seat)[2]  # R5.1 / R5.2
        maximizing = seat & 1 == self.team
        result = -1e9 if maximizing else 1e9
        points = CARD_POINTS[trump]
        while mask:
            low = mask & -mask
            mask ^= low
            card = low.bit_length() - 1
            hands[seat] = hand ^ low
            if n == 0 or BEATS[(trump * 32 + best) * 32 + card]:
                c_best, c_winner = card, seat
            else:
                c_best, c_winner = best, winner
            trick.append(card)
            if n < 3:
                value = self.search(
                    hands,
                    (seat + 1) & 3,
                    trick,
                    c_best,
                    c_winner,
                    played,
                    cp0,
                    cp1,
                    tricks0,
                    trick_no,
                    alpha,
                    beta,
                )
            else:
                pts = points[trick[0]] + points[trick[1]] + points[trick[2]] + points[card]
                if trick_no == 7:
                    pts += 10  # R1.1: the last trick
                team0 = c_winner & 1 == 0
                n_cp0, n_cp1 = (cp0 + pts, cp1) if team0 else (cp0, cp1 + pts)
                n_tricks0 = tricks0 + team0
                if trick_no == 7:
                    value = self.leaf(n_cp0, n_cp1, n_tricks0)
                else:
                    gone = played | 1 << trick[0] | 1 << trick[1] | 1 << trick[2] | low
                    value = self.search(
                        hands, c_winner, [], 0, 0, gone, n_cp0, n_cp1, n_tricks0, trick_no + 1, alpha, beta
                    )
            trick.pop()
            hands[seat] = hand
            if maximizing:
                if value > result:
                    result = value
                    alpha = max(alpha, value)
            elif value < result:
                result = value
                beta = min(beta, value)
            if alpha >= beta:
                break
        return result


def leaf_value(hand: Hand, team: int) -> float:
    """A finished hand's R7 score difference for ``team`` (as :func:`~baloot.ai.rollout.team_value`),
    card points breaking ties."""
    points = hand.card_points
    return team_value(hand, team) + TIE_BREAK * (points[team] - points[1 - team])
