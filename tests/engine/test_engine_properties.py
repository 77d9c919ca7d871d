"""Property tests over thousands of random games (R1, R2, R7, R10).

Each hypothesis example plays whole matches with uniformly random legal actions
under random R9 options, checking invariants at every step. Runtime is bounded
by ``max_examples`` (no timing in the assertions).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from engine_helpers import snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baloot import (
    ALL_CARDS,
    Action,
    ActionType,
    BalootError,
    Card,
    Hand,
    Match,
    Phase,
    RecordError,
    Rules,
    seat_view,
)
from baloot.engine.actions import _INTERNED
from baloot.engine.bidding import Outcome
from baloot.engine.cards import parse_suit
from baloot.engine.projects import Project
from baloot.engine.records import match_from_record, replay_summary, replay_text
from baloot.engine.scoring import convert_card_points

SETTINGS = settings(
    max_examples=250,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)

rules_strategy = st.builds(
    Rules,
    target=st.sampled_from([152, 152, 60, 300]),
    ashkal_on_ace=st.booleans(),
    ashkal_round_two=st.booleans(),
    third_round_on_ace=st.booleans(),
    kawesh=st.booleans(),
    declarer_leads=st.booleans(),
    trump_sequence_priority=st.booleans(),
    projects_multiply_fully=st.booleans(),
    baloot_stays_with_holder=st.booleans(),
)


def _mask_cards(mask: int) -> set[int]:
    return {i for i in range(32) if mask >> i & 1}


def _check_conservation(hand: Hand) -> None:
    """R2: the 32 cards are in hands, played, or still undealt - each exactly once."""
    held = [_mask_cards(m) for m in hand.hands]
    played = [c for _, _, cards in hand.tricks_history for c in cards] + list(hand.trick)
    if hand.taker is None:
        undealt = [c.index for c in hand.deck[20:]]
        assert [len(h) for h in held] == [5, 5, 5, 5] or hand.finished
    else:
        undealt = []
    everything = [c for h in held for c in h] + played + undealt
    assert len(everything) == 32 and set(everything) == set(range(32))


def _walk_cards(obj: object, seen: set[int], out: set[int]) -> None:
    """Every card reachable from a view object (cards, actions, projects, nested values)."""
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, Card):
        out.add(obj.index)
    elif isinstance(obj, Action):
        if obj.card is not None:
            out.add(obj.card.index)
    elif isinstance(obj, Project):
        out.update(_mask_cards(obj.mask))
    elif isinstance(obj, Rules | str | int | float | bool) or obj is None:
        return
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            _walk_cards(getattr(obj, f.name), seen, out)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            _walk_cards(k, seen, out)
            _walk_cards(v, seen, out)
    elif isinstance(obj, tuple | list | set | frozenset):
        for v in obj:
            _walk_cards(v, seen, out)
    else:
        raise AssertionError(f"unexpected value in a view: {type(obj)!r}")


def _check_views(hand: Hand) -> None:
    """A seat's view holds its own hand and no other seat's unplayed, undeclared card."""
    declared: set[int] = set()
    for projects in hand.declared.values():
        for p in projects:
            declared |= _mask_cards(p.mask)
    for seat in range(4):
        view = seat_view(hand, seat)
        assert {c.index for c in view.hand} == _mask_cards(hand.hands[seat])
        hidden: set[int] = set()
        for other in range(4):
            if other != seat:
                hidden |= _mask_cards(hand.hands[other])
        hidden -= declared
        hidden.discard(hand.up_card)  # the up card was shown to everyone (R2.2)
        if hand.sawa_by is not None:  # a Sawa claim shows the claimant's cards to everyone (R12)
            hidden -= _mask_cards(hand.hands[hand.sawa_by])
        found: set[int] = set()
        _walk_cards(view, set(), found)
        assert not (found & hidden), (seat, sorted(found & hidden))
        if view.to_move != seat:
            assert view.legal == ()


def _check_finished(hand: Hand) -> None:
    """R1.1 totals 162/130; R7 converted game points before projects sum to 16/26."""
    result = hand.result
    if hand.outcome != Outcome.CONTRACT or result is None:
        assert hand.score == (0, 0)
        return
    total_cp, total_gp = (130, 26) if hand.sun else (162, 16)
    assert sum(result.card_points) == total_cp
    assert sum(hand.tricks_won) == 8
    extras = [0, 0]
    for seat, project in hand.winning_projects():
        extras[seat & 1] += project.value(hand.sun)
    team = hand.baloot_team()
    if team is not None:
        extras[team] += 2
    converted = [result.game_points[t] - extras[t] for t in (0, 1)]
    assert sum(converted) == total_gp
    assert all(c >= 0 for c in converted)
    assert convert_card_points(result.card_points[0], hand.sun) in (converted[0], None) or (
        convert_card_points(result.card_points[1], hand.sun) == converted[1]
    )
    assert min(result.score) >= 0


def _play_match(rng: random.Random, rules: Rules, max_hands: int, check_each_step: bool) -> Match:
    match = Match(rules, rng.randrange(4))
    for _ in range(max_hands):
        if match.finished:
            break
        hand = match.deal(rng)
        while not hand.finished:
            if check_each_step:
                _check_conservation(hand)
            match.apply(rng.choice(hand.legal_actions()))
        _check_conservation(hand)
        _check_finished(hand)
    return match


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), rules=rules_strategy)
def test_random_matches_invariants_and_replay(seed: int, rules: Rules) -> None:
    """32 cards conserved at every step; 162/130 card points; 16/26 game points before
    projects; replaying the record reproduces the match (R10)."""
    rng = random.Random(seed)
    for _ in range(3):
        match = _play_match(rng, rules, max_hands=25, check_each_step=True)
        record = match.to_record()
        text = json.dumps(record)
        code, out = replay_text(text)
        assert code == 0
        assert out == replay_summary(match)
        assert out["score"] == match.score and out["winner"] == match.winner


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rules=rules_strategy, cut=st.integers(0, 400))
def test_replay_of_truncated_records(seed: int, rules: Rules, cut: int) -> None:
    """R10: a record cut anywhere (a game in progress) replays to the same state."""
    rng = random.Random(seed)
    match = _play_match(rng, rules, max_hands=6, check_each_step=False)
    record = match.to_record()
    flat = [(h, a) for h, hand in enumerate(record["hands"]) for a in range(len(hand["actions"]))]
    if not flat:
        return
    h, a = flat[cut % len(flat)]
    record["hands"] = record["hands"][: h + 1]
    record["hands"][h]["actions"] = record["hands"][h]["actions"][:a]
    again = match_from_record(record)
    hand = again.hands[-1]
    original = match.hands[h]
    assert hand.actions == original.actions[:a]
    assert again.legal_actions() == _replay_prefix(original, a).legal_actions()


def _replay_prefix(hand: Hand, n: int) -> Hand:
    fresh = Hand(hand.dealer, hand.deck, hand.rules, hand.match_score)
    for action in hand.actions[:n]:
        fresh.apply(action)
    return fresh


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rules=rules_strategy)
def test_seat_views_hide_other_hands(seed: int, rules: Rules) -> None:
    """A seat's view shows its own hand and never another seat's hidden cards."""
    rng = random.Random(seed)
    for _ in range(3):
        match = Match(rules, rng.randrange(4))
        match.score = [rng.choice([0, 50, 120]), rng.choice([0, 90, 101])]  # allow Sun doubles
        hand = match.deal(rng)
        while not hand.finished:
            _check_views(hand)
            match.apply(rng.choice(hand.legal_actions()))
        _check_views(hand)


def _all_interned_actions() -> list[Action]:
    acts: list[Action] = []
    for seat in range(4):
        for t in ActionType:
            if t is ActionType.PLAY:
                acts.extend(Action.play(seat, c) for c in ALL_CARDS)
            elif t in (ActionType.DOUBLE, ActionType.FOUR):
                acts.extend(Action(seat, t, locked=v) for v in (None, True, False))
            elif t is ActionType.HOKUM:
                acts.append(Action(seat, t))
                acts.extend(Action(seat, t, suit=s) for s in range(4))
            else:
                acts.append(Action(seat, t))
    acts.extend(_INTERNED.values())
    return list(dict.fromkeys(acts))


ALL_ACTIONS = _all_interned_actions()


def _alias_of(hand: Hand, action: Action, legal: list[Action]) -> Action | None:
    """The legal action a documented alias stands for, else None.

    R11.4 makes only a *locked* Sun double illegal, so ``double`` with ``locked: false``
    in Sun is the Sun double; and the engine ignores a ``suit`` on a Hokum that is a bid
    (not the round-two confirmation)."""
    for cand in legal:
        if cand.seat != action.seat or cand.type is not action.type:
            continue
        if action.type is ActionType.DOUBLE and hand.sun and action.locked is False and cand.locked is None:
            return cand
        if action.type is ActionType.HOKUM and cand.suit is None and action.suit is not None:
            return cand
    return None


@settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), rules=rules_strategy)
def test_apply_rejects_everything_not_legal(seed: int, rules: Rules) -> None:
    """apply() raises a BalootError, changing nothing, for every action not in
    legal_actions() (all seats, types, cards, locks and suits); documented aliases
    behave exactly like their legal action."""
    rng = random.Random(seed)
    match = Match(rules, rng.randrange(4))
    match.score = [rng.choice([0, 120]), rng.choice([0, 60])]
    hand = match.deal(rng)
    steps = 0
    while True:
        legal = hand.legal_actions()
        legal_set = set(legal)
        for action in ALL_ACTIONS:
            if action in legal_set:
                continue
            alias = _alias_of(hand, action, legal)
            if alias is not None:
                a, b = copy.deepcopy(hand), copy.deepcopy(hand)
                a.apply(action)
                b.apply(alias)
                assert snapshot(a) == snapshot(b)
                continue
            before = snapshot(hand)
            with pytest.raises(BalootError):
                hand.apply(action)
            assert snapshot(hand) == before
            assert hand.legal_actions() == legal
        if hand.finished:
            break
        hand.apply(rng.choice(legal))
        steps += 1
    assert steps >= 1


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 40) | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3),
    max_leaves=6,
)

ACTION_LIKE = st.fixed_dictionaries(
    {},
    optional={
        "seat": st.integers(-1, 4) | JSON_VALUES,
        "type": st.sampled_from([t.value for t in ActionType]) | JSON_VALUES,
        "card": st.sampled_from([c.text for c in ALL_CARDS]) | JSON_VALUES,
        "locked": st.booleans() | JSON_VALUES,
        "suit": st.sampled_from(list("SHDCX")) | JSON_VALUES,
    },
)


@settings(max_examples=1000, deadline=None, derandomize=True)
@given(value=JSON_VALUES | ACTION_LIKE)
def test_bad_values_raise_only_baloot_errors(value: Any) -> None:
    """Bad values (strings, None, wrong seats, junk JSON) raise only BalootError."""
    for fn in (Action.from_json, Card.parse, parse_suit, Rules.from_json):
        with contextlib.suppress(BalootError):
            fn(value)
    hand = Hand(0, ALL_CARDS)
    before = snapshot(hand)
    with contextlib.suppress(BalootError):
        hand.apply(value)
    assert snapshot(hand) == before
    try:
        action = Action.from_json(value)
    except BalootError:
        return
    try:
        hand.apply(action)
    except BalootError:
        assert snapshot(hand) == before


@settings(max_examples=400, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), junk=JSON_VALUES, where=st.integers(0, 10_000), mode=st.integers(0, 3))
def test_mutated_records_never_crash(seed: int, junk: Any, where: int, mode: int) -> None:
    """R10: replaying a randomly damaged record gives a result or a RecordError, never
    another exception; the error's indices point inside the record."""
    rng = random.Random(seed)
    match = _play_match(rng, Rules(), max_hands=2, check_each_step=False)
    record = match.to_record()
    paths = list(_paths(record))
    path = paths[where % len(paths)]
    parent: Any = record
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if mode == 0:
        parent[last] = junk
    elif (mode == 1 and isinstance(parent, list)) or (mode == 2 and isinstance(parent, dict)):
        del parent[last]
    else:
        parent[last] = copy.deepcopy(junk) if rng.random() < 0.5 else None
    try:
        out = replay_summary(match_from_record(record))
    except RecordError as exc:
        hands = record.get("hands") if isinstance(record, dict) else None
        if exc.hand is not None:
            assert isinstance(hands, list) and 0 <= exc.hand < len(hands)
        if exc.action is not None:
            assert exc.hand is not None
    else:
        assert set(out) == {"hands", "score", "winner"}


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield (*prefix, k)
            yield from _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield (*prefix, i)
            yield from _paths(v, (*prefix, i))


