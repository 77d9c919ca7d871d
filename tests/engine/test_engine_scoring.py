"""Scoring (R7, R8, R11.6-R11.7): the R7.1 worked examples, the source's
tie examples, the conversion tables, multipliers, kaboot, Gahwa and the options
``projects_multiply_fully`` and ``baloot_stays_with_holder``.

N-S = team 0 (N = seat 0, S = seat 2), E-W = team 1 (W = seat 1, E = seat 3).
"""

from __future__ import annotations

import random

import pytest
from engine_helpers import build_deck, fill_hands, play, random_game

from baloot import Match, Rules
from baloot.engine.scoring import GAHWA, HandScore, convert_card_points, counting_team, score_hand

NS, EW = 0, 1


def _score(
    *,
    sun: bool,
    declarers: int,
    cp: tuple[int, int],
    level: int = 1,
    raiser: int | None = None,
    projects: tuple[int, int] = (0, 0),
    baloot: tuple[int, int] = (0, 0),
    tricks: tuple[int, int] = (4, 4),
    rules: Rules | None = None,
) -> HandScore:
    assert sum(cp) == (130 if sun else 162)
    return score_hand(
        sun=sun,
        declarers=declarers,
        level=level,
        last_raiser_team=raiser,
        card_points=cp,
        tricks=tricks,
        project_points=projects,
        baloot=baloot,
        rules=rules or Rules(),
    )


# --- R7.1 worked examples ---------------------------------------------------------


def test_r7_1_example_1_hokum_tie_units_7_declarers_win() -> None:
    """R7.1 ex. 1: Hokum, E declares; N-S count 77 -> 8, E-W 8; units 7 -> declarers win: 8/8."""
    r = _score(sun=False, declarers=EW, cp=(77, 85))
    assert r.game_points == (8, 8)
    assert r.winner == EW
    assert r.score == (8, 8)


def test_r7_1_example_2_baloot_tie_units_1_and_92() -> None:
    """R7.1 ex. 2: N declares with Baloot; E-W count 91 -> 9, N-S 7 + 2 = 9; units 1 ->
    declarers win 9/9. With 92, E-W win and score 16 + 2 = 18."""
    r = _score(sun=False, declarers=NS, cp=(71, 91), baloot=(2, 0))
    assert r.game_points == (9, 9)
    assert r.winner == NS
    assert r.score == (9, 9)
    r = _score(sun=False, declarers=NS, cp=(70, 92), baloot=(2, 0))
    assert r.game_points == (9, 9)
    assert r.winner == EW
    assert r.score == (0, 18)


def test_r7_1_example_3_fifty_defenders_win() -> None:
    """R7.1 ex. 3: Hokum, W declares, N-S count 56 + Fifty -> 6 + 5 = 11 vs 10: N-S 21, E-W 0."""
    r = _score(sun=False, declarers=EW, cp=(56, 106), projects=(5, 0))
    assert r.game_points == (11, 10)
    assert r.score == (21, 0)


def test_r7_1_example_4_double_changes_counting_team() -> None:
    """R7.1 ex. 4: as 3 but N doubled: E-W count 106 -> 11; N-S 5 + 5 = 10: E-W 16*2 + 5*2 = 42."""
    r = _score(sun=False, declarers=EW, cp=(56, 106), projects=(5, 0), level=2, raiser=NS)
    assert r.game_points == (10, 11)
    assert r.score == (0, 42)


def test_r7_1_example_5_sun_fifty() -> None:
    """R7.1 ex. 5: Sun, S declares, E-W count 66 -> 14; N-S 12 + 10 = 22: 22 / 14."""
    r = _score(sun=True, declarers=NS, cp=(64, 66), projects=(10, 0))
    assert r.game_points == (22, 14)
    assert r.score == (22, 14)


def test_r7_1_example_6_sun_units_5_declarers_win() -> None:
    """R7.1 ex. 6: Sun, S declares, E-W count 55 -> 11 + 4 (Sira) = 15 = N-S 15; units 5 -> 15/15."""
    r = _score(sun=True, declarers=NS, cp=(75, 55), projects=(0, 4))
    assert r.game_points == (15, 15)
    assert r.winner == NS
    assert r.score == (15, 15)


