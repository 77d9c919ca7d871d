"""End to end: every press and command is answered privately, whatever fails, and nothing changes.

The real ``bot.py`` against the Discord stand-in. A storage fault is real:
this test process holds SQLite's write lock (``BEGIN IMMEDIATE``) while a
player presses, exactly as another process locking the database would.
Forged input is sent raw, as a tampered client would: ids beyond SQLite's
signed 64-bit range, malformed ids, choices that are not offered, a missing
required option.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path
from typing import Any

from fakediscord import DiscordEnv
from fakediscord.users import InteractionResult, Person
from test_bot_harness import BotTable, forge, open_table, refused

from baloot.render import render_text
from cogs.replies import SLOW_AFTER

STORAGE_TEXT = "The table could not save that — nothing changed. Try again in a moment."
BAD_INPUT = "That is not a valid action."
TOO_BIG = 2**63  # one past the largest signed 64-bit integer


def shown(key: str, language: str) -> str:
    """A catalog text as a private message shows it (Arabic inside its direction isolates)."""
    return str(render_text(key, language)["content"])


def _rows(table: BotTable) -> dict[str, int]:
    """Rows per table of the database (what a forged input must leave unchanged)."""
    names = [r[0] for r in table.query("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return {n: int(table.query(f'SELECT COUNT(*) FROM "{n}"')[0][0]) for n in names}


async def _slash_raw(person: Person, table: BotTable, sub: str, options: list[dict[str, Any]]) -> InteractionResult:
    """``/baloot <sub>`` with options as given, unchecked (the stand-in's ``slash`` refuses bad ones)."""
    definition = person.server.find_command("baloot", table.guild)
    assert definition is not None
    data: dict[str, Any] = {"id": definition["id"], "name": "baloot", "type": 1,
                            "options": [{"type": 1, "name": sub, "options": options}]}
    if "guild_id" in definition:
        data["guild_id"] = definition["guild_id"]
    return await person._interact(2, table.channel, data, None, 5.0)


async def test_a_press_during_a_storage_fault_is_answered_and_changes_nothing(
    discord_env: DiscordEnv, tmp_path: Path
) -> None:
    table = await open_table(discord_env, tmp_path)
    turn = await table.wait_turn()
    assert turn is not None
    mover, buttons = turn
    count = table.action_count()

    holder = sqlite3.connect(table.db, timeout=10, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        started = time.monotonic()
        result = await mover.person.click(buttons[0].message, buttons[0].custom_id)
        first = time.monotonic() - started
        assert not result.rejected, result.rejected  # a first answer within Discord's 3 s (a defer)
        followups = await result.wait_followups(1, timeout=15)
        assert followups[0].ephemeral_for == mover.person.id
        # a "saving is delayed" notice may come first (after SLOW_AFTER): the same message then says the outcome
        await discord_env.wait_for(lambda: result.followups[0].content == STORAGE_TEXT, timeout=15)
        answered = time.monotonic() - started
        assert len(result.followups) == 1
        assert table.action_count() == count
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    print(f"\npress during a held write lock: first answer {first:.2f} s, private answer {answered:.2f} s")
    # The same button, once the lock is released, is taken exactly once.
    await table.press(mover, buttons[0])
    assert table.action_count() == count + 1
    assert " ERROR " not in table.bot.output  # a storage fault is a warning, not an error


async def test_presses_during_a_long_lock_hear_of_the_delay_then_of_their_outcome(
    discord_env: DiscordEnv, tmp_path: Path
) -> None:
    """Another program holds the write lock for 12 s while the player presses four times.

    Each press waits its turn for the database (up to SQLite's 5 s busy timeout per write, one write at a
    time), so the later ones used to be acknowledged and then say nothing until the lock was gone. Now
    each is told privately within a few seconds that saving is delayed (in the presser's language), and
    that same message then says whether the move was applied or refused: exactly one is applied.
    """
    table = await open_table(discord_env, tmp_path)
    turn = await table.wait_turn()
    assert turn is not None
    mover, buttons = turn
    count = table.action_count()
    languages = ["en", "ar", "en", "ar"]
    seen: list[list[str]] = [[] for _ in languages]  # each press's private texts, in the order shown
    first_word: list[float | None] = [None] * len(languages)

    async def press(i: int, language: str) -> InteractionResult:
        mover.person.locale = "en-US" if language == "en" else "ar"
        button = buttons[i % len(buttons)]
        started = time.monotonic()
        result = await mover.person.click(button.message, button.custom_id)
        while True:  # a record of what the press's private message says, as the player would see it
            texts = [m.content for m in result.followups]
            if texts and first_word[i] is None:
                first_word[i] = time.monotonic() - started
            if texts and texts[-1] not in seen[i][-1:]:
                seen[i].append(texts[-1])
            if (texts and texts[-1] != shown("notice.move_delayed", language)) or time.monotonic() - started > 60:
                return result
            await asyncio.sleep(0.05)

    holder = sqlite3.connect(table.db, timeout=10, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        pressing = []
        for i, language in enumerate(languages):
            pressing.append(asyncio.ensure_future(press(i, language)))
            await asyncio.sleep(0.5)
        await asyncio.sleep(12 - 0.5 * len(languages))
        # while the lock is still held, every press has heard something within a few seconds
        assert all(w is not None and w < SLOW_AFTER + 3 for w in first_word), (first_word, seen)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    results = await asyncio.gather(*pressing)
    print(f"\nfirst private word after each press during a 12 s lock: {[round(w or -1, 1) for w in first_word]} s")
    for i, (language, result) in enumerate(zip(languages, results, strict=True)):
        print(f"press {i} ({language}): {seen[i]}")
        assert not result.rejected and result.response_type == 6  # acknowledged, then answered privately
        assert len(result.followups) == 1 and result.followups[0].ephemeral_for == mover.person.id
        assert seen[i][-1] != shown("notice.move_delayed", language), seen[i]
    for i in (1, 2, 3):  # behind the first press in the queue: each waited longer than SLOW_AFTER
        assert seen[i][0] == shown("notice.move_delayed", languages[i]), seen[i]
    applied = [i for i, language in enumerate(languages) if seen[i][-1] == shown("notice.move_applied", language)]
    assert len(applied) == 1, seen
    assert table.action_count() == count + 1
    refusals = [seen[i][-1] for i in range(len(languages)) if i not in applied]
    assert shown("error.storage_unavailable", "en") in refusals or shown("error.storage_unavailable", "ar") in refusals
    assert " ERROR " not in table.bot.output


async def test_forged_ids_and_options_are_refused_privately(discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path)
    turn = await table.wait_turn()
    assert turn is not None
    mover, buttons = turn
    hand, index = buttons[0].version
    await asyncio.sleep(0.5)  # let the channel and private messages settle before counting rows
    before = _rows(table)
    message = mover.views()[0]
    forged_ids = [
        f"bl:{TOO_BIG}:mine",
        f"bl:{'9' * 32}:mine",
        "bl:abc:mine",
        f"bl:{TOO_BIG}:{mover.seat}:{hand}:{index}:p",
        f"bl:{'1' * 32}:{mover.seat}:{hand}:{index}:p",
        "bl:0:0:0:0:p",
        f"blst:lb:{TOO_BIG}:rating:all:0:n",
        "blst:lb:99999999999999999999:wins:week:3:p",
        # ids that match none of the bot's buttons (a retired version's, a tampered client's): discord.py
        # alone would drop these unanswered, and Discord would show "This interaction failed"
        f"bl:{buttons[0].table}:{mover.seat}:{hand}:{index}:zz",
        f"bl:{buttons[0].table}:lobby:dance",
        f"bl:{buttons[0].table}:mine:x",
        f"bl:{buttons[0].table}:result:abcd",
        "bl:",
        "blst:garbage",
        "garbage",
        "x" * 100,
        "old-v1:join",
    ]
    answers = []
    for custom_id in forged_ids:
        answers.append(refused(await forge(mover.person, message, custom_id)))
    for sub, options in [
        ("record", [{"type": 4, "name": "match", "value": TOO_BIG}]),
        ("record", [{"type": 4, "name": "match", "value": -1}]),
        ("record", []),
        ("leaderboard", [{"type": 3, "name": "sort", "value": "luck"}]),
        ("leaderboard", [{"type": 3, "name": "period", "value": "century"}]),
        ("join", [{"type": 4, "name": "seat", "value": TOO_BIG}]),
        ("join", [{"type": 4, "name": "team", "value": 7}]),
        ("fill", [{"type": 3, "name": "level", "value": "grandmaster"}]),
        ("language", [{"type": 3, "name": "language", "value": "xx"}]),
        ("language", []),
    ]:
        answers.append(refused(await _slash_raw(mover.person, table, sub, options)))
    assert len(answers) == 27
    assert answers == [BAD_INPUT] * 27, answers
    assert _rows(table) == before
    assert table.action_count() == 0
    table.assert_clean_log()
    # The table still plays.
    await table.press(mover, buttons[0])
