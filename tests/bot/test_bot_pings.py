"""End to end: turn pings — one delivered mention per human turn, none for bots,
none for a player who acts within the delay, superseded so the channel keeps one; the bot-token
REST calls per hand with and without them."""

from __future__ import annotations

import re
from pathlib import Path

from fakediscord import DiscordEnv, Message
from test_bot_harness import BotTable, Player, contract_policy, open_table, plain


def pings(table: BotTable) -> list[Message]:
    """The bot's plain (embed-less) channel messages that mention someone: the pings."""
    return [m for m in table.host.person.messages(table.channel, with_ephemeral=False)
            if m.author.bot and not m.embeds and "<@" in m.content and m.allowed_mentions is not None
            and m.allowed_mentions.get("users")]


async def play_one_hand(table: BotTable) -> tuple[int, int]:
    """Play the first hand; (human turns, bot-token calls) while doing so."""
    calls = table.env.calls
    mark = calls.mark()
    turns = await table.play_hand(contract_policy("sun"))
    await table.env.wait_for(lambda: True, 0.1)
    return turns, calls.count(kind="bot", since=mark)


async def test_a_ping_per_human_turn_for_that_user_only(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path, bot_settings={"PING_DELAY_SECONDS": "0"})
    seen: list[tuple[int, int]] = []  # (ping message, user pinged) at each turn
    for _ in range(10):
        turn = await table.wait_turn()
        assert turn is not None
        player, buttons = turn
        earlier = {ping_id for ping_id, _ in seen}

        def one_live(p: Player = player, earlier: set[int] = earlier) -> bool:
            # This turn's own ping: a player with two turns in a row (the last bidder who then
            # leads) still has the previous turn's ping live until the new one supersedes it.
            live = [m for m in pings(table) if not m.deleted]
            return len(live) == 1 and f"<@{p.person.id}>" in live[0].content and live[0].id not in earlier

        await discord_env.wait_for(one_live)  # the previous ping was deleted (superseded)
        live = [m for m in pings(table) if not m.deleted]
        ping = live[0]
        # Discord notifies exactly that user: allowed_mentions names them and parses nothing else.
        mentions = ping.allowed_mentions or {}
        assert mentions.get("parse") == [] and [int(u) for u in mentions["users"]] == [player.person.id]
        # the relative timestamp says when time runs out (was "your turn <t:…:R>": "in 40 seconds")
        assert re.fullmatch(rf"<@{player.person.id}>, your turn at the Baloot table — time runs out <t:\d+:R>",
                            plain(ping.content)), ping.content
        seen.append((ping.id, player.person.id))
        await table.press(player, contract_policy("sun")(player, buttons))
    assert len({ping_id for ping_id, _ in seen}) == 10  # a new message (which notifies) at each turn
    table.assert_clean_log()


async def test_no_ping_for_a_player_who_acts_within_the_delay(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path, bot_settings={"PING_DELAY_SECONDS": "5"})
    for _ in range(8):
        assert await table.step(contract_policy("sun"))
    assert pings(table) == []
    table.assert_clean_log()


async def test_no_ping_for_bots(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path, names=("alice",), start=False,
                             bot_settings={"PING_DELAY_SECONDS": "0"})
    await table.host.person.slash("baloot", "bots", channel=table.channel)
    await table.host.person.slash("baloot", "start", channel=table.channel)
    for _ in range(4):
        turn = await table.wait_turn()
        assert turn is not None
        player, buttons = turn
        def pinged_now(who: str = f"<@{player.person.id}>") -> bool:
            return any(who in m.content for m in pings(table))

        await discord_env.wait_for(pinged_now)
        await table.press(player, contract_policy("sun")(player, buttons))
    pinged = {int(u) for m in pings(table) for u in (m.allowed_mentions or {}).get("users", [])}
    assert pinged == {table.host.person.id}


async def test_bot_token_calls_per_hand_with_and_without_pings(discord_env: DiscordEnv, tmp_path: Path) -> None:
    """Worst case (every human turn pinged at once) against no ping (players quicker than the delay)."""
    quiet = await open_table(discord_env, tmp_path / "quiet", bot_settings={"PING_DELAY_SECONDS": "60"})
    turns_quiet, calls_quiet = await play_one_hand(quiet)
    await quiet.bot.stop()
    loud = await open_table(discord_env, tmp_path / "loud", bot_settings={"PING_DELAY_SECONDS": "0"})
    turns_loud, calls_loud = await play_one_hand(loud)
    print(f"\nbot-token calls in the first hand: {calls_quiet} without pings ({turns_quiet} turns), "
          f"{calls_loud} with a ping every turn ({turns_loud} turns)")
    # each ping: one POST and at most one DELETE of the previous one
    assert calls_loud <= calls_quiet + 2 * turns_loud + 4


async def test_a_ping_sent_before_a_restart_is_deleted_by_the_next_one(discord_env: DiscordEnv,
                                                                      tmp_path: Path) -> None:
    """The table's latest ping is stored with its messages: the restarted bot's ping for the resumed turn
    supersedes it like any other, so the channel still keeps one."""
    table = await open_table(discord_env, tmp_path, bot_settings={"PING_DELAY_SECONDS": "0"})
    turn = await table.wait_turn()
    assert turn is not None

    def live() -> list[Message]:
        return [m for m in pings(table) if not m.deleted]

    await discord_env.wait_for(lambda: len(live()) == 1)
    before = live()[0]
    await table.bot.restart()
    await discord_env.wait_for(lambda: before.deleted and len(live()) == 1)
    assert f"<@{turn[0].person.id}>" in live()[0].content  # the same turn, pinged once more after the restart
    table.assert_clean_log()
