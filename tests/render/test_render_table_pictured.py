"""Beside the picture the table message keeps only what the picture cannot carry.

The full text (about forty lines in a late trick) repeated the picture: the
teams, the dealer, the up card, the phase, both tricks card by card. With the
picture it keeps the turn and its deadline, who holds the trick, the bids in
order, the contract, doubling chain, projects, Baloot, tricks and card points,
the trick and the score each on one line (for a screen reader), the target.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from baloot import Match, Rules
from baloot.engine.hand import Phase
from baloot.engine.summary import summarize_match
from baloot.engine.view import public_view
from baloot.i18n import t
from baloot.render import RenderInfo
from baloot.render.table import render_table

NAMES = ("Ali", "Omar", "Saad", "Faisal")


def _lines(embed: dict[str, Any]) -> int:
    """The lines a reader meets: the description's, and each field's name and value lines."""
    count = len(embed.get("description", "").splitlines())
    return count + sum(1 + len(f["value"].splitlines()) for f in embed.get("fields", []))


def _states(seed: int) -> list[tuple[Any, Any]]:
    rng = random.Random(seed)
    match = Match(Rules(), first_dealer=seed % 4)
    out = []
    hand = match.deal(rng)
    while not hand.finished:
        out.append((public_view(hand, hand.match_score), summarize_match(match)))
        match.apply(rng.choice(hand.legal_actions()))
    return out


@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("seed", range(3))
def test_beside_the_picture_the_text_is_short_and_does_not_repeat_it(seed: int, language: str) -> None:
    info = RenderInfo("t", NAMES, turn_deadline=1_900_000_000, language=language)
    longest = 0
    for view, sheet in _states(seed):
        full = render_table(info, view, sheet, language)["embeds"][0]
        short = render_table(info, view, sheet, language, pictured=True)["embeds"][0]
        longest = max(longest, _lines(full))
        assert _lines(short) <= 13, short
        names = " | ".join(f["name"] for f in short["fields"])
        for shown in ("table.teams", "table.dealer", "table.up_card"):  # the picture shows these
            assert t(shown, language) not in names
        phase = t(f"table.phase.{int(view.phase)}", language)
        assert not any(line.strip("\u200f\u200e") == phase for line in short["description"].splitlines())
        # what the picture cannot carry stays: the turn's deadline, the target, the contract and its taker
        if view.to_move is not None:
            assert "<t:1900000000:R>" in short["description"]
        assert str(sheet.target) in short["fields"][-1]["value"]
        if view.contract is not None:
            assert t("table.contract", language) in names
        if view.phase == Phase.PLAYING and view.current_trick is not None and view.current_trick.cards:
            trick = next(f for f in short["fields"] if t("table.current_trick", language) in f["name"])
            assert len(trick["value"].splitlines()) == 1  # Ali: Q♥, Omar: 7♥ … on one line
    assert longest >= 25  # the full text, still sent without a picture, was long


def test_without_a_picture_the_full_text_stays() -> None:
    view, sheet = _states(1)[-1]
    info = RenderInfo("t", NAMES)
    names = " | ".join(f["name"] for f in render_table(info, view, sheet, "en")["embeds"][0]["fields"])
    assert t("table.teams", "en") in names and t("table.dealer", "en") in names
