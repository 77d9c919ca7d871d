"""Game records (R10): reading a record into a :class:`Match`, and the replay summary."""

from __future__ import annotations

import json
from typing import Any

from .actions import Action, is_seat
from .cards import Card
from .error_codes import ErrorCode
from .errors import BalootError, RecordError
from .hand import Hand
from .match import RECORD_FORMAT, Match
from .rules import Rules
from .summary import summarize_hand, summarize_match


def match_from_record(record: object) -> Match:
    """Replay an R10 record into a match; raises RecordError at the first fault.

    The error names the hand and action index (R10, R11.5).
    """
    if not isinstance(record, dict):
        raise RecordError("a game record must be a JSON object", code=ErrorCode.RECORD_NOT_OBJECT)
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(
            f"unknown record format {record.get('format')!r}; expected {RECORD_FORMAT!r}",
            code=ErrorCode.RECORD_FORMAT,
        )
    try:
        rules = Rules.from_json(record.get("rules"))
    except BalootError as exc:
        raise RecordError(f"bad rules: {exc}", code=ErrorCode.RECORD_RULES) from None
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise RecordError("'hands' must be a list", code=ErrorCode.RECORD_HANDS)
    match: Match | None = None
    for h, hand_obj in enumerate(hands):
        if not isinstance(hand_obj, dict):
            raise RecordError("a hand must be a JSON object", h, code=ErrorCode.RECORD_HAND)
        if match is not None and match.winner is not None:
            raise RecordError("this hand comes after the match was won (R8)", h, code=ErrorCode.RECORD_AFTER_WIN)
        if match is not None and not match.needs_deal:
            raise RecordError(
                "a new hand starts before the previous one is finished (R10)", h, code=ErrorCode.RECORD_UNFINISHED
            )
        dealer = hand_obj.get("dealer")
        if not is_seat(dealer):
            raise RecordError(f"dealer {dealer!r} is not a seat 0..3", h, code=ErrorCode.RECORD_DEALER)
        if match is None:
            match = Match(rules, dealer)
        elif dealer != match.next_dealer:
            raise RecordError(
                f"dealer {dealer} should be {match.next_dealer}: the deal passes to the right (R1)",
                h,
                code=ErrorCode.RECORD_DEALER,
            )
        deck_obj = hand_obj.get("deck")
        if not isinstance(deck_obj, list):
            raise RecordError("'deck' must be a list of 32 cards", h, code=ErrorCode.RECORD_DECK)
        try:
            deck = [Card.parse(c) for c in deck_obj]
            hand = match.deal(deck)
        except BalootError as exc:
            raise RecordError(f"bad deck: {exc}", h, code=ErrorCode.RECORD_DECK) from None
        actions = hand_obj.get("actions")
        if not isinstance(actions, list):
            raise RecordError("'actions' must be a list", h, code=ErrorCode.RECORD_ACTIONS)
        for a, action_obj in enumerate(actions):
            if hand.finished:
                raise RecordError(
                    "an action after the hand is complete (R11.5)", h, a, code=ErrorCode.RECORD_AFTER_HAND
                )
            try:
                match.apply(Action.from_json(action_obj))
            except BalootError as exc:
                raise RecordError(str(exc), h, a, code=exc.code, params=exc.params) from None
    if match is None:
        match = Match(rules)
    return match


def load_record(text: str) -> Match:
    """Parse JSON text and replay it (R10)."""
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"not valid JSON: {exc}", code=ErrorCode.RECORD_JSON) from None
    except RecursionError:
        raise RecordError("not valid JSON (nested too deeply)", code=ErrorCode.RECORD_JSON) from None
    except ValueError as exc:  # Python's limit on an integer's digits (sys.get_int_max_str_digits)
        what = "a number has too many digits" if "digits" in str(exc) else "malformed"
        raise RecordError(f"not valid JSON ({what})", code=ErrorCode.RECORD_JSON) from None
    return match_from_record(obj)


def hand_summary(hand: Hand) -> dict[str, Any]:
    """One hand of R10's replay output (R11.6 for thrown-in and unfinished hands)."""
    return summarize_hand(hand).to_json()


def replay_summary(match: Match) -> dict[str, Any]:
    """R10's replay output for a valid record."""
    return summarize_match(match).to_json()


def replay_text(text: str) -> tuple[int, dict[str, Any]]:
    """Run ``replay`` on record text: (exit code 0 or 1, the JSON object to print)."""
    try:
        match = load_record(text)
    except RecordError as exc:
        return 1, exc.to_json()
    return 0, replay_summary(match)
