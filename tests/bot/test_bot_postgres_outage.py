"""End to end: the PostgreSQL server goes away mid-game and comes back.

The real ``bot.py`` on its own throwaway PostgreSQL cluster and the Discord
stand-in. The server is shut down (``pg_ctl stop -m fast``: every connection
of the bot's pool is dropped) while a hand is being played: a press during the
outage is answered privately with the storage message and stores nothing;
once the server is back, the pool reconnects by itself, the same button is
taken exactly once and the hand plays on — no restart of the bot, nothing lost.
"""

from __future__ import annotations

import time
from pathlib import Path

from fakediscord import DiscordEnv
from pg_cluster import Cluster
from test_bot_harness import bot_env, contract_policy, plain
from test_bot_shards import PgReader, seat_table

from baloot.i18n import t

SUN = contract_policy("sun")


async def test_a_postgres_restart_mid_hand_loses_nothing(discord_env: DiscordEnv, tmp_path: Path) -> None:
    env = discord_env
    cluster = Cluster.start()  # its own server: this test stops and starts it
    reader: PgReader | None = None
    try:
        url = await cluster.new_database()
        reader = PgReader(url)
        guild = env.create_guild("Diwaniya")
        bot = await env.start_bot("bot.py", env=bot_env(tmp_path / "unused.db", DATABASE_URL=url,
                                                         TABLE_PICTURES="0"))
        table = await seat_table(env, guild, bot, reader, dms=[True, True, True, True])
        for _ in range(6):
            assert await table.step(SUN)
        turn = await table.wait_turn()
        assert turn is not None
        mover, buttons = turn
        count = table.action_count()

        reader.close()
        cluster.pause()
        started = time.monotonic()
        result = await mover.person.click(buttons[0].message, buttons[0].custom_id)
        assert not result.rejected, result.rejected  # answered within Discord's 3 s
        answers = result.messages if result.response_type == 4 else await result.wait_followups(1, timeout=15)
        answered = time.monotonic() - started
        assert answers[-1].ephemeral_for == mover.person.id or result.ephemeral
        assert plain(answers[-1].content) == t("error.storage_unavailable", "en")
        print(f"\npress during the outage answered privately in {answered:.2f} s")

        cluster.resume()
        reader = table.reader = PgReader(url)
        assert table.action_count() == count  # the refused press stored nothing
        # The pool reconnects on its own: the same button, pressed again, is taken exactly once.
        deadline = time.monotonic() + 10
        while True:
            again = await mover.person.click(buttons[0].message, buttons[0].custom_id)
            if again.response_type == 7:
                break
            assert time.monotonic() < deadline, "the table did not move again within 10 s"
        table.last_version = buttons[0].version
        table.acted.append((buttons[0].seat, buttons[0].code))
        assert table.action_count() == count + 1
        assert await table.play_hand(SUN) > 0  # and the hand plays on
        stored = [(a["seat"], a["type"]) for h in table.record()["hands"] for a in h["actions"]]
        assert [seat for seat, _ in stored] == [seat for seat, _ in table.acted]
        assert " ERROR " not in bot.output  # an outage is a warning, not an error
    finally:
        if reader is not None:
            reader.close()
        cluster.stop()