def test_r7_1_example_7_sun_units_1_counting_team_wins() -> None:
    """R7.1 ex. 7: Sun, S declares, E-W count 41 -> 8 + 10 = 18 = N-S 18; units 1 -> E-W 36/0."""
    r = _score(sun=True, declarers=NS, cp=(89, 41), projects=(0, 10))
    assert r.game_points == (18, 18)
    assert r.winner == EW
    assert r.score == (0, 36)


def test_r7_1_example_8_sun_double() -> None:
    """R7.1 ex. 8: Sun, W declares, S doubled: E-W count 67 -> 14 vs 12: E-W score 52."""
    r = _score(sun=True, declarers=EW, cp=(63, 67), level=2, raiser=NS)
    assert r.game_points == (12, 14)
    assert r.score == (0, 52)


# --- the source's "Treatment of a tie in game points" ----------------------------------


@pytest.mark.parametrize(
    ("decl_cp", "winner", "score"),
    [
        (91, NS, (18, 18)),  # opponents 39 + Fifty: 8 + 10 = 18; units 9: counting team loses
        (89, EW, (0, 36)),  # opponents 41: units 1, counting team wins 26 + 10
        (90, NS, (18, 18)),  # opponents 40: no rounding: declarers win
    ],
)
def test_r7_sun_tie_examples_with_fifty(decl_cp: int, winner: int, score: tuple[int, int]) -> None:
    """R7 Sun ties (source: 91:39, 89:41, 90:40 with the opponents' Fifty)."""
    r = _score(sun=True, declarers=NS, cp=(decl_cp, 130 - decl_cp), projects=(0, 10))
    assert r.game_points == (18, 18)
    assert r.winner == winner
    assert r.score == score


@pytest.mark.parametrize(
    ("opp_cp", "winner", "score"),
    [
        (81, NS, (8, 8)),  # 81:81 exact tie: declarers win, 8 each
        (82, EW, (0, 16)),  # opponents 82: units 2, they win all 16
        (80, NS, (8, 8)),  # opponents 80: units 0, counting team loses
    ],
)
def test_r7_hokum_tie_examples(opp_cp: int, winner: int, score: tuple[int, int]) -> None:
    """R7 Hokum ties (source: 81:81, 82:80, 80:82; no double, no projects)."""
    r = _score(sun=False, declarers=NS, cp=(162 - opp_cp, opp_cp))
    assert r.game_points == (8, 8)
    assert r.winner == winner
    assert r.score == score


def test_r7_hokum_baloot_declarers_win_up_to_91() -> None:
    """Source: with the declarers' Baloot, the opponents need 92 or more."""
    for opp in range(0, 163):
        r = _score(sun=False, declarers=NS, cp=(162 - opp, opp), baloot=(2, 0))
        assert (r.winner == NS) == (opp <= 91), opp


@pytest.mark.parametrize("units", range(10))
def test_r7_tie_units_table(units: int) -> None:
    """R7: the tie-break table by the counting team's units digit, in both contracts."""
    # Hokum: build a tie on game points using projects to equalise.
    cp = 60 + units
    r = _score(sun=False, declarers=NS, cp=(162 - cp, cp))
    gp = convert_card_points(cp, False)
    proj = (0, 16 - 2 * gp) if 16 - 2 * gp >= 0 else (2 * gp - 16, 0)
    r = _score(sun=False, declarers=NS, cp=(162 - cp, cp), projects=proj)
    assert r.game_points[0] == r.game_points[1]
    expected = EW if units in (2, 3, 4, 5) else NS
    assert r.winner == expected
    # Sun
    cp = 40 + units
    gp = convert_card_points(cp, True)
    proj = (0, 26 - 2 * gp) if 26 - 2 * gp >= 0 else (2 * gp - 26, 0)
    r = _score(sun=True, declarers=NS, cp=(130 - cp, cp), projects=proj)
    assert r.game_points[0] == r.game_points[1]
    expected = EW if units in (1, 2, 3, 4) else NS
    assert r.winner == expected