def test_phase_progression_on_random_hands() -> None:
    """R2-R5: phases only move forward: bidding, (doubling), playing, finished."""
    rng = random.Random(99)
    for _ in range(300):
        hand = Hand(rng.randrange(4), random.Random(rng.random()).sample(ALL_CARDS, 32), Rules())
        last = Phase.BIDDING
        while not hand.finished:
            hand.apply(rng.choice(hand.legal_actions()))
            assert hand.phase >= last
            last = hand.phase


# --- bad values at the API edges (never a traceback on bad input) ----------------------------

_BAD_DECKS: list[Any] = ["7S 8S", [], ["7S"] * 32, list(range(32)), [None] * 32, ALL_CARDS[:31]]


def test_bad_decks_and_dealers_raise_baloot_errors() -> None:
    """R2/R10: a bad deck or dealer is a BalootError (NotationError)."""
    for deck in _BAD_DECKS:
        with pytest.raises(BalootError):
            Hand(0, deck)
    for dealer in (-1, 4, "0", None, 1.5):
        with pytest.raises(BalootError):
            Hand(dealer, ALL_CARDS)


def test_bad_seat_in_action_is_notation_error() -> None:
    """R10: seats are 0..3."""
    for seat in (-1, 4, "0", None):
        with pytest.raises(BalootError):
            Action(seat, ActionType.PASS)


