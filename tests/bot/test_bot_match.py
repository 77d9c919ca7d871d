"""End to end: a whole match to the target, every contract type, scores equal the stored record's replay."""

from __future__ import annotations

import re
import time
from pathlib import Path

from fakediscord import DiscordEnv
from test_bot_harness import UntilSeen, hand_kinds, open_table

PLAN = ("double", "hokum2", "ashkal", "hokum", "sun")  # the big one first: all five fit below the target


async def test_whole_match_every_contract_scores_match_replay(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path, create={"target": 250})
    policy = UntilSeen(table, PLAN)
    started = time.monotonic()
    mark = discord_env.calls.mark()
    hands = 0
    while table.status() == "playing":
        assert await table.play_hand(policy) > 0
        hands += 1
        table.assert_private()
        assert hands < 30, "the match does not end"
    assert table.status() == "finished"
    elapsed = time.monotonic() - started

    # No action lost or duplicated: the store holds exactly what the players pressed, in order.
    record = table.record()
    stored = [(a["seat"], a["type"]) for h in record["hands"] for a in h["actions"]]
    assert len(stored) == len(table.acted)

    # Every contract type appeared (the policy retries a kind the deal did not allow).
    kinds = hand_kinds(record)
    assert {"sun", "hokum", "ashkal", "hokum2", "double"} <= set(kinds), kinds

    # The final scores: replay of the stored record == stored result == what the channel shows.
    replay = table.replay(tmp_path)
    result = table.query("SELECT score0, score1, winner_team FROM match_results WHERE table_id = ?",
                         (table.table_id(),))
    final = await discord_env.wait_for(
        lambda: next((m for m in table.table_messages() if len(m.embeds) >= 3 and not any(
            c.get("custom_id", "").endswith(":mine") for row in m.components for c in row["components"])), None), 5
    )
    text = " ".join(e.get("description", "") + e.get("title", "") for e in final.embeds)
    shown = re.search(r"Final score (\d+) – (\d+)", text)
    assert shown is not None, text
    assert [int(shown.group(1)), int(shown.group(2))] == replay["score"]
    assert replay["winner"] is not None and max(replay["score"]) >= 250
    assert result, "no stored result"
    assert [result[0][0], result[0][1]] == replay["score"] and result[0][2] == replay["winner"]

    # One table message per hand, each edited rather than re-sent.
    messages = table.table_messages()
    assert len(messages) == len(record["hands"])
    calls = discord_env.calls
    bot_calls = calls.count(kind="bot", since=mark)
    interaction_calls = calls.count(kind="interaction", since=mark)
    print(f"\n{hands} hands, {len(stored)} actions in {elapsed:.1f}s; per hand: "
          f"{bot_calls / hands:.1f} bot-token calls, {interaction_calls / hands:.1f} interaction-token calls")
    print(calls.report(since=mark))
    assert bot_calls / hands < 25
    # Each player's private hand was one DM message, edited all match long.
    assert all(len(p.person.dms()) == 1 for p in table.players)
    table.assert_clean_log()
