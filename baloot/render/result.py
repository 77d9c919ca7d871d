"""The end of a hand (R7 breakdown), the end of the match (R8) and the score sheet (R10 summary)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Protocol, TypeAlias

from ..bidding import Outcome
from ..hand import Hand
from ..i18n import t
from ..match import Match
from ..record import hand_summary, replay_summary
from ..scoring import GAHWA, HOKUM_TOTAL, KABOOT_HOKUM, KABOOT_SUN, SUN_TOTAL, counting_team
from .limits import DESCRIPTION, FIELD_VALUE, clip
from .model import TableInfo
from .text import cards_text, contract_text, level_text, project_name, seat_name, sort_cards

GOLD: Final = 0xF1C40F
GREEN: Final = 0x2ECC71


def team_label(team: int, locale: str) -> str:
    return t("team.number", locale, n=team + 1)


def pair_lines(values: list[int] | tuple[int, int], locale: str) -> str:
    """``Team 1: 45`` and ``Team 2: 30`` on two lines."""
    return "\n".join(t("table.score_line", locale, team=team_label(i, locale), points=values[i]) for i in (0, 1))


def _field(name: str, value: str, inline: bool = False) -> dict[str, Any]:
    return {"name": name, "value": clip(value, FIELD_VALUE), "inline": inline}


def score_before(match: Match, index: int) -> tuple[int, int]:
    """The match score after hands ``0 .. index`` (from the hands' own scores, R8)."""
    a = b = 0
    for hand in match.hands[: index + 1]:
        score = hand.score or (0, 0)
        a, b = a + score[0], b + score[1]
    return a, b


def _rule_line(hand: Hand, summary: dict[str, Any], winner: int, locale: str) -> str:
    """How the hand's score was reached (R7): own points, all to the defenders, × level, kaboot, Gahwa."""
    level = hand.level
    total = SUN_TOTAL if hand.sun else HOKUM_TOTAL
    if level == GAHWA:
        return t("result.rule.gahwa", locale, gahwa=level_text(GAHWA, locale))
    if summary["kaboot"] is not None:
        return t("result.rule.kaboot", locale, kaboot=t("kaboot", locale),
                 base=KABOOT_SUN if hand.sun else KABOOT_HOKUM, factor=level)
    if level == 1:
        if winner == hand.declarers:
            return t("result.rule.own", locale)
        return t("result.rule.lost", locale, team=team_label(winner, locale), total=total)
    pfactor = level if hand.rules.projects_multiply_fully and level >= 3 else 2
    return t("result.rule.multiplied", locale, factor=level, level=level_text(level, locale),
             total=total, pfactor=pfactor)


def sawa_field(info: TableInfo, hand: Hand, locale: str) -> dict[str, Any] | None:
    """R12: who claimed the remaining tricks, and the cards the claim showed (public once claimed)."""
    seat = hand.sawa_by
    if seat is None:
        return None
    cards = cards_text(sort_cards(hand.hand_of(seat), hand.trump_suit, hand.sun), locale)
    return _field(t("result.sawa", locale), t("result.sawa_line", locale, name=seat_name(info, seat, locale),
                                               tricks=8 - hand.trick_no, cards=cards))


def breakdown_embed(info: TableInfo, match: Match, index: int, locale: str) -> dict[str, Any] | None:
    """Card points → game points → projects and Baloot → winner → multiplier → hand score (R7)."""
    hand = match.hands[index]
    result = hand.result
    if result is None or hand.outcome != Outcome.CONTRACT:
        return None
    summary = hand_summary(hand)
    projects = summary["projects"] or []
    bonus = [0, 0]
    lines = []
    for p in projects:
        bonus[p["seat"] & 1] += p["value"]
        lines.append(t("result.project_line", locale, name=seat_name(info, p["seat"], locale),
                       project=project_name(p["type"], locale), points=p["value"]))
    if summary["baloot"] is not None:
        bonus[summary["baloot"]] += 2
        lines.append(t("result.baloot_line", locale, baloot=t("baloot", locale),
                       team=team_label(summary["baloot"], locale)))
    game = summary["game_points"]
    converted = [game[0] - bonus[0], game[1] - bonus[1]]
    winner = result.winner
    if summary["kaboot"] is not None:
        winner_text = t("result.kaboot_line", locale, team=team_label(winner, locale), kaboot=t("kaboot", locale))
    elif game[0] == game[1]:
        counting = counting_team(hand.declarers, hand.level, None if hand.last_raiser is None else hand.last_raiser & 1)
        winner_text = t("result.winner_tie", locale, team=team_label(winner, locale),
                        digit=summary["card_points"][counting] % 10)
    else:
        winner_text = t("result.winner_line", locale, team=team_label(winner, locale))
    after = score_before(match, index)
    fields = [
        _field(t("result.card_points", locale), pair_lines(summary["card_points"], locale), True),
        _field(t("result.game_points", locale), pair_lines(converted, locale), True),
        _field(t("result.projects", locale), "\n".join(lines) or t("result.none", locale), False),
        _field(t("result.total", locale), pair_lines(game, locale), True),
        _field(t("result.winner", locale), winner_text, False),
        _field(t("result.multiplier", locale), _rule_line(hand, summary, winner, locale), False),
        _field(t("result.score", locale), pair_lines(summary["score"], locale), True),
        _field(t("result.match_score", locale, n=index + 1), pair_lines(after, locale), True),
    ]
    claim = sawa_field(info, hand, locale)
    if claim is not None:
        fields.insert(0, claim)
    return {"title": t("result.title", locale, n=index + 1), "color": GOLD, "fields": fields}


def _sheet_contract(hand: dict[str, Any], locale: str) -> str:
    if hand["score"] is None:
        return t("sheet.in_play", locale)
    if hand["contract"] is None:
        return t("sheet.thrown_in", locale)
    trump = None if hand["trump"] is None else "SHDC".index(hand["trump"])
    text = contract_text(hand["contract"], trump, locale)
    level = GAHWA if hand["level"] == "gahwa" else int(hand["level"])
    return text if level == 1 else f"{text} · {level_text(level, locale)}"


def sheet_text(summary: dict[str, Any], locale: str, budget: int = DESCRIPTION) -> str:
    """The score sheet, one line per hand with running totals; the latest hands if it is long."""
    hands = summary["hands"]
    if not hands:
        return t("sheet.empty", locale)
    rows = []
    ta = tb = 0
    for n, hand in enumerate(hands, 1):
        a, b = hand["score"] or (0, 0)
        ta, tb = ta + a, tb + b
        rows.append(t("sheet.row", locale, n=n, contract=_sheet_contract(hand, locale), a=a, b=b, ta=ta, tb=tb))
    header = t("sheet.header", locale, a=team_label(0, locale), b=team_label(1, locale))
    total = t("table.score_line", locale, team=t("sheet.total", locale), points=f"{summary['score'][0]} : "
              f"{summary['score'][1]}")
    kept: list[str] = []
    size = len(header) + len(total) + 80
    for row in reversed(rows):
        if size + len(row) + 1 > budget:
            break
        kept.append(row)
        size += len(row) + 1
    kept.reverse()
    lines = [header]
    if len(kept) < len(rows):
        lines.append(t("sheet.earlier", locale, count=len(rows) - len(kept)))
    return "\n".join([*lines, *kept, total])


class SheetLike(Protocol):
    """The table service's ``ScoreSheet``: R10 hand summaries, the score and the winner."""

    @property
    def hands(self) -> Sequence[dict[str, Any]]: ...
    @property
    def score(self) -> tuple[int, int]: ...
    @property
    def winner(self) -> int | None: ...


SheetSource: TypeAlias = "Match | SheetLike | dict[str, Any]"


def summary_of(source: SheetSource) -> dict[str, Any]:
    """An R10 replay summary from a :class:`Match`, a summary dict, or a ``ScoreSheet``."""
    if isinstance(source, Match):
        return replay_summary(source)
    if isinstance(source, dict):
        return source
    return {"hands": list(source.hands), "score": list(source.score), "winner": source.winner}


def sheet_embed(info: TableInfo, source: SheetSource, locale: str, budget: int = DESCRIPTION) -> dict[str, Any]:
    """The score sheet of every hand, and the winner once the match is over (R8).

    ``source``: a :class:`Match` or its replay summary (see :func:`summary_of`).
    """
    summary = summary_of(source)
    embed: dict[str, Any] = {"title": t("sheet.title", locale), "color": GREEN,
                             "description": sheet_text(summary, locale, budget)}
    winner = summary["winner"]
    if winner is not None:
        embed["title"] = t("match.winner_title", locale, team=team_label(winner, locale))
        hands = summary["hands"]
        if hands and hands[-1]["level"] == "gahwa" and hands[-1]["score"] is not None:
            line = t("match.gahwa_line", locale, gahwa=level_text(GAHWA, locale))
        else:
            line = t("match.winner_line", locale, a=summary["score"][0], b=summary["score"][1])
        embed["description"] = clip(line + "\n\n" + embed["description"], DESCRIPTION)
        embed["color"] = GOLD
    embed["footer"] = {"text": t("table.footer", locale, table=info.table_id)}
    return embed
