"""Benchmark of N concurrent tables played through the Discord stand-in.

    .venv/bin/python scripts/bench_tables.py                       # N = 1, 50, 200; 2 hands, no think time
    .venv/bin/python scripts/bench_tables.py --hands 1 --think 1.5 # paced: realistic bot-token calls per hand
    .venv/bin/python scripts/bench_tables.py --tables 1 50 --hands 1 --timeout 300
    .venv/bin/python scripts/bench_tables.py --postgres --processes 2 --play channel

``--database-url URL`` runs the bot on that PostgreSQL database, ``--postgres`` on a
throwaway cluster this script starts (``tests/pg_cluster.py``, Debian's packages);
``--processes K`` runs K bot processes, shards 0..K-1 of K, each holding the tables of its
guild (PostgreSQL only). ``--play channel`` plays as players in the channel do: each
presses "My hand" on the table message once a hand and plays in that ephemeral view
(its refreshes go through interaction tokens); ``--play dm`` (default) plays in the DMs,
which reach shard 0 only.

Without think time the players press as fast as the bot answers: a stress of
latency and throughput, but a hand then lasts well under the channel board's edit
interval, so its edits coalesce and the bot-token calls per hand (and the
derived capacity) come out far too optimistic. With ``--think`` above ~1.25 s
every action gets its own table edit, as in a 3-minute hand: use that run for
the per-hand figures and the tables-per-token capacity.

For each N a fresh stand-in (``tests/fakediscord``, in this process, on
127.0.0.1) and a fresh ``python bot.py`` process (own SQLite file in a temporary
directory, ``BOT_DELAY_SECONDS=0``, ``TURN_SECONDS=600`` so no timer fires, no AI
workers) are started. N channels get four scripted users each; every group
creates a table (``/baloot create``), joins seats 2-4, starts, and then - once
every table has started - plays ``--hands`` hands: whoever has enabled action
buttons newer than the table's last press (in their DM, or an ephemeral "My hand"
view) presses one chosen by a seeded RNG, with no think time.

``--reviews K`` keeps K game reviews running in the bot's review workers for the
whole run (``REVIEW_WORKERS=K``, the lowest CPU priority, ``baloot/tables/workers.py``):
before the bot starts, finished matches of normal bots are stored in its database
(a channel of their own), and K extra members of the server ask ``/baloot review``
for their hands one after another, each waiting for the finished review before
asking the next, through the bot's real path (the review service, its progress
line, the picture). Their interactions are not among the figures; the reviews
finished during play and the review workers' CPU are, so a run shows that the
reviews were really running.

Figures per N:

- first-response latency of every interaction: from the stand-in dispatching
  INTERACTION_CREATE to the bot's first callback arriving at the stand-in
  (``Interaction.first_response_latency``); p50/p99/max, callbacks refused as too
  late (404/10062, Discord's 3 s deadline) and interactions never answered;
  and the presses as the bot itself timed them (``cogs/transport/timings.py``: from the
  interaction's creation to the bot sending its first answer), which leaves
  out this process's own lag in taking the callback when it is saturated;
- the bot's RSS (VmRSS) after READY and the peak while the N tables are active,
  giving memory per active table;
- REST calls per completed hand by token kind (bot token: Discord's global 50
  requests/s; interaction token: callbacks, followups and webhook edits, not
  counted there), measured over the play phase, plus the setup calls per table;
- bot-token calls per second during play, and the capacity of one bot token at
  a 3-minute hand: 50 / (bot-token calls per hand / 180 s) tables.

The stand-in and the scripted users share this process's event loop, so their
own CPU time is reported too: if this process is saturated, latencies include
its queueing, not only the bot's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import math
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import uvloop

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.fakediscord import (  # noqa: E402
    BotProcess,
    Channel,
    DiscordEnv,
    Guild,
    Interaction,
    InteractionResult,
    Message,
    Person,
)
from tests.fakediscord.gateway import shard_of  # noqa: E402
from tests.fakediscord.server import GLOBAL_RATE_LIMIT  # noqa: E402

ACTION_RE = re.compile(r"^bl:(\d+):([0-3]):(\d+):(\d+):(\w+)$")
"""Custom id of an action button in a private view: table, seat, hand, action index, code."""
GLOBAL_LIMIT = 50.0  # Discord's global limit of bot-token requests per second
HAND_SECONDS = 180.0  # a typical hand played by people
DEADLINE = 3.0  # Discord's first-response deadline
CLICK_TIMEOUT = 10.0  # an interaction not answered by then counts as missing
IDLE_CHECK = 1.5  # seconds without a move before the table's status is read from the database

Version = tuple[int, int]


@dataclass(frozen=True)
class Button:
    message_id: int
    custom_id: str
    seat: int
    version: Version
    code: str


@dataclass
class Table:
    """One channel, four scripted users (seat i = players[i]) and what they have pressed."""

    index: int
    channel: Channel
    players: list[Person]
    rng: random.Random
    views: list[list[int]] = field(default_factory=lambda: [[], [], [], []])  # message ids per seat
    dm_seats: set[int] = field(default_factory=set)  # seats that got their private hand in a DM
    opened: set[tuple[int, int]] = field(default_factory=set)  # (hand, seat) whose "My hand" was pressed
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    last_version: Version = (-1, -1)
    hand_no: int | None = None
    pressed_in_hand: int = 0
    hands_done: int = 0
    presses: int = 0
    finished: bool = False  # the match ended (or the table is no longer playing)
    ended_early: bool = False  # the match ended before --hands hands (a Gahwa, or the target reached)
    error: str | None = None


@dataclass
class Latencies:
    """First-response latency of each interaction, and what went wrong."""

    setup: list[float] = field(default_factory=list)  # slash commands
    play: list[float] = field(default_factory=list)  # button presses
    late: int = 0  # callbacks refused with 404/10062
    missing: int = 0  # no callback at all within CLICK_TIMEOUT
    refused: Counter[tuple[int, int]] = field(default_factory=Counter)  # other (status, code)
    over: Counter[str] = field(default_factory=Counter)  # first answers past 3 s, by what they answered

    def add(self, inter: Interaction, *, setup: bool) -> None:
        latency = inter.first_response_latency
        if latency is None:
            self.missing += 1
            return
        (self.setup if setup else self.play).append(latency)
        if latency > DEADLINE:
            self.over[f"{interaction_name(inter)}, first answer {answer_kind(inter)}"] += 1
        for status, code in inter.rejected:
            if code == 10062:
                self.late += 1
            else:
                self.refused[(status, code)] += 1

    @property
    def all(self) -> list[float]:
        return self.setup + self.play


def interaction_name(inter: Interaction) -> str:
    """``/baloot start`` for a command (its subcommand too), ``button`` for a press."""
    if inter.type != 2:
        return "button"
    words = ["/" + str(inter.data.get("name", "?"))]
    options = inter.data.get("options") or []
    while options and options[0].get("type") in (1, 2):  # a subcommand (group): its name, then its options
        words.append(str(options[0].get("name", "?")))
        options = options[0].get("options") or []
    return " ".join(words)


def answer_kind(inter: Interaction) -> str:
    """What the first callback was: Discord's callback type, or the refusal (a 10062 came too late)."""
    kinds = {4: "a message (4)", 5: "deferred (5)", 6: "deferred update (6)", 7: "an update (7)"}
    if inter.rejected:
        status, code = inter.rejected[0]
        late = inter.late_callback_type
        return f"refused {status}/{code}" + (f": {kinds.get(late, f'type {late}')}" if late is not None else "")
    return kinds.get(inter.response_type or 0, f"type {inter.response_type}")


