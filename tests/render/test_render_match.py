"""Whole matches: the hand-end breakdown, the match end and the score sheet."""

from __future__ import annotations

import random
import re
from typing import Any

from render_helpers import table_payload

from baloot import ActionType, Match, Phase, Rules, replay_summary
from baloot.engine.records import hand_summary
from baloot.engine.scoring import GAHWA
from baloot.engine.summary import summarize_match
from baloot.i18n import t
from baloot.i18n.direction import rtl, strip_isolates
from baloot.render import RenderInfo, check_limits, render_result, render_score_sheet
from baloot.render.custom_ids import ReviewId
from baloot.render.text import team_name

INFO = RenderInfo("987654321", names=("Noura", "Fahad", "Reem", "Saad"))


def play_match(seed: int, rules: Rules, *, always_raise: bool = False, render_every_hand: bool = True,
               locale: str = "en", no_gahwa: bool = False) -> tuple[Match, list[dict[str, Any]]]:
    """Play a random match to its end; render the table after each hand."""
    rng = random.Random(seed)
    match = Match(rules, first_dealer=seed % 4)
    ends: list[dict[str, Any]] = []
    while not match.finished:
        hand = match.deal(rng)
        while not hand.finished:
            legal = hand.legal_actions()
            raises = [a for a in legal if a.type in (ActionType.DOUBLE, ActionType.TRIPLE, ActionType.FOUR,
                                                      ActionType.GAHWA, ActionType.HOKUM)]
            passes = [a for a in legal if a.type is ActionType.PASS and hand.phase == Phase.BIDDING]
            action = rng.choice(legal)
            if no_gahwa and hand.phase == Phase.DOUBLING:
                action = next(a for a in legal if a.type is not ActionType.GAHWA)
            if always_raise:
                action = raises[0] if raises else passes[0] if passes else action
            match.apply(action)
        if render_every_hand:
            payload = table_payload(INFO, match, locale)
            check_limits(payload)
            ends.append(payload)
    return match, ends


def fields_of(embed: dict[str, Any]) -> dict[str, str]:
    return {f["name"]: f["value"] for f in embed["fields"]}


def numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r": (-?\d+)", text)]


def test_breakdown_matches_the_replay_summary_for_every_hand() -> None:
    """The R7 breakdown of every scored hand: on the table message for the match's last hand; for the others
    behind "Details", the message itself shrinking to who won and the scores."""
    for seed in range(3):
        match, ends = play_match(seed, Rules(target=152))
        assert len(ends) == len(match.hands)
        sheet = summarize_match(match)
        running = [0, 0]
        for i, (hand, payload) in enumerate(zip(match.hands, ends, strict=True)):
            summary = hand_summary(hand)
            running = [running[0] + summary["score"][0], running[1] + summary["score"][1]]
            if summary["contract"] is None:
                assert len(payload["embeds"]) == 1 or i == len(match.hands) - 1
                assert "thrown in" in payload["embeds"][0]["description"] or "Kawesh" in payload["embeds"][0][
                    "description"]
                continue
            if i < len(match.hands) - 1:
                compact = payload["embeds"]
                assert len(compact) == 1 and compact[0]["title"] == t("table.title", "en", n=i + 1)
                won = (hand.result.winner if hand.result else None) or 0
                assert team_name(INFO, won, "en") in compact[0]["description"]
                assert numbers(fields_of(compact[0])["Hand score"]) == summary["score"]
                assert numbers(fields_of(compact[0])[f"Match score after hand {i + 1}"]) == running
                buttons = [c["custom_id"] for row in payload["components"] for c in row["components"]]
                assert buttons == ["bl:987654321:mine", f"bl:987654321:result:{i}", f"bl:987654321:review:{i}:0:4"]
                details = render_result(INFO, None, sheet, i, "en")
                assert details is not None and details["components"] == []
                embed = details["embeds"][0]
            else:
                embed = payload["embeds"][1]
            result = fields_of(embed)
            assert embed["title"] == f"Hand {i + 1} result"
            assert numbers(result["Card points"]) == summary["card_points"]
            assert numbers(result["Game points with projects"]) == summary["game_points"]
            assert numbers(result["Hand score"]) == summary["score"]
            assert numbers(result[f"Match score after hand {i + 1}"]) == running
            winner = hand.result.winner if hand.result else None
            # teams by their players' names instead of "Team n"
            assert team_name(INFO, winner if winner is not None else 0, "en") in result["Winner"]
        assert running == list(match.score) or match.hands[-1].level == GAHWA


def test_match_end_shows_winner_and_every_hand_and_drops_the_button() -> None:
    match, ends = play_match(11, Rules(target=152), locale="ar")
    final = ends[-1]
    # the breakdown is in the message: no "Details", but the hand's "Review", as on every finished hand
    assert [b["custom_id"] for row in final["components"] for b in row["components"]] == [
        ReviewId(INFO.table_id, len(match.hands) - 1).encode()]
    sheet = final["embeds"][-1]
    assert match.winner is not None
    assert sheet["title"] == rtl(t("match.winner_title", "ar", team=team_name(INFO, match.winner, "ar")))
    assert f"{match.score[0]} – {match.score[1]}" in sheet["description"]
    rows = [line for line in strip_isolates(sheet["description"]).splitlines() if line.startswith("**")]
    assert len(rows) == len(match.hands)
    for earlier in ends[:-1]:
        assert earlier["components"][0]["components"][0]["custom_id"] == "bl:987654321:mine"


def test_gahwa_wins_the_match_at_once() -> None:
    for seed in range(20):
        match, ends = play_match(seed, Rules(), always_raise=True)
        if match.hands[-1].level == GAHWA:
            break
    else:
        raise AssertionError("no Gahwa reached")
    text = str(ends[-1])
    assert "Won by Gahwa." in text
    assert "Gahwa: the winner of this hand wins the match." in text


def test_a_very_long_match_keeps_the_score_sheet_within_limits() -> None:
    match, _ = play_match(4, Rules(target=4000), render_every_hand=False, no_gahwa=True)
    assert len(match.hands) > 100, len(match.hands)
    for locale in ("en", "ar"):
        payload = table_payload(INFO, match, locale)
        check_limits(payload)
        sheet = render_score_sheet(INFO, summarize_match(match), locale)
        check_limits(sheet)
        description = sheet["embeds"][0]["description"]
        total = replay_summary(match)["score"]
        assert f"{total[0]} : {total[1]}" in description.splitlines()[-1]
        assert t("sheet.earlier", locale, count=0).split("0")[0] in description  # older hands were cut


def test_score_sheet_midway_marks_the_hand_in_play() -> None:
    rng = random.Random(9)
    match = Match()
    hand = match.deal(rng)
    assert "No hand has been played yet." not in str(render_score_sheet(INFO, summarize_match(match), "en"))
    assert "in play" in render_score_sheet(INFO, summarize_match(match), "en")["embeds"][0]["description"]
    while hand.phase == Phase.BIDDING:
        match.apply(rng.choice(hand.legal_actions()))
    empty = Match()
    assert strip_isolates(render_score_sheet(INFO, summarize_match(empty), "ar")["embeds"][0]["description"]) == t(
        "sheet.empty", "ar")
