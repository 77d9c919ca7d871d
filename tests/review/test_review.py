"""The game reviewer: forced moves, equal cards, a planted blunder, the JSON and the
command line. Small sample budgets keep these fast; the quality figures come from
``python -m baloot review --bench``."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from played_matches import played_match

from baloot.ai.normal import NormalPlayer
from baloot.engine.actions import Action
from baloot.engine.cards import ALL_CARDS, BEATS, CARD_POINTS, NO_TRUMP
from baloot.engine.hand import Hand, Phase
from baloot.engine.records import load_record
from baloot.engine.rules import Rules
from baloot.engine.view import seat_view
from baloot.review import REVIEWER_VERSION, HandReview, review_hand, review_match
from baloot.review.accuracy import BLUNDER, move_accuracy, win_chance
from baloot.review.reviewer import judge_decision
from baloot.review.values import Judge, equal_cards

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "hokum_tie_won_on_units_digit.json"
SAMPLES = 3
FAST = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def played_hand(seed: int) -> Hand:
    return played_match(seed).hands[-1]


@FAST
@given(st.integers(0, 10_000))
def test_every_action_appears_once_and_forced_ones_are_never_judged(seed: int) -> None:
    hand = played_hand(seed)
    review = review_hand(hand, samples=SAMPLES, seed=seed)
    assert [d.action for d in review.decisions] == list(range(len(hand.actions)))
    replay = Hand(hand.dealer, hand.deck, hand.rules, hand.match_score)
    for d, action in zip(review.decisions, hand.actions, strict=True):
        legal = replay.legal_actions()
        assert [o.action for o in d.options] == legal and d.played.action is action
        assert d.forced == (len(legal) == 1)
        if d.forced:
            assert d.label is None and d.loss == 0 and d.win_drop == 0 and d.luck is None
        else:
            assert d.loss == pytest.approx(max(o.value for o in d.options) - d.played.value, abs=1e-6)
        replay.apply(action)
    assert any(d.forced for d in review.decisions) and any(not d.forced for d in review.decisions)


def touching_pairs(hand: Hand) -> list[tuple[Action, Action]]:
    """Legal plays of one suit, worth the same points, with nothing another seat may hold
    between them (R1.1), outside a Hokum plain-suit lead: the cards a player calls equal."""
    seat = hand.to_move
    gone = hand.played | sum(1 << c for c in hand.trick) | hand.hands[seat]
    points = CARD_POINTS[hand.trump]
    plays = [a for a in hand.legal_actions() if a.card is not None]
    pairs = []
    for a in plays:
        for b in plays:
            ca, cb = a.card_index, b.card_index
            if ca >= cb or ca >> 3 != cb >> 3 or points[ca] != points[cb]:
                continue
            if not hand.trick and hand.trump != NO_TRUMP and ca >> 3 != hand.trump:
                continue
            # between in trick order: a card that beats one and not the other (R1.1)
            between = [c for c in range(32) if c >> 3 == ca >> 3 and c not in (ca, cb)
                       and BEATS[(hand.trump * 32 + min(ca, cb, key=lambda x: _rank(x, hand.trump))) * 32 + c]
                       and not BEATS[(hand.trump * 32 + max(ca, cb, key=lambda x: _rank(x, hand.trump))) * 32 + c]]
            if all(gone >> c & 1 for c in between):
                pairs.append((a, b))
    return pairs


def _rank(card: int, trump: int) -> int:
    return sum(BEATS[(trump * 32 + other) * 32 + card] for other in range(32) if other >> 3 == card >> 3)


@FAST
@given(st.integers(0, 10_000))
def test_equal_cards_get_equal_values(seed: int) -> None:
    """Two touching cards are one choice (R1.1): the same fair and all-known values. (The rule-based
    play-out alone may tell them apart: it breaks ties between suits by rank, so a 7 kept may be
    discarded where a 9 kept would not.)"""
    hand = played_hand(seed)
    judge = Judge(SAMPLES)
    replay = Hand(hand.dealer, hand.deck, hand.rules, hand.match_score)
    for index, action in enumerate(hand.actions):
        if replay.phase is Phase.PLAYING and len(replay.legal_actions()) > 1:
            pairs = touching_pairs(replay)
            if pairs:
                d = judge_decision(replay, action, index, judge, samples=SAMPLES, seed=seed)
                value = {o.action: o for o in d.options}
                for a, b in pairs:
                    assert value[a].value == value[b].value
                    assert value[a].value_all_known == value[b].value_all_known
                    if d.played.action in (a, b):  # playing either costs nothing against the other
                        other = b if d.played.action is a else a
                        assert d.loss == 0 or value[other].value < max(o.value for o in d.options)
        replay.apply(action)


def test_the_equal_card_rule_keeps_a_gap_apart() -> None:
    """7 and 9 of a suit with the 8 still out are two choices (someone may hold the 8)."""
    hand = played_hand(3)
    replay = Hand(hand.dealer, hand.deck, hand.rules, hand.match_score)
    for action in hand.actions:
        if replay.phase is Phase.PLAYING:
            legal = replay.legal_actions()
            reps = equal_cards(replay, legal)
            pairs = {(a, b) for a, b in touching_pairs(replay)}
            for i, a in enumerate(legal):
                for j, b in enumerate(legal[:i]):
                    joined = reps[i] == reps[j]
                    assert joined == ((b, a) in pairs or (a, b) in pairs), (a, b)
        replay.apply(action)


def _after(hand: Hand, action: Action) -> Hand:
    trial = hand.clone()
    trial.apply(action)
    return trial


def plant_blunder(seed: int) -> tuple[Hand, Action, int] | None:
    """A hand where the last player of a trick the opponents win, with at least 10 card points
    on it (R1.1), may take it (R5) and plays its cheapest losing card instead, where giving the
    trick away costs at least a blunder's points on the real deal (R7)."""
    rng = random.Random(seed)
    bot = NormalPlayer()
    hand = Hand(seed % 4, random.Random(seed).sample(ALL_CARDS, 32), Rules())
    while not hand.finished:
        seat = hand.to_move
        if hand.phase is Phase.PLAYING and len(hand.trick) == 3 and hand.winner_seat & 1 != seat & 1:
            points = CARD_POINTS[hand.trump]
            plays = [a for a in hand.legal_actions() if a.card is not None]
            base = (hand.trump * 32 + hand.best) * 32
            losers = sorted((a for a in plays if not BEATS[base + a.card_index]), key=lambda a: points[a.card_index])
            at_stake = sum(points[c] for c in hand.trick)
            if at_stake >= 10 and losers and len(losers) < len(plays) and 2 <= hand.trick_no <= 6:
                judge = Judge(1)
                known = {a: judge.finish(_after(hand, a), seat & 1, random.Random(0)) for a in plays}
                if max(known.values()) - known[losers[0]] >= BLUNDER:  # it costs the hand (R7)
                    return hand.clone(), losers[0], len(hand.actions)
        hand.apply(bot.choose(seat_view(hand, seat), rng))
    return None


