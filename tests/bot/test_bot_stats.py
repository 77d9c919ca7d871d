"""End to end: the real bot process shows exactly the seeded matches' figures.

The database is seeded before the bot starts, through the storage and the
statistics recorder; the last match is stored without its statistics, so the
bot's start-up catch-up must record it. Ratings are recomputed here with the
pure rating function, independently of the database.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from fakediscord import DiscordEnv, InteractionResult, Message, Person
from stats_helpers import gahwa_match, kaboot_match, store_match, three_hand_match
from test_bot_harness import REPO, bot_env

from baloot.i18n.direction import strip_isolates
from baloot.review import REVIEWER_VERSION
from baloot.stats import NEW_PLAYER, StatsRecorder, rate_match
from baloot.stats.rating import Skill
from baloot.storage import SeatAccuracy, Storage

DAY = 86_400.0


def expected_ratings(matches: list[tuple[list[int], int]]) -> dict[int, Skill]:
    """Ratings after these (seats, winner) matches, oldest first, from openskill directly."""
    skills: dict[int, Skill] = {}
    for users, winner in matches:
        after = rate_match({s: skills.get(u, NEW_PLAYER) for s, u in enumerate(users)}, winner)
        skills.update({u: after[s] for s, u in enumerate(users)})
    return skills


def message(result: InteractionResult) -> Message:
    assert result.message is not None, result.rejected
    return result.message


def description(result: InteractionResult) -> str:
    assert message(result).embeds, message(result)
    return str(message(result).embeds[0]["description"])


def fields(result: InteractionResult) -> dict[str, str]:
    return {f["name"]: f["value"] for f in message(result).embeds[0]["fields"]}


async def test_leaderboard_stats_history_and_record(discord_env: DiscordEnv, tmp_path: Path) -> None:
    guild = discord_env.create_guild("Diwaniya")
    channel = discord_env.create_channel(guild, "baloot")
    people: dict[str, Person] = {}
    for name in ("alice", "bob", "carol", "dave", "erin", "frank"):
        people[name] = discord_env.create_user(name, locale="ar" if name == "erin" else "en-US").join(guild)
    a, b, c, d, e = (people[n].id for n in ("alice", "bob", "carol", "dave", "erin"))
    now = time.time()
    db = tmp_path / "baloot.db"
    storage = await Storage.open(db)
    recorder = StatsRecorder(storage)
    strangers = [[9000 + 4 * i + k for k in range(4)] for i in range(3)]
    for i, users in enumerate(strangers):  # 12 more players, 50 days ago: a second leaderboard page
        await recorder.record_result(await store_match(storage, kaboot_match(), users, guild=guild.id,
                                                       channel=channel.id, finished_at=now - 50 * DAY + i))
    m1 = await store_match(storage, kaboot_match(), [a, b, c, d], guild=guild.id, channel=channel.id,
                           finished_at=now - 40 * DAY)
    await recorder.record_result(m1)
    m2 = await store_match(storage, three_hand_match(), [a, b, c, e], guild=guild.id, channel=channel.id,
                           finished_at=now - 120)
    await recorder.record_result(m2)
    m3 = await store_match(storage, gahwa_match(), [a, b, c, d], guild=guild.id, channel=channel.id,
                           finished_at=now - 60)  # recorded by the bot at start-up
    for match, accuracy in ((m1, 80.0), (m2, 95.5), (m3, 70.0)):  # alice's reviewed matches; bob: none
        await storage.reviews.save_match_accuracy(match.table_id, REVIEWER_VERSION, [
            SeatAccuracy(0, a, accuracy), SeatAccuracy(1, None, 50.0), SeatAccuracy(2, c, 60.0),
            SeatAccuracy(3, None, 40.0)])
    await storage.close()
    skills = expected_ratings([(u, 0) for u in strangers] + [([a, b, c, d], 0), ([a, b, c, e], 1),
                                                             ([a, b, c, d], 0)])
    shown = {u: round(s.shown) for u, s in skills.items()}

    bot = await discord_env.start_bot("bot.py", env=bot_env(db))
    alice = people["alice"]

    # Wins, this week: m2 and m3 only. Equal wins: fewer matches first, then by id.
    week = await alice.slash("baloot", "leaderboard", channel=channel, sort="wins", period="week")
    assert not week.ephemeral
    lines = description(week).splitlines()
    assert lines[0] == "2 matches · 3 hands · Sun 33% · Hokum 67% · Kaboots 1"  # a count, not "1 kaboots"
    assert lines[2:] == [
        f"**1.** <@{e}> — **1** won of 1",
        f"**2.** <@{a}> — **1** won of 2",
        f"**3.** <@{b}> — **1** won of 2",
        f"**4.** <@{c}> — **1** won of 2",
        f"**5.** <@{d}> — **0** won of 1",
    ]
    assert message(week).components == []

    # Rating, all time: 17 players on two pages; the buttons work after a restart.
    board = await alice.slash("baloot", "leaderboard", channel=channel)
    order = sorted(shown, key=lambda u: (-skills[u].shown, u))
    first = description(board).splitlines()[2:]
    assert [line.split(" — ")[0] for line in first] == [f"**{i + 1}.** <@{u}>" for i, u in enumerate(order[:10])]
    assert first[0].split(" — ")[1].startswith(f"**{shown[order[0]]}**")
    assert message(board).embeds[0]["footer"]["text"] == "Page 1 of 2 · 17 players"
    turned = await people["bob"].click(message(board), "Next")
    assert turned.response_type == 7
    page_two = description(turned).splitlines()[2:]
    assert [line.split(" — ")[0] for line in page_two] == [
        f"**{i + 11}.** <@{u}>" for i, u in enumerate(order[10:])]
    await bot.kill()
    await bot.restart()
    back = await alice.click(message(turned), "Previous")
    assert back.response_type == 7 and description(back).splitlines()[2:] == first

    # Alice's card: kaboot (bought, made), three-hand match (tie hand bought and lost), Gahwa (bought, Triple, Gahwa).
    card = await people["bob"].slash("baloot", "stats", channel=channel, player=alice)
    got = fields(card)
    place = order.index(a) + 1
    change = round(skills[a].shown - expected_ratings(
        [(u, 0) for u in strangers] + [([a, b, c, d], 0), ([a, b, c, e], 1)])[a].shown)
    assert got["Rating"] == f"**{shown[a]}** · #{place} of 17 · last match +{change}"
    assert got["Matches"] == "2 won of 3 (67%) · abandoned 0"
    assert got["Hands"] == "2 won of 4 (50%) · average score 18.5"
    assert got["Bought"] == "2 made of 3 (67%)"
    assert got["Sun and Hokum"] == "Sun: 0 won of 1 · Hokum: 2 won of 3"
    assert got["Kaboots"] == "1 for · 1 against"
    assert got["Doubles and Gahwa"] == "Doubles: 1 won of 1 · Gahwa: 1 won of 1"
    assert got["Best partner"] == f"<@{c}>: 2 won of 3 together"
    assert "Average accuracy: **81.8** over the last 3 matches reviewed" in description(card).splitlines()
    bobs = await alice.slash("baloot", "stats", channel=channel, player=people["bob"])
    assert fields(bobs)["Matches"] and "accuracy" not in description(bobs)  # no reviewed match: no line

    nothing = await alice.slash("baloot", "stats", channel=channel, player=people["frank"])
    assert nothing.ephemeral
    assert message(nothing).content == f"<@{people['frank'].id}> has not finished a Baloot match in this server yet."

    # Bob's history, newest first, with his rating change in each match.
    history = await people["bob"].slash("baloot", "history", channel=channel)
    rows = description(history).splitlines()[2:5]
    assert [r.split(" · ")[1] for r in rows] == ["Lost **0–0**", "Won **60–0**", "Lost **0–74**"]
    assert rows[0].startswith(f"`#{m3.table_id}` <t:{int(now - 60)}:d>")
    # players whose display name is stored (alice used a command) are named, not mentioned.
    assert f"with <@{d}> against \u2068alice\u2069 and <@{c}>" in rows[0]
    assert f"with <@{e}> against \u2068alice\u2069 and <@{c}>" in rows[1]

    # The record replays to the stored result. Sent to the asker alone (was public).
    sent = await people["dave"].slash("baloot", "record", channel=channel, match=m2.table_id)
    assert sent.ephemeral and message(sent).attachments
    attachment = message(sent).attachments[0]
    assert attachment.filename == f"baloot-match-{m2.table_id}.json"
    path = tmp_path / attachment.filename
    path.write_bytes(attachment.data)
    out = subprocess.run([sys.executable, "-m", "baloot", "replay", str(path)], cwd=REPO, capture_output=True,
                         text=True, timeout=60, check=False)
    assert out.returncode == 0, out.stderr
    replayed = json.loads(out.stdout)
    assert replayed["score"] == list(m2.score) == [0, 60] and replayed["winner"] == m2.winner_team == 1

    unknown = await people["erin"].slash("baloot", "record", channel=channel, match=987654)
    assert unknown.ephemeral and strip_isolates(message(unknown).content) == "لا توجد صكة رقم 987654 في هذا السيرفر."

    # Alice's average accuracy for an Arabic asker.
    erins = await people["erin"].slash("baloot", "stats", channel=channel, player=alice)
    in_arabic = strip_isolates(description(erins))
    assert "متوسط الدقة: **81.8** — الصكات المراجَعة الأخيرة: 3 صكات" in in_arabic, in_arabic
