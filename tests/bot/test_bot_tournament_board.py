"""Tournament results in the statistics, through the stand-in: ``/baloot leaderboard sort: Tournaments`` (the
server's players by tournaments won, then played; two pages; English and Arabic) and the Tournaments line of
``/baloot stats``, read by the bot from the stored tournaments: a cup played to its end through the tournament
service before the bot starts, and tournaments the organiser ended after their start."""

from __future__ import annotations

from pathlib import Path

from fakediscord import DiscordEnv, InteractionResult, Message
from test_bot_harness import bot_env, plain
from test_stats_tournaments import ended_cup, play_cup

from baloot.storage import Storage


def message(result: InteractionResult) -> Message:
    assert result.message is not None, result.rejected
    return result.message


def description(result: InteractionResult) -> str:
    return plain(str(message(result).embeds[0]["description"]))


def fields(result: InteractionResult) -> dict[str, str]:
    return {plain(f["name"]): plain(f["value"]) for f in message(result).embeds[0]["fields"]}


async def test_tournaments_board_and_card(discord_env: DiscordEnv, tmp_path: Path) -> None:
    env = discord_env
    guild = env.create_guild("Diwaniya")
    channel = env.create_channel(guild, "baloot")
    people = {n: env.create_user(n, locale="ar" if n == "erin" else "en-US").join(guild)
              for n in ("alice", "bob", "carol", "dave", "erin", "hamad")}
    a, b, c, d = (people[n].id for n in ("alice", "bob", "carol", "dave"))
    db = tmp_path / "baloot.db"
    _, champion = await play_cup(db, guild.id, [(a, b), (c, d)])
    winners, losers = ((a, b), (c, d)) if champion == a else ((c, d), (a, b))
    strangers = [(9000 + 2 * i, 9001 + 2 * i) for i in range(6)]  # 12 more players: a second page
    storage = await Storage.open(db)
    try:
        await ended_cup(storage, guild.id, [(a, b), *strangers[:3]])  # Alice and Bob played two
        await ended_cup(storage, guild.id, strangers[3:])
    finally:
        await storage.close()
    played = {a: 2, b: 2, c: 1, d: 1}
    order = [*winners, *sorted(losers, key=lambda u: (-played[u], u))]
    bot = await env.start_bot("bot.py", env=bot_env(db))
    try:
        board = await people["hamad"].slash("baloot", "leaderboard", channel=channel, sort="tournaments")
        assert not board.ephemeral
        embed = message(board).embeds[0]
        assert embed["title"] == "Baloot leaderboard — tournaments, all time"
        lines = description(board).splitlines()
        assert lines[0] == "3 tournaments played to the end · by tournaments won, then played"
        assert lines[2:6] == [f"**{i + 1}.** <@{u}> — **{1 if u in winners else 0}** won of {played[u]} played"
                              for i, u in enumerate(order)]
        assert len(lines[2:]) == 10 and all(line.endswith("**0** won of 1 played") for line in lines[6:])
        assert embed["footer"]["text"] == "Page 1 of 2 · 16 players"
        turned = await people["bob"].click(message(board), "Next")
        assert turned.response_type == 7
        assert [line.split(".**")[0] for line in description(turned).splitlines()[2:]] == \
            [f"**{n}" for n in range(11, 17)]

        # In Arabic for Erin.
        arabic = await people["erin"].slash("baloot", "leaderboard", channel=channel, sort="tournaments")
        text = description(arabic)
        assert "٣ بطولات لُعبت حتى النهاية" in text or "3 بطولات لُعبت حتى النهاية" in text, text
        assert f"<@{winners[0]}> — الفوز بـ**1** من {played[winners[0]]} شارك فيها" in text, text

        # The stats cards: played and won.
        card = fields(await people["hamad"].slash("baloot", "stats", channel=channel, player=people["alice"]))
        assert card["Tournaments"] == f"{1 if a in winners else 0} won of 2 played"
        card = fields(await people["hamad"].slash("baloot", "stats", channel=channel, player=people["carol"]))
        assert card["Tournaments"] == f"{1 if c in winners else 0} won of 1 played"
        erins = fields(await people["erin"].slash("baloot", "stats", channel=channel, player=people["dave"]))
        assert erins["البطولات"] == f"الفوز بـ{1 if d in winners else 0} من 1 شارك فيها"
        assert "Traceback" not in bot.output, bot.output[-4000:]
    finally:
        print(bot.output[-6000:])
