"""Errors carry a code, not English.

Every :class:`~baloot.engine.error_codes.ErrorCode` has English and Arabic catalog
text; what a player reads depends on the code and its parameters only, so
rewording an engine message cannot change the Arabic; every raise in the
engine names its code; no regular expression over English remains.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from baloot import Action, ActionType, BalootError, Hand, IllegalActionError, Phase, Rules
from baloot.engine.cards import ALL_CARDS
from baloot.engine.error_codes import CODE_PARAMS, ErrorCode
from baloot.engine.errors import NotationError, RecordError
from baloot.engine.records import load_record
from baloot.i18n import CODE_KEYS, error_key, error_text, placeholders
from baloot.i18n.ar import AR
from baloot.i18n.en import EN
from baloot.tables import errors as table_errors

ROOT = Path(__file__).resolve().parents[2]
ENGINE_MODULES = sorted(
    p for p in (ROOT / "baloot").glob("*.py") if p.name not in ("__init__.py", "__main__.py", "errors.py")
)
SERVICE_MODULES = sorted((ROOT / "baloot" / "tables").glob("*.py"))
SAMPLE: dict[str, str | int] = {
    "suit": 2, "seat": 3, "allowed": "pass, sun", "action": "double", "seated": 3, "detail": "1 to 1000", "count": 2,
    "missing": "embed_links,attach_files", "seconds": 30, "hand": 3,
}


def _sample_params(code: ErrorCode) -> dict[str, str | int]:
    return {name: SAMPLE[name] for name in CODE_PARAMS.get(code, ())}


@pytest.mark.parametrize("code", list(ErrorCode))
def test_every_code_has_english_and_arabic_text(code: ErrorCode) -> None:
    key = CODE_KEYS[code]
    assert key in EN and key in AR
    # Every placeholder of the text is a parameter the code carries.
    assert placeholders(EN[key]) <= CODE_PARAMS.get(code, frozenset()), code
    exc = BalootError("whatever", code=code, params=_sample_params(code))
    for locale in ("en", "ar"):
        text = error_text(exc, locale)
        assert text and "{" not in text
    assert error_text(exc, "ar") != error_text(exc, "en")


@pytest.mark.parametrize("code", list(ErrorCode))
def test_rewording_the_english_cannot_change_the_arabic(code: ErrorCode) -> None:
    params = _sample_params(code)
    if code is ErrorCode.BAD_OPTION:
        params = {"detail": "1 to 1000"}  # the one free-text parameter, the same on both sides
    one = IllegalActionError("The original English message (R5.2).", code=code, params=params)
    other = IllegalActionError("Completely different words, with (H) and 'must trump'.", code=code, params=params)
    for locale in ("en", "ar"):
        assert error_text(one, locale) == error_text(other, locale)
    assert error_key(one) == error_key(other)


def _must_trump_refusal(hand: Hand) -> IllegalActionError | None:
    """The must-trump refusal of the seat to move, if some card draws one."""
    for card in ALL_CARDS:
        action = Action(hand.to_move, ActionType.PLAY, card)
        if action in hand.legal_actions():
            continue
        with pytest.raises(IllegalActionError) as info:
            hand.apply(action)
        if info.value.code is ErrorCode.MUST_TRUMP:
            return info.value
    return None


def test_real_engine_refusal_and_a_reworded_copy_read_the_same() -> None:
    """A must-trump refusal met in play: its Arabic names the trump in Arabic, from the code alone."""
    rng = random.Random(11)
    deck = list(ALL_CARDS)
    found: IllegalActionError | None = None
    while found is None:
        rng.shuffle(deck)
        hand = Hand(0, deck, Rules())
        while found is None and hand.phase is not Phase.FINISHED:
            if hand.phase is Phase.PLAYING:
                found = _must_trump_refusal(hand)
            legal = hand.legal_actions()
            hand.apply(legal[rng.randrange(len(legal))])
    suit = found.params["suit"]
    assert isinstance(suit, int)
    suit_word = AR[f"suit.{'SHDC'[suit]}"]
    assert suit_word in error_text(found, "ar")
    reworded = IllegalActionError("Play a trump, please.", code=found.code, params=found.params)
    assert error_text(reworded, "ar") == error_text(found, "ar")


def test_follow_suit_and_round_two_suit_name_the_suit_in_the_players_language() -> None:
    for code in (ErrorCode.FOLLOW_SUIT, ErrorCode.ROUND_TWO_SUIT, ErrorCode.MUST_TRUMP):
        for suit, letter in enumerate("SHDC"):
            exc = IllegalActionError("x", code=code, params={"suit": suit})
            assert AR[f"suit.{letter}"] in error_text(exc, "ar")
            assert EN[f"suit.{letter}"] in error_text(exc, "en")


def test_no_regular_expression_reads_english_messages() -> None:
    source = (ROOT / "baloot" / "i18n" / "errors.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "re" not in imported
    assert "str(exc)" not in source and "args[0]" not in source


def _error_classes() -> dict[str, type[BalootError]]:
    import baloot.engine.errors

    classes: dict[str, type[BalootError]] = {}
    for module in (baloot.engine.errors, table_errors):
        for name in dir(module):
            obj = getattr(module, name)
            if isinstance(obj, type) and issubclass(obj, BalootError):
                classes[name] = obj
    return classes


def _raised_calls(path: Path) -> list[tuple[int, str, set[str]]]:
    """(line, class name, keyword names) of every ``raise SomeError(...)`` in a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and isinstance(node.exc.func, ast.Name):
            found.append((node.lineno, node.exc.func.id, {k.arg for k in node.exc.keywords if k.arg}))
    return found