def post_kind(env: DiscordEnv, message: Message) -> str:
    """What a message the bot posted is: where (a DM or a server channel) and what (a ping, a table
    or private view by its embed's title, a one-line notice)."""
    channel = env.channels.get(message.channel_id)
    where = "DM" if channel is not None and channel.guild_id is None else "channel"
    if message.embeds:
        title = str(message.embeds[0].get("title", ""))
        what = "embed: " + re.sub(r"\d+", "N", title.split(" · ")[0])
    elif "<@" in message.content:
        what = "ping"
    else:
        what = "text: " + re.sub(r"\d+", "N", message.content[:40])
    return f"{where} {what}"


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) by nearest rank; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1))
    return ordered[rank]


def rss_kib(pid: int) -> int:
    """VmRSS of a process in KiB (0 if it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (its own, not its children's)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def action_buttons(message: Message, seat: int) -> list[Button]:
    """The enabled action buttons of ``seat`` on a message."""
    out = []
    for row in message.components:
        for comp in row.get("components", []):
            found = ACTION_RE.match(str(comp.get("custom_id", "")))
            if comp.get("type") != 2 or found is None or comp.get("disabled"):
                continue
            _, seat_s, hand, index, code = found.groups()
            if int(seat_s) == seat:
                out.append(Button(message.id, comp["custom_id"], seat, (int(hand), int(index)), code))
    return out


class Bench:
    """One run: a stand-in, the bot process, N tables."""

    def __init__(self, env: DiscordEnv, args: argparse.Namespace, tables: int, db: Path) -> None:
        self.env = env
        self.args = args
        self.n = tables
        self.db = db
        self.tables: list[Table] = []
        self.by_dm: dict[int, tuple[Table, int]] = {}  # DM channel id -> (table, seat)
        self.by_user: dict[int, tuple[Table, int]] = {}  # user id -> (table, seat)
        self.seen_messages = 0
        self.edits: dict[int, int] = {}  # tracked message id -> edits when last looked at
        self.lat = Latencies()
        self.bots: list[BotProcess] = []
        self.pids: list[int] = []
        self.pg_pool: Any = None  # asyncpg's pool for status reads (--database-url/--postgres)
        self.rss_base = 0
        self.rss_started = 0  # once every table has started (set up, dealt), before play
        self.rss_peak = 0
        self.stop = asyncio.Event()
        self.phase_marks: dict[str, int] = {}
        self.phase_times: dict[str, float] = {}
        self.phase_wall: dict[str, str] = {}  # ISO times, to compare with messages' created_at
        self.bot_cpu: dict[str, float] = {}
        self.own_cpu: dict[str, float] = {}
        self.loop_lag: list[float] = []  # how late this process's event loop wakes a 10 ms sleep
        self.review_queue: list[tuple[int, int]] = []  # --reviews: (stored match, hand) not asked for yet
        self.review_channel: Channel | None = None
        self.reviewers: list[Person] = []
        self.reviews_done: list[float] = []  # time.monotonic() of each review answered with its picture
        self.review_errors: list[str] = []
        self.review_cpu: dict[str, float] = {}  # the review workers' CPU seconds at each mark

    # -- the world ---------------------------------------------------------------------------
    def build(self) -> None:
        env = self.env
        shards = self.args.processes
        guilds: dict[int, Guild] = {}  # shard -> a guild Discord routes to it
        while len(guilds) < shards:
            guild = env.create_guild(f"Diwaniya {len(env.guilds)}")
            guilds.setdefault(shard_of(guild.id, shards), guild)
        for i in range(self.n):
            guild = guilds[i % shards]
            channel = env.create_channel(guild, f"baloot-{i}")
            players = [env.create_user(f"t{i}p{s}").join(guild) for s in range(4)]
            table = Table(i, channel, players, random.Random(self.args.seed * 100_003 + i))
            self.tables.append(table)
            for seat, person in enumerate(players):
                self.by_dm[person.dm_channel.id] = (table, seat)
                self.by_user[person.id] = (table, seat)
        if self.args.reviews:  # in shard 0's guild, which holds the stored matches
            self.review_channel = env.create_channel(guilds[0], "baloot-reviews")
            self.reviewers = [env.create_user(f"reviewer{i}").join(guilds[0])
                              for i in range(max(4, self.args.reviews))]

    def timings_file(self, shard: int) -> Path:
        return self.db.parent / f"press-timings-{shard}.json"

    def bot_side_presses(self) -> list[float]:
        """The bots' own answer times of the presses, seconds (read after they stopped; cogs/transport/timings.py)."""
        times: list[float] = []
        for shard in range(self.args.processes):
            with contextlib.suppress(OSError, ValueError):
                times += [ms / 1000 for ms in json.loads(self.timings_file(shard).read_text(encoding="utf-8"))]
        return times

    def bot_env(self, shard: int) -> dict[str, str]:
        env = {
            "DATABASE_PATH": str(self.db),
            "DATABASE_URL": self.args.database_url or "",
            "DATABASE_SYNC": self.args.sync,
            "DEV_GUILD_ID": "",
            "DEFAULT_LANGUAGE": "en",
            "TURN_SECONDS": "600",
            "BOT_DELAY_SECONDS": "0",
            "AI_WORKERS": "0",
            "LOG_LEVEL": self.args.log_level,
            "TABLE_PICTURES": self.args.pictures,
            "BALOOT_PRESS_TIMINGS": str(self.timings_file(shard)),  # cogs/transport/timings.py
        }
        if self.args.reviews:
            workers = self.args.reviews if self.args.review_workers is None else self.args.review_workers
            env |= {"REVIEW_WORKERS": str(workers), "REVIEW_AUTO": "1"}
        if self.args.processes > 1:
            env |= {"SHARD_COUNT": str(self.args.processes), "SHARD_IDS": str(shard)}
        if self.args.flush_delay:
            env |= {"LD_PRELOAD": str(slow_flush_library(self.db.parent)),
                    "BALOOT_FLUSH_DELAY_US": str(round(self.args.flush_delay * 1000))}
        return env

    # -- watching: one waiter for every table --------------------------------------------------
    def _scan(self) -> bool:
        """Route new private messages to their seat and wake tables whose views changed."""
        messages = self.env.messages
        woke = False
        for mid in itertools.islice(messages, self.seen_messages, None):
            self.seen_messages += 1
            msg = messages[mid]
            owner = self.by_dm.get(msg.channel_id)
            if owner is None and msg.ephemeral_for is not None:
                owner = self.by_user.get(msg.ephemeral_for)
            if owner is not None and msg.author.bot:
                table, seat = owner
                table.views[seat].append(mid)
                self.edits[mid] = -1
                if msg.channel_id in self.by_dm:
                    table.dm_seats.add(seat)
        for mid, edits in self.edits.items():
            msg = messages[mid]
            if msg.edits != edits:
                self.edits[mid] = msg.edits
                owner = self.by_dm.get(msg.channel_id) or self.by_user.get(msg.ephemeral_for or 0)
                if owner is not None:
                    owner[0].wake.set()
                    woke = True
        return woke

    async def watch(self) -> None:
        while not self.stop.is_set():
            with contextlib.suppress(TimeoutError):
                await self.env.wait_for(lambda: self._scan() or self.stop.is_set(), 1.0)

    async def probe_loop(self) -> None:
        """The stand-in and the players share this loop: its lag is part of every measured latency."""
        while not self.stop.is_set():
            before = time.monotonic()
            await asyncio.sleep(0.01)
            self.loop_lag.append(time.monotonic() - before - 0.01)

    def rss(self) -> int:
        """The bot processes' RSS together, KiB."""
        return sum(rss_kib(pid) for pid in self.pids)

    async def sample_rss(self) -> None:
        while not self.stop.is_set() and self.pids:
            self.rss_peak = max(self.rss_peak, self.rss())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), 0.2)

    # -- a table -----------------------------------------------------------------------------
    def to_move(self, table: Table) -> list[Button]:
        """The newest enabled buttons (one seat, one message) newer than the table's last press."""
        best: list[Button] = []
        channel_play = self.args.play == "channel"
        for seat, ids in enumerate(table.views):
            for mid in ids:
                msg = self.env.messages[mid]
                if msg.deleted or (channel_play and msg.ephemeral_for is None):
                    continue
                buttons = [b for b in action_buttons(msg, seat) if b.version > table.last_version]
                if buttons:
                    newest = max(b.version for b in buttons)
                    if not best or newest > best[0].version:
                        best = [b for b in buttons if b.version == newest]
        return best

    async def status(self, table: Table) -> str:
        """The table's stored status (the match may have ended between two looks)."""
        if self.args.database_url:
            import asyncpg  # the bot's PostgreSQL driver (requirements.txt)

            # One small pool for all tables: a connection per look ran PostgreSQL out of its 100
            # connections at 1,000 tables ("too many clients"), failing tables that were fine.
            if self.pg_pool is None:
                self.pg_pool = await asyncpg.create_pool(self.args.database_url, min_size=1, max_size=4)
            value = await self.pg_pool.fetchval(
                "SELECT status FROM tables WHERE channel_id = $1 ORDER BY id DESC", table.channel.id)
            return str(value) if value is not None else "none"
        conn = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=5)
        try:
            row = conn.execute(
                "SELECT status FROM tables WHERE channel_id = ? ORDER BY id DESC", (table.channel.id,)
            ).fetchone()
        finally:
            conn.close()
        return str(row[0]) if row else "none"

    async def settle(self, result: InteractionResult) -> str:
        """Wait for a deferred ("thinking") reply to become its answer, as a person would; its text."""
        if result.response_type == 5:
            await self.env.wait_for(
                lambda: result.followups or (result.message is not None and not result.message.loading),
                CLICK_TIMEOUT)
        shown = [m for m in result.messages if not m.loading]
        return shown[-1].content if shown else str(result.rejected)

    async def setup(self, table: Table) -> None:
        host, *others = table.players
        created = await host.slash("baloot", "create", channel=table.channel, timeout=CLICK_TIMEOUT,
                                   target=self.args.target, turn_time=600)
        self.lat.add(created.interaction, setup=True)
        replies = [await self.settle(created)]
        for seat, person in enumerate(others, start=2):
            joined = await person.slash("baloot", "join", channel=table.channel, seat=seat, timeout=CLICK_TIMEOUT)
            self.lat.add(joined.interaction, setup=True)
            replies.append(await self.settle(joined))
        started = await host.slash("baloot", "start", channel=table.channel, timeout=CLICK_TIMEOUT)
        self.lat.add(started.interaction, setup=True)
        await self.settle(started)
        if started.rejected or any(m.ephemeral for m in started.messages):
            raise RuntimeError(f"table {table.index}: start refused: {started.rejected} "
                               f"{[m.content for m in started.messages]}; create/join replies: {replies}")
        # The first deal sends each player their hand in a DM: that belongs to setting the table up. The
        # bot sends them within Discord's global limit (cogs/transport/pacing.py): about 9 bot-token calls a table,
        # so N tables starting at once wait up to N * 9 / 45 s for the last DM.
        paced = max(CLICK_TIMEOUT, 1.5 * self.n * 9 / 45)
        await self.env.wait_for(lambda: len(table.dm_seats) == 4, paced)
        if self.args.play == "channel":
            await self.env.wait_for(lambda: self.table_message(table) is not None, paced)
            await self.open_views(table)

    def table_message(self, table: Table) -> Message | None:
        """The table's newest channel message with a "My hand" button."""
        found = None
        for msg in table.players[0].messages(table.channel, with_ephemeral=False):
            if msg.author.bot and not msg.deleted and any(
                    str(c.get("custom_id", "")).endswith(":mine")
                    for row in msg.components for c in row.get("components", [])):
                found = msg
        return found

    async def open_views(self, table: Table) -> None:
        """``--play channel``: every player presses "My hand" on the table message (an ephemeral view)."""
        message = self.table_message(table)
        if message is None:
            return
        custom_id = next(str(c["custom_id"]) for row in message.components for c in row.get("components", [])
                         if str(c.get("custom_id", "")).endswith(":mine"))
        for person in table.players:
            try:
                result = await person.click(message, custom_id, timeout=CLICK_TIMEOUT)
            except TimeoutError:
                self.lat.missing += 1
                continue
            self.lat.add(result.interaction, setup=False)

    async def play(self, table: Table) -> None:
        idle_since = time.monotonic()
        while not self.stop.is_set() and table.hands_done < self.args.hands and not table.finished:
            buttons = self.to_move(table)
            if not buttons:
                table.wake.clear()
                try:
                    await asyncio.wait_for(table.wake.wait(), IDLE_CHECK)
                    continue
                except TimeoutError:
                    pass
                if self.args.play == "channel" and time.monotonic() - idle_since > IDLE_CHECK:
                    await self.open_views(table)  # no view with buttons (tokens end after 15 min): open again
                if time.monotonic() - idle_since > IDLE_CHECK and await self.status(table) != "playing":
                    table.finished = table.ended_early = True
                    if table.pressed_in_hand:
                        table.hands_done += 1
                continue
            hand = buttons[0].version[0]
            if table.hand_no is None:
                table.hand_no = hand
            elif hand > table.hand_no:
                table.hands_done += 1
                table.hand_no, table.pressed_in_hand = hand, 0
                if table.hands_done >= self.args.hands:
                    break
            button = table.rng.choice(buttons)
            if self.args.think > 0:
                await asyncio.sleep(self.args.think * table.rng.uniform(0.5, 1.5))
            person = table.players[button.seat]
            message = self.env.messages[button.message_id]
            try:
                result = await person.click(message, button.custom_id, timeout=CLICK_TIMEOUT)
            except (ValueError, LookupError):
                continue  # the view changed between reading and pressing: read it again
            except TimeoutError:
                self.lat.missing += 1
                continue
            self.lat.add(result.interaction, setup=False)
            table.last_version = button.version
            table.presses += 1
            table.pressed_in_hand += 1
            idle_since = time.monotonic()

    async def run_table(self, table: Table, started: asyncio.Barrier) -> None:
        try:
            await self.setup(table)
        except Exception as exc:
            table.error = f"{type(exc).__name__}: {exc}"
            table.finished = True
        await started.wait()
        if table.error is None:
            try:
                await self.play(table)
            except Exception as exc:
                table.error = f"{type(exc).__name__}: {exc}"

    # -- reviews running beside the tables (--reviews) -------------------------------------------
    async def store_finished_matches(self) -> None:
        """Finished matches of normal bots in the bot's database, as the table service writes them, seated
        by the reviewers; their played-out hands (R3.2's thrown-in ones skipped) queue for review."""
        from baloot.review import skip_reason
        from baloot.storage import MatchResult, ResultSeat, SeatRow, Storage, TableStatus
        from baloot.tools.review_bench import play_match

        assert self.review_channel is not None and self.review_channel.guild_id is not None
        guild, channel = self.review_channel.guild_id, self.review_channel.id
        people = [p.id for p in self.reviewers[:4]]
        names = [p.name for p in self.reviewers[:4]]
        storage = await Storage.open(self.args.database_url or str(self.db))
        try:
            for index in range(self.args.review_matches):
                match = play_match(("normal", "normal"), self.args.seed, index, 0)
                row = await storage.create_table(guild_id=guild, channel_id=channel, creator_id=people[0],
                                                 rules=match.rules.to_json(), turn_seconds=600.0, language=None,
                                                 first_seat=SeatRow(0, 0, people[0], names[0]))
                await storage.put_seats([SeatRow(row.id, s, people[s], names[s]) for s in (1, 2, 3)])
                for n, hand in enumerate(match.hands):
                    deck = [c.text for c in hand.deck]
                    if n == 0:
                        await storage.start_match(row.id, hand.dealer, deck)
                    else:
                        await storage.add_hand(row.id, n, hand.dealer, deck)
                    for i, action in enumerate(hand.actions):
                        await storage.add_action(row.id, n, i, action.to_json(), by_user_id=people[action.seat],
                                                 auto=False)
                    if skip_reason(hand) is None:
                        self.review_queue.append((row.id, n))
                result = MatchResult(table_id=row.id, guild_id=guild, finished_at=time.time(),
                                     score=(match.score[0], match.score[1]), winner_team=match.winner,
                                     hands_played=len(match.hands), record=match.to_record(),
                                     seats=tuple(ResultSeat(s, people[s], False, False) for s in range(4)))
                await storage.close_table(row.id, TableStatus.FINISHED, "finished", result)
        finally:
            await storage.close()

    async def review_forever(self, person: Person) -> None:
        """Ask for the next queued hand's review and wait for it (its picture), until the run stops."""
        assert self.review_channel is not None
        while not self.stop.is_set() and self.review_queue:
            table_id, hand_no = self.review_queue.pop(0)
            try:
                asked = await person.slash("baloot", "review", channel=self.review_channel, timeout=CLICK_TIMEOUT,
                                           match=table_id, hand_number=hand_no + 1)

                def answered(a: InteractionResult = asked) -> bool:  # the review, with its picture
                    return (a.message is not None and bool(a.message.attachments)) or self.stop.is_set()

                await self.env.wait_for(answered, self.args.timeout)
            except Exception as exc:
                self.review_errors.append(f"{type(exc).__name__}: {exc}")
                continue
            if asked.message is not None and asked.message.attachments:
                self.reviews_done.append(time.monotonic())
        if not self.review_queue and not self.stop.is_set():
            self.review_errors.append("the stored hands ran out before the run ended (raise --review-matches)")

    def review_workers_cpu(self) -> float:
        """CPU seconds of the bot processes' children (the review pool: the bench runs no AI workers)."""
        total = 0.0
        for pid in self.pids:
            with contextlib.suppress(OSError, ValueError):
                for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
                    total += cpu_seconds(int(child))
        return total

    # -- the run -----------------------------------------------------------------------------
    def mark(self, phase: str) -> None:
        self.phase_marks[phase] = self.env.calls.mark()
        self.phase_times[phase] = time.monotonic()
        self.phase_wall[phase] = datetime.now(UTC).isoformat()
        self.bot_cpu[phase] = sum(cpu_seconds(pid) for pid in self.pids)
        self.own_cpu[phase] = time.process_time()
        self.review_cpu[phase] = self.review_workers_cpu()

    async def run(self) -> None:
        self.build()
        script, env = "bot.py", dict[str, str]()
        if self.args.profile:
            script = "scripts/profile_bot.py"
            env["BALOOT_PROFILE_OUT"] = str(Path(self.args.profile).resolve())
        elif self.args.sample:
            script = "scripts/sample_bot.py"
            env["BALOOT_PROFILE_OUT"] = str(Path(self.args.sample).resolve())
        elif self.args.trace_memory:
            script = "scripts/trace_bot_memory.py"
            env["BALOOT_PROFILE_OUT"] = str(Path(self.args.trace_memory).resolve())
        if self.args.reviews:
            await self.store_finished_matches()
        for shard in range(self.args.processes):
            # One process syncs the commands (SYNC_COMMANDS defaults to shard 0's process).
            bot = await self.env.start_bot(script, env=env | self.bot_env(shard), cwd=REPO, timeout=60,
                                           expect_commands=shard == 0)
            assert bot.pid is not None
            self.bots.append(bot)
            self.pids.append(bot.pid)
        await asyncio.sleep(1.0)  # let start-up settle (imports, cache warm-up) before the baseline
        self.rss_base = self.rss_peak = self.rss()
        watcher = asyncio.create_task(self.watch())
        sampler = asyncio.create_task(self.sample_rss())
        prober = asyncio.create_task(self.probe_loop())
        reviewing = [asyncio.create_task(self.review_forever(p)) for p in self.reviewers[:self.args.reviews]]
        self.mark("setup")
        started = asyncio.Barrier(self.n + 1)
        tasks = [asyncio.create_task(self.run_table(t, started)) for t in self.tables]
        try:
            await started.wait()
            self.rss_started = self.rss()
            self.mark("play")
            await asyncio.gather(*tasks)
            self.mark("end")
        finally:
            if "end" not in self.phase_marks:
                self.mark("end")
            self.stop.set()
            for task in tasks:
                task.cancel()
            for task in reviewing:
                task.cancel()
            await asyncio.gather(*tasks, *reviewing, watcher, sampler, prober, return_exceptions=True)
            self.rss_peak = max(self.rss_peak, self.rss())
            if self.pg_pool is not None:
                await self.pg_pool.close()

    # -- figures -----------------------------------------------------------------------------
    def figures(self, timed_out: bool) -> dict[str, Any]:
        calls = self.env.calls
        setup, play, end = self.phase_marks["setup"], self.phase_marks["play"], self.phase_marks["end"]
        play_records = calls.records[play:end]
        hands = sum(t.hands_done for t in self.tables)
        play_s = self.phase_times["end"] - self.phase_times["play"]
        bot_play = sum(1 for r in play_records if r.kind == "bot")
        inter_play = sum(1 for r in play_records if r.kind == "interaction")
        setup_records = calls.records[setup:play]
        bot_per_hand = bot_play / hands if hands else 0.0
        lat = self.lat
        return {
            "tables": self.n,
            "hands": hands,
            "finished_matches": sum(1 for t in self.tables if t.ended_early),
            "errors": [f"table {t.index}: {t.error}" for t in self.tables if t.error],
            "timed_out": timed_out,
            "interactions": len(lat.all) + lat.missing,
            "presses": len(lat.play),
            "p50_ms": 1000 * percentile(lat.all, 0.50),
            "p99_ms": 1000 * percentile(lat.all, 0.99),
            "max_ms": 1000 * max(lat.all, default=0.0),
            "press_p50_ms": 1000 * percentile(lat.play, 0.50),
            "press_p99_ms": 1000 * percentile(lat.play, 0.99),
            "setup_p99_ms": 1000 * percentile(lat.setup, 0.99),
            "over_3s": sum(1 for x in lat.all if x > DEADLINE),
            "late_10062": lat.late,
            "missing": lat.missing,
            "global_429": sum(1 for r in calls.records[setup:end] if r.kind == "bot" and r.status == 429),
            "peak_bot_calls_1s": calls.peak_rate(kind="bot", since=setup),
            "refused": dict(lat.refused),
            "over_3s_by": dict(lat.over.most_common()),
            "rss_base_mib": self.rss_base / 1024,
            "rss_started_mib": self.rss_started / 1024,
            "rss_peak_mib": self.rss_peak / 1024,
            "kib_per_table": (self.rss_peak - self.rss_base) / self.n,
            "bot_calls_per_hand": bot_per_hand,
            "bot_accepted_per_hand": sum(1 for r in play_records if r.kind == "bot" and r.status != 429) / hands
            if hands else 0.0,
            "interaction_calls_per_hand": inter_play / hands if hands else 0.0,
            "setup_bot_calls_per_table": sum(1 for r in setup_records if r.kind == "bot") / self.n,
            "setup_interaction_calls_per_table": sum(1 for r in setup_records if r.kind == "interaction") / self.n,
            "bot_calls_per_s": bot_play / play_s if play_s else 0.0,
            "tables_per_token": GLOBAL_LIMIT / (bot_per_hand / HAND_SECONDS) if bot_per_hand else float("inf"),
            "play_s": play_s,
            "setup_s": self.phase_times["play"] - self.phase_times["setup"],
            "hands_per_s": hands / play_s if play_s else 0.0,
            "bot_cpu_pct": 100 * (self.bot_cpu["end"] - self.bot_cpu["setup"])
            / max(1e-9, self.phase_times["end"] - self.phase_times["setup"]),
            "bot_cpu_ms_per_interaction": 1000 * (self.bot_cpu["end"] - self.bot_cpu["setup"])
            / max(1, len(lat.all)),
            "bot_cpu_ms_setup": 1000 * (self.bot_cpu["play"] - self.bot_cpu["setup"])
            / max(1, len(lat.all) - len(lat.play)),
            "bot_cpu_ms_press": 1000 * (self.bot_cpu["end"] - self.bot_cpu["play"]) / max(1, len(lat.play)),
            "loop_lag_p99_ms": 1000 * percentile(self.loop_lag, 0.99),
            "bench_cpu_pct": 100 * (self.own_cpu["end"] - self.own_cpu["setup"])
            / max(1e-9, self.phase_times["end"] - self.phase_times["setup"]),
            "bot_routes_per_hand": {
                route: n / hands for route, n in Counter(r.route for r in play_records if r.kind == "bot").most_common()
            } if hands else {},
            "interaction_routes_per_hand": {
                route: n / hands
                for route, n in Counter(r.route for r in play_records if r.kind == "interaction").most_common()
            } if hands else {},
            "bot_posts_per_hand": {
                kind: n / hands for kind, n in Counter(
                    post_kind(self.env, m) for m in self.env.messages.values()
                    if m.interaction_id is None and m.author.id == self.env.bot_user.id
                    and self.phase_wall["play"] <= m.created_at <= self.phase_wall["end"]).most_common()
            } if hands else {},
            "non_2xx": dict(Counter(f"{r.route} {r.status}" for r in calls.records[setup:end]
                                    if r.status >= 300)),
            "bot_log_errors": [],
            "reviews": self.args.reviews,
            "reviews_done_play": sum(1 for t in self.reviews_done
                                     if self.phase_times["play"] <= t <= self.phase_times["end"]),
            "reviews_done": len(self.reviews_done),
            "review_cpu_pct": 100 * (self.review_cpu["end"] - self.review_cpu["play"]) / max(1e-9, play_s),
            "review_errors": self.review_errors[:5],
        }


