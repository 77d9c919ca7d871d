"""The arena's counts: thrown-in hands (R3.2), contracts taken and made (R3, R7),
raises (R4), and shards that combine into the same figures as one run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from baloot.tools.arena import CONTRACTS, Tally, main, play_deal_pairs


def test_every_hand_is_thrown_in_or_a_contract_of_one_side() -> None:
    tally = play_deal_pairs("normal", "easy", 0, 40, 7, None)
    hands = len(tally.hand_diffs)
    assert hands == 80
    taken = sum(side.taken[c] for side in tally.sides for c in CONTRACTS)
    assert tally.thrown_in + taken == hands
    assert 0 < tally.thrown_in < hands
    for side in tally.sides:
        for contract in CONTRACTS:
            assert 0 <= side.made[contract] <= side.taken[contract]
        for kind, count in side.raised.items():
            assert 0 <= side.raised_won[kind] <= count
    # A thrown-in hand scores nothing for either side.
    assert sum(1 for d in tally.hand_diffs if d == 0) >= tally.thrown_in


def test_same_level_on_both_sides_counts_the_same_for_each() -> None:
    """A deterministic level against itself plays each deal identically with the teams swapped."""
    tally = play_deal_pairs("normal", "normal", 0, 30, 3, None)
    a, b = tally.sides
    assert a.taken == b.taken and a.made == b.made and a.raised == b.raised
    assert all(r == 0.5 for r in tally.pair_results)


def test_shards_merge_into_the_whole_run() -> None:
    whole = play_deal_pairs("normal", "easy", 0, 20, 5, None)
    merged = play_deal_pairs("normal", "easy", 0, 8, 5, None)
    merged.merge(play_deal_pairs("normal", "easy", 8, 12, 5, None))
    assert merged.pair_results == whole.pair_results
    assert merged.hand_diffs == whole.hand_diffs
    assert merged.thrown_in == whole.thrown_in
    assert merged.sides == whole.sides
    assert Tally.from_json(merged.to_json()).sides == whole.sides


def test_save_and_merge_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    assert main(["normal", "easy", "--pairs", "6", "--seed", "2", "--save", str(one)]) == 0
    assert main(["normal", "easy", "--pairs", "6", "--seed", "2", "--first", "6", "--save", str(two)]) == 0
    capsys.readouterr()
    assert main(["--merge", str(one), str(two)]) == 0
    merged = capsys.readouterr().out
    assert main(["normal", "easy", "--pairs", "12", "--seed", "2"]) == 0
    whole = capsys.readouterr().out
    assert "12 duplicate deal pairs" in merged and "hands thrown in (R3.2)" in merged
    # Everything after the first line (which names the source and time) is the same.
    assert merged.splitlines()[1:-3] == whole.splitlines()[1:-3]
    saved = json.loads(one.read_text())
    assert saved["meta"]["first"] == 0 and saved["meta"]["count"] == 6


def test_merge_refuses_runs_of_different_levels(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    assert main(["normal", "easy", "--pairs", "2", "--save", str(one)]) == 0
    assert main(["easy", "easy", "--pairs", "2", "--save", str(two)]) == 0
    assert main(["--merge", str(one), str(two)]) == 2
    assert "different run" in capsys.readouterr().out
