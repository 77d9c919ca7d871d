"""cogs/transport/wire.py: the JSON bodies of the hot paths are what discord.py itself would have sent.

The hot paths skip discord.py's View/Embed objects; this checks, over the
payloads of random matches (table messages in both languages, every seat's
private view at every action), that the body equals the one discord.py's own
builder makes from the same payload, card emojis included.
"""

from __future__ import annotations

import json
import random
from typing import Any

import discord
import pytest
from discord.http import handle_message_parameters
from discord.webhook.async_ import interaction_message_response_params, interaction_response_params
from render_helpers import table_payload

from baloot import Match, Rules, seat_view
from baloot.render import Payload, RenderInfo, render_hand
from cogs.presentation.emojis import CARD_EMOJIS
from cogs.transport.payloads import edit_args, message_args, send_args
from cogs.transport.wire import (
    UPDATE_MESSAGE,
    callback_message_id,
    deferral_body,
    message_callback,
    message_json,
    message_params,
)

INFO = RenderInfo("4242", names=("Noura", "Fahad", "Reem", "Saad"))


def without_defaults(body: dict[str, Any]) -> dict[str, Any]:
    """A message body discord.py built, less the fields it always sends at their defaults (``tts``, embed flags 0)."""
    body = dict(body)
    body.pop("tts", None)
    body["embeds"] = [{k: v for k, v in e.items() if (k, v) != ("flags", 0)} for e in body.get("embeds", [])]
    return body


def discord_py_body(payload: Payload) -> dict[str, Any]:
    """What ``Message.edit(**message_args(payload))`` sends, less the fields that are defaults."""
    return without_defaults(handle_message_parameters(**message_args(payload)).payload or {})


def payloads(seed: int) -> list[Payload]:  # private views, card emojis as in cogs/presentation/private.py
    """Every table message after each action, and each seat's private view, of one random match's hands."""
    rng = random.Random(seed)
    match = Match(Rules(target=152), first_dealer=seed % 4)
    out: list[Payload] = []
    for _ in range(2):
        hand = match.deal(rng)
        while not hand.finished:
            out.append(table_payload(INFO, match, "ar" if len(out) % 2 else "en"))
            for seat in range(4):
                out.append(render_hand(INFO, seat_view(hand, seat), len(match.hands) - 1, "en",
                                       CARD_EMOJIS.json_by_card))
            match.apply(rng.choice(hand.legal_actions()))
        out.append(table_payload(INFO, match, "en"))
        if match.finished:
            break
    return out


@pytest.fixture()
def card_emojis() -> Any:
    saved = dict(CARD_EMOJIS.by_card)
    CARD_EMOJIS.replace({i: discord.PartialEmoji(name=f"bl_{i}", id=10_000 + i) for i in range(32)})
    yield CARD_EMOJIS
    CARD_EMOJIS.replace(saved)


@pytest.mark.parametrize("with_emojis", [False, True])
def test_bodies_equal_discord_py_for_every_payload(with_emojis: bool, request: pytest.FixtureRequest) -> None:
    if with_emojis:
        request.getfixturevalue("card_emojis")
    seen_emoji = False
    for seed in range(3):
        for payload in payloads(seed):
            body = message_json(payload)
            assert body == discord_py_body(payload)
            seen_emoji = seen_emoji or any("emoji" in b for row in body["components"] for b in row["components"])
    assert seen_emoji == with_emojis


def discord_py_params(payload: Payload, callback: int | None = None) -> Any:
    """The parameters discord.py's own builders make for ``payload`` (edited, or as a callback)."""
    args = edit_args(payload)
    common = {"content": args["content"], "embeds": args["embeds"], "view": args["view"],
              "attachments": args.get("attachments", discord.utils.MISSING),
              "allowed_mentions": args["allowed_mentions"]}
    if callback is None:
        return handle_message_parameters(**common)  # type: ignore[arg-type]
    return interaction_message_response_params(type=callback, **common)  # type: ignore[arg-type]


