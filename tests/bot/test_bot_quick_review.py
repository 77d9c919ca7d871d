"""End to end: the game review at a quick-match table, played in the bot's DMs.

Four people of four servers queue with ``/baloot quick`` and play a whole match in their DMs (the real bot
process against the Discord stand-in). Each player's one DM message offers "Review hand N" for the newest
finished hand, never one of a hand in progress; a press answers privately, in the presser's language; only
someone who sat at the table may review its hands (a stranger's forged press is refused, during the match and
after it). Once the match is over and its background review is ready, each player's DM message shows every
player's accuracy.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from fakediscord import DiscordEnv, Message
from test_bot_harness import BotTable, Player, bot_env, contract_policy, forge, plain
from test_bot_harness import refused as refusal
from test_bot_quick import NAMES, custom_ids, no_channel, queue_message

from baloot.i18n import t

REVIEW = {"REVIEW_SAMPLES": "2", "REVIEW_WORKERS": "0", "REVIEW_AUTO": "1"}
SUN = contract_policy("sun")
LOCALES = ("en-US", "ar", "en-US", "en-US")
QUEUE_TITLES = (t("quick.title", "en"), t("quick.title", "ar"))


def queue_shown(player: Player) -> Message | None:
    """The player's queue message, in English or Arabic."""
    return next((m for m in player.person.dms()
                 if m.embeds and plain(m.embeds[0].get("title", "")) in QUEUE_TITLES), None)


def dm_view(player: Player) -> Message:
    """The player's one DM message of the table (not the queue message, not a private answer)."""
    shown = [m for m in player.person.dms() if m.ephemeral_for is None and m is not queue_shown(player)]
    assert len(shown) == 1, [m.embeds for m in shown]
    return shown[0]


def seated(player: Player) -> bool | None:
    """The queue message lost its buttons (a table was found) and the hand came in a second DM message."""
    queue = queue_shown(player)
    dms = [m for m in player.person.dms() if m.ephemeral_for is None]
    return True if queue is not None and not queue.components and len(dms) == 2 else None


def ended(player: Player) -> Message | None:
    """The player's DM message once it shows the match's final score (R8) and no button but "Review" (in
    English or Arabic)."""
    message = dm_view(player)
    words = "النتيجة النهائية" if player.person.locale == "ar" else "Final score"
    text = plain(" ".join(str(e.get("description", "")) + str(e.get("fields", "")) for e in message.embeds))
    return message if words in text and all(":review:" in i for i in custom_ids(message)) else None


def text_of(message: Message) -> str:
    return plain(message.content + " " + " ".join(
        str(e.get("title", "")) + " " + str(e.get("description", "")) for e in message.embeds))


def offering(player: Player, custom_id: str) -> Message | None:
    message = dm_view(player)
    return message if custom_id in custom_ids(message) else None