# --- conversion tables ---------------------------------------------------------------


def _hokum_reference(cp: int) -> int:
    tens, units = divmod(cp, 10)
    return tens + (1 if units > 5 else 0)


def _sun_reference(cp: int) -> int:
    tens, units = divmod(cp, 10)
    if units == 5:
        return cp // 5
    return (tens + (1 if units > 5 else 0)) * 2


def test_r7_hokum_conversion_table() -> None:
    """R7 Hokum: nearest 10, a 5 rounding down; 56..65 -> 6, 66 -> 7, the other gets 16 - gp."""
    for cp in range(56, 66):
        assert convert_card_points(cp, False) == 6
    assert convert_card_points(66, False) == 7
    assert convert_card_points(75, False) == 7
    assert convert_card_points(0, False) == 0
    assert convert_card_points(162, False) == 16
    for cp in range(163):
        assert convert_card_points(cp, False) == _hokum_reference(cp)
        r = _score(sun=False, declarers=NS, cp=(162 - cp, cp))
        assert r.game_points == (16 - _hokum_reference(cp), _hokum_reference(cp))


def test_r7_sun_conversion_table() -> None:
    """R7 Sun: units 5 -> cp/5 unrounded, else nearest 10 / 5: 65 -> 13, 63 -> 12, 66 -> 14."""
    table = {65: 13, 63: 12, 56: 12, 64: 12, 66: 14, 74: 14, 55: 11, 41: 8, 39: 8, 0: 0, 130: 26}
    for cp, gp in table.items():
        assert convert_card_points(cp, True) == gp, cp
    for cp in range(131):
        assert convert_card_points(cp, True) == _sun_reference(cp)
        r = _score(sun=True, declarers=NS, cp=(130 - cp, cp))
        assert r.game_points == (26 - _sun_reference(cp), _sun_reference(cp))


# --- counting team and multipliers ----------------------------------------------------


def test_r7_counting_team_by_last_raiser() -> None:
    """R7/R4: no double -> declarer's opponents; Double/Four -> declarers; Triple/Gahwa -> defenders."""
    for declarers in (0, 1):
        defenders = 1 - declarers
        assert counting_team(declarers, 1, None) == defenders
        assert counting_team(declarers, 2, defenders) == declarers
        assert counting_team(declarers, 3, declarers) == defenders
        assert counting_team(declarers, 4, defenders) == declarers
        assert counting_team(declarers, GAHWA, declarers) == defenders


def test_r7_counting_team_decides_the_winner_at_each_level() -> None:
    """R7: the same cards (N-S 56 + Fifty, E-W 106; W declares) change hands with each raise:
    level 1 N-S count (11 v 10: N-S win 21); Double by N -> E-W count (11 v 10: E-W 42);
    Triple by W -> N-S count (N-S 48 + 10 = 58); Four by N -> E-W count (64 + 10 = 74);
    Gahwa by W -> N-S count and win the match (score 0/0)."""
    base = {"sun": False, "declarers": EW, "cp": (56, 106), "projects": (5, 0)}
    assert _score(**base).score == (21, 0)  # type: ignore[arg-type]
    assert _score(**base, level=2, raiser=NS).score == (0, 42)  # type: ignore[arg-type]
    assert _score(**base, level=3, raiser=EW).score == (58, 0)  # type: ignore[arg-type]
    assert _score(**base, level=4, raiser=NS).score == (0, 74)  # type: ignore[arg-type]
    r = _score(**base, level=GAHWA, raiser=EW)  # type: ignore[arg-type]
    assert r.score == (0, 0)
    assert r.gahwa_winner == NS


@pytest.mark.parametrize(("level", "cards"), [(2, 32), (3, 48), (4, 64)])
def test_r7_hokum_multipliers(level: int, cards: int) -> None:
    """R7: card game points x level (Hokum 32/48/64), projects x 2 (never more), Baloot 2."""
    # declarers N-S win 120:42, they hold a Sira (2) and Baloot; E-W raised last at even levels.
    raiser = EW if level in (2, 4) else NS
    r = _score(sun=False, declarers=NS, cp=(120, 42), level=level, raiser=raiser, projects=(2, 0), baloot=(2, 0))
    assert r.score == (cards + 4 + 2, 0)
    full = _score(
        sun=False,
        declarers=NS,
        cp=(120, 42),
        level=level,
        raiser=raiser,
        projects=(2, 0),
        baloot=(2, 0),
        rules=Rules(projects_multiply_fully=True),
    )
    # R9 projects_multiply_fully: projects x 3 / x 4 at Triple / Four (x 2 at Double).
    assert full.score == (cards + 2 * level + 2, 0)