@pytest.mark.parametrize("path", ENGINE_MODULES + SERVICE_MODULES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_raise_names_a_specific_code(path: Path) -> None:
    """A raise names its code, unless its class's own code is specific (``NotationError``, ``SeatTaken`` ...)."""
    classes = _error_classes()
    for line, name, keywords in _raised_calls(path):
        cls = classes.get(name)
        if cls is not None and cls.default_code is ErrorCode.GENERIC:
            assert "code" in keywords, f"{path.name}:{line}: raise {name}(...) without code="


def test_service_classes_and_their_params() -> None:
    assert table_errors.BadOption("Seats are numbered 0 to 3.").params == {"detail": "Seats are numbered 0 to 3."}
    for cls in vars(table_errors).values():
        if isinstance(cls, type) and issubclass(cls, table_errors.TableError) and cls is not table_errors.TableError:
            assert cls().code is not ErrorCode.GENERIC and CODE_KEYS[cls().code] != "error.generic"


def test_record_errors_keep_the_engine_code_and_print_the_english() -> None:
    deck = [c.text for c in ALL_CARDS]
    text = '{"format": "baloot-game/1", "hands": [{"dealer": 0, "deck": %s, "actions": [{"seat": 2, "type": "pass"}]}]}'
    with pytest.raises(RecordError) as info:
        load_record(text % str(deck).replace("'", '"'))
    assert info.value.code is ErrorCode.NOT_YOUR_TURN and info.value.params == {"seat": 1}
    assert info.value.to_json()["error"] == {"hand": 0, "action": 0, "message": "It is seat 1's turn, not seat 2's."}
    with pytest.raises(RecordError) as info:
        load_record("{")
    assert info.value.code is ErrorCode.RECORD_JSON
    assert error_key(info.value)[0] == "error.bad_record"


def test_notation_errors_have_codes() -> None:
    with pytest.raises(NotationError) as info:
        Action.from_json({"seat": 9, "type": "pass"})
    assert info.value.code is ErrorCode.BAD_ACTION
    with pytest.raises(NotationError) as info:
        Rules(target=0)
    assert info.value.code is ErrorCode.BAD_RULES


def test_a_sawa_refused_for_trumps_counts_them_in_the_right_plural() -> None:
    """"Sawa: 1 trumps are still out": the count of trumps out (R12) now takes each language's plural form."""
    def said(n: int, locale: str) -> str:
        return error_text(IllegalActionError("x", code=ErrorCode.SAWA_TRUMPS, params={"count": n}), locale)

    assert "still hold 1 trump," in said(1, "en") and "still hold 3 trumps," in said(3, "en")
    assert "ورقة حكم واحدة" in said(1, "ar") and "ورقتا حكم" in said(2, "ar") and "3 أوراق حكم" in said(3, "ar")
