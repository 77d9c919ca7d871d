"""The end of a hand (R7 breakdown), the end of the match (R8) and the score sheet (R10 summary)."""

from __future__ import annotations

from typing import Any, Final

from ..engine.scoring import GAHWA, HOKUM_TOTAL, KABOOT_HOKUM, KABOOT_SUN, SUN_TOTAL
from ..engine.summary import HandSummary, MatchSummary
from ..engine.view import PublicView
from ..i18n import t
from ..i18n.direction import is_rtl
from ..i18n.plural import count
from .limits import DESCRIPTION, FIELD_VALUE, clip
from .model import RenderInfo
from .text import cards_text, contract_text, level_text, project_name, seat_name, sort_cards, team_name

GOLD: Final = 0xF1C40F
GREEN: Final = 0x2ECC71


def team_label(info: RenderInfo, team: int, locale: str, viewer: int | None = None) -> str:
    """A team by its players' names (``Ali & Omar``), or ``Us``/``Them`` for a seat's own view."""
    return team_name(info, team, locale, viewer=viewer)


def team_key(info: RenderInfo, team: int, key: str) -> str:
    """``key`` when ``team`` is named by its players (a pair: Arabic puts a dual verb after it,
    فازا), else ``key.team`` (``Team n``, singular: فاز)."""
    return key if info.names[team] is not None or info.names[team + 2] is not None else key + ".team"


def pair_lines(info: RenderInfo, values: list[int] | tuple[int, int], locale: str, viewer: int | None = None) -> str:
    """``Ali & Omar: 45`` and ``Badr & Dana: 30`` on two lines (``Us``/``Them`` for a seat, us first)."""
    order = (0, 1) if viewer is None or viewer & 1 == 0 else (1, 0)
    return "\n".join(t("table.score_line", locale, team=team_label(info, i, locale, viewer), points=values[i])
                     for i in order)


def goal_line(sheet: MatchSummary, index: int, locale: str) -> str:
    """What ends the match (R8): "Playing to 152.", or for a match of a fixed number of deals the deal
    ``index`` is ("Deal 2 of 4.", or a play-off deal after level totals)."""
    if not sheet.deals:
        return t("table.target", locale, target=sheet.target)
    key = "table.deal_of" if index < sheet.deals else "table.deal_playoff"
    return t(key, locale, n=index + 1, deals=sheet.deals)


def _field(name: str, value: str, inline: bool = False) -> dict[str, Any]:
    return {"name": name, "value": clip(value, FIELD_VALUE), "inline": inline}


def _rule_line(info: RenderInfo, hand: HandSummary, winner: int, locale: str) -> str:
    """How the hand's score was reached (R7): own points, all to the defenders, × level, kaboot, Gahwa."""
    level = hand.level or 1
    total = SUN_TOTAL if hand.sun else HOKUM_TOTAL
    if level == GAHWA:
        return t("result.rule.gahwa", locale, gahwa=level_text(GAHWA, locale))
    if hand.kaboot is not None:
        return t("result.rule.kaboot", locale, kaboot=t("kaboot", locale),
                 base=KABOOT_SUN if hand.sun else KABOOT_HOKUM, factor=level)
    if level == 1:
        if winner == hand.declarers:
            return t("result.rule.own", locale)
        return t("result.rule.lost", locale, team=team_label(info, winner, locale), total=total)
    if not hand.projects:  # no "projects × 2" when nobody declared a project
        return t("result.rule.multiplied_plain", locale, factor=level, level=level_text(level, locale), total=total)
    return t("result.rule.multiplied", locale, factor=level, level=level_text(level, locale),
             total=total, pfactor=hand.project_factor)


def sawa_field(info: RenderInfo, view: PublicView, locale: str) -> dict[str, Any] | None:
    """R12: who claimed the remaining tricks, and the cards the claim showed (public once claimed)."""
    if view.sawa is None:
        return None
    seat, shown = view.sawa
    cards = cards_text(sort_cards(shown, view.trump, view.contract == "sun"), locale)
    claimed = count("last_tricks", 8 - len(view.tricks), locale)  # "the last trick", "آخر أكلتين"
    return _field(t("result.sawa", locale), t("result.sawa_line", locale, name=seat_name(info, seat, locale),
                                               tricks=claimed, cards=cards))


def winner_line(info: RenderInfo, hand: HandSummary, locale: str) -> str:
    """Who won a scored hand (R7): by more points, on the units digit of a tie, or by kaboot."""
    assert hand.winner is not None and hand.game_points is not None and hand.card_points is not None
    winner, game = hand.winner, hand.game_points
    if hand.kaboot is not None:
        return t(team_key(info, winner, "result.kaboot_line"), locale, team=team_label(info, winner, locale),
                 kaboot=t("kaboot", locale))
    if game[0] == game[1]:  # said plainly: whose card points, and the digit they end in
        counting = hand.counting_team if hand.counting_team is not None else 1 - (hand.declarers or 0)
        points = hand.card_points[counting]
        return t(team_key(info, winner, "result.winner_tie"), locale, team=team_label(info, winner, locale),
                 counter=team_label(info, counting, locale), points=points, digit=points % 10)
    return t(team_key(info, winner, "result.winner_line"), locale, team=team_label(info, winner, locale))


