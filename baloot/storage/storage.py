"""The storage layer: the only place with SQL.

:class:`Storage` stores tables and seats, the game log of every match (each
hand's deck and every accepted action, from which the R10 record is
rebuilt), match results, the message ids the bot keeps, and server settings.
Every write method is one transaction, committed before it returns. The same
methods run on SQLite (a file path) and PostgreSQL (a ``postgresql://`` URL);
they raise only :class:`StorageError` and its kinds (:class:`StorageUnavailable`
for transient faults, :class:`StorageConflict` for a refused constraint).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from ..engine.match import RECORD_FORMAT
from . import leases, quick
from .database import DEFAULT_PATH, Connection, Database, Row, SeatedElsewhere, dumps, dumps_plain, loads
from .errors import StorageError, StorageUnavailable
from .leases import Fence, Lease, LeaseGrant
from .opening import open_database
from .results import insert_result, result_from_rows
from .reviews import ReviewStore
from .rows import (
    GuildSettings,
    MatchResult,
    SeatRow,
    StoredAction,
    StoredHand,
    StoredMessage,
    TableRow,
    TableStatus,
)

_LIVE = ("open", "playing")
_FENCED_INSERT: dict[str, str] = {}  # by dialect name: Storage._fenced_insert


def _table(row: Row) -> TableRow:
    return TableRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        creator_id=row["creator_id"],
        status=TableStatus(row["status"]),
        rules=loads(row["rules"]),
        turn_seconds=row["turn_seconds"],
        language=row["language"],
        created_at=row["created_at"],
        started_at=row["started_at"],
        finished_at=row["finished_at"],
        end_reason=row["end_reason"],
        deal_seed=row["deal_seed"],
    )


def _seat(row: Row) -> SeatRow:
    return SeatRow(
        table_id=row["table_id"],
        seat=row["seat"],
        user_id=row["user_id"],
        display_name=row["display_name"],
        is_bot=bool(row["is_bot"]),
        bot_level=row["bot_level"],
        away=bool(row["away"]),
        dm_closed=bool(row["dm_closed"]),
        vacated=bool(row["vacated"]),
        end_vote=bool(row["end_vote"]),
    )


IDENTIFY_LOCK = 7_411_200
"""The advisory lock keys of the identify buckets (``IDENTIFY_LOCK + bucket``; the lease takers use 7411151)."""


class Storage:
    """Async, typed access to the Baloot database. Open with :meth:`open`."""

    def __init__(self, db: Database, clock: Callable[[], float] = time.time) -> None:
        self.db = db
        self.clock = clock
        self.reviews = ReviewStore(db, clock)  # the stored game reviews (:mod:`.reviews`)

    @classmethod
    async def open(
        cls,
        where: str | Path = DEFAULT_PATH,
        *,
        synchronous: str = "FULL",
        pool_size: int = 10,
        clock: Callable[[], float] = time.time,
    ) -> Storage:
        """Open the database at ``where``, migrated to the latest schema.

        ``where`` is a ``postgresql://user:pass@host/db`` URL, or else the path
        of an SQLite file (created if missing; WAL mode; ``synchronous`` sets
        its flushing). ``pool_size`` caps PostgreSQL connections.
        """
        return cls(await open_database(where, synchronous=synchronous, pool_size=pool_size), clock)

    async def close(self) -> None:
        await self.db.close()

    @asynccontextmanager
    async def _write(self, fence: Fence | None) -> AsyncIterator[Connection]:
        """A write transaction of a table; with ``fence``, refused (:class:`LeaseLost`) once its lease is taken."""
        async with self.db.transaction() as db:
            if fence is not None:
                await leases.check(db, fence)
            yield db

    # -- shard leases -------------------------------------------------------------------------
    async def take_leases(self, shard_count: int, shard_ids: Sequence[int], holder: str, ttl: float,
                          gone: Callable[[str], bool] | None = None) -> LeaseGrant:
        """Take the leases of these shards that no other live holder keeps (see :mod:`.leases`); ``gone``
        proves a holder dead (its leases are taken at once)."""
        return await leases.take(self.db, shard_count, tuple(shard_ids), holder, ttl, self.clock(), gone)

    async def renew_leases(self, fences: Sequence[Fence], ttl: float) -> list[Fence]:
        """Renew held leases for ``ttl`` seconds; returns those another process has taken."""
        return await leases.renew(self.db, list(fences), ttl, self.clock())

    async def release_leases(self, fences: Sequence[Fence]) -> None:
        """Give held leases up at once (a clean shutdown)."""
        await leases.release(self.db, list(fences))

    async def leases(self) -> list[Lease]:
        """Every shard lease, by shard."""
        return await leases.leases(self.db)

    async def live_lease(self, shard_id: int) -> Lease | None:
        """The lease of ``shard_id`` if a holder keeps it alive now (else None: no process drives the shard)."""
        now = self.clock()
        return next((x for x in await leases.leases(self.db) if x.shard_id == shard_id and x.expires_at > now), None)

    # -- messages between bot processes (PostgreSQL only) ------------------------------------------
    @property
    def notifies(self) -> bool:
        """Whether processes sharing this database can message each other (PostgreSQL LISTEN/NOTIFY)."""
        return self.db.notifies

    async def notify(self, channel: str, payload: str) -> None:
        await self.db.notify(channel, payload)

    async def identify_turn(self, bucket: int, spacing: float) -> None:
        """Wait until no other process sharing this database identified a shard of ``bucket`` (``shard_id %
        max_concurrency``) in the last ``spacing`` seconds, and take the turn. PostgreSQL only."""
        take_turn = getattr(self.db, "take_turn", None)
        if take_turn is None:
            raise StorageUnavailable("this database cannot space identifies across processes (PostgreSQL only)")
        await take_turn(IDENTIFY_LOCK + bucket, spacing)

    def listen(self, channels: Sequence[str], callback: Callable[[str, str], None]) -> Any:
        """Call ``callback(channel, payload)`` for each notification on ``channels`` (a dedicated connection,
        connected again when it drops); the returned object's ``close()`` stops it. PostgreSQL only."""
        listen = getattr(self.db, "listen", None)
        if listen is None:
            raise StorageUnavailable("this database cannot listen to other processes (PostgreSQL only)")
        return listen(channels, callback)

    # -- server settings ----------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        row = await self.db.fetch_one("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
        if row is None:
            return GuildSettings(guild_id)
        role = row["organiser_role"]
        return GuildSettings(guild_id, row["language"], bool(row["ai_rated"]), None if role is None else int(role))

    async def guild_languages(self) -> dict[int, str]:
        """Every server's language setting (``/baloot language`` with the server scope), by guild id."""
        rows = await self.db.fetch_all("SELECT guild_id, language FROM guild_settings WHERE language IS NOT NULL")
        return {int(r["guild_id"]): str(r["language"]) for r in rows}

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        await self.db.execute(
            """INSERT INTO guild_settings (guild_id, language, ai_rated, organiser_role) VALUES (?, ?, ?, ?)
               ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language,
                   ai_rated = excluded.ai_rated, organiser_role = excluded.organiser_role""",
            (settings.guild_id, settings.language, int(settings.ai_rated), settings.organiser_role),
        )

    async def set_organiser_role(self, guild_id: int, role_id: int | None) -> None:
        """Name (None: clear) the role whose members may create and run this server's tournaments; only that
        column is written, so a language set at the same moment is kept."""
        await self.db.execute(
            """INSERT INTO guild_settings (guild_id, organiser_role) VALUES (?, ?)
               ON CONFLICT (guild_id) DO UPDATE SET organiser_role = excluded.organiser_role""",
            (guild_id, role_id),
        )

    # -- players --------------------------------------------------------------------
    async def player_languages(self) -> dict[int, str]:
        """Every user's chosen language (``/baloot language`` for oneself), by user id."""
        rows = await self.db.fetch_all("SELECT user_id, language FROM players WHERE language IS NOT NULL")
        return {int(r["user_id"]): str(r["language"]) for r in rows}

    async def set_player_language(self, user_id: int, language: str | None) -> None:
        """Store (None: forget) the language ``user_id`` chose for their own views."""
        await self.db.execute(
            """INSERT INTO players (user_id, language, updated_at) VALUES (?, ?, ?)
               ON CONFLICT (user_id) DO UPDATE SET language = excluded.language, updated_at = excluded.updated_at""",
            (user_id, language, self.clock()),
        )

    async def remember_player_names(self, names: Sequence[tuple[int, str]]) -> None:
        """Store each user's latest display name (shown on leaderboards and stats instead of a mention)."""
        if not names:
            return
        async with self.db.transaction() as tx:
            for user_id, name in names:
                await tx.execute(
                    """INSERT INTO players (user_id, display_name, updated_at) VALUES (?, ?, ?)
                       ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name,
                           updated_at = excluded.updated_at""",
                    (user_id, name, self.clock()),
                )

    async def player_names(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The stored display names of ``user_ids`` (those known)."""
        wanted = sorted({u for u in user_ids})
        if not wanted:
            return {}
        marks = ", ".join("?" for _ in wanted)
        rows = await self.db.fetch_all(
            f"SELECT user_id, display_name FROM players WHERE display_name IS NOT NULL AND user_id IN ({marks})",
            tuple(wanted),
        )
        return {int(r["user_id"]): str(r["display_name"]) for r in rows}

    # -- tables -------------------------------------------------------------------
    async def create_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        creator_id: int,
        rules: dict[str, Any],
        turn_seconds: float,
        language: str | None,
        first_seat: SeatRow | None = None,
        fence: Fence | None = None,
        deal_seed: int | None = None,
        more_seats: Sequence[SeatRow] = (),
    ) -> TableRow:
        """Insert an open table (and its creator's seat, ``table_id`` ignored) in one transaction.

        Raises :class:`StorageConflict` if the channel already has a live table, and
        :class:`SeatedElsewhere` if the creator sits at another live table.
        """
        now = self.clock()
        async with self._write(fence) as db:
            table_id = await db.insert_id(
                """INSERT INTO tables (guild_id, channel_id, creator_id, status, rules, turn_seconds,
                       language, created_at, deal_seed) VALUES (?, ?, ?, 'open', ?, ?, ?, ?, ?)""",
                (guild_id, channel_id, creator_id, dumps(rules), turn_seconds, language, now, deal_seed),
            )
            if first_seat is not None:
                await self._put_seat(db, table_id, first_seat)
            for seat in more_seats:  # a tournament's table opens with every seat taken
                await self._put_seat(db, table_id, seat)
        return TableRow(
            table_id, guild_id, channel_id, creator_id, TableStatus.OPEN, rules, turn_seconds, language, now,
            deal_seed=deal_seed,
        )

    async def table(self, table_id: int) -> TableRow | None:
        row = await self.db.fetch_one("SELECT * FROM tables WHERE id = ?", (table_id,))
        return None if row is None else _table(row)

    async def live_tables(self, guild_id: int | None = None) -> list[TableRow]:
        """Every open or playing table (what a restart resumes), oldest first; only ``guild_id``'s if given
        (the quick-match tables, by the matcher's every round)."""
        if guild_id is None:
            rows = await self.db.fetch_all("SELECT * FROM tables WHERE status IN (?, ?) ORDER BY id", _LIVE)
        else:
            rows = await self.db.fetch_all("SELECT * FROM tables WHERE status IN (?, ?) AND guild_id = ? ORDER BY id",
                                           (*_LIVE, guild_id))
        return [_table(r) for r in rows]

    async def set_table_language(self, table_id: int, language: str | None, *, fence: Fence | None = None) -> None:
        async with self._write(fence) as db:
            await db.execute("UPDATE tables SET language = ? WHERE id = ?", (language, table_id))

    async def close_table(
        self,
        table_id: int,
        status: TableStatus,
        reason: str,
        result: MatchResult | None = None,
        *,
        fence: Fence | None = None,
    ) -> None:
        """Mark a table finished, ended or abandoned (with its result, if any) in one transaction."""
        if status.live:
            raise ValueError(f"{status} is not a closed status")
        async with self._write(fence) as db:
            if result is not None:
                await insert_result(db, result)
            await db.execute(
                "UPDATE tables SET status = ?, finished_at = ?, end_reason = ? WHERE id = ?",
                (status.value, self.clock(), reason, table_id),
            )
            await db.execute("DELETE FROM seated_users WHERE table_id = ?", (table_id,))

    # -- seats ----------------------------------------------------------------------
    async def seats(self, table_id: int) -> list[SeatRow]:
        rows = await self.db.fetch_all("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))
        return [_seat(r) for r in rows]

    @staticmethod
    async def _unseat(db: Connection, table_id: int, number: int) -> None:
        """Free the user of seat ``number`` (if a person sits there) to sit at another table."""
        await db.execute(
            """DELETE FROM seated_users WHERE table_id = ?
               AND user_id IN (SELECT user_id FROM seats WHERE table_id = ? AND seat = ?)""",
            (table_id, table_id, number),
        )

    @staticmethod
    async def _seat_user(db: Connection, table_id: int, user_id: int) -> None:
        """Record that ``user_id`` sits at ``table_id``; :class:`SeatedElsewhere` if they sit at another
        live table. The key of ``seated_users`` decides between processes seating one user at once:
        PostgreSQL makes the second insert wait for the first's commit, SQLite writes one at a time."""
        if await db.execute(
            "INSERT INTO seated_users (user_id, table_id) VALUES (?, ?) ON CONFLICT (user_id) DO NOTHING",
            (user_id, table_id),
        ):
            return
        row = await db.fetch_one("SELECT table_id FROM seated_users WHERE user_id = ?", (user_id,))
        if row is None:  # the other table let them go meanwhile: nothing written, try again
            raise StorageUnavailable(f"user {user_id} was being seated elsewhere")
        if row[0] != table_id:
            raise SeatedElsewhere(user_id, int(row[0]))

    @classmethod
    async def _put_seat(cls, db: Connection, table_id: int, seat: SeatRow) -> None:
        """Insert or replace a seat; its user (a person, not one who left) is seated at this table only.

        A vote to end the table stays with the seat while the same person keeps it (an away mark, a
        name change) and goes when they leave it or someone else sits there."""
        await cls._unseat(db, table_id, seat.seat)  # whoever sat here before
        await db.execute(
            """INSERT INTO seats (table_id, seat, user_id, display_name, is_bot, bot_level,
                   away, dm_closed, vacated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT (table_id, seat) DO UPDATE SET user_id = excluded.user_id,
                   display_name = excluded.display_name, is_bot = excluded.is_bot,
                   bot_level = excluded.bot_level, away = excluded.away, dm_closed = excluded.dm_closed,
                   vacated = excluded.vacated,
                   end_vote = CASE WHEN excluded.vacated = 0 AND seats.user_id = excluded.user_id
                                   THEN seats.end_vote ELSE 0 END""",
            (
                table_id,
                seat.seat,
                seat.user_id,
                seat.display_name,
                int(seat.is_bot),
                seat.bot_level,
                int(seat.away),
                int(seat.dm_closed),
                int(seat.vacated),
            ),
        )
        if seat.user_id is not None and not seat.is_bot and not seat.vacated:
            await cls._seat_user(db, table_id, seat.user_id)

    async def put_seats(
        self, seats: Sequence[SeatRow], *, remove: Sequence[tuple[int, int]] = (), fence: Fence | None = None
    ) -> None:
        """Insert or replace some seats and remove others ((table id, seat) pairs), in one transaction.

        Raises :class:`SeatedElsewhere` (and writes nothing) if a person put in a seat sits at
        another live table.
        """
        async with self._write(fence) as db:
            for table_id, number in remove:
                await self._unseat(db, table_id, number)
                await db.execute("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, number))
            for seat in seats:
                await self._put_seat(db, seat.table_id, seat)

    async def add_end_vote(self, table_id: int, user_id: int, *, fence: Fence | None = None) -> None:
        """Store ``user_id``'s vote to end the table (they sit there); kept until the table closes or they
        leave their seat (:meth:`put_seats`)."""
        async with self._write(fence) as db:
            if not await db.execute("UPDATE seats SET end_vote = 1 WHERE table_id = ? AND user_id = ? AND vacated = 0",
                                    (table_id, user_id)):
                raise StorageError(f"user {user_id} has no seat at table {table_id} to vote from")

    async def remove_seat(self, table_id: int, seat: int, *, fence: Fence | None = None) -> None:
        await self.put_seats((), remove=[(table_id, seat)], fence=fence)

    # -- the game log (R10) --------------------------------------------------------------
    async def start_match(self, table_id: int, dealer: int, deck: Sequence[str], *, fence: Fence | None = None) -> None:
        """Mark the table playing and store its first hand's deck, in one transaction."""
        now = self.clock()
        async with self._write(fence) as db:
            await db.execute(
                "UPDATE tables SET status = 'playing', started_at = ? WHERE id = ? AND status = 'open'",
                (now, table_id),
            )
            await self._insert_hand(db, table_id, 0, dealer, deck, now)

    async def add_hand(
        self, table_id: int, hand_no: int, dealer: int, deck: Sequence[str], *, fence: Fence | None = None
    ) -> None:
        """Store a hand's deck before it is dealt (R2)."""
        async with self._write(fence) as db:
            await self._insert_hand(db, table_id, hand_no, dealer, deck, self.clock())

    @staticmethod
    async def _insert_hand(
        db: Connection, table_id: int, hand_no: int, dealer: int, deck: Sequence[str], dealt_at: float
    ) -> None:
        await db.execute(
            "INSERT INTO hands (table_id, hand_no, dealer, deck, dealt_at) VALUES (?, ?, ?, ?, ?)",
            (table_id, hand_no, dealer, dumps(list(deck)), dealt_at),
        )

    async def add_action(
        self,
        table_id: int,
        hand_no: int,
        idx: int,
        action: dict[str, Any],
        *,
        by_user_id: int | None,
        auto: bool,
        result: MatchResult | None = None,
        fence: Fence | None = None,
    ) -> None:
        """Append one accepted action; with ``result``, also close the match, atomically.

        The primary key (table, hand, index) makes a duplicate impossible: a
        second write of the same index raises :class:`StorageConflict`. With
        ``fence``, the write is refused (:class:`LeaseLost`, nothing stored) once
        another process has taken the table's shard lease.
        """
        now = self.clock()
        insert = """INSERT INTO actions (table_id, hand_no, idx, action, by_user_id, auto, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)"""
        row = (table_id, hand_no, idx, dumps_plain(action), by_user_id, int(auto), now)
        if result is None:  # one statement: atomic on its own (the hot path)
            if fence is None:
                await self.db.append(insert, row)
            elif not await self.db.execute(self._fenced_insert(), (*row, *leases.guard_params(fence))):
                raise leases.LeaseLost(fence)
            return
        async with self._write(fence) as db:
            await db.execute(insert, row)
            await insert_result(db, result)
            await db.execute(
                "UPDATE tables SET status = 'finished', finished_at = ?, end_reason = 'finished' WHERE id = ?",
                (now, table_id),
            )
            await db.execute("DELETE FROM seated_users WHERE table_id = ?", (table_id,))

    def _fenced_insert(self) -> str:
        """The action insert with the lease check in the same statement (typed: the values come
        from a ``SELECT``, whose parameters PostgreSQL cannot type from the columns)."""
        query = _FENCED_INSERT.get(self.db.dialect.name)
        if query is None:
            query = self.db.dialect.schema(
                """INSERT INTO actions (table_id, hand_no, idx, action, by_user_id, auto, created_at)
                   SELECT CAST(? AS {ID}), CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS TEXT),
                       CAST(? AS {ID}), CAST(? AS INTEGER), CAST(? AS {FLOAT}) WHERE """
            ) + leases.guard(self.db)
            _FENCED_INSERT[self.db.dialect.name] = query
        return query

    async def hands(self, table_id: int) -> list[StoredHand]:
        """Every stored hand of a table with its actions, in order."""
        hand_rows = await self.db.fetch_all(
            "SELECT * FROM hands WHERE table_id = ? ORDER BY hand_no", (table_id,)
        )
        action_rows = await self.db.fetch_all(
            "SELECT * FROM actions WHERE table_id = ? ORDER BY hand_no, idx", (table_id,)
        )
        hands = [StoredHand(r["hand_no"], r["dealer"], loads(r["deck"]), r["dealt_at"]) for r in hand_rows]
        by_no = {h.hand_no: h for h in hands}
        for r in action_rows:
            by_no[r["hand_no"]].actions.append(
                StoredAction(
                    r["hand_no"], r["idx"], loads(r["action"]), r["by_user_id"], bool(r["auto"]), r["created_at"]
                )
            )
        return hands

    async def game_record(self, table_id: int) -> dict[str, Any]:
        """The R10 record of a table's match as stored (possibly ending mid-hand)."""
        table = await self.table(table_id)
        if table is None:
            raise KeyError(f"no table {table_id}")
        return {
            "format": RECORD_FORMAT,
            "rules": table.rules,
            "hands": [
                {"dealer": h.dealer, "deck": h.deck, "actions": [a.action for a in h.actions]}
                for h in await self.hands(table_id)
            ],
        }

    # -- results ---------------------------------------------------------------------------
    async def result(self, table_id: int) -> MatchResult | None:
        row = await self.db.fetch_one("SELECT * FROM match_results WHERE table_id = ?", (table_id,))
        if row is None:
            return None
        seats = await self.db.fetch_all("SELECT * FROM result_seats WHERE table_id = ?", (table_id,))
        return result_from_rows(row, seats)

    # -- quick match ----------------------------------------------------------------------------
    async def quick_queue(self) -> list[quick.QueuedRow]:
        """Every user waiting for a quick match, longest waiting first."""
        return await quick.queue(self.db)

    async def enqueue_quick(self, rows: Sequence[quick.QueuedRow]) -> None:
        """Queue one entry (a player, or a pair); :class:`quick.SeatedNow` or :class:`quick.AlreadyQueued`."""
        await quick.enqueue(self.db, rows)

    async def dequeue_quick(self, user_id: int) -> list[quick.QueuedRow]:
        """Take ``user_id``'s entry (with their partner) out of the queue; the rows removed."""
        return await quick.dequeue(self.db, user_id)

    async def set_queue_message(self, user_id: int, channel_id: int, message_id: int) -> None:
        await quick.set_message(self.db, user_id, channel_id, message_id)

    async def form_quick_tables(self, plan: quick.Plan, *, rules: dict[str, Any], turn_seconds: float,
                                fence: Fence | None = None) -> list[quick.FormedTable]:
        """Seat the groups ``plan`` picks from the queue, one matcher at a time (see :mod:`.quick`)."""
        return await quick.form_tables(self.db, plan, self._put_seat, rules=rules, turn_seconds=turn_seconds,
                                       now=self.clock(), check=self._fence_check(fence))

    async def quick_with_bots(self, rows: Sequence[quick.QueuedRow], bots: Sequence[SeatRow], *,
                              rules: dict[str, Any], turn_seconds: float,
                              fence: Fence | None = None) -> quick.FormedTable:
        """Seat one queued entry with bots at once (:class:`StorageConflict` if no longer queued)."""
        return await quick.create_with_bots(self.db, rows, bots, self._put_seat, rules=rules,
                                            turn_seconds=turn_seconds, now=self.clock(),
                                            check=self._fence_check(fence))

    @staticmethod
    def _fence_check(fence: Fence | None) -> Callable[[Connection], Awaitable[None]] | None:
        if fence is None:
            return None

        async def check(db: Connection) -> None:
            await leases.check(db, fence)
        return check

    async def quick_guilds(self, table_id: int) -> dict[int, int]:
        """Each player's own server at a quick-match table (empty for any other table)."""
        return await quick.seat_guilds(self.db, table_id)

    async def add_quick_report(self, table_id: int, reporter_id: int, reported_id: int) -> bool:
        """Store a report of a player at a quick-match table; False if this one was already stored."""
        return await quick.add_report(self.db, table_id, reporter_id, reported_id, self.clock())

    async def quick_reports(self, table_id: int) -> list[tuple[int, int]]:
        return await quick.reports(self.db, table_id)

    async def best_skill(self, user_id: int) -> tuple[float, float] | None:
        """The user's (mu, sigma) in the server where they played the most rated matches, if rated anywhere."""
        return await quick.best_skill(self.db, user_id)

    # -- messages the bot keeps -------------------------------------------------------------
    async def set_message(self, table_id: int, key: str, channel_id: int, message_id: int) -> None:
        await self.db.execute(
            """INSERT INTO table_messages (table_id, key, channel_id, message_id) VALUES (?, ?, ?, ?)
               ON CONFLICT (table_id, key) DO UPDATE SET channel_id = excluded.channel_id,
                   message_id = excluded.message_id""",
            (table_id, key, channel_id, message_id),
        )

    async def messages(self, table_id: int) -> list[StoredMessage]:
        rows = await self.db.fetch_all(
            "SELECT key, channel_id, message_id FROM table_messages WHERE table_id = ? ORDER BY key",
            (table_id,),
        )
        return [StoredMessage(r["key"], r["channel_id"], r["message_id"]) for r in rows]