def test_r7_loser_projects_go_to_winner_when_doubled() -> None:
    """R7: at level 2+ the winner scores the projects of both sides x 2 and both Baloots."""
    r = _score(sun=False, declarers=NS, cp=(120, 42), level=2, raiser=EW, projects=(0, 5), baloot=(0, 2))
    # game points: E-W 16 - 12 = ... N-S count 120 -> 12; E-W 4 + 5 + 2 = 11
    assert r.game_points == (12, 11)
    assert r.score == (32 + 10 + 2, 0)


def test_r7_sun_double_is_52() -> None:
    """R7: Sun doubled -> the winner scores 26 x 2 = 52 (+ projects x 2)."""
    r = _score(sun=True, declarers=NS, cp=(100, 30), level=2, raiser=EW, projects=(4, 0))
    assert r.score == (52 + 8, 0)


def test_r7_level1_declarers_lost_defenders_take_everything() -> None:
    """R7: level 1, the declarers lose: defenders score 16 + all projects + all Baloot."""
    r = _score(sun=False, declarers=NS, cp=(60, 102), projects=(2, 0), baloot=(2, 0))
    # E-W count 102 -> 10; N-S 6 + 2 + 2 = 10: tie, units 2 -> counting team (E-W) wins
    assert r.game_points == (10, 10)
    assert r.score == (0, 16 + 2 + 2)


def test_r9_baloot_stays_with_holder() -> None:
    """R9 baloot_stays_with_holder: the losing team keeps its own Baloot (R7.1 ex. 2 with 92)."""
    rules = Rules(baloot_stays_with_holder=True)
    r = _score(sun=False, declarers=NS, cp=(70, 92), baloot=(2, 0), rules=rules)
    assert r.score == (2, 16)
    r = _score(sun=False, declarers=NS, cp=(70, 92), baloot=(2, 0), level=2, raiser=EW, rules=rules)
    # Doubled by E-W: N-S count 70 -> 7 + 2 = 9 vs 9: tie, units 0 -> counting team loses.
    assert r.score == (2, 32)


# --- kaboot -----------------------------------------------------------------------------


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_r7_kaboot_hokum_and_sun(level: int) -> None:
    """R7 Al-kaboot: 25 (Hokum) or 44 (Sun) x level + own projects (x2 from level 2) + own
    Baloot; the other side's projects and Baloot are lost (R11.7)."""
    raiser = None if level == 1 else (EW if level in (2, 4) else NS)
    factor = 1 if level == 1 else 2
    r = _score(
        sun=False,
        declarers=NS,
        cp=(162, 0),
        level=level,
        raiser=raiser,
        projects=(5, 0),
        baloot=(2, 0),
        tricks=(8, 0),
    )
    assert r.kaboot == NS
    assert r.score == (25 * level + 5 * factor + 2, 0)
    # the losing side's projects and Baloot are lost, but still shown in game points (R11.7)
    r = _score(
        sun=False, declarers=NS, cp=(162, 0), level=level, raiser=raiser, projects=(0, 10), baloot=(0, 2), tricks=(8, 0)
    )
    assert r.score == (25 * level, 0)
    assert r.game_points == (16, 12)
    if level <= 2:
        sun_raiser = None if level == 1 else NS
        r = _score(sun=True, declarers=EW, cp=(0, 130), level=level, raiser=sun_raiser, projects=(0, 4), tricks=(0, 8))
        assert r.kaboot == EW
        assert r.score == (0, 44 * level + 4 * factor)


