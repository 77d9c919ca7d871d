"""Engine and table-service errors map to catalog keys, in both languages."""

from __future__ import annotations

import copy
import random

import pytest

from baloot import Action, ActionType, BalootError, Card, Match, Rules
from baloot.engine.cards import ALL_CARDS
from baloot.engine.error_codes import ErrorCode
from baloot.i18n import SERVICE_ERRORS, error_key, error_text, has_key, t

ALL_VARIANTS = Rules(ashkal_on_ace=True, ashkal_round_two=True, third_round_on_ace=True, kawesh=True)


def candidate_actions(seat: int) -> list[Action]:
    """Every action any seat could try, legal or not."""
    acts = [Action(seat, typ) for typ in ActionType if typ is not ActionType.PLAY]
    acts += [Action(seat, ActionType.HOKUM, suit=s) for s in range(4)]
    acts += [Action(seat, typ, locked=lock) for typ in (ActionType.DOUBLE, ActionType.FOUR) for lock in (True, False)]
    acts += [Action(seat, ActionType.PLAY, card) for card in ALL_CARDS]
    return acts


def test_every_engine_refusal_in_random_games_has_its_own_key() -> None:
    rng = random.Random(7)
    seen: set[str] = set()
    for game in range(12):
        rules = ALL_VARIANTS if game % 2 else Rules()
        match = Match(rules, first_dealer=game % 4)
        score_bias = rng.choice([(0, 0), (120, 40)])
        match.score = list(score_bias)  # reach R4's Sun double now and then
        for _ in range(3):
            if match.finished:
                break
            hand = match.deal(rng)
            while not hand.finished:
                legal = hand.legal_actions()
                for seat in range(4):
                    tries = rng.sample(candidate_actions(seat), 8)
                    legal_types = {(a.seat, a.type) for a in legal}
                    for action in tries:
                        if action in legal:
                            continue
                        # Loosely written actions may be accepted (R11.4): try those on a copy.
                        target = copy.deepcopy(hand) if (action.seat, action.type) in legal_types else hand
                        try:
                            target.apply(action)
                        except BalootError as exc:
                            error = exc
                        else:
                            assert target is not hand
                            continue
                        key, _params = error_key(error)
                        assert key != "error.generic", str(error)
                        seen.add(key)
                        for locale in ("en", "ar"):
                            text = error_text(error, locale)
                            assert text and "{" not in text
                match.apply(rng.choice(legal))
    # A broad spread of the engine's messages was met and mapped.
    assert {"error.not_your_turn", "error.follow_suit", "error.not_your_card", "error.bidding_only"} <= seen
    assert len(seen) >= 15


def test_suit_and_allowed_parameters_are_localized() -> None:
    from baloot.engine.errors import IllegalActionError

    exc = IllegalActionError(
        "You cannot follow suit, so you must play a trump (H) (R5.2).", code=ErrorCode.MUST_TRUMP, params={"suit": 1}
    )
    assert error_key(exc) == ("error.must_trump", {"suit": "H"})
    assert "هاص" in error_text(exc, "ar")
    assert "Hearts" in error_text(exc, "en")
    exc = IllegalActionError(
        "During bidding you may now only: hokum, sun (R3).",
        code=ErrorCode.BIDDING_ONLY,
        params={"allowed": "hokum, sun"},
    )
    assert error_text(exc, "ar") == t("error.bidding_only", "ar", allowed="حكم، صن")


class ServiceError(Exception):
    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.catalog_key = key
        self.catalog_params = params


@pytest.mark.parametrize("key", SERVICE_ERRORS)
def test_service_errors_carry_their_key(key: str) -> None:
    assert has_key(key)
    exc = ServiceError(key, detail="target must be positive")
    assert error_key(exc)[0] == key
    params = {"detail": "target must be positive"} if key == "error.bad_option" else {}
    assert error_text(exc, "ar") == t(key, "ar", **params)


def test_unknown_errors_are_internal_or_generic() -> None:
    assert error_key(RuntimeError("boom")) == ("error.internal", {})
    assert error_key(BalootError("a message nobody wrote")) == ("error.generic", {})
    with pytest.raises(BalootError) as info:
        Card.parse("ZZ")
    assert error_key(info.value)[0] == "error.generic"


SERVICE_CLASSES = {
    "NoTableHere": "error.no_table",
    "TableExists": "error.table_exists",
    "TableFull": "error.table_full",
    "SeatTaken": "error.seat_taken",
    "AlreadySeated": "error.already_seated",
    "NotSeated": "error.not_seated",
    "NotYourTurn": "error.not_your_turn",
    "StaleAction": "error.stale_button",
    "NotAllowed": "error.not_allowed",
    "TableNotRunning": "error.not_running",
    "BadOption": "error.bad_option",
}


def test_table_service_errors_map_by_class() -> None:
    tables_errors = pytest.importorskip("baloot.tables.errors")
    for name, key in SERVICE_CLASSES.items():
        cls = getattr(tables_errors, name)
        exc = cls()
        assert error_key(exc)[0] == key
        assert error_text(exc, "ar") != t("error.generic", "ar")
    assert error_text(tables_errors.SeatTaken(), "ar") == "هذا المقعد محجوز."


def test_service_messages_more_specific_than_their_class() -> None:
    from baloot.tables.errors import NotAllowed, TableFull, TableNotRunning

    need_four = NotAllowed("Four players are needed to start; 3 seated.", code=ErrorCode.NEED_FOUR)
    assert error_text(need_four, "en") == "Four players must be seated to start."
    started = TableNotRunning("The match has already started.", code=ErrorCode.ALREADY_RUNNING)
    assert error_text(started, "en") == "The match has already started."
    closed = TableNotRunning("This table has closed; its match is over.", code=ErrorCode.TABLE_FINISHED)
    assert error_text(closed, "en") == "This table has finished."
    team_full = TableFull("That team is full.", code=ErrorCode.TEAM_FULL)
    assert error_text(team_full, "ar") == t("error.team_full", "ar")
    not_yours = NotAllowed("That is not your hand.", code=ErrorCode.NOT_YOUR_HAND)
    assert error_text(not_yours, "en") == "These are not your cards."
    assert error_text(NotAllowed("You have already voted to end this table."), "en") == (
        "You are not allowed to do that.")


@pytest.mark.parametrize(("code", "en"), [
    (ErrorCode.SEATED_ONLY, "Only the table's creator or a player seated at it can do that."),
    (ErrorCode.CREATOR_OR_ADMIN, "Only the table's creator or a server admin can do that."),
    (ErrorCode.ADMIN_ONLY, "Only a server admin can do that."),
    (ErrorCode.END_BY_VOTE, "Only the table's creator, a server admin or a vote of its seated players can end it."),
    (ErrorCode.ALREADY_VOTED, "You have already voted to end this table."),
])
def test_a_refusal_says_who_may_do_it(code: ErrorCode, en: str) -> None:
    """Who may start, add bots, end or set a language, and a second vote, each say why, in both languages
    (not the bare "You are not allowed to do that.")."""
    from baloot.tables.errors import NotAllowed

    refusal = NotAllowed("any English", code=code)
    assert error_text(refusal, "en") == en
    arabic = error_text(refusal, "ar")
    assert arabic not in (t("error.not_allowed", "ar"), t("error.generic", "ar")) and arabic != en
