"""Button custom_ids: round trips, limits, malformed ids, DynamicItem templates."""

from __future__ import annotations

import re

import discord
import pytest

from baloot import Action, ActionType
from baloot.engine.cards import ALL_CARDS
from baloot.render import (
    ACTION_ID_TEMPLATE,
    TABLE_ID_TEMPLATE,
    CustomIdError,
    decode_action_id,
    decode_table_id,
    encode_action_id,
    encode_table_id,
)
from baloot.render.custom_ids import action_code, action_id_prefix, play_code


def every_action(seat: int) -> list[Action]:
    acts = [Action(seat, typ) for typ in ActionType if typ not in (ActionType.PLAY, ActionType.FOUR)]
    acts += [Action(seat, ActionType.HOKUM, suit=s) for s in range(4)]
    acts += [Action(seat, typ, locked=lock) for typ in (ActionType.DOUBLE, ActionType.FOUR) for lock in (True, False)]
    acts += [Action(seat, ActionType.PLAY, card) for card in ALL_CARDS]
    return acts


@pytest.mark.parametrize("seat", range(4))
def test_every_action_round_trips(seat: int) -> None:
    table = "9" * 20
    ids = set()
    for action in every_action(seat):
        custom_id = encode_action_id(table, seat, (12345, 99999), action)
        assert len(custom_id) <= 100
        assert re.fullmatch(ACTION_ID_TEMPLATE, custom_id)
        decoded = decode_action_id(custom_id)
        assert decoded.action is action  # interned: the very same action
        assert (decoded.table_id, decoded.seat, decoded.version) == (table, seat, (12345, 99999))
        ids.add(custom_id)
    assert len(ids) == len(every_action(seat)) == 50  # all distinct (49 + Sawa, R12)


@pytest.mark.parametrize("seat", range(4))
def test_a_views_shared_prefix_gives_the_same_ids(seat: int) -> None:
    """hand_view draws ``action_id_prefix(...) + action_code(a)`` (``+ play_code(card)``): exactly encode_action_id."""
    prefix = action_id_prefix("42", seat, (3, 17))
    for action in every_action(seat):
        assert prefix + action_code(action) == encode_action_id("42", seat, (3, 17), action)
        if action.card is not None:
            assert prefix + play_code(action.card) == encode_action_id("42", seat, (3, 17), action)
    for table, bad_seat, version in (("has space", seat, (0, 0)), ("1", 4, (0, 0)), ("1", -1, (0, 0)),
                                     ("1", seat, (0, 100000)), ("1", seat, (-1, 0)), ("x" * 33, seat, (0, 0))):
        with pytest.raises(CustomIdError):
            action_id_prefix(table, bad_seat, version)


def test_longest_id_fits() -> None:
    custom_id = encode_action_id("x" * 32, 3, (99999, 99999), Action(3, ActionType.PLAY, ALL_CARDS[31]))
    assert len(custom_id) <= 100


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "bl",
        "bl:1:0:0:0",
        "bl:1:4:0:0:p",  # seat 4
        "bl:1:0:0:0:z",  # unknown action
        "bl:1:0:0:0:cZZ",  # bad card
        "bl:1:0:0:0:f",  # Four must say locked/open
        "bl:1:0:0:0:hX",
        "bl:1:0:-1:0:p",
        "bl:1:0:0:123456:p",  # index too large
        "xx:1:0:0:0:p",
        "bl:a b:0:0:0:p",
        "bl:" + "1" * 33 + ":0:0:0:p",
        "bl:1:0:0:0:p:extra",
        "bl:1:mine",
    ],
)
def test_malformed_action_ids_raise(bad: str) -> None:
    with pytest.raises(CustomIdError):
        decode_action_id(bad)
    assert re.fullmatch(ACTION_ID_TEMPLATE, bad) is None


def test_encode_refuses_bad_input() -> None:
    with pytest.raises(CustomIdError):
        encode_action_id("has space", 0, (0, 0), Action(0, ActionType.PASS))
    with pytest.raises(CustomIdError):
        encode_action_id("1", 1, (0, 0), Action(0, ActionType.PASS))  # another seat's action
    with pytest.raises(CustomIdError):
        encode_action_id("1", 0, (0, 100000), Action(0, ActionType.PASS))


def test_table_buttons() -> None:
    custom_id = encode_table_id("123", "mine")
    assert custom_id == "bl:123:mine"
    assert decode_table_id(custom_id) == ("123", "mine")
    assert re.fullmatch(TABLE_ID_TEMPLATE, custom_id)
    assert re.fullmatch(ACTION_ID_TEMPLATE, custom_id) is None
    for bad in ("bl:123:theirs", "bl::mine", "bl:123:0:0:0:p"):
        with pytest.raises(CustomIdError):
            decode_table_id(bad)
    with pytest.raises(CustomIdError):
        encode_table_id("123", "other")


def test_templates_work_as_dynamic_items() -> None:
    class ActionButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=ACTION_ID_TEMPLATE):
        pass

    pattern = ActionButton.__discord_ui_compiled_template__
    match = pattern.fullmatch(encode_action_id("55", 2, (1, 9), Action(2, ActionType.DOUBLE, locked=True)))
    assert match is not None
    assert match["table"] == "55" and match["action"] == "dL" and match["index"] == "9"


def test_lobby_ids_round_trip_and_every_number_is_range_checked() -> None:
    """Lobby buttons: join a team or seat, leave, bots of a level, start."""
    from baloot.render import CustomIdError, LobbyId, decode_lobby_id
    from baloot.render.custom_ids import BOT_LEVEL_NAMES
    from baloot.tables import BOT_LEVELS

    assert tuple(BOT_LEVEL_NAMES) == tuple(BOT_LEVELS)
    for lobby in (LobbyId("12", "join", team=1), LobbyId("12", "join", seat=3), LobbyId("12", "join"),
                  LobbyId("12", "leave"), LobbyId("12", "bots", level="hard"), LobbyId("12", "start")):
        assert decode_lobby_id(lobby.encode()) == lobby
    for bad in ("bl:12:lobby:join:t3", "bl:12:lobby:join:t0", "bl:12:lobby:join:s5", "bl:12:lobby:join:s0",
                "bl:12:lobby:join:s99999999", "bl:12:lobby:bots:insane", "bl:12:lobby:start:s1",
                "bl:12:lobby:leave:t1", "bl:12:lobby:dance", "bl:12:lobby:join:"):
        with pytest.raises(CustomIdError):
            decode_lobby_id(bad)
    with pytest.raises(CustomIdError):
        LobbyId("12", "join", seat=4).encode()