def compact_result_embed(
    info: RenderInfo, sheet: MatchSummary, index: int, locale: str, view: PublicView | None = None
) -> dict[str, Any] | None:
    """The end of hand ``index`` in a few lines: who won, the hand's score, the match.

    The full R7 breakdown is one press away (the "Details" button, :func:`~.table.render_result`).
    """
    hand = sheet.hands[index]
    if not hand.scored or hand.winner is None or hand.score is None:
        return None
    fields = [
        _field(t("result.score", locale), pair_lines(info, hand.score, locale), True),
        _field(t("result.match_score", locale, n=index + 1), pair_lines(info, sheet.score_after(index), locale)
               + "\n" + goal_line(sheet, index, locale), True),
    ]
    claim = None if view is None else sawa_field(info, view, locale)
    if claim is not None:
        fields.insert(0, claim)
    return {"title": t("table.title", locale, n=index + 1),  # the hand's message, as while it was played
            "description": t("table.phase.3", locale) + "\n" + winner_line(info, hand, locale),
            "color": GOLD, "fields": fields}


def breakdown_embed(
    info: RenderInfo, sheet: MatchSummary, index: int, locale: str, view: PublicView | None = None
) -> dict[str, Any] | None:
    """Card points → game points → projects and Baloot → winner → multiplier → hand score (R7)."""
    hand = sheet.hands[index]
    if not hand.scored or hand.winner is None:
        return None
    assert hand.card_points is not None and hand.game_points is not None and hand.score is not None
    bonus = [0, 0]
    lines = []
    for p in hand.projects or ():
        bonus[p.seat & 1] += p.value
        lines.append(t("result.project_line", locale, name=seat_name(info, p.seat, locale),
                       project=project_name(p.type.value, locale), points=p.value))
    if hand.baloot is not None:
        bonus[hand.baloot] += 2
        lines.append(t("result.baloot_line", locale, baloot=t("baloot", locale),
                       team=team_label(info, hand.baloot, locale)))
    game = hand.game_points
    converted = [game[0] - bonus[0], game[1] - bonus[1]]
    winner = hand.winner
    winner_text = winner_line(info, hand, locale)
    after = sheet.score_after(index)
    fields = [
        _field(t("result.card_points", locale), pair_lines(info, hand.card_points, locale), True),
        _field(t("result.game_points", locale), pair_lines(info, converted, locale), True),
        _field(t("result.projects", locale), "\n".join(lines) or t("result.none", locale), False),
        _field(t("result.total", locale), pair_lines(info, game, locale), True),
        _field(t("result.winner", locale), winner_text, False),
        _field(t("result.multiplier", locale), _rule_line(info, hand, winner, locale), False),
        _field(t("result.score", locale), pair_lines(info, hand.score, locale), True),
        _field(t("result.match_score", locale, n=index + 1), pair_lines(info, after, locale), True),
    ]
    claim = None if view is None else sawa_field(info, view, locale)
    if claim is not None:
        fields.insert(0, claim)
    return {"title": t("result.title", locale, n=index + 1), "color": GOLD, "fields": fields}


def _sheet_contract(hand: HandSummary, locale: str) -> str:
    if hand.score is None:
        return t("sheet.in_play", locale)
    if hand.contract is None:
        return t("sheet.thrown_in", locale)
    text = contract_text(hand.contract, hand.trump, locale)
    level = hand.level or 1
    return text if level == 1 else f"{text} · {level_text(level, locale)}"


def sheet_text(info: RenderInfo, summary: MatchSummary, locale: str, budget: int = DESCRIPTION,
               viewer: int | None = None) -> str:
    """The score sheet, one line per hand with running totals; the latest hands if it is long."""
    hands = summary.hands
    if not hands:
        return t("sheet.empty", locale)
    rows = []
    ta = tb = 0
    for n, hand in enumerate(hands, 1):
        a, b = hand.score or (0, 0)
        ta, tb = ta + a, tb + b
        rows.append(t("sheet.row", locale, n=n, contract=_sheet_contract(hand, locale), a=a, b=b, ta=ta, tb=tb))
    header = t("sheet.header", locale, a=team_label(info, 0, locale, viewer), b=team_label(info, 1, locale, viewer))
    points = f"{summary.score[0]} : {summary.score[1]}"
    total = t("table.score_line", locale, team=t("sheet.total", locale), points=points)
    kept: list[str] = []
    marks = 2 if is_rtl(locale) else 0  # each line gets RLI … PDI (baloot.i18n.direction)
    size = len(header) + len(total) + 80 + 3 * marks
    for row in reversed(rows):
        if size + len(row) + 1 + marks > budget:
            break
        kept.append(row)
        size += len(row) + 1 + marks
    kept.reverse()
    lines = [header]
    if len(kept) < len(rows):
        lines.append(t("sheet.earlier", locale, count=count("hands", len(rows) - len(kept), locale)))
    return "\n".join([*lines, *kept, total])


def sheet_embed(info: RenderInfo, summary: MatchSummary, locale: str, budget: int = DESCRIPTION,
                viewer: int | None = None) -> dict[str, Any]:
    """The score sheet of every hand, and the winner once the match is over (R8).
    """
    text = sheet_text(info, summary, locale, budget, viewer)
    if summary.deals:
        text = clip(t("table.deals_match", locale, deals=summary.deals) + "\n" + text, budget)
    embed: dict[str, Any] = {"title": t("sheet.title", locale), "color": GREEN, "description": text}
    winner = summary.winner
    if winner is not None:
        embed["title"] = t(team_key(info, winner, "match.winner_title"), locale, team=team_label(info, winner, locale))
        hands = summary.hands
        if hands and hands[-1].level == GAHWA and hands[-1].score is not None:
            line = t("match.gahwa_line", locale, gahwa=level_text(GAHWA, locale))
        else:
            line = t("match.winner_line", locale, a=summary.score[0], b=summary.score[1])
        embed["description"] = clip(line + "\n\n" + embed["description"], DESCRIPTION)
        embed["color"] = GOLD
    embed["footer"] = {"text": t("table.footer", locale, table=info.table_id)}
    return embed
