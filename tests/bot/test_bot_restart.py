"""End to end: SIGKILL the bot mid-hand several times; the match finishes with nothing lost or doubled."""

from __future__ import annotations

from pathlib import Path

from fakediscord import DiscordEnv
from test_bot_harness import UntilSeen, open_table

KILL_AFTER = (3, 11, 30, 47, 70)  # presses after which the bot is killed (bidding, play, next hands)


async def test_sigkill_mid_hand_then_finish(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path, create={"target": 60})
    policy = UntilSeen(table, ("hokum", "sun"))
    kills = 0
    while await table.step(policy):
        if kills < len(KILL_AFTER) and len(table.acted) == KILL_AFTER[kills]:
            before = table.action_count()
            await table.bot.restart()  # SIGKILL, then a fresh process on the same database
            kills += 1
            assert table.action_count() == before == len(table.acted)
            await table.host.person.wait_message(table.channel, lambda m: "back where it was" in m.content)
        assert len(table.acted) < 800
    assert kills == len(KILL_AFTER)
    assert table.bot.starts == kills + 1
    assert table.status() == "finished"

    # Every press was stored exactly once, in order.
    record = table.record()
    stored = [(a["seat"], a["type"]) for h in record["hands"] for a in h["actions"]]
    assert len(stored) == len(table.acted)
    assert [seat for seat, _ in stored] == [seat for seat, _ in table.acted]
    replay = table.replay(tmp_path)
    assert replay["winner"] is not None and max(replay["score"]) >= 60
    result = table.query("SELECT score0, score1 FROM match_results WHERE table_id = ?", (table.table_id(),))
    assert [result[0][0], result[0][1]] == replay["score"]
    notices = [m for m in table.host.person.messages(table.channel) if "back where it was" in m.content]
    assert len(notices) == kills
    table.assert_private()
    table.assert_clean_log()