@pytest.mark.parametrize("callback", [None, UPDATE_MESSAGE])
def test_a_picture_goes_as_the_form_discord_py_builds(callback: int | None) -> None:
    """With files (the table's picture) the form is discord.py's own for the same payload - the same
    payload_json (naming each file in attachments) and the same file parts - built from the payload's dicts."""
    for index, payload in enumerate(payloads(7)[::9]):
        files = [("baloot-table.png", b"\x89PNG %d" % index)] + ([("b.png", b"second")] if index % 2 else [])
        payload = {**payload, "files": files}
        with message_params(payload, callback=callback) as ours, discord_py_params(payload, callback) as theirs:
            assert ours.payload is None and theirs.payload is None
            assert ours.multipart is not None and theirs.multipart is not None
            mine, their = json.loads(ours.multipart[0]["value"]), json.loads(theirs.multipart[0]["value"])
            if callback is None:
                assert mine == without_defaults(their)
            else:
                assert mine == {"type": callback, "data": without_defaults(their["data"])}
            assert ours.multipart[0]["name"] == theirs.multipart[0]["name"] == "payload_json"
            for part, other in zip(ours.multipart[1:], theirs.multipart[1:], strict=True):
                assert {k: v for k, v in part.items() if k != "value"} == {
                    k: v for k, v in other.items() if k != "value"}
                assert part["value"].read() == other["value"].read()
            assert ours.files is not None and [f.filename for f in ours.files] == [name for name, _ in files]


def test_a_callback_wraps_the_body_and_files_go_as_multipart() -> None:
    payload = render_hand(INFO, seat_view(Match(Rules()).deal(random.Random(1)), 0), 0, "en")
    with message_params(payload, callback=UPDATE_MESSAGE) as params:
        assert params.payload == {"type": 7, "data": message_json(payload)} and params.files is None
    removed = {**payload, "files": []}
    assert message_json(removed)["attachments"] == []  # a picture taken away is removed from the message
    assert "attachments" not in message_json(payload)  # no files: the attachments are left as they are
    with message_params({**payload, "files": [("table.png", b"\x89PNG")]}) as params:
        assert params.files is not None and [f.filename for f in params.files] == ["table.png"]
        assert params.multipart is not None and params.payload is None


@pytest.mark.parametrize("ephemeral", [False, True])
def test_a_message_callback_is_what_send_message_sends(ephemeral: bool) -> None:
    """A reply (callback type 4: a command's answer, "My hand", a refusal) sent by the lean client has the
    body ``InteractionResponse.send_message`` builds for the same payload (the bot's default of no pings
    merged in as discord.py does), less its defaults."""
    for payload in payloads(5)[:40]:
        flags = discord.MessageFlags(ephemeral=True) if ephemeral else discord.utils.MISSING
        theirs = interaction_message_response_params(
            type=4, **send_args(payload), previous_allowed_mentions=discord.AllowedMentions.none(), flags=flags
        ).payload
        assert theirs is not None
        data = dict(theirs["data"])
        data.pop("tts")
        data["embeds"] = [{k: v for k, v in e.items() if (k, v) != ("flags", 0)} for e in data["embeds"]]
        assert message_callback(payload, ephemeral=ephemeral) == {"type": 4, "data": data}


def test_the_message_a_callback_made_is_read_from_discords_answer() -> None:
    answer = {"interaction": {"id": "1", "type": 2}, "resource": {"type": 4, "message": {"id": "987", "content": ""}}}
    assert callback_message_id(answer) == 987
    assert callback_message_id({"interaction": {"id": "1"}}) is None
    assert callback_message_id(None) is None and callback_message_id("") is None


@pytest.mark.parametrize("ephemeral", [False, True])
def test_a_deferral_is_what_interaction_response_defer_sends(ephemeral: bool) -> None:
    """``in_time`` defers a command on the token road (a burst of them through discord.py's aiohttp path came
    past Discord's 3 s): the body is the one ``InteractionResponse.defer(thinking=True)`` builds."""
    theirs = interaction_response_params(type=5, data={"flags": 64} if ephemeral else None).payload
    assert deferral_body(ephemeral=ephemeral) == theirs
