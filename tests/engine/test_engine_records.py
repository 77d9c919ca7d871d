"""Game records and ``python -m baloot replay`` (R10, R11.4-R11.7).

The golden records in ``tests/golden`` were built with the deck builder of
``engine_helpers`` (hands chosen by hand, bidding and doubling scripted, most
plays the first legal card; the tie hand's plays come from a seeded random
search for an 80:82 split, then frozen). Each ``*.expected.json`` was checked
by hand against docs/rules.md; the arithmetic is written out in GOLDEN_NOTES below,
and the card points are recomputed here independently of the engine.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from engine_helpers import replay_cli, trick_points_independent

from baloot.engine.records import match_from_record, replay_summary, replay_text

GOLDEN = Path(__file__).parents[1] / "golden"
RECORDS = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".expected.json"))

# Seats: dealer d, p1 = d+1 ... Team 0 = seats 0 and 2, team 1 = seats 1 and 3.
GOLDEN_NOTES = {
    "hokum_baloot_cancelled_by_shown_hundred": """
        Dealer 3. 0 pass, 1 pass, 2 (p3) Hokum, 3 pass; step C asks 0 and 1 (pass, pass);
        seat 2 confirms: hearts (up card 9H), declarer 2 (R3.1). Defenders 1, 3 pass: level 1.
        Trick 1: seat 0 declares Sira T-9-8 S, seat 1 Sira 9-8-7 D; top T beats top 9 (R6.2):
        team 0 has the projects. Trick 2: seat 2 (did not declare) shows K-Q-J-T-9 H, a Hundred
        (10). Seat 2 holds KH QH, but its scored Hundred is a five-card sequence holding both:
        Baloot cancelled (R6.3, R11.8) -> baloot null.
        Tricks: 17 (t0), 23 (t1), 24, 13, 18, 26 (t0), 5, 26+10 (t1): 98 : 64.
        No double: defenders (team 1) count 64 -> 6; team 0 16-6 = 10 + 2 + 10 = 22.
        Declarers win at level 1: each scores its own: [22, 6].""",
    "hokum_kaboot_under_locked_double": """
        Dealer 3. Seat 0 (p1) Hokum, all pass, confirms hearts; seat 1 doubles locked, seat 0
        passes: level 2, locked. Seat 0 holds only trumps so may lead them (R5.2).
        Trick 1: seat 0 declares run of eight = Hundred A-K-Q-J-T + Sira 9-8-7 (R6.1); seat 1
        declares a Fifty which loses. Seat 0 wins all 8 tricks: 162 : 0, kaboot 0.
        Counting team after a Double by team 1: team 0: 162 -> 16; team 1 0.
        Baloot inside the scored Hundred: cancelled. game_points [16+10+2, 0] = [28, 0].
        Kaboot: 25 x 2 + (10+2) x 2 = 74 (R7): [74, 0].""",
    "round_two_hokum_named_suit_locked_four": """
        Dealer 0 (p1 = 1). Round one: four passes. Round two: 1 pass, 2 Hokum, 3 and 0 pass;
        seat 2 names spades (not clubs, the up card 7C's suit) (R3.2). Defenders 1 (p1) then
        3: 1 pass, 3 double open, 2 triple, 3 four locked, 2 pass: level 4, locked (R4).
        Tricks: 10, 20, 10, 20 (t0), 12 (t1), 14 (t0), 47 (t1), 19+10 (t0): 103 : 59.
        Last raiser team 1 (Four): team 0 counts 103 -> 10; team 1 6. Team 0 wins:
        16 x 4 = 64 (R7): [64, 0].""",
    "hokum_tie_won_on_units_digit": """
        Dealer 3. Seat 0 Hokum in hearts, no double; seat 0's Sira Q-J-T C is never declared,
        so it does not score. K and Q of hearts are in different hands: no Baloot.
        Card points 80 : 82. Defenders (team 1) count 82 -> 8; declarers 16-8 = 8: a tie.
        Hokum, units digit 2 -> the counting team wins (R7); level 1, declarers lost:
        team 1 scores everything, 16: [0, 16].""",
    "sun_ashkal_projects_trick_two_show": """
        Dealer 3. 0 pass, 1 pass, 2 (p3) Ashkal; step B: 0 and 1 pass; the Ashkal stands,
        seat 0 (partner) takes the up card KD (R3.1). Sun, 0:0, no doubling (R4, R11.1).
        Trick 1: seat 2 declares a Fifty (10), seat 3 a Sira (4): team 0 wins. Seat 0 played
        QS in trick 1 and shows four Queens in trick 2 (judged on the 8-card hand): 20.
        Tricks: 9 (t1), 17, 22, 2, 13, 16, 23 (t0), 18+10 (t1): 93 : 37.
        Defenders (team 1) count 37 -> 40 -> 8; team 0: 26-8 = 18 + 20 + 10 = 48.
        Declarers win at level 1: [48, 8].""",
    "three_hands_thrown_in_sun_and_in_progress": """
        Hand 0, dealer 1: eight passes, thrown in (R3.2); R11.6 output.
        Hand 1, dealer 2 (the deal passed to the right): p1 = seat 3 bids Sun, which stands at
        once; seat 3 takes all 8 tricks: 0 : 130, kaboot 1. Defenders (team 0) count 0 -> 0,
        team 1 26: game_points [0, 26]; Sun kaboot 44 x 1: [0, 44].
        Hand 2, dealer 3: seat 0 Hokum in clubs, seat 1 doubles open, seat 0 passes: level 2,
        open; five cards played, the record ends: contract/trump/declarer/level/locked known,
        every other field null, score null (R11.6). Match score [0, 44], winner null.""",
    "hokum_gahwa_wins_match": """
        Dealer 3. Seat 0 Hokum in diamonds; 1 double open, 0 triple, 1 four open, 0 gahwa.
        No projects declared; seat 2 holds KD QD: Baloot for team 0.
        Tricks: 3 (t0), 14 (t1), 2, 13, 30, 24, 29, 37+10 (t0): 148 : 14.
        Gahwa was said by team 0, so team 1 counts: 14 -> 1; team 0 15 + 2 = 17.
        Team 0 wins the hand and the match at once; the hand scores [0, 0] (R11.6),
        match score [0, 0], winner 0.""",
}


def _load(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text())
    assert isinstance(data, dict)
    return data


def test_golden_set_is_complete() -> None:
    """Every golden record has an expected output and an explanation."""
    assert len(RECORDS) >= 5
    assert {p.stem for p in RECORDS} == set(GOLDEN_NOTES)
    for p in RECORDS:
        assert p.with_name(p.stem + ".expected.json").exists()


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_golden_replay_cli(path: Path) -> None:
    """R10: ``python -m baloot replay`` prints exactly the hand-checked summary, exit 0."""
    code, out = replay_cli(path)
    assert code == 0
    assert out == _load(path.with_name(path.stem + ".expected.json"))


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_golden_card_points_independent(path: Path) -> None:
    """R1.1/R5: the expected card points agree with an independent recount of the tricks."""
    record = _load(path)
    expected = _load(path.with_name(path.stem + ".expected.json"))
    for hand_obj, out in zip(record["hands"], expected["hands"], strict=True):
        plays = [(a["seat"], a["card"]) for a in hand_obj["actions"] if a["type"] == "play"]
        if len(plays) < 32:
            assert out["card_points"] is None or out["contract"] is None
            continue
        trump = out["trump"]
        assert trump_points_ok(trump, plays, out["card_points"])


def trump_points_ok(trump: str | None, plays: list[tuple[int, str]], card_points: list[int]) -> bool:
    return trick_points_independent(trump, plays) == card_points


# --- R10 / R11.5 errors through the command line ----------------------------------------------


def _golden(name: str) -> dict[str, Any]:
    return _load(GOLDEN / f"{name}.json")


def _replay_obj(tmp_path: Path, obj: object) -> tuple[int, Any]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(obj))
    return replay_cli(path)


def _assert_error(result: tuple[int, Any], hand: int | None, action: int | None) -> str:
    code, out = result
    assert code == 1
    assert set(out) == {"error"}
    assert set(out["error"]) == {"hand", "action", "message"}
    assert (out["error"]["hand"], out["error"]["action"]) == (hand, action), out
    message = out["error"]["message"]
    assert isinstance(message, str) and message
    return message


def test_r10_wrong_format(tmp_path: Path) -> None:
    """R11.5: a wrong ``format`` is reported with hand null."""
    rec = _golden("hokum_tie_won_on_units_digit")
    rec["format"] = "baloot-game/2"
    _assert_error(_replay_obj(tmp_path, rec), None, None)
    del rec["format"]
    _assert_error(_replay_obj(tmp_path, rec), None, None)


@pytest.mark.parametrize(
    "mutate",
    [
        lambda deck: deck[:31],
        lambda deck: [*deck[:31], deck[0]],
        lambda deck: [*deck[:31], "XX"],
        lambda deck: [*deck, "7S"],
        lambda deck: "7S 8S",
    ],
    ids=["31 cards", "duplicate", "bad card", "33 cards", "not a list"],
)
def test_r10_bad_deck(tmp_path: Path, mutate: Any) -> None:
    """R10: a malformed hand (bad deck) is reported with action null."""
    rec = _golden("three_hands_thrown_in_sun_and_in_progress")
    rec["hands"][1]["deck"] = mutate(rec["hands"][1]["deck"])
    _assert_error(_replay_obj(tmp_path, rec), 1, None)


def test_r10_wrong_dealer(tmp_path: Path) -> None:
    """R10 / R1: each hand's dealer must be the previous dealer + 1."""
    rec = _golden("three_hands_thrown_in_sun_and_in_progress")
    rec["hands"][1]["dealer"] = 3
    _assert_error(_replay_obj(tmp_path, rec), 1, None)
    rec = _golden("three_hands_thrown_in_sun_and_in_progress")
    rec["hands"][0]["dealer"] = 4
    _assert_error(_replay_obj(tmp_path, rec), 0, None)


def test_r11_5_hand_after_match_won(tmp_path: Path) -> None:
    """R11.5: a hand after the match is won (here by Gahwa) is reported on that hand."""
    rec = _golden("hokum_gahwa_wins_match")
    extra = copy.deepcopy(rec["hands"][0])
    extra["dealer"] = 0
    extra["actions"] = []
    rec["hands"].append(extra)
    _assert_error(_replay_obj(tmp_path, rec), 1, None)


def test_r11_5_new_hand_after_unfinished(tmp_path: Path) -> None:
    """R11.5: a new hand after an unfinished one is reported on the new hand, action null."""
    rec = _golden("three_hands_thrown_in_sun_and_in_progress")
    extra = copy.deepcopy(rec["hands"][1])
    extra["dealer"] = 0
    extra["actions"] = []
    rec["hands"].append(extra)
    _assert_error(_replay_obj(tmp_path, rec), 3, None)


def test_r11_5_action_after_hand_complete(tmp_path: Path) -> None:
    """R11.5: an action after a hand is complete is reported at its own index."""
    rec = _golden("hokum_tie_won_on_units_digit")
    n = len(rec["hands"][0]["actions"])
    rec["hands"][0]["actions"].append({"seat": 0, "type": "pass"})
    _assert_error(_replay_obj(tmp_path, rec), 0, n)
    rec = _golden("three_hands_thrown_in_sun_and_in_progress")
    rec["hands"][0]["actions"].append({"seat": 2, "type": "sun"})
    _assert_error(_replay_obj(tmp_path, rec), 0, 8)


def test_r10_illegal_action_index(tmp_path: Path) -> None:
    """R10: the first illegal action makes the record invalid, at its index."""
    rec = _golden("hokum_tie_won_on_units_digit")
    acts = rec["hands"][0]["actions"]
    # index 1: seat 1 passes; seat 2 speaking instead is out of turn
    acts[1] = {"seat": 2, "type": "pass"}
    _assert_error(_replay_obj(tmp_path, rec), 0, 1)
    # a play that breaks R5: trick 2 leader seat 1 leads QH (trump); seat 2 must play a heart
    rec = _golden("hokum_tie_won_on_units_digit")
    acts = rec["hands"][0]["actions"]
    i = next(k for k, a in enumerate(acts) if a.get("card") == "JH")
    assert acts[i]["seat"] == 2 and acts[i - 1]["card"] == "QH"
    acts[i] = {"seat": 2, "type": "play", "card": "7S"}
    message = _assert_error(_replay_obj(tmp_path, rec), 0, i)
    assert "R5" in message


def test_r11_4_records_double_without_locked_and_sun_double_locked(tmp_path: Path) -> None:
    """R11.4: a Hokum double without ``locked`` is illegal; a round-two confirmation must
    carry ``suit``; unknown extra keys are ignored."""
    rec = _golden("round_two_hokum_named_suit_locked_four")
    acts = rec["hands"][0]["actions"]
    i = next(k for k, a in enumerate(acts) if a["type"] == "double")
    del acts[i]["locked"]
    _assert_error(_replay_obj(tmp_path, rec), 0, i)
    rec = _golden("round_two_hokum_named_suit_locked_four")
    acts = rec["hands"][0]["actions"]
    i = next(k for k, a in enumerate(acts) if a.get("suit"))
    del acts[i]["suit"]
    _assert_error(_replay_obj(tmp_path, rec), 0, i)
    for bad_suit in ("C", "X", 3, "s", None):  # the up card's suit (C), junk, lower case, null
        rec = _golden("round_two_hokum_named_suit_locked_four")
        acts = rec["hands"][0]["actions"]
        acts[i]["suit"] = bad_suit
        _assert_error(_replay_obj(tmp_path, rec), 0, i)
    rec = _golden("round_two_hokum_named_suit_locked_four")
    for a in rec["hands"][0]["actions"]:
        a["comment"] = "ignored"
    rec["hands"][0]["extra"] = [1, 2]
    code, out = _replay_obj(tmp_path, rec)
    assert code == 0
    assert out == _load(GOLDEN / "round_two_hokum_named_suit_locked_four.expected.json")


@pytest.mark.parametrize(
    "text",
    ["{", "", "not json", '{"format": "baloot-game/1", "hands": [', "[1, 2]", "null", '"text"'],
)
def test_r10_malformed_json_is_json_error_not_traceback(tmp_path: Path, text: str) -> None:
    """R10: malformed input still prints one JSON object (hand null) and exits 1."""
    path = tmp_path / "bad.json"
    path.write_text(text)
    _assert_error(replay_cli(path), None, None)


def test_r10_deeply_nested_json_is_json_error(tmp_path: Path) -> None:
    """R10: the engine never crashes with a traceback on bad input."""
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000)
    _assert_error(replay_cli(path), None, None)


