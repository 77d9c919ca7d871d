"""The async table service: tables, seats, turns, timers and bots, with no Discord.

Use :class:`TableService`; catch :class:`~baloot.engine.errors.BalootError` (every
error here and the engine's) and show its message privately, and
:class:`StorageUnavailable` (a transient storage fault: nothing changed); listen
to the events of :mod:`baloot.tables.events`.
"""

from ..ai.autoplay import SafeBot, safe_action
from ..storage.errors import StorageError, StorageUnavailable
from .bots import BOT_LEVELS, BotFactory, BotPlayer
from .errors import (
    AlreadySeated,
    BadOption,
    LastPlayer,
    NoTableHere,
    NotAllowed,
    NotSeated,
    NotYourTurn,
    SeatTaken,
    StaleAction,
    TableElsewhere,
    TableError,
    TableExists,
    TableFull,
    TableNotRunning,
    TableRestarting,
)
from .info import ActResult, EndResult, PlayerHand, SeatInfo, TableInfo, Version
from .leases import ShardLeases
from .listeners import Listener
from .service import GuildFilter, RngFactory, TableService
from .snapshot import HandSnapshot, TableSnapshot

__all__ = [
    "BOT_LEVELS",
    "ActResult",
    "AlreadySeated",
    "BadOption",
    "BotFactory",
    "BotPlayer",
    "EndResult",
    "GuildFilter",
    "HandSnapshot",
    "LastPlayer",
    "Listener",
    "NoTableHere",
    "NotAllowed",
    "NotSeated",
    "NotYourTurn",
    "PlayerHand",
    "RngFactory",
    "SafeBot",
    "SeatInfo",
    "SeatTaken",
    "ShardLeases",
    "StaleAction",
    "StorageError",
    "StorageUnavailable",
    "TableElsewhere",
    "TableError",
    "TableExists",
    "TableFull",
    "TableInfo",
    "TableNotRunning",
    "TableRestarting",
    "TableService",
    "TableSnapshot",
    "Version",
    "safe_action",
]
