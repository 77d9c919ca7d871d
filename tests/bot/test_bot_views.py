"""End to end: every seated player's private view stays current.

Four people at one table; bob plays from an ephemeral "My hand" view, the
others from their DMs. After every completed trick (R5) each player's live
view - their DM, or bob's "My hand" - shows that trick and who is to act; bob's
DM never shows buttons for a move he already made, says where play continues,
and follows the game at completed tricks.
"""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path

from fakediscord import DiscordEnv, Message
from test_bot_harness import BotTable, Button, Player, contract_policy, open_table, plain

from baloot.i18n import t

ELSEWHERE = plain(t("hand.plays_elsewhere", "en", channel="")).split(" in ")[0]
LAST_TRICK = plain(t("table.last_trick", "en", name="")).split("—")[0]


def live_view(player: Player, ephemeral: bool) -> Message | None:
    """The message a player plays from: their newest ephemeral hand view, or their DM."""
    views = [m for m in (player.person.ephemerals() if ephemeral else player.person.dms())
             if m.embeds and any(plain(f["name"]) == "Your cards" for f in m.embeds[0].get("fields", []))]
    return max(views, key=lambda m: m.id) if views else None


def last_trick(message: Message) -> tuple[str, str] | None:
    """The "Last trick — X took it" field of a private view: (name, value), plain."""
    for fld in message.embeds[0].get("fields", []):
        if plain(fld["name"]).startswith(LAST_TRICK):
            return plain(fld["name"]), plain(fld["value"])
    return None


def status(message: Message) -> str:
    return plain(message.embeds[0].get("description", "")).split("\n")[0]


async def settled(message: Message, quiet: float = 0.6, limit: float = 6.0) -> None:
    """Wait until ``message`` has not been edited for ``quiet`` seconds (at most ``limit``): an edit the bot
    owes for an earlier moment has landed, however slow a loaded machine is."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    edits, since = message.edits, loop.time()
    while loop.time() < end:
        await asyncio.sleep(0.05)
        if message.edits != edits:
            edits, since = message.edits, loop.time()
        elif loop.time() - since >= quiet:
            return


def enabled_actions(message: Message) -> list[str]:
    return [c["custom_id"] for row in message.components for c in row.get("components", [])
            if c.get("custom_id", "").startswith("bl:") and not c.get("disabled")]


def current(table: BotTable, player: Player, leader: Player, ephemeral: bool) -> bool:
    """``player``'s live view shows the trick just completed, taken by ``leader``, and whose turn it is."""
    view = live_view(player, ephemeral)
    if view is None:
        return False
    shown = last_trick(view)
    if shown is None or leader.name not in shown[0]:
        return False
    if sum(p.name in shown[1] for p in table.players) != 4:
        return False
    if player is leader:
        return status(view).startswith("Your turn")
    return status(view) == plain(t("hand.waiting_for", "en", name=leader.name))


def waits_for(player: Player, mover: Player) -> bool:
    """``player``'s DM says it is ``mover``'s turn."""
    view = live_view(player, False)
    return view is not None and status(view) == plain(t("hand.waiting_for", "en", name=mover.name))


def all_current(table: BotTable, leader: Player, bob: Player) -> bool:
    return all(current(table, p, leader, p is bob) for p in table.players)


def bob_buttons(table: BotTable, bob: Player, turn: tuple[Player, list[Button]]) -> list[Button]:
    """Bob presses only in his ephemeral view; everyone else where the harness found their turn."""
    player, buttons = turn
    if player is not bob:
        return buttons
    version = buttons[0].version
    return [b for b in bob.buttons() if b.version == version and b.message.ephemeral]