def test_r10_invalid_utf8_and_missing_file(tmp_path: Path) -> None:
    """R10: an unreadable or missing file is an error object too, exit 1."""
    path = tmp_path / "bin.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    _assert_error(replay_cli(path), None, None)
    _assert_error(replay_cli(tmp_path / "missing.json"), None, None)


@pytest.mark.parametrize(
    "hands",
    [
        {"hands": "x"},
        {"hands": [1]},
        {"hands": [{"dealer": "0", "deck": [], "actions": []}]},
        {"hands": [{"dealer": True, "deck": [], "actions": []}]},
    ],
)
def test_r10_malformed_structure(hands: dict[str, Any]) -> None:
    """R10: structural faults are errors, never exceptions (checked in process)."""
    code, out = replay_text(json.dumps({"format": "baloot-game/1", **hands}))
    assert code == 1 and "error" in out


@pytest.mark.parametrize(
    "action",
    [
        {"seat": 0},
        {"type": "pass"},
        {"seat": 4, "type": "pass"},
        {"seat": -1, "type": "pass"},
        {"seat": 0.0, "type": "pass"},
        {"seat": True, "type": "pass"},
        {"seat": 0, "type": "PASS "},
        {"seat": 0, "type": "play"},
        {"seat": 0, "type": "play", "card": "ZZ"},
        {"seat": 0, "type": "play", "card": None},
        {"seat": 0, "type": "double", "locked": "yes"},
        "pass",
        None,
        [0, "pass"],
    ],
)
def test_r10_malformed_action(action: object) -> None:
    """R10: a malformed action object is reported at its index (hand 0, action 0)."""
    rec = _golden("hokum_tie_won_on_units_digit")
    rec["hands"][0]["actions"] = [action]
    code, out = replay_text(json.dumps(rec))
    assert code == 1
    assert (out["error"]["hand"], out["error"]["action"]) == (0, 0), out