def test_a_planted_blunder_is_flagged() -> None:
    """Giving away a trick with 10 or more points on it that the player could take as the last
    to play (R5, R7) is flagged, on every such plant in the first seeds; the best card takes it."""
    found = 0
    for seed in range(600):
        planted = plant_blunder(seed)
        if planted is None:
            continue
        before, throw, index = planted
        d = judge_decision(before, throw, index, Judge(16), samples=16, seed=seed)
        assert not d.forced and d.label is not None, (seed, d.loss)
        best = d.best.action.card_index
        assert best >= 0 and BEATS[(before.trump * 32 + before.best) * 32 + best]
        found += 1
        if found == 5:
            break
    assert found >= 3


def run_review(args: list[str], stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "baloot", "review", *args], cwd=ROOT, input=stdin,
                          capture_output=True, timeout=300, check=False)


def thrown_in_record() -> dict[str, object]:
    """One hand where all four pass twice (R3.2): thrown in."""
    deck = [c.text for c in ALL_CARDS]
    return {"format": "baloot-game/1", "rules": {}, "hands": [
        {"dealer": 0, "deck": deck, "actions": [{"seat": (1 + i) % 4, "type": "pass"} for i in range(8)]}]}


def test_the_json_has_the_issues_shape_and_every_action_once(tmp_path: Path) -> None:
    done = run_review([str(GOLDEN), "--json", "--samples", "2", "--seed", "5"])
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    record = json.loads(GOLDEN.read_text())
    assert set(out) == {"hands", "accuracy"} and len(out["accuracy"]) == 4
    assert [h["hand"] for h in out["hands"]] == list(range(len(record["hands"])))
    for h, hand in zip(out["hands"], record["hands"], strict=True):
        assert [d["action"] for d in h["decisions"]] == list(range(len(hand["actions"])))
        assert len(h["accuracy"]) == 4 and all(0 <= a <= 100 for a in h["accuracy"])
        for d, action in zip(h["decisions"], hand["actions"], strict=True):
            assert {"action", "seat", "forced", "options", "loss", "label", "value_all_known"} <= set(d)
            assert d["seat"] == action["seat"]
            assert d["options"][d["chosen"]]["action"] == Action.from_json(action).to_json()
            assert all(set(o) >= {"action", "value"} and isinstance(o["value"], float) for o in d["options"])
            if d["forced"]:
                assert len(d["options"]) == 1 and d["label"] is None and d["loss"] == 0
            else:
                assert len(d["options"]) >= 2 and d["label"] in (None, "inaccuracy", "mistake", "blunder")
                best = max(o["value"] for o in d["options"])
                assert d["loss"] == pytest.approx(best - d["options"][d["chosen"]]["value"], abs=0.011)
    # the same from standard input, and the same again with the same seed
    again = run_review(["-", "--json", "--samples", "2", "--seed", "5"], stdin=GOLDEN.read_bytes())
    assert json.loads(again.stdout) == out
    text = run_review([str(GOLDEN), "--samples", "2", "--hand", "0"])
    assert text.returncode == 0 and b"accuracy" in text.stdout and b"Hand 0" in text.stdout


