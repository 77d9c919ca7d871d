"""R10 game records: read a record, replay it, and produce the replay output."""

from __future__ import annotations

from typing import Any

from .cards import ALL_CARDS, is_card
from .hand import ACTION_TYPES, Action, Hand, Illegal, Rules

FORMAT = "baloot-game/1"
BOOL_OPTIONS = (
    "ashkal_on_ace",
    "ashkal_round_two",
    "third_round_on_ace",
    "kawesh",
    "declarer_leads",
    "trump_sequence_priority",
    "projects_multiply_fully",
    "baloot_stays_with_holder",
    "sawa",
)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_seat(value: object) -> bool:
    return _is_int(value) and 0 <= value <= 3  # type: ignore[operator]


def _error(hand: int | None, action: int | None, message: str) -> tuple[int, dict[str, Any]]:
    return 1, {"error": {"hand": hand, "action": action, "message": message}}


def _read_rules(raw: object) -> Rules:
    """R10: ``rules`` holds the R9 options; a missing one takes its default; unknown keys are ignored."""
    if raw is None:
        return Rules()
    if not isinstance(raw, dict):
        raise Illegal("'rules' must be an object")
    values: dict[str, Any] = {}
    if "target" in raw:
        target = raw["target"]
        if not _is_int(target) or target <= 0:
            raise Illegal(f"bad target {target!r}")
        values["target"] = target
    for name in BOOL_OPTIONS:
        if name in raw:
            if not isinstance(raw[name], bool):
                raise Illegal(f"option {name} must be true or false")
            values[name] = raw[name]
    return Rules(**values)


def _read_action(raw: object) -> Action:
    if not isinstance(raw, dict):
        raise Illegal("an action must be an object")
    seat, kind = raw.get("seat"), raw.get("type")
    if not _is_seat(seat):
        raise Illegal(f"bad seat {seat!r}")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise Illegal(f"unknown action type {kind!r}")
    assert isinstance(seat, int)
    return Action(seat, kind, raw)


def _hand_view(hand: Hand) -> dict[str, Any]:
    """R10 per-hand output; R11.6 for thrown-in hands and hands in progress."""
    if hand.thrown_in:
        return {
            "dealer": hand.dealer,
            "contract": None,
            "trump": None,
            "declarer": None,
            "level": 1,
            "locked": False,
            "card_points": [0, 0],
            "game_points": [0, 0],
            "projects": [],
            "baloot": None,
            "kaboot": None,
            "score": [0, 0],
        }
    r = hand.result
    return {
        "dealer": hand.dealer,
        "contract": hand.contract,
        "trump": hand.trump,
        "declarer": hand.declarer,
        "level": hand.level,
        "locked": hand.locked,
        "card_points": r.card_points if r else None,
        "game_points": r.game_points if r else None,
        "projects": [{"seat": s, "type": p.kind, "value": p.value} for s, p in r.projects] if r else None,
        "baloot": r.baloot if r else None,
        "kaboot": r.kaboot if r else None,
        "score": r.score if r else None,
    }


def replay(record: object) -> tuple[int, dict[str, Any]]:
    """Replay an R10 record: (0, result) for a valid one, (1, {"error": ...}) for an invalid one."""
    if not isinstance(record, dict):
        return _error(None, None, "a record must be an object")
    if record.get("format") != FORMAT:
        return _error(None, None, f"wrong format {record.get('format')!r} (R11.5)")
    try:
        rules = _read_rules(record.get("rules"))
    except Illegal as exc:
        return _error(None, None, str(exc))
    hands = record.get("hands")
    if not isinstance(hands, list):
        return _error(None, None, "'hands' must be a list")

    score = [0, 0]
    winner: int | None = None
    views: list[dict[str, Any]] = []
    previous: Hand | None = None
    for h, raw_hand in enumerate(hands):
        # --- the hand itself (R10, R11.5)
        if winner is not None:
            return _error(h, None, "a hand after the match is won (R11.5)")
        if previous is not None and not previous.finished:
            return _error(h, None, "a new hand after an unfinished one (R11.5)")
        if not isinstance(raw_hand, dict):
            return _error(h, None, "a hand must be an object")
        dealer = raw_hand.get("dealer")
        if not _is_seat(dealer):
            return _error(h, None, f"bad dealer {dealer!r}")
        assert isinstance(dealer, int)
        if previous is not None and dealer != (previous.dealer + 1) % 4:
            return _error(h, None, "the deal passes to the right: dealer must be the previous dealer + 1 (R1)")
        deck = raw_hand.get("deck")
        if not (isinstance(deck, list) and len(deck) == 32 and all(is_card(c) for c in deck)) or set(deck) != ALL_CARDS:
            return _error(h, None, "the deck must hold the 32 distinct cards (R2)")
        actions = raw_hand.get("actions")  # R10: every hand carries its list of actions
        if not isinstance(actions, list):
            return _error(h, None, "'actions' must be a list")

        # --- the actions
        hand = Hand(rules=rules, dealer=dealer, deck=list(deck), match_score=(score[0], score[1]))
        for a, raw_action in enumerate(actions):
            try:
                hand.apply(_read_action(raw_action))
            except Illegal as exc:
                return _error(h, a, str(exc))
        views.append(_hand_view(hand))
        previous = hand

        # --- R8 the match
        if hand.finished and hand.result is not None:
            score = [score[0] + hand.result.score[0], score[1] + hand.result.score[1]]
            if hand.result.match_winner is not None:
                winner = hand.result.match_winner  # Gahwa (R7, R8)
            elif max(score) >= rules.target and score[0] != score[1]:
                winner = 0 if score[0] > score[1] else 1

    return 0, {"hands": views, "score": score, "winner": winner}