def log_problems(output: str) -> list[str]:
    """The bot log's ERROR lines, and each traceback as the line that logged it and its exception."""
    lines = output.splitlines()
    found = []
    for i, line in enumerate(lines):
        if " ERROR " in line:
            found.append(line)
        elif line.startswith("Traceback"):
            end = next((j for j in range(i + 1, len(lines)) if lines[j] and not lines[j][0].isspace()), i)
            logged = lines[i - 1] if i and " ERROR " not in lines[i - 1] else ""
            found.append(f"{logged} -> {lines[end]}" if logged else f"traceback -> {lines[end]}")
    return found


def slow_flush_library(folder: Path) -> Path:
    """``scripts/slow_flush.c`` built into ``folder`` (``--flush-delay``: a disk slower to flush)."""
    library = folder / "slow_flush.so"
    if not library.exists():
        compiler = os.environ.get("CC", "cc")
        built = subprocess.run([compiler, "-shared", "-fPIC", "-O2", "-o", str(library),
                                str(REPO / "scripts" / "slow_flush.c"), "-ldl"],
                               capture_output=True, text=True, check=False)
        if built.returncode != 0:
            raise SystemExit(f"--flush-delay needs a C compiler ({compiler}): {built.stderr.strip()}")
    return library


async def run_one(n: int, args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-tables-", dir=args.db_dir) as tmp:
        env = DiscordEnv(validate_schema=args.validate,
                         global_rate_limit=None if args.no_global_limit else GLOBAL_RATE_LIMIT)
        await env.start()
        bench = Bench(env, args, n, Path(tmp) / "baloot.db")
        timed_out = False
        try:
            try:
                await asyncio.wait_for(bench.run(), args.timeout)
            except TimeoutError:
                timed_out = True
            figures = bench.figures(timed_out)
            for bot in bench.bots:
                figures["bot_log_errors"] += log_problems(bot.output)[:10]
                await bot.stop(grace=5.0)
            bot_side = bench.bot_side_presses()
            figures["bot_side_p50_ms"] = 1000 * percentile(bot_side, 0.50)
            figures["bot_side_p99_ms"] = 1000 * percentile(bot_side, 0.99)
        finally:
            await env.close()
        return figures


def print_figures(results: list[dict[str, Any]], args: argparse.Namespace) -> None:
    rows: list[tuple[str, str]] = [
        ("tables (N)", "{tables}"),
        ("hands completed", "{hands}"),
        ("matches ended early", "{finished_matches}"),
        ("interactions (presses)", "{interactions} ({presses})"),
        ("first response p50 ms", "{p50_ms:.1f}"),
        ("first response p99 ms", "{p99_ms:.1f}"),
        ("first response max ms", "{max_ms:.1f}"),
        ("  presses p50 / p99 ms", "{press_p50_ms:.1f} / {press_p99_ms:.1f}"),
        ("  presses, bot side p50 / p99 ms", "{bot_side_p50_ms:.1f} / {bot_side_p99_ms:.1f}"),
        ("  slash commands p99 ms", "{setup_p99_ms:.1f}"),
        ("over 3 s / 10062 / unanswered", "{over_3s} / {late_10062} / {missing}"),
        ("bot-token peak /s | 429 refused", "{peak_bot_calls_1s} | {global_429}"),
        ("bot RSS base -> started -> peak MiB", "{rss_base_mib:.1f} -> {rss_started_mib:.1f} -> {rss_peak_mib:.1f}"),
        ("memory per active table KiB", "{kib_per_table:.0f}"),
        ("bot-token calls / hand", "{bot_calls_per_hand:.2f}"),
        ("  of which not refused (429)", "{bot_accepted_per_hand:.2f}"),
        ("interaction calls / hand", "{interaction_calls_per_hand:.2f}"),
        ("setup calls / table bot|inter", "{setup_bot_calls_per_table:.1f} | {setup_interaction_calls_per_table:.1f}"),
        ("bot-token calls / s (play)", "{bot_calls_per_s:.1f}"),
        ("hands / s (play)", "{hands_per_s:.2f}"),
        ("tables per token @180 s/hand", "{tables_per_token:.0f}"),
        ("setup / play wall s", "{setup_s:.1f} / {play_s:.1f}"),
        ("CPU % bot | bench+stand-in", "{bot_cpu_pct:.0f} | {bench_cpu_pct:.0f}"),
        ("bot CPU ms / interaction", "{bot_cpu_ms_per_interaction:.2f}"),
        ("  setup command | play press", "{bot_cpu_ms_setup:.2f} | {bot_cpu_ms_press:.2f}"),
        ("stand-in loop lag p99 ms", "{loop_lag_p99_ms:.1f}"),
    ]
    if args.reviews:
        rows += [("reviews asked at once", "{reviews}"),
                 ("reviews done in play (in all)", "{reviews_done_play} ({reviews_done})"),
                 ("review workers CPU % (play)", "{review_cpu_pct:.0f}")]
    width = max(len(label) for label, _ in rows)
    print()
    print(f"bench_tables: hands={args.hands} think={args.think}s seed={args.seed} target={args.target} "
          f"schema_validation={'on' if args.validate else 'off'} log_level={args.log_level} play={args.play} "
          f"database={'PostgreSQL' if args.database_url else 'SQLite'} processes={args.processes} "
          f"reviews={args.reviews}" + (f" flush_delay={args.flush_delay:g}ms" if args.flush_delay else ""))
    header = " " * width + "".join(f"  {'N=' + str(r['tables']) + (' TIMEOUT' if r['timed_out'] else ''):>18}"
                                   for r in results)
    print(header)
    for label, fmt in rows:
        print(f"{label:<{width}}" + "".join(f"  {fmt.format(**r):>18}" for r in results))
    for r in results:
        print(f"\nN={r['tables']}: bot-token calls per hand by route (play phase)")
        for route, per in r["bot_routes_per_hand"].items():
            print(f"  {per:7.2f}  {route}")
        print(f"N={r['tables']}: bot-token messages posted per hand, by kind (play phase)")
        for kind, per in r["bot_posts_per_hand"].items():
            print(f"  {per:7.2f}  {kind}")
        print(f"N={r['tables']}: interaction-token calls per hand by route (play phase)")
        for route, per in r["interaction_routes_per_hand"].items():
            print(f"  {per:7.2f}  {route}")
        for key in ("non_2xx", "refused"):
            if r[key]:
                print(f"  {key}: {r[key]}")
        if r["over_3s_by"]:
            print(f"N={r['tables']}: first answers past 3 s, by interaction")
            for what, count in r["over_3s_by"].items():
                print(f"  {count:7d}  {what}")
        for line in r["errors"][:5] + r["bot_log_errors"] + [f"review: {e}" for e in r["review_errors"]]:
            print(f"  ! {line}")


async def main(args: argparse.Namespace) -> int:
    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, task.cancel)
    results = []
    cluster = None
    if args.postgres:
        from tests.pg_cluster import Cluster

        cluster = Cluster.start(durable=True)
    try:
        for n in args.tables:
            print(f"N={n}: running ...", file=sys.stderr, flush=True)
            if cluster is not None:
                args.database_url = await cluster.new_database()  # a fresh database for each N
            results.append(await run_one(n, args))
            figures = results[-1]
            print(f"N={n}: {figures['hands']} hands in {figures['play_s']:.1f} s, p99 {figures['p99_ms']:.1f} ms",
                  file=sys.stderr, flush=True)
    finally:
        if cluster is not None:
            cluster.stop()
    print_figures(results, args)
    bad = any(r["timed_out"] or r["errors"] or r["missing"] or r["late_10062"] for r in results)
    return 1 if bad else 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 50, 200], help="N values, run one after another")
    parser.add_argument("--hands", type=int, default=2, help="hands each table plays (default 2)")
    parser.add_argument("--pictures", default="1", choices=["1", "channel", "all", "0"],
                        help="the bot's TABLE_PICTURES: 1/channel the table message (default), "
                             "all also private views, 0 text only")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' random choices")
    parser.add_argument("--sync", default="FULL", choices=["FULL", "NORMAL"], help="the bot's DATABASE_SYNC")
    parser.add_argument("--flush-delay", type=float, default=0.0, metavar="MS",
                        help="make every flush to disk (fsync, fdatasync) of the bot take MS milliseconds longer, "
                             "as on a slower disk (scripts/slow_flush.c through LD_PRELOAD; needs a C compiler)")
    parser.add_argument("--target", type=int, default=1000, help="match target (high: the match outlasts the run)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds allowed per N before it is cut short")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a player thinks before pressing (0: press at once). Above the "
                             "channel's edit interval (~1.25 s) every action gets its own table edit, as at a "
                             "3-minute hand, so the bot-token calls per hand are realistic")
    parser.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                        help="the bot's LOG_LEVEL")
    parser.add_argument("--db-dir", default=None,
                        help="where the bot's temporary SQLite file goes (default: the system temp dir; "
                             "/dev/shm takes the disk's fsync out of the figures)")
    parser.add_argument("--no-global-limit", action="store_true",
                        help="the stand-in does not enforce Discord's 50 bot-token requests/s: "
                             "the bot's own CPU and latency, without discord.py's waits after a global 429")
    parser.add_argument("--profile", default=None, metavar="FILE",
                        help="run the bot under cProfile and write its statistics to FILE (figures then include it)")
    parser.add_argument("--sample", default=None, metavar="FILE",
                        help="run the bot under scripts/sample_bot.py (a CPU-time sampler, far lighter than "
                             "cProfile) and write its collapsed stacks to FILE")
    parser.add_argument("--database-url", default=None, metavar="URL",
                        help="run the bot on this PostgreSQL database (DATABASE_URL; default: SQLite in a temp dir)")
    parser.add_argument("--postgres", action="store_true",
                        help="start a throwaway PostgreSQL cluster (tests/pg_cluster.py) and run the bot on it")
    parser.add_argument("--processes", type=int, default=1,
                        help="bot processes, shards 0..K-1 of K, one guild per shard (PostgreSQL only)")
    parser.add_argument("--play", default="dm", choices=["dm", "channel"],
                        help="where players press: their DMs (default) or an ephemeral 'My hand' view")
    parser.add_argument("--trace-memory", default=None, metavar="FILE",
                        help="run the bot under tracemalloc and write where its memory goes, at the peak, to FILE")
    parser.add_argument("--reviews", type=int, default=0, metavar="K",
                        help="keep K game reviews running in the bot's review workers (REVIEW_WORKERS=K) "
                             "during the run: K members ask /baloot review for stored finished hands, one "
                             "after another (default 0: none)")
    parser.add_argument("--review-workers", type=int, default=None, metavar="W",
                        help="--reviews: the bot's REVIEW_WORKERS (default K: one worker per review asked)")
    parser.add_argument("--review-matches", type=int, default=12, metavar="M",
                        help="--reviews: finished matches of normal bots stored for review first (default 12)")
    parser.add_argument("--validate", action="store_true",
                        help="check every request body against Discord's OpenAPI schema (about 8 ms of this "
                             "process's CPU per call: the stand-in, not the bot, then limits the throughput)")
    args = parser.parse_args(argv)
    if args.hands < 1 or any(n < 1 for n in args.tables):
        parser.error("--hands and --tables must be at least 1")
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    if not 0 <= args.reviews <= 8 or args.review_matches < 1:
        parser.error("--reviews must be 0 to 8 (REVIEW_WORKERS) and --review-matches at least 1")
    if args.processes > 1 and not (args.database_url or args.postgres):
        parser.error("--processes above 1 needs PostgreSQL (--database-url or --postgres)")
    if args.postgres and args.database_url:
        parser.error("give --postgres or --database-url, not both")
    if not 0 <= args.flush_delay <= 1000:
        parser.error("--flush-delay must be 0 to 1000 ms")
    if args.flush_delay and (args.postgres or args.database_url):
        parser.error("--flush-delay slows the bot's SQLite file; PostgreSQL flushes in its own server")
    return args


if __name__ == "__main__":
    try:
        # uvloop, as the bot runs: the stand-in and the scripted players share this one process, and at
        # hundreds of tables its event loop, not the bot, would otherwise set the latencies measured
        sys.exit(uvloop.run(main(parse_args())))
    except (asyncio.CancelledError, KeyboardInterrupt):
        print("bench_tables: interrupted; the bot and the stand-in were stopped", file=sys.stderr)
        sys.exit(130)
