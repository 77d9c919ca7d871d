"""End to end: a closed table looks closed everywhere, and the last person leaving says what it does.

Every view of a table closed before its match's end (the table message, every DM, a "My hand" view) says it
is closed and by whom or by a vote, with no turn and no buttons, and nothing new is posted for it; a finished
hand's "Details" still answers from the stored hands. The last person at a match is told that leaving closes
it before anything happens, and after. Bots filling a lobby give their seat to a person who joins.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from fakediscord import DiscordEnv, Message
from test_bot_harness import ACTION_RE, BotTable, Player, contract_policy, forge, open_table, plain, refused

TURN_WORDS = ("to act", "Your turn", "Waiting for", "الدور على", "دورك", "بانتظار")


def text_of(message: Message) -> str:
    return plain(" ".join(e.get("title", "") + " " + e.get("description", "") for e in message.embeds))


def buttons_of(message: Message) -> list[str]:
    return [c.get("custom_id", "") for row in message.components for c in row.get("components", [])]


def action_buttons(player: Player) -> list[str]:
    """Every action button (enabled or not) in the player's DMs and ephemeral views."""
    return [b for m in player.person.dms() + player.person.ephemerals() for b in buttons_of(m) if ACTION_RE.match(b)]


def table_messages(table: BotTable) -> list[Message]:
    """The bot's messages in the channel that show the table (lobby and hands), in either language."""
    return [m for m in table.host.person.messages(table.channel, with_ephemeral=False)
            if m.author.bot and m.embeds
            and str(table.table_id()) in plain(m.embeds[0].get("footer", {}).get("text", ""))]


def latest_table_message(table: BotTable) -> Message:
    return max(table_messages(table), key=lambda m: m.id)


async def assert_every_view_closed(table: BotTable, closed: str) -> None:
    """The table message, every DM and every "My hand" view say ``closed``, with no turn and no action button."""
    env = table.env

    def all_closed() -> bool:
        last = latest_table_message(table)
        if closed not in text_of(last) or any(":mine" in b for b in buttons_of(last)):
            return False
        return all(not action_buttons(p) and all(closed in text_of(m) for m in p.person.dms() if m.embeds)
                   for p in table.players)

    await env.wait_for(all_closed, 10)
    for message in [latest_table_message(table)] + [m for p in table.players for m in p.person.dms() if m.embeds]:
        shown = text_of(message)
        assert not any(word in shown for word in TURN_WORDS), shown
    for player in table.players:
        assert not action_buttons(player), (player.name, action_buttons(player))


async def test_ending_by_the_creator_closes_every_view_and_posts_nothing_after(
        discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path)
    for _ in range(3):
        assert await table.step(contract_policy("sun"))
    bob = table.players[1]
    await discord_env.wait_for(lambda: table_messages(table) and any(
        b.endswith(":mine") for b in buttons_of(latest_table_message(table))), 10)
    mine = await bob.person.click(latest_table_message(table), next(
        b for b in buttons_of(latest_table_message(table)) if b.endswith(":mine")))
    assert mine.ephemeral and mine.message is not None and action_buttons(bob)  # a live "My hand" view
    await discord_env.wait_for(lambda: all(p.person.dms() for p in table.players), 10)
    before = len(table_messages(table))

    ended = await table.host.person.slash("baloot", "end", channel=table.channel)
    assert ended.message is not None and ended.message.content == f"The table was closed by <@{table.host.person.id}>."
    await assert_every_view_closed(table, f"The table was closed by <@{table.host.person.id}>.")
    await asyncio.sleep(1.5)  # nothing more comes: no new message, no edit that brings a turn back
    assert len(table_messages(table)) == before
    await assert_every_view_closed(table, "The table was closed by")
    table.assert_clean_log()


async def test_a_vote_closes_in_arabic_and_says_it_was_a_vote(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path, guild_locale="ar", locales=["ar"] * 4)
    for _ in range(2):
        assert await table.step(contract_policy("sun"))
    for player in table.players[1:]:
        result = await player.person.slash("baloot", "end", channel=table.channel)
    assert result.message is not None
    closed = "أُغلقت الطاولة بتصويت لاعبيها (3 من 3)."
    assert plain(result.message.content) == closed  # a vote, not "closed by" its last voter
    await assert_every_view_closed(table, closed)
    assert f"<@{table.players[3].person.id}>" not in text_of(latest_table_message(table))
    table.assert_clean_log()


async def test_details_of_a_finished_hand_answer_after_the_table_closed(
        discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path)
    while table.last_version[0] < 1 or len(table.record()["hands"]) < 2:
        assert await table.step(contract_policy("sun"))
    first = await discord_env.wait_for(lambda: next(
        (m for m in table_messages(table) if any(":result:0" in b for b in buttons_of(m))), None), 10)
    await table.host.person.slash("baloot", "end", channel=table.channel)
    await assert_every_view_closed(table, "The table was closed by")
    details = next(b for b in buttons_of(first) if ":result:0" in b)
    for person in (table.players[2].person, table.players[1].person):
        answer = await person.click(first, details)
        assert answer.ephemeral and answer.message is not None and answer.message.embeds, answer.messages
        assert "There is no" not in plain(answer.message.content)
    table.assert_clean_log()


