"""Settings of the bot, read from the environment (and ``.env``); see ``.env.example``."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from baloot.engine.errors import BalootError


class ConfigError(BalootError):
    """A missing or malformed setting; the message names it (never its value)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Typed settings; the token is never printed (``repr`` hides it)."""

    token: str
    database_path: Path
    database_sync: str  # SQLite synchronous mode: FULL (default) or NORMAL
    database_url: str | None  # postgresql://...: PostgreSQL instead of the SQLite file
    dev_guild_id: int | None
    default_language: str
    turn_seconds: int
    bot_delay_seconds: float
    ai_workers: int
    log_level: str
    ping_delay_seconds: float = 20.0  # a human's turn pings them after this long; 0: at once
    quick_bots_seconds: int = 45  # quick match: "Play now with bots" is offered after this long in the queue
    quick_invite_seconds: int = 120  # quick match: how long a partner has to accept an invitation
    tournament_no_show_minutes: float = 10.0  # TOURNAMENT_NO_SHOW_MINUTES: a team that never acts by then forfeits
    lease_seconds: int = 30  # LEASE_SECONDS: a sharded process's lease lasts this long unrenewed
    requests_per_second: int | None = None  # BOT_REQUESTS_PER_SECOND: bot-token pace (None: the shards' share)
    table_pictures: str = "channel"  # TABLE_PICTURES: "channel" (the table message), "all" (and private views), "off"
    shard_count: int | None = None  # SHARD_COUNT: None runs one unsharded process
    shard_ids: tuple[int, ...] = ()  # SHARD_IDS: the shards this process holds (all, when only the count is set)
    sync_commands: bool = True  # SYNC_COMMANDS: default, only the process holding shard 0 syncs
    card_colors: int = 2  # CARD_COLORS: 2 (red and black) or 4 (diamonds blue, clubs green) card emojis
    review_samples: int = 128  # REVIEW_SAMPLES: sampled deals per judged decision of a game review
    review_auto: bool = True  # REVIEW_AUTO: review finished matches in the background (0: off)
    review_workers: int = 1  # REVIEW_WORKERS: low-priority review processes (0: the AI workers' pool)
    review_yield_ms: int = 0  # REVIEW_YIELD_MS: the review workers pause this long after each interaction (0: never)
    web_host: str = "127.0.0.1"  # WEB_HOST: where the web table and Activity page are served
    web_port: int | None = None  # WEB_PORT: None serves no web table
    public_url: str | None = None  # PUBLIC_URL: the https address players reach the web table at (links)
    client_id: str | None = None  # DISCORD_CLIENT_ID: the application's id (default: the bot's application)
    client_secret: str | None = None  # DISCORD_CLIENT_SECRET: the Activity's OAuth2 secret; never printed

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process holds ``guild_id``: Discord sends a guild's events to shard
        ``(guild_id >> 22) % shard_count`` only; unsharded, every guild is ours."""
        return self.shard_count is None or shard_of(guild_id, self.shard_count) in self.shard_ids

    def __repr__(self) -> str:
        return (
            f"Settings(token=<hidden>, database_path={str(self.database_path)!r}, "
            f"database_sync={self.database_sync!r}, database_url={redact_url(self.database_url)!r}, "
            f"dev_guild_id={self.dev_guild_id}, default_language={self.default_language!r}, "
            f"turn_seconds={self.turn_seconds}, bot_delay_seconds={self.bot_delay_seconds}, "
            f"ai_workers={self.ai_workers}, log_level={self.log_level!r}, table_pictures={self.table_pictures!r}, "
            f"shard_count={self.shard_count}, shard_ids={list(self.shard_ids)}, sync_commands={self.sync_commands}, "
            f"card_colors={self.card_colors}, review_samples={self.review_samples}, "
            f"review_auto={self.review_auto}, review_workers={self.review_workers}, "
            f"web_host={self.web_host!r}, web_port={self.web_port}, "
            f"public_url={self.public_url!r}, client_id={self.client_id!r}, "
            f"client_secret={'<hidden>' if self.client_secret else None})"
        )


def require_shared_database(settings: Settings) -> None:
    """Refuse a process that holds only some of the shards (``SHARD_IDS``) without ``DATABASE_URL``: the
    other shards' processes must share its database, and an SQLite file is one process's."""
    if settings.sharded and settings.database_url is None and len(settings.shard_ids) < (settings.shard_count or 0):
        raise ConfigError("SHARD_IDS names only some of the shards: the processes that hold the others must "
                          "share one database, so set DATABASE_URL (PostgreSQL)")


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a guild's events to: ``(guild_id >> 22) % shard_count``."""
    return (guild_id >> 22) % shard_count


def redact_url(url: str | None) -> str | None:
    """A database URL with its password replaced by ``***`` (for logs and ``repr``)."""
    if url is None:
        return None
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    return parts._replace(netloc=f"{parts.username or ''}:***@{host}").geturl()