async def test_review_in_dms_and_the_accuracy_on_the_last_dm_message(discord_env: DiscordEnv,
                                                                   tmp_path: Path) -> None:
    env = discord_env
    guilds = [env.create_guild(f"Server {i}") for i in range(4)]
    channels = [env.create_channel(g, "general") for g in guilds]
    players = [Player(env.create_user(name, locale=LOCALES[i]).join(guilds[i])) for i, name in enumerate(NAMES)]
    stranger = env.create_user("eve").join(guilds[0])
    db = tmp_path / "baloot.db"
    bot = await env.start_bot("bot.py", env=bot_env(db, **REVIEW))
    for i, player in enumerate(players):
        await player.person.slash("baloot", "quick", channel=channels[i])
    reader = BotTable(env, guilds[0], channels[0], [], bot, db)
    rows = await env.wait_for(lambda: reader.query("SELECT id FROM tables WHERE guild_id = 0") or None, 10)
    table_id = int(rows[0][0])
    table = BotTable(env, guilds[0], no_channel(table_id), players, bot, db)
    for row in table.query("SELECT seat, user_id FROM seats WHERE table_id = ?", (table_id,)):
        next(p for p in players if p.person.id == row["user_id"]).seat = int(row["seat"])
    for player in players:
        await env.wait_for(partial(seated, player), 10)
    first_hand = f"bl:{table_id}:review:0:0:4"

    # the first hand in progress: no Review in any DM, and a forged press is refused with nothing computed
    assert await table.step(SUN)
    assert not any(":review:" in i for p in players for i in custom_ids(dm_view(p)))
    early = await forge(players[0].person, dm_view(players[0]), first_hand)
    assert "not over" in refusal(early)
    assert table.query("SELECT COUNT(*) FROM hand_reviews")[0][0] == 0

    # the first hand is over (played out: a Sun bid): every DM offers "Review hand 1" while hand 2 goes on
    while len(table.record()["hands"]) < 2:
        assert await table.step(SUN)
    assert len(table.record()["hands"][0]["actions"]) > 32
    for player in players:
        message = await env.wait_for(partial(offering, player, first_hand), 10)
        labels = [c.get("label") for row in message.components for c in row.get("components", [])]
        assert ("مراجعة اليد 1" if player.person.locale == "ar" else "Review hand 1") in labels, labels
    english, arabic = players[0], players[1]
    pressed = await english.person.click(dm_view(english), first_hand)
    shown = await env.wait_for(
        lambda: pressed.message if pressed.message is not None and pressed.message.attachments else None, 60)
    assert pressed.ephemeral and pressed.response_type != 7  # a private answer; the DM message stays as it was
    assert "Review · hand 1" in text_of(shown) and "Accuracy" in text_of(shown)
    in_arabic = await arabic.person.click(dm_view(arabic), first_hand)
    assert in_arabic.ephemeral and in_arabic.message is not None
    assert "مراجعة · اليد 1" in text_of(in_arabic.message)
    assert table.query("SELECT COUNT(*) FROM hand_reviews")[0][0] == 1  # the second answer read it back

    # a stranger (not at the table) with a forged review id, from their own DMs: refused, nothing shown
    await stranger.slash("baloot", "quick", channel=channels[0])  # so that they have a DM message to press on
    theirs = await env.wait_for(lambda: queue_message(Player(stranger)), 10)
    during = await forge(stranger, theirs, first_hand)
    assert "Only the players" in refusal(during)

    # the whole match, then each player's DM shows everyone's accuracy once the background review is ready
    hands = 0
    while table.status() == "playing":
        assert await table.play_hand(SUN) >= 0
        hands += 1
        assert hands < 30
    assert table.status() == "finished"
    last = len(table.record()["hands"]) - 1
    for player in players:
        final = await env.wait_for(partial(ended, player), 10)
        assert custom_ids(final) == [f"bl:{table_id}:review:{last}:0:4"]  # only "Review" of the last hand

    def with_accuracy(player: Player) -> Message | None:
        message = dm_view(player)
        return message if "Accuracy this match" in text_of(message) or "الدقة في هذه الصكة" in text_of(
            message) else None

    finals = [await env.wait_for(partial(with_accuracy, p), 240) for p in players]
    stored = table.query("SELECT seat, accuracy FROM match_reviews WHERE table_id = ? ORDER BY seat", (table_id,))
    assert len(stored) == 4
    for player, final in zip(players, finals, strict=True):
        line = text_of(final)
        for other in players:
            assert player is arabic or f"{other.name} {stored[other.seat][1]:.1f}" in line, line
        assert final.attachments and ended(player) is final  # the picture and the final score kept
    assert "Accuracy this match" in text_of(finals[0]) and "الدقة في هذه الصكة" in text_of(finals[1])

    # after the match: still only its players - a stranger's forged press, in DMs or from a server, is refused
    after = await forge(stranger, theirs, first_hand)
    assert "Only the players" in refusal(after)
    command = await stranger.slash("baloot", "review", channel=channels[0], match=table_id, hand_number=1)
    assert command.ephemeral and command.message is not None
    assert "Only the players" in plain(command.message.content)
    assert table.query("SELECT COUNT(*) FROM quick_queue")[0][0] == 1  # the stranger still waits, nothing else
    table.assert_clean_log()