async def last_player_leaves(discord_env: DiscordEnv, tmp_path: Path, locale: str) -> tuple[BotTable, Message]:
    table = await open_table(discord_env, tmp_path, names=("erin",), locales=[locale], start=False)
    erin = table.host
    await erin.person.slash("baloot", "bots", channel=table.channel)
    await erin.person.slash("baloot", "start", channel=table.channel)
    await table.step(contract_policy("sun"))
    asked = await erin.person.slash("baloot", "leave", channel=table.channel)
    assert asked.ephemeral and asked.message is not None
    assert table.status() == "playing"  # nothing changed: only told what leaving does
    return table, asked.message


async def test_the_last_person_is_told_before_and_after_that_leaving_closes_the_match(
        discord_env: DiscordEnv, tmp_path: Path) -> None:
    table, asked = await last_player_leaves(discord_env, tmp_path, "en-US")
    erin = table.host.person
    assert plain(asked.content) == ("You are the last person at this table: if you leave, it closes and its match is "
                                    "recorded as abandoned. To keep playing, dismiss this message.")
    quit_id = next(b for b in buttons_of(asked) if b.endswith(":lobby:quit"))
    left = await erin.click(asked, quit_id)
    assert left.message is not None and plain(left.message.content) == (
        "erin left the table. Only bots were left at it, so it is closed and its match is recorded as abandoned.")
    assert table.status() == "abandoned"
    closed = f"The table was closed: <@{erin.id}>, the last person at it, left during the match, which is recorded"
    await discord_env.wait_for(lambda: closed in text_of(latest_table_message(table)), 10)
    assert not any(word in text_of(latest_table_message(table)) for word in TURN_WORDS)
    table.assert_clean_log()


