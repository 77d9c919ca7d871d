"""Table messages carried by interaction tokens, not the bot token's global limit.

End to end: when the players play in the channel ("My hand" and that ephemeral
view), a whole hand - its new table message, every edit of it, every private
view - costs no bot-token call at all; with DM play the bot token still edits
the table message. Unit: which interactions may carry, and for how long.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from discord.enums import InteractionResponseType
from fakediscord import DiscordEnv
from test_bot_harness import BotTable, Button, Player, contract_policy, open_table

from cogs.transport.carrier import CARRIER_AGE, EDIT_LIFETIME, Carriers
from cogs.transport.wire import RESPONDING, ResponseToken

SUN = contract_policy("sun")


def ephemeral_buttons(player: Player, version: tuple[int, int]) -> list[Button]:
    return [b for b in player.buttons() if b.version == version and b.message.ephemeral]


async def open_my_hands(table: BotTable) -> None:
    """Every player presses "My hand" on the table message and plays from that ephemeral view."""
    mine = await table.env.wait_for(lambda: next((m for m in reversed(table.table_messages()) if m.components), None))
    for player in table.players:
        opened = await player.person.click(mine, "My hand")
        assert opened.ephemeral and opened.message is not None


async def play_in_channel(table: BotTable, pause: float = 0.0) -> int:
    """Play the current hand to its end from the ephemeral views only; the hand number played.

    ``pause``: seconds between presses (a hand pressed as fast as the harness can lasts under a
    second, and its message, edited at most once a second, may then be posted in its final state)."""
    hand_no: int | None = None
    while True:
        turn = await table.wait_turn()
        assert turn is not None, "the match ended early"
        player, buttons = turn
        version = buttons[0].version
        if hand_no is None:
            hand_no = version[0]
        elif version[0] != hand_no:
            return hand_no
        chosen = ephemeral_buttons(player, version)
        assert chosen, f"{player.name}'s turn is shown in their ephemeral view"
        await table.press(player, SUN(player, chosen))
        await asyncio.sleep(pause)


@pytest.mark.parametrize("ping_delay", ["60", "0"])  # no ping; a ping at every human turn (and its delete)
async def test_a_hand_played_in_the_channel_spends_no_bot_token_call(
    discord_env: DiscordEnv, tmp_path: Path, ping_delay: str
) -> None:
    table = await open_table(discord_env, tmp_path, bot_settings={"PING_DELAY_SECONDS": ping_delay})
    await discord_env.wait_for(lambda: all(p.views() for p in table.players))  # the deal's DMs
    await open_my_hands(table)
    first = await play_in_channel(table)  # the DMs become notes once, during this hand
    calls = discord_env.calls
    mark = calls.mark()
    second = await play_in_channel(table, pause=0.08)  # about 3 s: the message is edited during the hand
    assert second == first + 1
    await asyncio.sleep(1.5)  # let the last coalesced edits land
    spent = [r.route for r in calls.select(kind="bot", since=mark)]
    assert spent == [], spent
    assert calls.count(kind="interaction", since=mark) > 0
    # The hands' table messages were posted as public followups of the players' channel interactions,
    # and edited through them up to the hand's end.
    messages = table.table_messages()
    later = [m for m in messages if m.interaction_id is not None]
    assert len(later) >= 2 and not any(m.ephemeral for m in later)
    done = later[-2]
    assert done.edits > 0
    # posted and edited on the bot's own session for interaction tokens (cogs/transport/token_http.py), pictures too
    followups = [r for r in calls.select(kind="interaction", since=mark)
                 if r.route in ("POST /webhooks/{webhook_id}/{webhook_token}",
                                "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")]
    plain = [r for r in followups if not r.content_type.startswith("multipart/")]
    assert all(r.agent.startswith("DiscordBot (") for r in followups), {(r.route, r.agent) for r in followups}
    assert plain or ping_delay == "60"  # the pings are plain followups
    if ping_delay == "0":  # the turn pings went out (and were deleted) through the same tokens
        pings = [m for m in discord_env.messages.values() if m.channel_id == table.channel.id
                 and m.author.bot and not m.embeds and "<@" in m.content]
        assert len(pings) > 8 and all(m.interaction_id is not None for m in pings[1:])
        assert sum(not m.deleted for m in pings) <= 1
    table.assert_private()
    table.assert_clean_log()


async def test_dm_play_still_edits_the_table_message_with_the_bot_token(
    discord_env: DiscordEnv, tmp_path: Path
) -> None:
    """Presses in DMs carry nothing to the channel: its message goes by the bot token, as before."""
    table = await open_table(discord_env, tmp_path, bot_settings={"PING_DELAY_SECONDS": "60"})
    calls = discord_env.calls
    mark = calls.mark()
    assert await table.play_hand(SUN)
    await asyncio.sleep(1.5)
    assert calls.count("PATCH /channels/{channel_id}/messages/{message_id}", kind="bot", since=mark) > 0
    table.assert_clean_log()


IDS = itertools.count(1)


def interaction(channel_id: int | None, guild_id: int | None, response: InteractionResponseType | None) -> Any:
    """An interaction whose discord.py response was used (``wire.discord_response`` marks that in ``extras``)
    and answered with ``response`` (None: not yet)."""
    return SimpleNamespace(
        id=next(IDS), application_id=1, token="tok", channel_id=channel_id, guild_id=guild_id,
        response=SimpleNamespace(type=response), extras={RESPONDING: True},
    )


def test_only_answered_channel_interactions_carry() -> None:
    carriers = Carriers()
    carriers.offer(interaction(5, None, InteractionResponseType.message_update))  # a DM press
    carriers.offer(interaction(6, 9, InteractionResponseType.deferred_channel_message))  # "thinking": a followup
    carriers.offer(interaction(7, 9, None))  # not answered (yet)
    assert carriers.carrier(5) is None and carriers.carrier(6) is None and carriers.carrier(7) is None
    for kind in (InteractionResponseType.channel_message, InteractionResponseType.message_update,
                 InteractionResponseType.deferred_message_update):
        carriers.offer(interaction(8, 9, kind))
        assert carriers.carrier(8) is not None


def test_a_carrier_must_leave_time_for_a_hand_of_edits() -> None:
    carriers = Carriers()
    now = time.monotonic()
    carriers.by_channel[1] = ResponseToken(1, "old", now - CARRIER_AGE - 1)
    carriers.by_channel[2] = ResponseToken(1, "new", now - CARRIER_AGE + 30)
    assert carriers.carrier(1) is None and 1 not in carriers.by_channel
    assert carriers.carrier(2) is not None
    carriers.by_message[10] = ResponseToken(1, "expired", now - EDIT_LIFETIME - 1)
    carriers.by_message[11] = ResponseToken(1, "valid", now - EDIT_LIFETIME + 30)
    assert carriers.token_of(10) is None and carriers.token_of(11) is not None
    carriers.by_message[12] = ResponseToken(1, "expired", now - EDIT_LIFETIME - 1)
    carriers.prune()
    assert set(carriers.by_message) == {11}