async def test_every_view_follows_each_trick_and_a_my_hand_players_dm_has_no_stale_buttons(
    discord_env: DiscordEnv, tmp_path: Path
) -> None:
    table = await open_table(discord_env, tmp_path)
    bob = table.by_seat(1)
    # Everyone is dealt a DM; bob then opens "My hand" in the channel and plays from there.
    await discord_env.wait_for(lambda: all(live_view(p, False) for p in table.players))
    mine = await discord_env.wait_for(lambda: next((m for m in table.table_messages() if m.components), None))
    opened = await bob.person.click(mine, "My hand")
    assert opened.ephemeral and opened.message is not None
    dm = live_view(bob, False)
    assert dm is not None
    # His DM is replaced by a note, without cards or buttons, saying plainly where play continues.
    await discord_env.wait_for(lambda: ELSEWHERE in plain(dm.embeds[0].get("description", "")))
    assert f"<#{table.channel.id}>" in dm.embeds[0]["description"]
    assert not enabled_actions(dm) and not dm.components
    assert not dm.embeds[0].get("fields"), "the note shows no cards (it would go stale)"
    noted = dm.edits

    policy = contract_policy("sun")
    cards = 0
    tricks = 0
    while tricks < 3:
        turn = await table.wait_turn()
        assert turn is not None, "the match ended early"
        buttons = bob_buttons(table, bob, turn)
        assert buttons, "bob's turn is shown in his ephemeral view"
        choice = policy(turn[0], buttons)
        await table.press(turn[0], choice)
        assert not enabled_actions(dm), "bob's DM shows buttons"
        if not choice.code.startswith("c"):
            continue
        cards += 1
        if cards % 4:
            continue
        tricks += 1
        nxt = await table.wait_turn()  # the trick's winner leads the next one (R5)
        assert nxt is not None
        leader = nxt[0]

        await discord_env.wait_for(functools.partial(all_current, table, leader, bob))
        # His view follows through its token; the note in his DM is not edited per trick
        # (each DM edit spends the bot token's global limit), and still shows no buttons.
        assert dm.edits == noted
        assert not enabled_actions(dm)
        assert ELSEWHERE in plain(dm.embeds[0]["description"])
    assert bob.presses >= 3
    table.assert_private()
    table.assert_clean_log()
    assert table.action_count() == len(table.acted)


async def test_a_waiting_dm_without_a_valid_token_is_edited_at_tricks_not_per_card(
    discord_env: DiscordEnv, tmp_path: Path
) -> None:
    """The bot token's budget (50 calls/s for all tables): a DM is edited for a waiting player only at a
    completed trick (R5), a phase change, a deal or the end; between them, only interaction tokens are used."""
    table = await open_table(discord_env, tmp_path)
    carol = table.by_seat(2)
    alice = table.by_seat(0)
    policy = contract_policy("sun")
    await discord_env.wait_for(lambda: all(live_view(p, False) for p in table.players))
    cards = 0
    checked = tricks = 0
    previous: Player | None = None
    # Carol's DM can be checked mid-trick only where she is none of the last, current and next player: a
    # deal whose tricks are mostly led from her right gives few such cards, so play on (into the next hand)
    # until it was checked twice.
    while tricks < 7 or checked < 2:
        assert tricks < 24, f"only {checked} mid-trick cards with carol waiting in {tricks} tricks"
        turn = await table.wait_turn()
        assert turn is not None, "the match ended early"
        player, buttons = turn
        choice = policy(player, buttons)
        dm = live_view(carol, False)
        assert dm is not None
        if carol not in (player, previous):
            await settled(dm)  # let a DM edit of the previous moment (a phase change, a trick) land
        edits = dm.edits
        result = await table.press(player, choice)
        if player is carol:  # every token carol gives expires at once: the bot must fall back to her DM
            discord_env.age_interaction(result.interaction, 901)
        is_card = choice.code.startswith("c")
        cards += is_card
        nxt = await table.wait_turn()
        assert nxt is not None
        completes = is_card and cards % 4 == 0
        if completes:
            tricks += 1
            if cards % 32:  # not the hand's last trick (the next turn is then the next deal's bidding)
                await discord_env.wait_for(functools.partial(current, table, carol, nxt[0], False))
        elif is_card and carol not in (player, previous, nxt[0]):
            # A card in the middle of a trick, carol waiting: the views of those who pressed follow through
            # their tokens (the mover's shows their turn: wait_turn saw it)...
            for watcher in table.players:
                if watcher not in (carol, player, nxt[0]) and watcher.presses:
                    await discord_env.wait_for(functools.partial(waits_for, watcher, nxt[0]))
            await asyncio.sleep(0.3)
            assert dm.edits == edits, "carol's DM was edited for a card in the middle of a trick"  # ...not her DM
            checked += 1
        previous = player
    assert checked >= 2, checked
    assert alice.presses and carol.presses
    table.assert_clean_log()


async def test_a_private_view_refused_with_429_past_discord_py_retries_is_sent_again(
    discord_env: DiscordEnv, tmp_path: Path
) -> None:
    """A burst of deals can exceed the global limit: discord.py gives up after five 429s. The player must
    still get their hand (else the table waits for them forever), so the view is tried again after a pause."""
    discord_env.rate_limit("POST /users/@me/channels", times=20, retry_after=0.01)  # 4 DMs x 5 tries
    table = await open_table(discord_env, tmp_path)
    await discord_env.wait_for(lambda: all(live_view(p, False) for p in table.players), timeout=15)
    # the 20 injected refusals (discord.py's own retries are not paced: one may also meet the global limit)
    assert discord_env.calls.count("POST /users/@me/channels", status=429) >= 20
    assert await table.step(contract_policy("sun"))
    assert "retrying" in table.bot.output
    table.assert_clean_log()
