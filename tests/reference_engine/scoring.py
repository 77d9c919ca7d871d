"""Scoring a hand (R7) and the R10 view of the result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import team

if TYPE_CHECKING:
    from .hand import Rules
    from .projects import Project


@dataclass
class HandScore:
    card_points: list[int]
    game_points: list[int]
    projects: list[tuple[int, Project]]  # R10: the projects of the team that won R6.2
    baloot: int | None
    kaboot: int | None
    score: list[int]
    hand_winner: int  # team that won the hand (R7 "Winner of the hand")
    match_winner: int | None  # set by Gahwa (R7, R8)


def convert(cp: int, contract: str) -> int:
    """R7: counting team's card points -> game points."""
    if contract == "hokum":
        return (cp + 4) // 10  # nearest 10, a 5 rounding down
    if cp % 10 == 5:
        return cp // 5  # Sun, units digit 5: cp / 5 unrounded
    tens = cp // 10 + (1 if cp % 10 > 5 else 0)  # nearest 10 (units 1-4 down, 6-9 up)
    return tens * 10 // 5


def counting_team_wins_tie(units: int, contract: str) -> bool | None:
    """R7 tie rule; None means 'the declarer's team wins'."""
    if contract == "hokum":
        if units in (2, 3, 4, 5):
            return True
        if units in (6, 7, 8, 9, 0):
            return False
        return None  # 1
    if units in (1, 2, 3, 4):
        return True
    if units in (6, 7, 8, 9):
        return False
    return None  # 0, 5


def score_hand(
    *,
    rules: Rules,
    contract: str,
    trump: str | None,
    declarer: int,
    level: int | str,
    raiser_team: int | None,
    card_points: list[int],
    tricks_won: list[int],
    project_team: int | None,
    scoring_projects: list[tuple[int, Project]],
    baloot_team: int | None,
) -> HandScore:
    del trump
    decl_team = team(declarer)
    defenders = 1 - decl_team
    # R7 counting team: defenders if no double, else the opponents of the last raiser
    counting = defenders if level == 1 else 1 - (raiser_team if raiser_team is not None else defenders)
    total = 16 if contract == "hokum" else 26

    gp = [0, 0]
    gp[counting] = convert(card_points[counting], contract)
    gp[1 - counting] = total - gp[counting]
    project_value = sum(pr.value for _, pr in scoring_projects)
    if project_team is not None:
        gp[project_team] += project_value
    if baloot_team is not None:
        gp[baloot_team] += 2  # R6.3

    # R7 winner of the hand
    if gp[0] != gp[1]:
        winner = 0 if gp[0] > gp[1] else 1
    else:
        verdict = counting_team_wins_tie(card_points[counting] % 10, contract)
        winner = decl_team if verdict is None else (counting if verdict else 1 - counting)
    loser = 1 - winner

    numeric_level = 4 if level == "gahwa" else int(level)
    if numeric_level == 1:
        project_mult = 1
    elif rules.projects_multiply_fully:
        project_mult = numeric_level  # R9 projects_multiply_fully
    else:
        project_mult = 2  # "projects x 2 (never more)"

    score = [0, 0]
    match_winner: int | None = None
    kaboot: int | None = None
    if 8 in tricks_won:
        # R7 Al-kaboot
        kaboot = tricks_won.index(8)
        if level == "gahwa":
            match_winner = kaboot
        else:
            score[kaboot] = (25 if contract == "hokum" else 44) * numeric_level
            if project_team == kaboot:
                score[kaboot] += project_value * project_mult
            if baloot_team == kaboot:
                score[kaboot] += 2
            # R11.7: baloot_stays_with_holder does not rescue a Baloot in a kaboot
    elif level == "gahwa":
        match_winner = winner  # R7: the winner of the hand wins the match; R11.6 scores [0, 0]
    elif level == 1 and winner == decl_team:
        score = list(gp)
    else:
        # level 1 with the declarers losing, or level 2..4: the winner takes everything
        multiplier = 1 if level == 1 else numeric_level
        score[winner] = total * multiplier + project_value * project_mult
        if baloot_team is not None:
            if rules.baloot_stays_with_holder and baloot_team == loser:
                score[loser] += 2  # R9: a losing team keeps its own Baloot
            else:
                score[winner] += 2

    return HandScore(
        card_points=list(card_points),
        game_points=gp,
        projects=list(scoring_projects),
        baloot=baloot_team,
        kaboot=kaboot,
        score=score,
        hand_winner=winner,
        match_winner=match_winner,
    )
