"""End to end through the stand-in: a whole Swiss tournament of 8 teams, with ``kill -9`` twice.

The organiser creates it (3 rounds, a match to target 1, so each table plays one hand unless the two
scores tie); four teams register with Discord's user select and their partners confirm, eight players
register alone and are paired at the start. Every seat is a person, who plays only from the buttons
of their own hand (``test_bot_harness``); the odd tables play the same deals differently. The bot
process is SIGKILLed and started again on the same database while it opens round 2, and again in the
middle of round 2: every table resumes where it was (no table lost or opened twice, no press lost or
stored twice), the rounds advance by themselves with a standings picture posted once after each, the
pairings are Swiss (equal scores meet, no rematch) and every table of a round has the same deals, and
the tournament finishes with its winner in the tournament message, the closing post and the players'
stats. With 8 teams no round has a bye, so no bot team plays (test_bot_tournaments covers that).
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fakediscord import BotProcess, Channel, DiscordEnv, Guild, Message, Person
from test_bot_harness import BotTable, Button, Player, Policy, bot_env, contract_policy, plain

from baloot.tournaments import DealResult, RoundOutcome, duplicate_standings

TEST_SECONDS = 420  # the whole test's limit (no pytest plugin for it: asyncio.timeout)
ROUNDS = 3
TARGET = 1  # a round's match: its first hand (R8: another hand only if the two scores are equal)
PAIRS = (("amal", "badr"), ("camil", "dana"), ("eisa", "fahd"), ("ghada", "hind"))
ALONE = ("ilham", "jamal", "khalid", "lama", "maha", "nasser", "omar", "reem")
KILL_AFTER = 6  # presses at every table of round 2 (of about 36 a hand) when the bot is killed
STEP_TIMEOUT = 30.0
SLASH_TIMEOUT = 30.0  # a loaded machine may take longer than the stand-in's default 5 s to answer
SUN = contract_policy("sun")


def sun_last_card(player: Player, buttons: list[Button]) -> Button:
    """Bid Sun, but play the last legal card: the odd tables of a round play the same deals differently,
    so the duplicate comparison (matchpoints) has something to compare."""
    cards = [b for b in buttons if b.code.startswith("c")]
    return cards[-1] if cards else SUN(player, buttons)
MENTION = re.compile(r"<@(\d+)>")


class RoundTable(BotTable):
    """One table of a round in its thread: only its own buttons count (a person's DMs hold every round's)."""

    def to_move(self) -> tuple[Player, list[Button]] | None:
        table_id = self.known_id()
        if table_id is None:
            return None
        best: tuple[Player, list[Button]] | None = None
        for player in self.players:
            buttons = [b for b in player.buttons() if b.table == table_id and b.version > self.last_version]
            if buttons:
                newest = [b for b in buttons if b.version == buttons[0].version and b.message is buttons[0].message]
                if best is None or newest[0].version > best[1][0].version:
                    best = (player, newest)
        return best

    async def wait_turn(self, timeout: float = STEP_TIMEOUT) -> tuple[Player, list[Button]] | None:
        """The next player to move, or None once the table's match is over (the table may not be open yet)."""
        def ready() -> tuple[Player, list[Button]] | bool | None:
            if self.known_id() is None:
                return None
            turn = self.to_move()
            if turn is not None:
                return turn
            return True if self.status() not in ("open", "playing") else None

        try:
            found = await self.env.wait_for(ready, timeout)
        except TimeoutError:  # say which table waited, and how it stood
            table_id = self.known_id()
            raise AssertionError(f"no turn in thread {self.channel.id} within {timeout} s: table {table_id}, "
                                 f"status {None if table_id is None else self.status()}") from None
        return None if found is True else found  # type: ignore[return-value]

    def known_id(self) -> int | None:
        if not hasattr(self, "_id"):
            rows = self.query("SELECT id FROM tables WHERE channel_id = ?", (self.channel.id,))
            if not rows:
                return None
            self._id = int(rows[0][0])
        return self._id


class Gate:
    """Lets the tables' drivers press, or holds them while the bot is killed and restarted."""

    def __init__(self) -> None:
        self.open = asyncio.Event()
        self.open.set()
        self.pressing = 0


async def drive(table: RoundTable, gate: Gate, policy: Policy) -> None:
    """Play the table to the end of its match from its players' buttons."""
    while True:
        turn = await table.wait_turn()
        if turn is None:
            return
        await gate.open.wait()
        if table.to_move() != turn:  # the bot restarted meanwhile: look again
            continue
        player, buttons = turn
        player.seat = buttons[0].seat
        gate.pressing += 1
        try:
            await table.press(player, policy(player, buttons))
        finally:
            gate.pressing -= 1
        assert len(table.acted) < 400