def _playing_hand() -> Hand:
    rng = random.Random(1)
    while True:
        hand = Hand(3, random.Random(rng.random()).sample(ALL_CARDS, 32))
        hand.apply(Action(0, ActionType.SUN))
        if hand.phase == Phase.PLAYING:
            return hand


def test_play_without_card_is_baloot_error() -> None:
    """A ``play`` Action built without a card (Action.play(seat, None) is accepted by the
    constructor) must be refused with a BalootError, not an AssertionError."""
    hand = _playing_hand()
    before = snapshot(hand)
    with contextlib.suppress(BalootError):
        hand.apply(Action(hand.to_move, ActionType.PLAY))
    assert snapshot(hand) == before


def test_none_deck_is_baloot_error() -> None:
    """A missing deck (None) is bad input: BalootError, not TypeError."""
    with contextlib.suppress(BalootError):
        Hand(0, None)  # type: ignore[arg-type]
    with contextlib.suppress(BalootError):
        Match().deal(None)  # type: ignore[arg-type]


def test_seat_view_bad_seat_is_baloot_error() -> None:
    """A wrong seat asked for a view is bad input: BalootError, not IndexError."""
    hand = _playing_hand()
    with contextlib.suppress(BalootError):
        seat_view(hand, 7)


def test_action_with_string_type_is_baloot_error() -> None:
    """An action type given as a plain string is bad input: BalootError, not AttributeError."""
    with contextlib.suppress(BalootError):
        Action(0, "pass")
