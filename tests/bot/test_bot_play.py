"""End to end: four people play a hand through the channel and their DMs, against the real bot process."""

from __future__ import annotations

from pathlib import Path

from fakediscord import DiscordEnv, Message
from test_bot_harness import contract_policy, open_table

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"
EDIT_ORIGINAL = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"


async def test_one_hand_through_dms_despite_rate_limits(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path)
    # Discord answers some edits with 429: the bot waits and retries, nothing is lost.
    discord_env.rate_limit(EDIT, times=3, retry_after=0.1)
    mark = discord_env.calls.mark()
    steps = await table.play_hand(contract_policy("hokum"))
    assert steps >= 8 + 32 - 8  # bids, then 32 cards (a few bids may be skipped)
    assert discord_env.calls.count(EDIT, status=429, since=mark) == 3
    table.assert_private()
    assert table.action_count() == len(table.acted)
    # The presses' answers and the views' edits went through the bot's own aiohttp session for interaction
    # tokens (cogs/transport/token_http.py, discord.py's User-Agent); the bot-token requests through discord.py's.
    answers = [c for c in discord_env.calls.select(kind="interaction", since=mark)
               if c.route in (CALLBACK, EDIT_ORIGINAL) and c.status < 300]
    assert len(answers) >= steps
    assert all(c.agent.startswith("DiscordBot (") for c in answers), {c.agent for c in answers}
    bot_calls = discord_env.calls.select(kind="bot", since=mark)
    assert any(c.route == EDIT for c in bot_calls)

    # The first hand's message ends showing the hand's result (compact: the breakdown is
    # behind "Details"); it was edited, never re-sent.
    def ended(m: Message) -> bool:
        return any(c.get("custom_id", "").endswith(":result:0") for row in m.components for c in row["components"])

    first = await discord_env.wait_for(
        lambda: next((m for m in table.table_messages() if "hand 1" in m.embeds[0]["title"] and ended(m)), None))
    assert len(first.embeds) == 1 and "Hand score" in [f["name"] for f in first.embeds[0]["fields"]]
    assert first.edits >= 1
    assert len([m for m in table.table_messages() if "hand 1" in m.embeds[0]["title"]]) == 1
    table.assert_clean_log()