def test_an_invalid_record_exits_1_with_the_error_object(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    record = json.loads(GOLDEN.read_text())
    record["hands"][0]["actions"][0] = {"seat": 3, "type": "sun"}  # not seat 3's turn
    bad.write_text(json.dumps(record))
    for args, stdin in (([str(bad), "--json"], None), (["-"], b"not json"), ([str(tmp_path / "none.json")], None),
                        ([str(GOLDEN), "--hand", "9"], None)):
        done = run_review(args, stdin)
        assert done.returncode == 1 and done.stderr == b""
        error = json.loads(done.stdout)["error"]
        assert set(error) == {"hand", "action", "message"} and error["message"]
    for samples in ("0", "2049"):  # out of range: refused before anything is read (argparse's exit 2)
        done = run_review([str(GOLDEN), "--samples", samples])
        assert done.returncode == 2 and b"--samples must be 1 to 2048" in done.stderr and done.stdout == b""
    first = json.loads(run_review([str(bad)]).stdout)["error"]
    assert (first["hand"], first["action"]) == (0, 0)


def test_a_thrown_in_hand_is_listed_with_a_reason_and_no_decisions(tmp_path: Path) -> None:
    path = tmp_path / "thrown.json"
    path.write_text(json.dumps(thrown_in_record()))
    done = run_review([str(path), "--json"])
    assert done.returncode == 0
    (hand,) = json.loads(done.stdout)["hands"]
    assert hand["decisions"] == [] and "thrown in" in hand["reason"] and "R3.2" in hand["reason"]
    match = load_record(json.dumps(thrown_in_record()))
    assert review_match(match).hands[0].reason == hand["reason"]


def test_an_unfinished_hand_is_listed_with_a_reason() -> None:
    record = json.loads(GOLDEN.read_text())
    record["hands"][-1]["actions"] = record["hands"][-1]["actions"][:-3]
    review = review_match(load_record(json.dumps(record)), samples=2)
    assert review.hands[-1].decisions == () and "unfinished" in (review.hands[-1].reason or "")


def test_a_stored_review_reads_back_and_another_version_is_refused() -> None:
    review = review_hand(played_hand(11), 2, samples=2, seed=4)
    back = HandReview.from_json(json.loads(json.dumps(review.to_json())))
    assert back.to_json() == review.to_json() and back.hand == 2 and back.version == REVIEWER_VERSION
    stale = {**review.to_json(), "version": REVIEWER_VERSION - 1}
    with pytest.raises(ValueError):
        HandReview.from_json(stale)


def test_accuracy_is_lichess_formula_over_the_win_chance_model() -> None:
    assert move_accuracy(0) == pytest.approx(100.0, abs=1e-3)  # lila's constants give 99.9999
    assert move_accuracy(10) == pytest.approx(103.1668100711649 * 2.718281828459045 ** (-0.4354415386753951)
                                              - 3.166924740191411)
    assert move_accuracy(1000) == 0.0
    assert win_chance(0, (0, 0), 0) == pytest.approx(0.5)
    # the same lead is worth more near the target (R8)
    assert win_chance(10, (140, 140), 0) > win_chance(10, (0, 0), 0) > 0.5
    assert win_chance(-10, (0, 0), 1) == pytest.approx(1 - win_chance(10, (0, 0), 1))


def test_the_reviewer_is_pure() -> None:
    """No Discord, storage or asyncio is loaded by the reviewer."""
    code = ("import sys, baloot.review, baloot.review.text; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('discord', 'cogs', 'asyncio', 'aiosqlite')"
            " or m.startswith(('baloot.storage', 'baloot.tables'))))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