def _database_url(env: Mapping[str, str]) -> str | None:
    """``DATABASE_URL``: unset or empty for SQLite; else a ``postgresql://`` (or ``postgres://``) URL."""
    url = env.get("DATABASE_URL", "").strip()
    if not url:
        return None
    if not url.startswith(("postgresql://", "postgres://")):
        raise ConfigError("DATABASE_URL must start with postgresql:// (leave it empty to use SQLite)")
    return url


def _int(env: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number") from None
    if not low <= value <= high:
        raise ConfigError(f"{name} must be between {low} and {high}")
    return value


def _minutes(env: Mapping[str, str], name: str, default: float, high: float) -> float:
    """A number of minutes, fractions allowed, from 0 to ``high``."""
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number of minutes") from None
    if not 0 <= value <= high:  # also refuses nan
        raise ConfigError(f"{name} must be between 0 and {high:g}")
    return value


PICTURE_MODES = {"": "channel", "1": "channel", "channel": "channel", "all": "all", "0": "off", "off": "off"}


def _pictures(env: Mapping[str, str]) -> str:
    """``TABLE_PICTURES``: 1/channel (default: the table message), all (private views too), 0/off.

    Private pictures cost the most CPU (one per press and per refreshed view; see scripts/bench_pictures.py).
    """
    mode = PICTURE_MODES.get(env.get("TABLE_PICTURES", "").strip().lower())
    if mode is None:
        raise ConfigError("TABLE_PICTURES must be 1 (the table message), all (private views too) or 0 (text only)")
    return mode


def _card_colors(env: Mapping[str, str]) -> int:
    """``CARD_COLORS``: the card emojis' deck, 2 (default: hearts and diamonds red, spades and clubs
    black) or 4 (the four-colour deck: diamonds blue, clubs green), for players who tell suits by colour."""
    raw = env.get("CARD_COLORS", "").strip() or "2"
    if raw not in ("2", "4"):
        raise ConfigError("CARD_COLORS must be 2 (red and black) or 4 (the four-colour deck)")
    return int(raw)


def _shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...]]:
    """``SHARD_COUNT`` and ``SHARD_IDS``: both unset for one unsharded process; the count alone
    for every shard in this process; ids (``0,1``) for a share of them, each below the count, no repeats."""
    raw_ids = env.get("SHARD_IDS", "").strip()
    if not env.get("SHARD_COUNT", "").strip():
        if raw_ids:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT (the total number of shards of all processes)")
        return None, ()
    count = _int(env, "SHARD_COUNT", 1, 1, 4096)
    if not raw_ids:
        return count, tuple(range(count))
    try:
        ids = tuple(int(part) for part in raw_ids.split(","))
    except ValueError:
        raise ConfigError("SHARD_IDS must be shard numbers separated by commas, e.g. 0,1") from None
    if any(not 0 <= i < count for i in ids):
        raise ConfigError(f"SHARD_IDS must be between 0 and SHARD_COUNT - 1 ({count - 1})")
    if len(set(ids)) != len(ids):
        raise ConfigError("SHARD_IDS names a shard twice")
    return count, tuple(sorted(ids))


SYNC_MODES = {"": None, "auto": None, "1": True, "yes": True, "true": True, "0": False, "no": False, "false": False}


def _review_auto(env: Mapping[str, str]) -> bool:
    """``REVIEW_AUTO``: 1 (default) reviews every finished match in the background; 0 leaves it to presses."""
    raw = env.get("REVIEW_AUTO", "").strip()
    if raw not in ("", "0", "1"):
        raise ConfigError("REVIEW_AUTO must be 0 or 1")
    return raw != "0"


REVIEW_YIELD_MS_SHARING: int = 10
"""``REVIEW_YIELD_MS`` where the review workers share the bot's cores (``baloot/tables/workers.py``,
``ReviewBrake``: the figures)."""


def default_review_yield_ms(review_workers: int, cores: int) -> int:
    """``REVIEW_YIELD_MS``'s default: :data:`REVIEW_YIELD_MS_SHARING` where the review workers must share
    the bot's cores (fewer cores than the workers plus two: one for the bot's loop, one for the rest of the
    machine), else 0 (the workers have cores of their own, and a pause would only slow the reviews)."""
    return REVIEW_YIELD_MS_SHARING if review_workers > 0 and cores < review_workers + 2 else 0


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _sync_commands(env: Mapping[str, str], shard_ids: tuple[int, ...], sharded: bool) -> bool:
    """``SYNC_COMMANDS``: auto (default) syncs in an unsharded process and in the one holding shard 0;
    1 or 0 forces it on or off (one process of the bot should sync)."""
    raw = env.get("SYNC_COMMANDS", "").strip().lower()
    if raw not in SYNC_MODES:
        raise ConfigError("SYNC_COMMANDS must be auto, 1 or 0")
    forced = SYNC_MODES[raw]
    if forced is not None:
        return forced
    return not sharded or 0 in shard_ids


