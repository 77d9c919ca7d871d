"""Scoring a hand (R7): counting team, conversion, tie-breaks, multipliers, kaboot."""

from __future__ import annotations

from typing import Final

from .rules import Rules

GAHWA: Final = 5
"""Internal level number of Gahwa (R4); R10 writes it as ``"gahwa"``."""

HOKUM_TOTAL: Final = 16
SUN_TOTAL: Final = 26
KABOOT_HOKUM: Final = 25
KABOOT_SUN: Final = 44


def convert_card_points(card_points: int, sun: bool) -> int:
    """R7: the counting team's card points as game points.

    Hokum rounds to the nearest 10 with a 5 rounding down, then divides by 10.
    Sun divides by 5 unrounded when the units digit is 5, else rounds to the
    nearest 10 and divides by 5.
    """
    if not sun:
        return (card_points + 4) // 10
    if card_points % 10 == 5:
        return card_points // 5
    return ((card_points + 5) // 10 * 10) // 5


def counting_team(declarers: int, level: int, last_raiser_team: int | None) -> int:
    """R7: the declarer's opponents, or the opponents of the last raiser (R4)."""
    if level == 1 or last_raiser_team is None:
        return 1 - declarers
    return 1 - last_raiser_team


def tie_winner(sun: bool, counting: int, declarers: int, counting_points: int) -> int:
    """R7: the hand's winner on equal game points, by the counting team's units digit."""
    units = counting_points % 10
    if sun:
        if units in (1, 2, 3, 4):
            return counting
        if units in (6, 7, 8, 9):
            return 1 - counting
        return declarers
    if units in (2, 3, 4, 5):
        return counting
    if units == 1:
        return declarers
    return 1 - counting


class HandScore:
    """The outcome of a played hand (R7), per team ``[team 0, team 1]``. Read-only.

    A plain class with its ``__init__`` written out (not a frozen dataclass): every hand builds one,
    and a compiled dataclass runs the interpreted generated ``__init__``. It compares,
    hashes and prints as the dataclass did.
    """

    __slots__ = ("card_points", "gahwa_winner", "game_points", "kaboot", "score", "winner")

    def __init__(
        self,
        card_points: tuple[int, int],
        game_points: tuple[int, int],
        score: tuple[int, int],
        winner: int,
        kaboot: int | None,
        gahwa_winner: int | None,
    ) -> None:
        self.card_points: Final = card_points
        self.game_points: Final = game_points
        self.score: Final = score
        self.winner: Final = winner
        self.kaboot: Final = kaboot
        self.gahwa_winner: Final = gahwa_winner

    def _fields(self) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int], int, int | None, int | None]:
        return (self.card_points, self.game_points, self.score, self.winner, self.kaboot, self.gahwa_winner)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandScore) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        names = ("card_points", "game_points", "score", "winner", "kaboot", "gahwa_winner")
        return f"HandScore({', '.join(f'{n}={v!r}' for n, v in zip(names, self._fields(), strict=True))})"

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (HandScore, self._fields())


def score_hand(
    *,
    sun: bool,
    declarers: int,
    level: int,
    last_raiser_team: int | None,
    card_points: tuple[int, int],
    tricks: tuple[int, int],
    project_points: tuple[int, int],
    baloot: tuple[int, int],
    rules: Rules,
) -> HandScore:
    """Score one hand by R7.

    ``project_points`` are the values (before multiplying) of the winning
    projects credited to each team's players (R6.2), ``baloot`` the 2 points
    of a counting Baloot (R6.3) per holder team.
    """
    total = SUN_TOTAL if sun else HOKUM_TOTAL
    counting = counting_team(declarers, level, last_raiser_team)
    converted = [0, 0]
    converted[counting] = convert_card_points(card_points[counting], sun)
    converted[1 - counting] = total - converted[counting]
    game = (
        converted[0] + project_points[0] + baloot[0],
        converted[1] + project_points[1] + baloot[1],
    )
    kaboot = 0 if tricks[0] == 8 else 1 if tricks[1] == 8 else None
    if level >= 3 and rules.projects_multiply_fully and level != GAHWA:
        project_factor = level
    else:
        project_factor = 2 if level >= 2 else 1
    score = [0, 0]
    if kaboot is not None:
        winner = kaboot
        if level != GAHWA:
            base = KABOOT_SUN if sun else KABOOT_HOKUM
            score[kaboot] = base * level + project_points[kaboot] * project_factor + baloot[kaboot]
    else:
        if game[0] != game[1]:
            winner = 0 if game[0] > game[1] else 1
        else:
            winner = tie_winner(sun, counting, declarers, card_points[counting])
        loser = 1 - winner
        keep = rules.baloot_stays_with_holder
        if level == GAHWA:
            pass
        elif level == 1 and winner == declarers:
            score = list(game)
        else:
            factor = level
            score[winner] = (
                total * factor
                + (project_points[0] + project_points[1]) * project_factor
                + baloot[winner]
                + (0 if keep else baloot[loser])
            )
            if keep:
                score[loser] = baloot[loser]
    return HandScore(
        card_points=card_points,
        game_points=game,
        score=(score[0], score[1]),
        winner=winner,
        kaboot=kaboot,
        gahwa_winner=winner if level == GAHWA else None,
    )