async def kill_and_restart(env: DiscordEnv, bot: BotProcess, gate: Gate, tables: list[RoundTable]) -> None:
    """Once round 2 is under way: hold the presses, SIGKILL the bot, start it again, let them go on.
    At the kill every table of the round is mid-match with every press so far stored."""
    await env.wait_for(lambda: all(len(t.acted) >= KILL_AFTER for t in tables) or None, 120)
    gate.open.clear()
    await env.wait_for(lambda: gate.pressing == 0 or None, STEP_TIMEOUT)
    for table in tables:
        assert table.status() == "playing" and 0 < table.action_count() == len(table.acted)
    await bot.restart()
    gate.open.set()


async def kill_while_opening(env: DiscordEnv, bot: BotProcess, admin: Person) -> None:
    """SIGKILL the bot while it opens round 2 (its second thread just pinged its players, before round 1's
    standings are posted), and start it again."""
    def second_pinged() -> bool | None:
        if len(env.threads_started) < 6:
            return None
        return bool(admin.messages(env.channels[env.threads_started[5]], with_ephemeral=False)) or None

    await env.wait_for(second_pinged, 120)
    await bot.restart()


def query(db: Path, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    conn.row_factory = sqlite3.Row
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def posted_in(viewer: Person, channel: Channel, *words: str) -> Callable[[], Message | None]:
    """The first message of ``channel`` (not an ephemeral one) saying all of ``words``, once there."""
    def found() -> Message | None:
        return next((m for m in viewer.messages(channel, with_ephemeral=False)
                     if all(w in m.content for w in words)), None)

    return found


def embed_of(env: DiscordEnv, message: Message) -> dict[str, Any]:
    current: Message = env.messages[message.id]
    embed: dict[str, Any] = current.embeds[0]
    return embed


async def register(env: DiscordEnv, channel: Channel, admin: Person, people: dict[str, Person],
                   message: Message) -> None:
    """Four teams through the user select and the partner's Confirm; eight players alone."""
    for a, b in PAIRS:
        pick = await people[a].click(message, "Register a team")
        assert pick.ephemeral and pick.message is not None
        select = str(pick.message.components[0]["components"][0]["custom_id"])
        chosen = await people[a].select_users(pick.message, select, [people[b]])
        assert chosen.message is not None and plain(chosen.message.content) == "Registered. Your partner must confirm."
        ask = await env.wait_for(posted_in(admin, channel, f"<@{people[b].id}>", "Confirm?"))
        confirmed = await people[b].click(ask, "Confirm")
        assert confirmed.message is not None and plain(confirmed.message.content) == "Your team is confirmed."
    for name in ALONE:
        alone = await people[name].click(message, "Register alone")
        assert alone.ephemeral and not alone.rejected


async def round_tables(env: DiscordEnv, bot: BotProcess, db: Path, guild: Guild, channel: Channel, admin: Person,
                       people: dict[str, Person], round_no: int, used: set[int]) -> list[RoundTable]:
    """The round's four threads, each pinging its four players; a driver per table.

    The threads are found by their ping among the threads not used by an earlier round: a SIGKILL while
    Discord creates a thread, before the bot stores its id, leaves that thread empty and the restarted
    bot opens the table in another (docs/tournaments.md); the end of the test checks that such a thread
    stays empty and that there is at most one."""
    def pinged() -> list[tuple[Channel, Message]] | None:
        found = []
        for thread_id in env.threads_started:
            if thread_id not in used:
                ping = posted_in(admin, env.channels[thread_id], f"round {round_no},")()
                if ping is not None:
                    found.append((env.channels[thread_id], ping))
        return found if len(found) >= 4 else None

    found = await env.wait_for(pinged, 90)  # (after a restart too)
    assert len(found) == 4, [ping.content for _, ping in found]
    by_id = {p.id: p for p in people.values()}
    tables = []
    for thread, ping in found:
        used.add(thread.id)
        assert thread.is_thread and thread.parent_id == channel.id
        mentioned = [by_id[int(u)] for u in MENTION.findall(ping.content)]
        assert len(mentioned) == 4 and "Bots" not in ping.content, ping.content
        tables.append(RoundTable(env, guild, thread, [Player(p) for p in mentioned], bot, db))
    seated = [p.person.id for table in tables for p in table.players]
    assert sorted(seated) == sorted(by_id), "every player sits at exactly one table of the round"
    return tables


async def stats_field(viewer: Person, channel: Channel, player: Person, field: str, wanted: str) -> str:
    """A line of ``player``'s stats card, asked again while it does not start with ``wanted``
    (the last match's figures may still be on their way)."""
    shown = ""
    for _ in range(20):
        card = await viewer.slash("baloot", "stats", channel=channel, player=player, timeout=SLASH_TIMEOUT)
        assert card.message is not None and card.message.embeds
        shown = {f["name"]: f["value"] for f in card.message.embeds[0]["fields"]}[field]
        if shown.startswith(wanted):
            break
        await asyncio.sleep(0.5)
    return shown


def duplicate_leader(db: Path) -> int:
    """The team first in :func:`baloot.tournaments.duplicate_standings` of the stored tables and deal results."""
    teams = [r["id"] for r in query(db, "SELECT id FROM tournament_teams WHERE status IN ('active', 'dropped') "
                                        "ORDER BY id")]
    outcomes = [RoundOutcome(r["round_no"], r["first_team"], r["second_team"], r["first_points"],
                             r["second_points"] or 0.0, r["first_score"], r["second_score"],
                             bool(r["forfeit"] & 1), bool(r["forfeit"] & 2))
                for r in query(db, "SELECT * FROM tournament_tables WHERE first_points IS NOT NULL")]
    deals = [DealResult(r["round_no"], r["hand_no"], r["team_id"], r["side"], r["diff"])
             for r in query(db, "SELECT * FROM tournament_deals")]
    return duplicate_standings(teams, outcomes, deals)[0].team


def won_by(spots: list[sqlite3.Row], team_id: int) -> int:
    return sum(1 for s in spots for team, points in ((s["first_team"], s["first_points"]),
                                                    (s["second_team"], s["second_points"]))
               if team == team_id and points == 1.0)


def people_by_id(people: dict[str, Person]) -> dict[int, Person]:
    return {p.id: p for p in people.values()}


def swiss_rounds(spots: list[sqlite3.Row]) -> None:
    """Swiss pairing as played: no two teams meet twice, and from round 2 on each table's teams had won as
    many rounds (8 teams over 3 rounds: always possible without a rematch)."""
    met: set[frozenset[int]] = set()
    for round_no in range(1, ROUNDS + 1):
        before = [s for s in spots if s["round_no"] < round_no]
        for spot in (s for s in spots if s["round_no"] == round_no):
            pair = frozenset((spot["first_team"], spot["second_team"]))
            assert len(pair) == 2 and pair not in met, "a rematch"
            met.add(pair)
            if round_no > 1:
                assert won_by(before, spot["first_team"]) == won_by(before, spot["second_team"]), "unequal scores met"


async def test_whole_tournament_of_eight_teams_with_a_restart(discord_env: DiscordEnv, tmp_path: Path) -> None:
    async with asyncio.timeout(TEST_SECONDS):
        await whole_tournament(discord_env, tmp_path)


async def whole_tournament(env: DiscordEnv, tmp_path: Path) -> None:
    began = time.monotonic()
    guild = env.create_guild("Diwaniya")
    channel = env.create_channel(guild, "baloot")
    admin = env.create_user("organiser").join(guild, admin=True)
    people = {n: env.create_user(n).join(guild) for pair in PAIRS for n in pair}
    people.update({n: env.create_user(n).join(guild) for n in ALONE})
    db = tmp_path / "baloot.db"
    bot = await env.start_bot("bot.py", env=bot_env(db))
    try:
        created = await admin.slash("baloot", "tournament", "create", channel=channel, title="Eid Cup",
                                    rounds=ROUNDS, target=TARGET, turn_time=600)
        assert created.response_type == 4 and not created.ephemeral and created.message is not None
        message = created.message
        await register(env, channel, admin, people, message)
        started = await admin.click(message, "Start", timeout=SLASH_TIMEOUT)
        assert started.message is not None and plain(started.message.content) == "The tournament has started."

        all_tables: list[RoundTable] = []
        used: set[int] = set()  # the threads of the rounds so far
        for round_no in range(1, ROUNDS + 1):
            tables = await round_tables(env, bot, db, guild, channel, admin, people, round_no, used)
            assert f"Round {round_no} playing" in embed_of(env, message)["description"]
            gate = Gate()
            work = [drive(table, gate, sun_last_card if k % 2 else SUN) for k, table in enumerate(tables)]
            if round_no == 1:
                work.append(kill_while_opening(env, bot, admin))
            if round_no == 2:
                work.append(kill_and_restart(env, bot, gate, tables))
            await asyncio.gather(*work)
            all_tables += tables
            decks = {json.dumps(table.record()["hands"][0]["deck"]) for table in tables}
            assert len(decks) == 1, "every table of a round plays the same deals"
            if round_no == 2:  # every table of the round came back in its thread
                assert bot.starts == 3
                for table in tables:
                    await table.host.person.wait_message(table.channel, lambda m: "back where it was" in m.content)
            over = "Eid Cup** is over" if round_no == ROUNDS else f"round {round_no} is over"
            posted = await env.wait_for(posted_in(admin, channel, over), 60)
            assert len([m for m in admin.messages(channel) if over in m.content]) == 1, "posted once"
            assert posted.attachments and posted.attachments[0].data.startswith(b"\x89PNG")
            assert posted.attachments[0].filename == f"tournament-1-round-{round_no}.png"
            (tmp_path / posted.attachments[0].filename).write_bytes(posted.attachments[0].data)  # to look at

        # No table lost or opened twice; every press stored once, in order; every match finished.
        # (a thread Discord created while the bot was killed, before the bot stored it, stays empty: at most one)
        spare = [env.channels[t] for t in env.threads_started if t not in used]
        assert len(used) == 4 * ROUNDS and len(spare) <= 1
        assert all(not admin.messages(thread, with_ephemeral=False) for thread in spare)
        for table in all_tables:
            table_id = table.table_id()
            assert table.status() == "finished"
            record = table.record()
            assert record["rules"]["target"] == TARGET
            stored = [(a["seat"], a["type"]) for h in record["hands"] for a in h["actions"]]
            assert len(stored) == len(table.acted) and [s for s, _ in stored] == [s for s, _ in table.acted]
            assert len(table.query("SELECT 1 FROM match_results WHERE table_id = ?", (table_id,))) == 1
        spots = query(db, "SELECT * FROM tournament_tables ORDER BY round_no, table_no")
        assert len(spots) == 4 * ROUNDS and all(s["first_points"] is not None for s in spots)
        assert sorted(s["table_id"] for s in spots) == sorted(t.table_id() for t in all_tables)
        swiss_rounds(spots)

        # The winner: in the message, the closing post and /baloot tournament standings.
        final = await env.wait_for(lambda: "Finished" in embed_of(env, message)["description"] or None, 30)
        assert final
        winner_row = query(db, "SELECT winner_team, status FROM tournaments")[0]
        assert winner_row["status"] == "finished" and winner_row["winner_team"] is not None
        team = query(db, "SELECT * FROM tournament_teams WHERE id = ?", (winner_row["winner_team"],))[0]
        # the winner leads the standings the bot ranks by (docs/tournaments.md: the duplicate rating first, so
        # not necessarily the team with the most rounds won), computed here from the stored rows alone
        assert team["id"] == duplicate_leader(db)
        winners = f"{team['name1']} & {team['name2']}"
        assert f"won by {winners}" in plain(embed_of(env, message)["description"])
        closing = next(m for m in admin.messages(channel, with_ephemeral=False) if "is over:" in m.content)
        assert f"{winners} won!" in plain(closing.content)
        board = await people["amal"].slash("baloot", "tournament", "standings", channel=channel,
                                           timeout=SLASH_TIMEOUT)
        assert board.message is not None and board.message.attachments
        # The winners' stats count the tournament's matches: three played, as many won as the standings say.
        wins = won_by(spots, team["id"])
        # ... and the tournament: won by the winners, played by everyone, the winners first on its board.
        by_id = people_by_id(people)
        for user_id in (team["player1"], team["player2"]):
            shown = await stats_field(admin, channel, by_id[user_id], "Matches", f"{wins} won of {ROUNDS} ")
            assert shown.startswith(f"{wins} won of {ROUNDS} "), shown
            shown = await stats_field(admin, channel, by_id[user_id], "Tournaments", "1 won of 1 played")
            assert shown == "1 won of 1 played", shown
        loser = next(p for p in people.values() if p.id not in (team["player1"], team["player2"]))
        assert await stats_field(admin, channel, loser, "Tournaments", "0 won") == "0 won of 1 played"
        board = await loser.slash("baloot", "leaderboard", channel=channel, sort="tournaments",
                                  timeout=SLASH_TIMEOUT)
        assert board.message is not None and board.message.embeds
        lines = plain(board.message.embeds[0]["description"]).splitlines()
        assert "played to the end" in lines[0], lines
        top = " ".join(lines[2:4])
        assert top.count("**1** won of 1 played") == 2, lines
        assert f" {team['name1']} — " in top and f" {team['name2']} — " in top, lines
        assert "**0** won of 1 played" in lines[4], lines
        errors = [line for line in bot.output.splitlines() if " ERROR " in line or "Traceback" in line]
        assert not errors, "\n".join(errors[:20])
        print(f"whole tournament: {time.monotonic() - began:.1f} s, {sum(len(t.acted) for t in all_tables)} presses")
    finally:
        print(bot.output[-6000:])