# --- R11.6: a record ending mid-hand -------------------------------------------------------------


def _summary_after(name: str, n_actions: int) -> dict[str, Any]:
    rec = _golden(name)
    rec["hands"][-1]["actions"] = rec["hands"][-1]["actions"][:n_actions]
    out = replay_summary(match_from_record(rec))
    return dict(out["hands"][-1])


LATER = ("card_points", "game_points", "projects", "baloot", "kaboot", "score")


def test_r11_6_in_progress_fields() -> None:
    """R11.6: contract/trump/declarer appear when bidding ends, level/locked when doubling
    ends, the rest stays null until the last trick (golden hand: Hokum by seat 2, 7 bids,
    then 2 doubling passes, then 36 declarations and plays)."""
    name = "hokum_baloot_cancelled_by_shown_hundred"
    s = _summary_after(name, 3)
    assert s["dealer"] == 3
    assert all(s[k] is None for k in ("contract", "trump", "declarer", "level", "locked", *LATER))
    s = _summary_after(name, 7)
    assert (s["contract"], s["trump"], s["declarer"]) == ("hokum", "H", 2)
    assert s["level"] is None and s["locked"] is None
    assert all(s[k] is None for k in LATER)
    s = _summary_after(name, 8)
    assert s["level"] is None and s["locked"] is None
    s = _summary_after(name, 9)
    assert (s["level"], s["locked"]) == (1, False)
    assert all(s[k] is None for k in LATER)
    total = len(_golden(name)["hands"][0]["actions"])
    s = _summary_after(name, total - 1)
    assert all(s[k] is None for k in LATER)
    s = _summary_after(name, total)
    assert s["score"] == [22, 6]


def test_r11_6_in_progress_match_score_and_winner() -> None:
    """R10: the top-level score counts the finished hands; winner null while in progress."""
    rec = _golden("three_hands_thrown_in_sun_and_in_progress")
    code, out = replay_text(json.dumps(rec))
    assert code == 0
    assert out["score"] == [0, 44] and out["winner"] is None
    assert out["hands"][2]["score"] is None
    rec = _golden("hokum_gahwa_wins_match")
    rec["hands"][0]["actions"] = rec["hands"][0]["actions"][:-1]
    code, out = replay_text(json.dumps(rec))
    assert code == 0 and out["winner"] is None and out["hands"][0]["level"] == "gahwa"


def test_r10_record_round_trip_of_goldens() -> None:
    """R10: writing a replayed record gives back an equivalent record."""
    for path in RECORDS:
        rec = _load(path)
        match = match_from_record(rec)
        again = match.to_record()
        assert [h["actions"] for h in again["hands"]] == [h["actions"] for h in rec["hands"]]
        assert [h["deck"] for h in again["hands"]] == [h["deck"] for h in rec["hands"]]
        assert replay_summary(match_from_record(again)) == replay_summary(match)
