"""The rows of a tournament: the tournament, its teams, and the tables of its rounds."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

FORFEIT_FIRST = 1  # tournament_tables.forfeit: the first-listed team never showed
FORFEIT_SECOND = 2  # the second-listed team never showed (both: 3)


class TournamentStatus(StrEnum):
    REGISTERING = "registering"
    RUNNING = "running"
    PAUSED = "paused"
    FINISHED = "finished"
    ENDED = "ended"


class TeamStatus(StrEnum):
    PENDING = "pending"  # registered with a partner who has not confirmed yet
    ACTIVE = "active"
    ALONE = "alone"  # a lone player, paired with another at the start
    WITHDRAWN = "withdrawn"
    DROPPED = "dropped"


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    creator_id: int
    name: str
    format: str  # 'swiss' or 'knockout'
    rounds: int | None  # Swiss rounds; None: ⌈log2(teams)⌉ at the start
    rules: dict[str, Any]
    turn_seconds: float
    rated: bool
    bots_allowed: bool
    language: str | None
    status: TournamentStatus
    current_round: int
    winner_team: int | None
    created_at: float
    announced: str | None = None  # the last 'round:N' or 'finished' whose announcement was made


@dataclass(frozen=True, slots=True)
class TeamRow:
    id: int
    tournament_id: int
    player1: int
    player2: int | None
    name1: str
    name2: str | None
    status: TeamStatus
    seed: float  # the rating the knockout is seeded by

    @property
    def in_play(self) -> bool:
        return self.status in (TeamStatus.ACTIVE, TeamStatus.ALONE, TeamStatus.PENDING)


@dataclass(frozen=True, slots=True)
class TournamentTableRow:
    tournament_id: int
    round_no: int
    table_no: int
    first_team: int
    second_team: int  # 0: a bye
    table_id: int | None  # the table once opened
    first_points: float | None  # None until the table's result is in
    second_points: float | None
    first_score: int
    second_score: int
    forfeit: int = 0  # FORFEIT_FIRST / FORFEIT_SECOND bits: the team(s) that never showed (docs/tournaments.md)
    channel_id: int | None = None  # the table's thread, once given (before its table opens)