def _web(env: Mapping[str, str]) -> dict[str, object]:
    """The web table and Activity settings: ``WEB_PORT`` (empty: no web table), ``WEB_HOST``,
    ``PUBLIC_URL`` (https), ``DISCORD_CLIENT_ID`` (digits) and ``DISCORD_CLIENT_SECRET`` (the Activity)."""
    port = _int(env, "WEB_PORT", 0, 1, 65535) if env.get("WEB_PORT", "").strip() else None
    public = env.get("PUBLIC_URL", "").strip().rstrip("/") or None
    if public is not None and not public.startswith(("https://", "http://")):
        raise ConfigError("PUBLIC_URL must be the web table's address, e.g. https://baloot.example.org")
    client_id = env.get("DISCORD_CLIENT_ID", "").strip() or None
    if client_id is not None and not client_id.isdigit():
        raise ConfigError("DISCORD_CLIENT_ID must be the application's id (digits)")
    secret = env.get("DISCORD_CLIENT_SECRET", "").strip() or None
    if secret is not None and port is None:
        raise ConfigError("DISCORD_CLIENT_SECRET is set but WEB_PORT is not: the Activity is served by the web table")
    return {"web_host": env.get("WEB_HOST", "").strip() or "127.0.0.1", "web_port": port, "public_url": public,
            "client_id": client_id, "client_secret": secret}


def load_settings(env: Mapping[str, str] | None = None, *, require_token: bool = True) -> Settings:
    """Read the settings from ``env`` (default: the process environment)."""
    env = os.environ if env is None else env
    token = env.get("DISCORD_TOKEN", "").strip()
    if require_token and not token:
        raise ConfigError("DISCORD_TOKEN is not set: copy .env.example to .env and put your bot token in it")
    guild = env.get("DEV_GUILD_ID", "").strip()
    if guild and not guild.isdigit():
        raise ConfigError("DEV_GUILD_ID must be a server id (digits)")
    language = env.get("DEFAULT_LANGUAGE", "en").strip() or "en"
    if language not in ("en", "ar"):
        raise ConfigError("DEFAULT_LANGUAGE must be 'en' or 'ar'")
    delay_raw = env.get("BOT_DELAY_SECONDS", "").strip()
    try:
        delay = float(delay_raw) if delay_raw else 1.0
    except ValueError:
        raise ConfigError("BOT_DELAY_SECONDS must be a number") from None
    if not 0 <= delay <= 30:
        raise ConfigError("BOT_DELAY_SECONDS must be between 0 and 30")
    ping_raw = env.get("PING_DELAY_SECONDS", "").strip()
    try:
        ping = float(ping_raw) if ping_raw else 20.0
    except ValueError:
        raise ConfigError("PING_DELAY_SECONDS must be a number") from None
    if not 0 <= ping <= 60:
        raise ConfigError("PING_DELAY_SECONDS must be between 0 and 60")
    sync = (env.get("DATABASE_SYNC", "FULL").strip() or "FULL").upper()
    if sync not in ("FULL", "NORMAL"):
        raise ConfigError("DATABASE_SYNC must be FULL or NORMAL")
    level = (env.get("LOG_LEVEL", "INFO").strip() or "INFO").upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
        raise ConfigError("LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR")
    shard_count, shard_ids = _shards(env)
    return Settings(
        token=token,
        database_path=Path(env.get("DATABASE_PATH", "").strip() or "data/baloot.db"),
        database_sync=sync,
        database_url=_database_url(env),
        dev_guild_id=int(guild) if guild else None,
        default_language=language,
        turn_seconds=_int(env, "TURN_SECONDS", 60, 5, 600),
        bot_delay_seconds=delay,
        ping_delay_seconds=ping,
        quick_bots_seconds=_int(env, "QUICK_BOTS_SECONDS", 45, 0, 600),
        quick_invite_seconds=_int(env, "QUICK_INVITE_SECONDS", 120, 1, 900),
        tournament_no_show_minutes=_minutes(env, "TOURNAMENT_NO_SHOW_MINUTES", 10.0, 1440.0),
        ai_workers=_int(env, "AI_WORKERS", 1, 0, 16),
        requests_per_second=_int(env, "BOT_REQUESTS_PER_SECOND", 0, 0, 10_000) or None,
        lease_seconds=_int(env, "LEASE_SECONDS", 30, 3, 600),
        log_level=level,
        table_pictures=_pictures(env),
        shard_count=shard_count,
        shard_ids=shard_ids,
        sync_commands=_sync_commands(env, shard_ids, shard_count is not None),
        card_colors=_card_colors(env),
        review_samples=_int(env, "REVIEW_SAMPLES", 128, 1, 2048),
        review_auto=_review_auto(env),
        review_workers=(review_workers := _int(env, "REVIEW_WORKERS", 1, 0, 8)),
        review_yield_ms=_int(env, "REVIEW_YIELD_MS", default_review_yield_ms(review_workers, usable_cores()), 0, 1000),
        **_web(env),  # type: ignore[arg-type]
    )
