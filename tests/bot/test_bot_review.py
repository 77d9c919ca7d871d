"""End to end: the game review through the real bot process and the local Discord stand-in.

A hand in progress is refused privately with nothing computed; "Review" on a finished hand's message
answers privately with a progress line edited in place, then the review (its picture and the stepping
buttons); a second press is instant (stored); ▶ steps through the hand on the same private message;
``/baloot review`` opens a stored hand; someone not at the table of a running match is refused; an
Arabic player gets it in Arabic.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from fakediscord import DiscordEnv, Message
from test_bot_harness import contract_policy, open_table, plain

EDIT_ORIGINAL = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"
REVIEW = {"REVIEW_SAMPLES": "2", "REVIEW_WORKERS": "0", "REVIEW_AUTO": "0"}


def buttons_of(message: Message) -> list[str]:
    return [c.get("custom_id", "") for row in message.components for c in row.get("components", [])]


def text_of(message: Message) -> str:
    return plain(message.content + " " + " ".join(
        e.get("title", "") + " " + e.get("description", "") for e in message.embeds))


async def test_review_of_a_finished_hand_progress_stored_steps_and_refusals(discord_env: DiscordEnv,
                                                                           tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path, locales=["en-US", "ar", "en-US", "en-US"], bot_settings=REVIEW)
    host, arabic = table.players[0].person, table.players[1].person
    assert await table.step(contract_policy("sun"))
    early = await host.slash("baloot", "review", channel=table.channel, match=table.table_id(), hand_number=1)
    assert early.ephemeral and early.message is not None
    assert "not over" in plain(early.message.content), early.message.content  # nothing of a hand in progress
    assert table.query("SELECT COUNT(*) FROM hand_reviews")[0][0] == 0
    while table.last_version[0] < 1 or len(table.record()["hands"]) < 2:
        assert await table.step(contract_policy("sun"))
    finished = await discord_env.wait_for(lambda: next(
        (m for m in table.table_messages() if f"bl:{table.table_id()}:review:0:0:4" in buttons_of(m)), None), 10)
    record = table.record()
    assert len(record["hands"][0]["actions"]) > 32  # played out (a Sun bid): bids, then 32 cards

    mark = discord_env.calls.mark()
    review_id = f"bl:{table.table_id()}:review:0:0:4"
    first = await host.click(finished, review_id)
    shown = await discord_env.wait_for(
        lambda: first.message if first.message is not None and first.message.attachments else None, 60)
    assert first.ephemeral and shown.attachments[0].filename == "hand-review.png"
    assert "Review · hand 1" in text_of(shown) and "Accuracy" in text_of(shown)
    progress_edits = discord_env.calls.count(EDIT_ORIGINAL, since=mark)
    assert progress_edits >= 2  # "Reviewing the bidding…", "Reviewing trick 1 of 8…" … then the review
    assert table.query("SELECT COUNT(*) FROM hand_reviews")[0][0] == 1
    ids = buttons_of(shown)
    assert f"bl:{table.table_id()}:review:0:1:4" in ids and all(len(i) <= 100 for i in ids)

    mark = discord_env.calls.mark()
    again = await table.players[2].person.click(finished, review_id)  # stored: the answer is the review at once
    assert again.ephemeral and again.message is not None and again.message.attachments
    assert discord_env.calls.count(EDIT_ORIGINAL, since=mark) == 0

    stepped = await host.click(shown, f"bl:{table.table_id()}:review:0:1:4")  # ▶: the bidding, in place
    assert stepped.response_type == 7
    assert "the bidding" in text_of(shown) and not shown.attachments

    command = await host.slash("baloot", "review", channel=table.channel, match=table.table_id(), hand_number=1)
    assert command.ephemeral and command.message is not None and command.message.attachments

    stranger = discord_env.create_user("eve").join(table.guild)
    refused = await stranger.click(finished, review_id)
    assert refused.ephemeral and refused.message is not None
    assert "Only the players" in plain(refused.message.content)

    in_arabic = await arabic.click(finished, review_id)
    assert in_arabic.message is not None and "مراجعة · اليد 1" in text_of(in_arabic.message)
    assert table.query("SELECT COUNT(*) FROM hand_reviews")[0][0] == 1
    table.assert_clean_log()


async def test_the_match_end_message_shows_each_players_accuracy_once_reviewed(discord_env: DiscordEnv,
                                                                               tmp_path: Path) -> None:
    """The finished match is reviewed in the background (REVIEW_AUTO on) and its last message
    is edited once to show each player's accuracy for the match, from the stored review."""
    settings = REVIEW | {"REVIEW_AUTO": "1"}
    table = await open_table(discord_env, tmp_path, create={"target": 40}, bot_settings=settings)
    while table.status() == "playing":
        await table.play_hand(contract_policy("sun"))
    assert table.status() == "finished"

    def shown() -> Message | None:
        return next((m for m in table.table_messages() if "Accuracy this match" in text_of(m)), None)

    last = await discord_env.wait_for(shown, 120)
    messages = table.table_messages()
    assert last.id == max(m.id for m in messages)  # the last hand's message, and only that one
    assert sum("Accuracy this match" in text_of(m) for m in messages) == 1
    rows = table.query("SELECT seat, accuracy FROM match_reviews WHERE table_id = ? ORDER BY seat",
                       (table.table_id(),))
    assert len(rows) == 4
    line = text_of(last)
    for name, (_, accuracy) in zip(("alice", "bob", "carol", "dave"), rows, strict=True):
        assert f"{name} {accuracy:.1f}" in line, line
    assert last.attachments  # the table picture is kept by the edit
    assert not any(b.endswith(":mine") for b in buttons_of(last))
    table.assert_clean_log()


async def test_a_review_asked_while_the_database_is_busy_is_deferred_in_time(discord_env: DiscordEnv,
                                                                            tmp_path: Path) -> None:
    """Another program holds SQLite's write lock: a move's write waits for it, and the review's reads wait
    behind that write. The request is acknowledged within Discord's 3 s (deferred) and answered once the
    database is free, instead of failing with 10062 Unknown interaction."""
    table = await open_table(discord_env, tmp_path, bot_settings=REVIEW)
    host = table.players[0].person
    while table.last_version[0] < 1 or len(table.record()["hands"]) < 2:
        assert await table.step(contract_policy("sun"))
    review_id = f"bl:{table.table_id()}:review:0:0:4"
    finished = await discord_env.wait_for(lambda: next(
        (m for m in table.table_messages() if review_id in buttons_of(m)), None), 10)
    turn = await table.wait_turn()
    assert turn is not None
    mover, buttons = turn
    holder = sqlite3.connect(table.db, timeout=10, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    try:
        move = asyncio.ensure_future(mover.person.click(buttons[0].message, buttons[0].custom_id))
        await asyncio.sleep(0.5)  # the move's write is waiting for the lock
        review = asyncio.ensure_future(host.click(finished, review_id))
        await asyncio.sleep(3.5)  # past Discord's 3 s for the review request
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    first = await review
    await move
    assert not first.rejected, first.rejected  # not (404, 10062): acknowledged in time
    assert first.response_type == 5  # deferred ("thinking"), then the answer edits it
    shown = await discord_env.wait_for(
        lambda: first.message if first.message is not None and first.message.attachments else None, 60)
    assert shown.ephemeral and "Review · hand 1" in text_of(shown)
    assert "10062" not in table.bot.output
