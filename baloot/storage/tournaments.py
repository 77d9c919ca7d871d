"""Tournament storage: every accepted change in one transaction, before it is announced.

One player is in a tournament at most once: ``tournament_players`` has one row per (tournament,
player), so two presses (or two processes) registering the same player cannot both succeed — the
second gets :class:`StorageConflict` and writes nothing. A round's start (its deal seed and its
tables) is one insert of the round's row: the second of two concurrent starts conflicts on it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, Final

from .database import Connection, Database, Row
from .tournament_rows import (
    FORFEIT_FIRST,
    FORFEIT_SECOND,
    TeamRow,
    TeamStatus,
    TournamentRow,
    TournamentStatus,
    TournamentTableRow,
)


def _tournament(row: Row) -> TournamentRow:
    return TournamentRow(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], message_id=row["message_id"],
        creator_id=row["creator_id"], name=row["name"], format=row["format"], rounds=row["rounds"],
        rules=json.loads(row["rules"]), turn_seconds=row["turn_seconds"], rated=bool(row["rated"]),
        bots_allowed=bool(row["bots_allowed"]), language=row["language"], status=TournamentStatus(row["status"]),
        current_round=row["current_round"], winner_team=row["winner_team"], created_at=row["created_at"],
        announced=row["announced"],
    )


def _team(row: Row) -> TeamRow:
    return TeamRow(row["id"], row["tournament_id"], row["player1"], row["player2"], row["name1"], row["name2"],
                   TeamStatus(row["status"]), row["seed"])


def _table(row: Row) -> TournamentTableRow:
    return TournamentTableRow(row["tournament_id"], row["round_no"], row["table_no"], row["first_team"],
                              row["second_team"], row["table_id"], row["first_points"], row["second_points"],
                              row["first_score"], row["second_score"], row["forfeit"], row["channel_id"])


class TournamentStore:
    """The tournament tables of one :class:`Database` (both backends)."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self.db = db
        self.clock = clock

    async def create(self, *, guild_id: int, channel_id: int, creator_id: int, name: str, format: str,
                     rounds: int | None, rules: dict[str, Any], turn_seconds: float, rated: bool,
                     bots_allowed: bool, language: str | None) -> TournamentRow:
        async with self.db.transaction() as db:
            tid = await db.insert_id(
                """INSERT INTO tournaments (guild_id, channel_id, creator_id, name, format, rounds, rules,
                       turn_seconds, rated, bots_allowed, language, status, created_at)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'registering', ?)""",
                (guild_id, channel_id, creator_id, name, format, rounds, json.dumps(rules), turn_seconds,
                 int(rated), int(bots_allowed), language, self.clock()),
            )
            row = await db.fetch_one("SELECT * FROM tournaments WHERE id = ?", (tid,))
        assert row is not None
        return _tournament(row)

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        row = await self.db.fetch_one("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        return None if row is None else _tournament(row)

    async def live(self) -> list[TournamentRow]:
        """Tournaments not over (registering, running or paused), oldest first."""
        rows = await self.db.fetch_all(
            "SELECT * FROM tournaments WHERE status IN ('registering', 'running', 'paused') ORDER BY id")
        return [_tournament(r) for r in rows]

    async def unannounced(self) -> list[TournamentRow]:
        """Tournaments under way or finished whose latest round opening or finish may not have been announced
        (``announced`` lags behind ``current_round``/``status``; the caller compares), oldest first."""
        rows = await self.db.fetch_all(
            """SELECT * FROM tournaments WHERE status IN ('running', 'paused', 'finished')
               AND (announced IS NULL OR announced <> 'finished') ORDER BY id""")
        return [_tournament(r) for r in rows]

    async def set_announced(self, tournament_id: int, announced: str) -> None:
        async with self.db.transaction() as db:
            await db.execute("UPDATE tournaments SET announced = ? WHERE id = ?", (announced, tournament_id))

    async def in_guild(self, guild_id: int) -> list[TournamentRow]:
        rows = await self.db.fetch_all("SELECT * FROM tournaments WHERE guild_id = ? ORDER BY id DESC", (guild_id,))
        return [_tournament(r) for r in rows]

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        async with self.db.transaction() as db:
            await db.execute("UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id))

    async def set_status(self, tournament_id: int, status: TournamentStatus, expect: Sequence[TournamentStatus],
                         *, winner_team: int | None = None) -> bool:
        """Move to ``status`` only from one of ``expect``; False (nothing written) otherwise."""
        marks = ", ".join("?" for _ in expect)
        async with self.db.transaction() as db:
            changed = await db.execute(
                f"""UPDATE tournaments SET status = ?, winner_team = COALESCE(?, winner_team),
                        finished_at = CASE WHEN ? IN ('finished', 'ended') THEN ? ELSE finished_at END
                    WHERE id = ? AND status IN ({marks})""",
                (status.value, winner_team, status.value, self.clock(), tournament_id, *(s.value for s in expect)),
            )
        return changed == 1

    # -- teams -------------------------------------------------------------------------------
    async def register(self, tournament_id: int, players: Sequence[tuple[int, str]], status: TeamStatus,
                       seed: float = 0.0) -> TeamRow:
        """A new team of one or two players, in one transaction; StorageConflict if one is registered."""
        async with self.db.transaction() as db:
            state = await db.fetch_one("SELECT status FROM tournaments WHERE id = ?", (tournament_id,))
            if state is None or state["status"] != TournamentStatus.REGISTERING.value:
                raise ValueError("registration is closed")
            (p1, n1), second = players[0], (players[1] if len(players) > 1 else (None, None))
            team_id = await db.insert_id(
                """INSERT INTO tournament_teams (tournament_id, player1, player2, name1, name2, status, seed,
                       registered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
                (tournament_id, p1, second[0], n1, second[1], status.value, seed, self.clock()),
            )
            for user_id, _ in players:
                await db.execute("INSERT INTO tournament_players (tournament_id, user_id, team_id) VALUES (?, ?, ?)",
                                 (tournament_id, user_id, team_id))
            row = await db.fetch_one("SELECT * FROM tournament_teams WHERE id = ?", (team_id,))
        assert row is not None
        return _team(row)

    async def set_team_status(self, team_id: int, status: TeamStatus, expect: Sequence[TeamStatus]) -> bool:
        marks = ", ".join("?" for _ in expect)
        async with self.db.transaction() as db:
            changed = await db.execute(f"UPDATE tournament_teams SET status = ? WHERE id = ? AND status IN ({marks})",
                                       (status.value, team_id, *(s.value for s in expect)))
        return changed == 1

    async def withdraw(self, tournament_id: int, user_id: int) -> TeamRow | None:
        """Remove the user's team before the start (its players may register again); None if none."""
        async with self.db.transaction() as db:
            row = await db.fetch_one(
                """SELECT t.* FROM tournament_teams t JOIN tournament_players p ON p.team_id = t.id
                   WHERE p.tournament_id = ? AND p.user_id = ?""", (tournament_id, user_id))
            if row is None:
                return None
            await db.execute("DELETE FROM tournament_players WHERE team_id = ?", (row["id"],))
            await db.execute("UPDATE tournament_teams SET status = 'withdrawn' WHERE id = ?", (row["id"],))
        return _team(row)

    async def teams(self, tournament_id: int) -> list[TeamRow]:
        rows = await self.db.fetch_all("SELECT * FROM tournament_teams WHERE tournament_id = ? ORDER BY id",
                                       (tournament_id,))
        return [_team(r) for r in rows]

    async def team_of(self, tournament_id: int, user_id: int) -> TeamRow | None:
        row = await self.db.fetch_one(
            """SELECT t.* FROM tournament_teams t JOIN tournament_players p ON p.team_id = t.id
               WHERE p.tournament_id = ? AND p.user_id = ?""", (tournament_id, user_id))
        return None if row is None else _team(row)

    async def merge_alone(self, tournament_id: int, pairs: Sequence[tuple[int, int]]) -> None:
        """Lone players paired at the start: the second team's player joins the first; the second goes."""
        async with self.db.transaction() as db:
            for keep, gone in pairs:
                other = await db.fetch_one("SELECT * FROM tournament_teams WHERE id = ?", (gone,))
                assert other is not None
                await db.execute("UPDATE tournament_players SET team_id = ? WHERE team_id = ?", (keep, gone))
                await db.execute("""UPDATE tournament_teams SET player2 = ?, name2 = ?, status = 'active'
                                    WHERE id = ?""", (other["player1"], other["name1"], keep))
                await db.execute("UPDATE tournament_teams SET status = 'withdrawn' WHERE id = ?", (gone,))

    # -- rounds --------------------------------------------------------------------------------
    async def start_round(self, tournament_id: int, round_no: int, deal_seed: int,
                          tables: Sequence[tuple[int, int, int]], *, starting: bool = False) -> None:
        """The round's seed and its tables (table_no, first, second) in one transaction; with
        ``starting``, the tournament moves from registering to running in it. StorageConflict if the
        round exists (a second start)."""
        async with self.db.transaction() as db:
            if starting:
                changed = await db.execute(
                    """UPDATE tournaments SET status = 'running', started_at = ? WHERE id = ?
                       AND status = 'registering'""", (self.clock(), tournament_id))
                if changed != 1:
                    raise ValueError("the tournament is not registering")
            await db.execute("""INSERT INTO tournament_rounds (tournament_id, round_no, deal_seed, started_at)
                                VALUES (?, ?, ?, ?)""", (tournament_id, round_no, deal_seed, self.clock()))
            await db.execute("UPDATE tournaments SET current_round = ? WHERE id = ?", (round_no, tournament_id))
            for table_no, first, second in tables:
                await db.execute(
                    """INSERT INTO tournament_tables (tournament_id, round_no, table_no, first_team, second_team)
                       VALUES (?, ?, ?, ?, ?)""", (tournament_id, round_no, table_no, first, second))

    async def round_seed(self, tournament_id: int, round_no: int) -> int | None:
        row = await self.db.fetch_one(
            "SELECT deal_seed FROM tournament_rounds WHERE tournament_id = ? AND round_no = ?",
            (tournament_id, round_no))
        return None if row is None else int(row["deal_seed"])

    async def tables(self, tournament_id: int, round_no: int | None = None) -> list[TournamentTableRow]:
        if round_no is None:
            rows = await self.db.fetch_all(
                "SELECT * FROM tournament_tables WHERE tournament_id = ? ORDER BY round_no, table_no", (tournament_id,))
        else:
            rows = await self.db.fetch_all(
                "SELECT * FROM tournament_tables WHERE tournament_id = ? AND round_no = ? ORDER BY table_no",
                (tournament_id, round_no))
        return [_table(r) for r in rows]

    async def table_by_id(self, table_id: int) -> TournamentTableRow | None:
        row = await self.db.fetch_one("SELECT * FROM tournament_tables WHERE table_id = ?", (table_id,))
        return None if row is None else _table(row)

    async def set_table(self, tournament_id: int, round_no: int, table_no: int, table_id: int) -> None:
        async with self.db.transaction() as db:
            await db.execute(
                """UPDATE tournament_tables SET table_id = ? WHERE tournament_id = ? AND round_no = ?
                   AND table_no = ?""", (table_id, tournament_id, round_no, table_no))

    async def set_channel(self, tournament_id: int, round_no: int, table_no: int, channel_id: int) -> None:
        """The thread given to a round's table, stored before the table opens in it."""
        async with self.db.transaction() as db:
            await db.execute(
                """UPDATE tournament_tables SET channel_id = ? WHERE tournament_id = ? AND round_no = ?
                   AND table_no = ?""", (channel_id, tournament_id, round_no, table_no))

    async def set_result(self, tournament_id: int, round_no: int, table_no: int, points: tuple[float, float],
                         scores: tuple[int, int], deals: Sequence[tuple[int, int, int, int]]) -> bool:
        """A table's result and its teams' deal results (hand_no, team, side, diff), once; False if already in."""
        async with self.db.transaction() as db:
            changed = await db.execute(
                """UPDATE tournament_tables SET first_points = ?, second_points = ?, first_score = ?,
                       second_score = ? WHERE tournament_id = ? AND round_no = ? AND table_no = ?
                       AND first_points IS NULL""",
                (points[0], points[1], scores[0], scores[1], tournament_id, round_no, table_no))
            if changed != 1:
                return False
            await _insert_deals(db, tournament_id, round_no, deals)
        return True

    async def set_forfeit(self, tournament_id: int, round_no: int, table_no: int, forfeit: int) -> bool:
        """A table's result by forfeit (``forfeit``: FORFEIT_FIRST, FORFEIT_SECOND or both, the teams that never
        showed): a team that showed wins the round, one that did not loses it; no score, no deal compared. Once;
        False if the table's result is already in."""
        first = 0.0 if forfeit & FORFEIT_FIRST else 1.0
        second = 0.0 if forfeit & FORFEIT_SECOND else 1.0
        async with self.db.transaction() as db:
            changed = await db.execute(
                """UPDATE tournament_tables SET first_points = ?, second_points = ?, forfeit = ?
                   WHERE tournament_id = ? AND round_no = ? AND table_no = ? AND first_points IS NULL""",
                (first, second, forfeit, tournament_id, round_no, table_no))
        return changed == 1

    async def opened_at(self, table_id: int) -> float | None:
        """When a table was opened (stored: a restart does not reset a no-show clock)."""
        row = await self.db.fetch_one("SELECT created_at FROM tables WHERE id = ?", (table_id,))
        return None if row is None else float(row["created_at"])

    async def acted(self, table_id: int, users: Sequence[int], until: float) -> set[int]:
        """The ``users`` who made an action of their own at a table by ``until`` (not one auto-played for them)."""
        if not users:
            return set()
        marks = ", ".join("?" for _ in users)
        rows = await self.db.fetch_all(
            f"""SELECT DISTINCT by_user_id FROM actions WHERE table_id = ? AND auto = 0 AND created_at <= ?
                AND by_user_id IN ({marks})""", (table_id, until, *users))
        return {int(r["by_user_id"]) for r in rows}

    async def finish_round(self, tournament_id: int, round_no: int) -> bool:
        async with self.db.transaction() as db:
            changed = await db.execute(
                """UPDATE tournament_rounds SET finished_at = ? WHERE tournament_id = ? AND round_no = ?
                   AND finished_at IS NULL""", (self.clock(), tournament_id, round_no))
        return changed == 1

    async def deals(self, tournament_id: int) -> list[tuple[int, int, int, int, int]]:
        """(round_no, hand_no, team, side, diff) of every deal result."""
        rows = await self.db.fetch_all(
            "SELECT round_no, hand_no, team_id, side, diff FROM tournament_deals WHERE tournament_id = ?",
            (tournament_id,))
        return [(r["round_no"], r["hand_no"], r["team_id"], r["side"], r["diff"]) for r in rows]

    async def player_tally(self, guild_id: int, user_id: int) -> tuple[int, int]:
        """(tournaments played, tournaments won) by a player in a guild (:data:`PLAYED`)."""
        row = await self.db.fetch_one(
            f"""SELECT COUNT(*) AS played, SUM(CASE WHEN o.winner_team = t.id THEN 1 ELSE 0 END) AS won
                FROM {PLAYED} AND p.user_id = ?""", (guild_id, 0.0, user_id))
        return (0, 0) if row is None else (int(row["played"] or 0), int(row["won"] or 0))

    async def board(self, guild_id: int, since: float | None = None, *, page: int = 0,
                    page_size: int = 10) -> tuple[int, list[tuple[int, int, int]]]:
        """The tournaments board of a guild: (players listed, page ``page`` of (user, won, played)), most won
        first, then most played, then by user id; ``since``: only tournaments over since then (a period)."""
        params = (guild_id, since or 0.0)
        count = await self.db.fetch_one(f"SELECT COUNT(DISTINCT p.user_id) FROM {PLAYED}", params)
        rows = await self.db.fetch_all(
            f"""SELECT p.user_id AS user_id, SUM(CASE WHEN o.winner_team = t.id THEN 1 ELSE 0 END) AS won,
                       COUNT(*) AS played
                FROM {PLAYED}
                GROUP BY p.user_id ORDER BY won DESC, played DESC, p.user_id LIMIT ? OFFSET ?""",
            (*params, page_size, page * page_size))
        return (0 if count is None else int(count[0]),
                [(int(r["user_id"]), int(r["won"]), int(r["played"])) for r in rows])

    async def over_count(self, guild_id: int, since: float | None = None) -> int:
        """How many of a guild's tournaments were played and are over (since ``since``)."""
        row = await self.db.fetch_one(
            """SELECT COUNT(*) FROM tournaments WHERE guild_id = ? AND status IN ('finished', 'ended')
               AND started_at IS NOT NULL AND finished_at >= ?""", (guild_id, since or 0.0))
        return 0 if row is None else int(row[0])


PLAYED: Final = """tournament_players p JOIN tournament_teams t ON t.id = p.team_id
               JOIN tournaments o ON o.id = p.tournament_id
               WHERE o.guild_id = ? AND o.status IN ('finished', 'ended') AND o.started_at IS NOT NULL
               AND o.finished_at >= ? AND t.status IN ('active', 'dropped')"""
"""A player's tournaments played, for ``/baloot stats`` and the tournaments board (parameters: guild, since): the
tournaments over — finished, or ended by the organiser after they started — in which the player's team took the
field (active to the end, or dropped on the way; not a team withdrawn, left unconfirmed or a lone player left
unpaired at the start). One is won when its winner is the player's team."""


async def _insert_deals(db: Connection, tournament_id: int, round_no: int,
                        deals: Sequence[tuple[int, int, int, int]]) -> None:
    for hand_no, team, side, diff in deals:
        await db.execute(
            """INSERT INTO tournament_deals (tournament_id, round_no, hand_no, team_id, side, diff)
               VALUES (?, ?, ?, ?, ?, ?)""", (tournament_id, round_no, hand_no, team, side, diff))
