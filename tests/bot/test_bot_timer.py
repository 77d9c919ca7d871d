"""End to end: the turn timer plays for a player who does not act; bots fill empty seats."""

from __future__ import annotations

import json
import time
from pathlib import Path

from fakediscord import DiscordEnv
from test_bot_harness import contract_policy, open_table

from baloot.i18n.direction import strip_isolates


async def test_turn_timer_plays_for_an_idle_player_and_says_so(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path, create={"turn_time": 5})
    turn = await table.wait_turn()
    assert turn is not None
    idle, buttons = turn
    began = time.monotonic()
    notice = await idle.person.wait_message(table.channel, lambda m: "ran out of time" in m.content, timeout=10)
    waited = time.monotonic() - began
    assert 4.0 <= waited <= 8.0, waited
    assert strip_isolates(notice.content).startswith(f"{idle.name} ran out of time; played for them: ")
    rows = table.query("SELECT auto, action, by_user_id FROM actions WHERE table_id = ? ORDER BY hand_no, idx",
                       (table.table_id(),))
    assert len(rows) == 1 and rows[0]["auto"] == 1 and rows[0]["by_user_id"] is None
    assert json.loads(rows[0]["action"]) == {"seat": idle.seat, "type": "pass"}
    # The idle player's buttons are gone; the next player has theirs; the table message says what happened.
    await discord_env.wait_for(lambda: not [b for b in idle.buttons() if b.version == buttons[0].version])
    table.last_version = buttons[0].version
    nxt = await table.wait_turn()
    assert nxt is not None and nxt[0] is not idle and nxt[1][0].version == (buttons[0].version[0], 1)
    await discord_env.wait_for(lambda: any("ran out of time" in m.embeds[0].get("description", "")
                                           for m in table.table_messages()))
    # Acting again works as usual.
    await table.press(*nxt[0:1], contract_policy("sun")(*nxt))
    assert table.action_count() == 2


async def test_bots_fill_empty_seats_and_play(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path, names=("alice",), start=False,
                             bot_settings={"AI_WORKERS": "1", "BOT_DELAY_SECONDS": "0"})
    alice = table.host
    filled = await alice.person.slash("baloot", "bots", channel=table.channel, level="normal")
    assert filled.ephemeral and filled.message is not None
    seats = filled.message.embeds[0]["fields"][-1]["value"]
    # "Bot 2" already says it is a bot, so no "(bot)" mark is added to it.
    assert all(f"Bot {n}" in seats for n in (2, 3, 4)) and "(bot)" not in seats and "alice" in seats, seats
    started = await alice.person.slash("baloot", "start", channel=table.channel)
    assert started.response_type == 4 and not started.ephemeral
    table.players = [alice]
    steps = await table.play_hand(contract_policy("sun"))
    assert steps >= 2
    record = table.record()
    first = record["hands"][0]["actions"]
    assert len(first) > steps, "bots played the other seats"
    assert {a["seat"] for a in first} == {0, 1, 2, 3}
    table.assert_private()
    table.assert_clean_log()