def test_r7_kaboot_by_defenders_and_fully_multiplied() -> None:
    """R7: a kaboot by the defenders; R11.7: projects_multiply_fully applies to kaboot
    projects, baloot_stays_with_holder does not rescue the losers' Baloot."""
    r = _score(sun=False, declarers=NS, cp=(0, 162), projects=(0, 2), baloot=(2, 0), tricks=(0, 8))
    assert r.score == (0, 27)
    rules = Rules(projects_multiply_fully=True, baloot_stays_with_holder=True)
    r = _score(
        sun=False,
        declarers=NS,
        cp=(0, 162),
        level=3,
        raiser=NS,
        projects=(0, 5),
        baloot=(2, 0),
        tricks=(0, 8),
        rules=rules,
    )
    assert r.score == (0, 75 + 15)


def test_r7_kaboot_game_points_computed_normally() -> None:
    """R10: game_points in a kaboot hand are computed the usual way."""
    r = _score(sun=False, declarers=NS, cp=(162, 0), projects=(0, 5), baloot=(0, 2), tricks=(8, 0))
    assert r.game_points == (16, 7)


def test_r7_gahwa_kaboot_wins_the_match() -> None:
    """R7: under Gahwa the kaboot team wins the match; the hand scores 0/0 (R11.6)."""
    r = _score(sun=False, declarers=NS, cp=(0, 162), level=GAHWA, raiser=NS, tricks=(0, 8))
    assert r.score == (0, 0)
    assert r.gahwa_winner == EW


# --- Gahwa and the match (R8) end-to-end -----------------------------------------------


def _gahwa_match(seed: int) -> Match:
    """Hokum by seat 0 taken to Gahwa, then random legal play."""
    match = Match(Rules(), 3)
    strong = "AH JH 9H TH KH QH" if seed % 2 else "AH"
    hands = fill_hands([(strong, ""), ("", ""), ("", ""), ("", "")])
    hand = match.deal(build_deck(3, hands, "AH", 0))
    play(match, "0 hokum 1 pass 2 pass 3 pass 0 hokum 1 double open 0 triple 1 four open 0 gahwa")
    rng = random.Random(seed)
    while not hand.finished:
        match.apply(rng.choice(hand.legal_actions()))
    return match


def test_r8_gahwa_hand_wins_the_match_and_scores_zero() -> None:
    """R4/R8/R11.6: a hand won under Gahwa wins the match at once; its score is [0, 0]."""
    winners = set()
    for seed in range(60):
        match = _gahwa_match(seed)
        hand = match.hands[0]
        assert hand.result is not None
        winners.add(hand.result.winner)
        assert match.winner == hand.result.winner
    assert winners == {0, 1}  # both outcomes occurred
    hand = match.hands[0]
    assert hand.level == GAHWA
    assert hand.score == (0, 0)
    assert match.score == [0, 0]
    assert hand.result is not None
    assert match.winner == hand.result.winner
    assert match.finished
    assert match.legal_actions() == []


def test_r8_match_target_and_tie_play_on() -> None:
    """R8: a team reaching the target with more points wins; many random matches end
    only that way (or by Gahwa), and the winner has the higher score."""
    rng = random.Random(11)
    for _ in range(60):
        match = random_game(rng, Rules(target=40), max_hands=200)
        assert match.finished
        last = match.hands[-1]
        if last.level == GAHWA and last.result is not None:
            assert match.winner == last.result.winner
            continue
        a, b = match.score
        assert max(a, b) >= 40 and a != b
        assert match.winner == (0 if a > b else 1)
        # before the last hand the match was not yet won
        before = [a - (last.score or (0, 0))[0], b - (last.score or (0, 0))[1]]
        assert not (max(before) >= 40 and before[0] != before[1])


def test_r8_end_to_end_score_added() -> None:
    """R8: each hand's score is added to the match score (random hands, all levels)."""
    rng = random.Random(5)
    for _ in range(40):
        match = random_game(rng, Rules(), max_hands=3)
        total = [0, 0]
        for hand in match.hands:
            if hand.result is not None and hand.level == GAHWA:
                break
            score = hand.score or (0, 0)
            total = [total[0] + score[0], total[1] + score[1]]
        else:
            assert match.score == total