async def test_the_last_person_is_told_in_arabic(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table, asked = await last_player_leaves(discord_env, tmp_path, "ar")
    assert plain(asked.content).startswith("أنت آخر من بقي على هذه الطاولة")
    left = await table.host.person.click(asked, next(b for b in buttons_of(asked) if b.endswith(":lobby:quit")))
    assert left.message is not None
    assert plain(left.message.content) == "بعد مغادرة erin لم يبقَ على الطاولة إلا البوتات، فأُغلقت وسُجّلت الصكة متروكة."
    assert table.status() == "abandoned"


async def test_a_person_takes_a_bots_seat_before_the_start(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path, names=("alice",), start=False)
    await table.host.person.slash("baloot", "bots", channel=table.channel)
    bob, carol = (discord_env.create_user(n).join(table.guild) for n in ("bob", "carol"))
    joined = await bob.slash("baloot", "join", channel=table.channel)
    assert joined.message is not None and plain(joined.message.content).startswith("bob sits in Seat 2"), joined.message
    joined = await carol.slash("baloot", "join", channel=table.channel, seat=4)
    assert joined.message is not None and plain(joined.message.content).startswith("carol sits in Seat 4")
    seats = {r["seat"]: (r["display_name"], r["is_bot"]) for r in table.query(
        "SELECT seat, display_name, is_bot FROM seats WHERE table_id = ?", (table.table_id(),))}
    assert seats == {0: ("alice", 0), 1: ("bob", 0), 2: ("Bot 3", 1), 3: ("carol", 0)}
    table.assert_clean_log()


# -- every message of a closed or finished table, not only the latest ------------------------------------------
CLOSED_PRESS = {"en-US": "This table was closed before its match ended; nothing changed.",
                "ar": "أُغلقت هذه الطاولة قبل أن تنتهي صكتها؛ لم يتغير شيء."}


def lobby_message(table: BotTable) -> Message:
    return min(table_messages(table), key=lambda m: m.id)


@pytest.mark.parametrize("locale", ["en-US", "ar"])
async def test_a_close_takes_my_hand_off_every_message_and_says_closed_everywhere(
        discord_env: DiscordEnv, tmp_path: Path, locale: str) -> None:
    table = await open_table(discord_env, tmp_path, guild_locale=locale, locales=[locale] * 4)
    while table.last_version[0] < 1:
        assert await table.step(contract_policy("sun"))
    earlier = await discord_env.wait_for(lambda: next(
        (m for m in table_messages(table) if any(":result:0" in b for b in buttons_of(m))), None), 10)
    mine = next(b for b in buttons_of(earlier) if b.endswith(":mine"))
    lobby = lobby_message(table)
    join = f"bl:{table.table_id()}:lobby:join"
    stale = table.players[0].buttons() or table.players[1].buttons()
    await table.host.person.slash("baloot", "end", channel=table.channel)
    await assert_every_view_closed(table, "<@")

    def every_message_closed() -> bool:
        return all(not any(b.endswith(":mine") for b in buttons_of(m)) for m in table_messages(table))

    def lobby_closed() -> bool:
        return f"<@{table.host.person.id}>" in text_of(next(m for m in table_messages(table) if m.id == lobby.id))

    await discord_env.wait_for(every_message_closed, 15)  # earlier hands' messages too, paced
    await discord_env.wait_for(lobby_closed, 15)  # the lobby no longer says the match is played below
    assert any(":result:0" in b for b in buttons_of(next(m for m in table_messages(table) if m.id == earlier.id)))
    # a client that missed the edits: each press says the table was closed, not that it finished
    assert refused(await forge(table.players[1].person, earlier, mine)) == CLOSED_PRESS[locale]
    assert refused(await forge(table.players[1].person, lobby, join)) == CLOSED_PRESS[locale]
    if stale:
        assert refused(await forge(table.players[0].person, stale[0].message, stale[0].custom_id)) in (
            CLOSED_PRESS[locale])
    table.assert_clean_log()


async def test_the_match_end_takes_my_hand_off_every_earlier_message(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path, create={"target": 40})
    hands = 0
    while table.status() == "playing":
        hands += 1 if await table.play_hand(contract_policy("sun")) else 0
    assert table.status() == "finished" and hands >= 1
    # the lobby and every hand's message (one Sun hand may already reach 40, so one hand or more)
    await discord_env.wait_for(lambda: len(table_messages(table)) >= 1 + hands, 10)

    def none_live() -> bool:
        return all(not any(b.endswith(":mine") for b in buttons_of(m)) for m in table_messages(table))

    await discord_env.wait_for(none_live, 15)
    final = max(table_messages(table), key=lambda m: m.id)  # the last hand's: its breakdown, and Review
    assert [b for b in buttons_of(final) if ":review:" in b], buttons_of(final)
    # every earlier hand keeps "Details" (a match to 40 may also end in its first hand: then there is none)
    with_details = [m for m in table_messages(table) if any(":result:0" in b for b in buttons_of(m))]
    assert len(with_details) == (1 if hands >= 2 else 0), (hands, [buttons_of(m) for m in table_messages(table)])
    earlier = with_details[0] if with_details else final
    if with_details:
        answer = await table.players[2].person.click(earlier, next(b for b in buttons_of(earlier) if ":result:0" in b))
        assert answer.ephemeral and answer.message is not None and answer.message.embeds
    assert refused(await forge(table.players[1].person, earlier, f"bl:{table.table_id()}:mine")) == (
        "This table has finished.")
    table.assert_clean_log()


async def test_forged_details_say_what_is_wrong(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path)
    assert await table.step(contract_policy("sun"))
    message = await discord_env.wait_for(lambda: next(
        (m for m in table_messages(table) if any(b.endswith(":mine") for b in buttons_of(m))), None), 10)
    bob = table.players[1].person
    assert refused(await forge(bob, message, f"bl:{table.table_id()}:result:0")) == (
        "Hand 1 has no details: it was not scored.")
    assert refused(await forge(bob, message, f"bl:{table.table_id()}:result:7")) == (
        "Hand 8 has no details: it was not scored.")
    other = discord_env.create_guild("Elsewhere")
    channel = discord_env.create_channel(other, "baloot")
    stranger = discord_env.create_user("sam").join(other)
    shown = await stranger.slash("baloot", "rules", channel=channel)
    assert shown.message is not None
    assert refused(await forge(stranger, shown.message, f"bl:{table.table_id()}:result:0")) == (
        "That button is from a table of another server; nothing is shown here.")
    table.assert_clean_log()


# -- a seat left during a match is kept for its person for the rest of that hand ---------------------------------
SEAT_HELD = {"en-US": "That seat is kept for the person who left it until this hand ends; then anyone may take it.",
             "ar": "هذا المقعد محفوظ لمن غادره حتى تنتهي هذه اليد، ثم يمكن لأي أحد أن يأخذه."}


async def test_a_seat_left_mid_match_is_kept_for_its_person_until_the_hand_ends(
        discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path)
    assert await table.step(contract_policy("sun"))
    bob = table.players[1]
    eve, reem = (discord_env.create_user(n, locale=loc).join(table.guild)
                 for n, loc in (("eve", "en-US"), ("reem", "ar")))
    left = await bob.person.slash("baloot", "leave", channel=table.channel)
    assert left.message is not None and plain(left.message.content) == "bob left the table."
    # someone else cannot take it during this hand, in either language, whichever way they ask
    assert refused(await eve.slash("baloot", "join", channel=table.channel)) == SEAT_HELD["en-US"]
    assert refused(await eve.slash("baloot", "join", channel=table.channel, seat=2)) == SEAT_HELD["en-US"]
    assert refused(await reem.slash("baloot", "join", channel=table.channel)) == SEAT_HELD["ar"]
    # the leaver comes back to it
    back = await bob.person.slash("baloot", "join", channel=table.channel)
    assert back.message is not None and plain(back.message.content).startswith("bob sits in Seat 2"), back.message
    # leaving again: after this hand anyone may take the seat
    await bob.person.slash("baloot", "leave", channel=table.channel)
    table.players.remove(bob)
    hand = table.last_version[0]
    while table.last_version[0] == hand:
        assert await table.step(contract_policy("sun"))
    joined = await eve.slash("baloot", "join", channel=table.channel)
    assert joined.message is not None and plain(joined.message.content).startswith("eve sits in Seat 2"), joined.message
    table.assert_clean_log()
