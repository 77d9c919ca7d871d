"""The Baloot Discord bot: ``python bot.py`` (settings from the environment and ``.env``).

Before anything else the database must prove it can be written (a real
write transaction, :func:`baloot.storage.startup.check_database`): else one
line naming the path and the reason, and exit code 2, as for a missing token.
Start-up (``setup_hook``): open the SQLite storage (WAL, migrations), build
the table service (AI players from :mod:`baloot.ai`, searched in worker
processes when ``AI_WORKERS`` > 0), set the Arabic-aware command
translator, load the cogs (a failing one is logged, not fatal), register the
persistent buttons, sync the slash commands (to ``DEV_GUILD_ID`` when set,
else globally) and resume every unfinished table. Shutdown stops the tables'
timers, the workers and the storage. The token is never logged.

Several processes: with ``SHARD_COUNT`` (and ``SHARD_IDS``) the bot
is a discord.py ``AutoShardedBot`` holding those shards; it resumes and drives
only the tables of guilds on its shards (on PostgreSQL a DM press for another process's table is
forwarded to it: :mod:`baloot.tables.forwarding`), and syncs the commands only where
``SYNC_COMMANDS`` says (by default: the process holding shard 0). Without
them it is one plain ``Bot`` process, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import signal
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any

import aiohttp
import aiohttp.web
import discord
import discord.http
from discord.ext import commands
from dotenv import load_dotenv

from baloot import ENGINE_BUILD
from baloot.ai import make_player
from baloot.render.picture import warm_up
from baloot.storage import Storage
from baloot.storage.startup import StartupRefused, check_database
from baloot.tables import TableService
from baloot.tables.leases import ShardLeases
from baloot.tables.reviews import ReviewService
from baloot.tables.workers import ReviewBrake, review_pool, warm_pool, worker_pool
from baloot.web.oauth import DiscordOAuth, OAuthSettings
from baloot.web.server import WebTable, serve
from cogs import EXTENSIONS
from cogs.buttons import DYNAMIC_ITEMS, apply_forwarded, on_press
from cogs.items import add_items
from cogs.presentation.channel import process_budget
from cogs.presentation.emojis import CARD_EMOJIS
from cogs.presentation.presenter import Presenter
from cogs.presentation.runtime import Languages, Runtime
from cogs.presentation.shown import ShownTables
from cogs.replies import install_error_handler
from cogs.settings import ConfigError, Settings, load_settings, require_shared_database
from cogs.translator import CatalogTranslator, LocalizedCommandTree
from cogs.transport import timings
from cogs.transport.pacing import Pacer, pacing_trace, share
from cogs.transport.wire import close_token_http

log = logging.getLogger("baloot.bot")


def intents() -> discord.Intents:
    """Guilds only: slash commands and buttons arrive as interactions; nothing privileged."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


if TYPE_CHECKING:
    _Client = commands.Bot
else:
    _Client = object


class BalootClient(_Client):
    """The bot: owns the storage, the table service and the Discord layer's runtime.

    Mixed into :class:`BalootBot` (one process) or :class:`ShardedBalootBot` (``SHARD_COUNT``).
    """

    runtime: Runtime

    def __init__(self, settings: Settings, **shards: Any) -> None:
        # bot-token requests within this process's share of Discord's global limit, held back by
        # a trace on discord.py's aiohttp session (its public ``http_trace`` option)
        self.pacer = Pacer(settings.requests_per_second or share(settings.shard_ids, settings.shard_count))
        super().__init__(
            http_trace=pacing_trace(self.pacer),
            command_prefix=commands.when_mentioned,
            intents=intents(),
            tree_cls=LocalizedCommandTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            **shards,
        )
        self.settings = settings
        self.storage: Storage | None = None
        self.service: TableService | None = None
        self.executor: ProcessPoolExecutor | None = None
        self.review_executor: ProcessPoolExecutor | None = None
        self.web_runner: aiohttp.web.AppRunner | None = None  # the web table and Activity page
        self.web_client: aiohttp.ClientSession | None = None  # the Activity's OAuth2 calls to Discord

    async def setup_hook(self) -> None:
        settings = self.settings
        self.storage = storage = await Storage.open(
            settings.database_url or settings.database_path, synchronous=settings.database_sync
        )
        # worker pools started now, each with what to log if it could not be (it then starts with its first task)
        warmings: list[tuple[asyncio.Future[Any], str]] = []
        if settings.ai_workers > 0:
            self.executor = worker_pool(settings.ai_workers)  # its workers die with this process
            warmings.append((asyncio.ensure_future(warm_pool(self.executor, settings.ai_workers)),
                             "could not start the AI workers ahead; they start with the first move"))
        self.service = service = TableService(
            storage,
            turn_seconds_default=float(settings.turn_seconds),
            bot_delay=settings.bot_delay_seconds,
            bot_factory=make_player,
            bot_executor=self.executor,
            quick_bots_after=float(settings.quick_bots_seconds),
            owns_guild=settings.owns_guild if settings.sharded else None,
            # sharded: the shards' leases in the shared database; every table write shows its fence
            leases=ShardLeases(storage, settings.shard_count, settings.shard_ids, ttl=float(settings.lease_seconds))
            if settings.shard_count is not None else None,
        )
        brake: ReviewBrake | None = None
        if settings.review_workers > 0:  # reviews at the lowest CPU priority, never in the AI's queue
            if settings.review_yield_ms > 0:  # and pausing while the bot answers an interaction
                brake = ReviewBrake(settings.review_yield_ms / 1000)
            self.review_executor = review_pool(settings.review_workers, brake)
            warmings.append((asyncio.ensure_future(warm_pool(self.review_executor, settings.review_workers, os.getpid)),
                             "could not start the review workers ahead; they start with the first review"))
        reviews = ReviewService(storage, self.review_executor or self.executor, samples=settings.review_samples,
                                brake=brake)
        if settings.review_auto:  # every finished match reviewed in the background (REVIEW_AUTO=0: off)
            service.add_listener(reviews.on_event)
            reviews.start_auto()
        runtime = Runtime(
            self, service, ShownTables(), Languages(service, self, settings.default_language),
            pictures=settings.table_pictures, reviews=reviews, quick_invite_seconds=settings.quick_invite_seconds,
            no_show_seconds=60.0 * settings.tournament_no_show_minutes,
            activity=bool(settings.web_port and settings.client_secret),
        )
        self.runtime = runtime
        runtime.channel.edit_budget = process_budget(self.pacer.per_window)  # the shards' share
        await runtime.languages.load_saved()
        runtime.pings.delay = settings.ping_delay_seconds
        service.add_listener(Presenter(runtime))
        reviews.add_listener(runtime.channel.match_reviewed)  # the match's last message shows its accuracy
        reviews.add_listener(runtime.private.match_reviewed)  # and a quick match's last DM messages
        service.add_queue_listener(runtime.queue)  # the quick-match queue's private messages
        await self.tree.set_translator(CatalogTranslator())
        install_error_handler(self.tree)
        for extension in EXTENSIONS:
            try:
                await self.load_extension(extension)
            except Exception:
                log.exception("could not load %s; starting without it", extension)
        add_items(self, *DYNAMIC_ITEMS)  # the table's, lobby's, result's, review's and quick match's buttons
        self.add_listener(on_press, "on_interaction")  # the action buttons of private views (the hot path)
        if settings.sync_commands:
            guild = discord.Object(settings.dev_guild_id) if settings.dev_guild_id else None
            if guild is not None:
                self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands %s", len(synced), f"to server {guild.id}" if guild else "globally")
        else:
            log.info("not syncing commands (SYNC_COMMANDS; the process holding shard 0 does)")
        if settings.table_pictures != "off":
            await asyncio.to_thread(warm_up)  # the pictures' fonts and palette
            await CARD_EMOJIS.load(self, settings.card_colors)  # card emojis; the missing ones are created meanwhile
        # the AI loaded in its workers before any bot of a resumed table moves, and the review workers
        # started now rather than at the first review, beside tables in play
        for warming, failed in warmings:
            try:
                await warming
            except Exception:
                log.exception(failed)
        if settings.web_port is not None:
            await self.start_web(service)
        resumed = await service.resume_all()
        if settings.sharded:
            log.info("resumed %d tables of shards %s of %s", len(resumed), list(settings.shard_ids),
                     settings.shard_count)
        else:
            log.info("resumed %d tables", len(resumed))
        if service.forwarder is not None:  # PostgreSQL: DM presses forwarded to the holder of their table
            service.forwarder.start(lambda press: apply_forwarded(self, press))
            await service.forwarder.wait_listening()
        if service.runs_matcher:  # quick-match tables of before a restart, at once
            await service.match_quick()
        service.start_sweeping()
        service.start_keeping_leases()  # sharded only: renew, and take over shards whose holder stopped
        service.start_matching()  # the quick-match rounds (acting only in the process holding shard 0)

    async def on_ready(self) -> None:
        log.info("ready as %s in %d servers", self.user, len(self.guilds))
        # Everything loaded at start-up lives as long as the bot: keep it out of the cyclic
        # collector, whose full passes over a large heap would stall every table's replies.
        gc.freeze()

    async def start_web(self, service: TableService) -> None:
        """Serve the web table (WEB_PORT) and, with DISCORD_CLIENT_SECRET, the Activity's sign-in:
        the same tables, through the same service, as the channel messages."""
        settings = self.settings
        assert settings.web_port is not None
        oauth = None
        if settings.client_secret:
            self.web_client = aiohttp.ClientSession()
            client_id = settings.client_id or str(self.application_id)
            # Discord's API where discord.py sends its own calls (Route.BASE: discord.com's v10 API)
            oauth = DiscordOAuth(OAuthSettings(client_id, settings.client_secret, settings.token,
                                               api_base=discord.http.Route.BASE), self.web_client)
        table = WebTable(service, oauth=oauth, public_url=settings.public_url)
        try:
            self.web_runner = await serve(table, settings.web_host, settings.web_port)
        except OSError as exc:
            log.error("cannot serve the web table on %s:%s (%s); going on without it", settings.web_host,
                      settings.web_port, exc.strerror or exc)
            return
        log.info("web table on %s:%s%s", settings.web_host, settings.web_port,
                 " with the Discord Activity" if oauth is not None else "")

    async def close(self) -> None:
        """Stop timers and bots, presenters, workers and storage, then disconnect."""
        if self.web_runner is not None:
            await self.web_runner.cleanup()
        if self.web_client is not None:
            await self.web_client.close()
        if self.service is not None:
            await self.service.close()
        runtime = getattr(self, "runtime", None)
        if isinstance(runtime, Runtime):
            await runtime.channel.close()
            await runtime.private.close()
            await runtime.pings.close()
            await runtime.queue.close()
            runtime.drawer.close()
            runtime.review_drawer.close()
            if runtime.reviews is not None:
                await runtime.reviews.close()
        CARD_EMOJIS.close()
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
        if self.review_executor is not None:
            self.review_executor.shutdown(wait=False, cancel_futures=True)
        await super().close()
        await close_token_http(self)
        timings.write()  # BALOOT_PRESS_TIMINGS (scripts/bench_tables.py) only
        if self.storage is not None:
            await self.storage.close()


class BalootBot(BalootClient, commands.Bot):
    """One process holding every guild (no ``SHARD_COUNT``)."""


class ShardedBalootBot(BalootClient, commands.AutoShardedBot):
    """A process holding ``SHARD_IDS`` of ``SHARD_COUNT`` shards (discord.py's ``AutoShardedBot``)."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings, shard_count=settings.shard_count, shard_ids=list(settings.shard_ids))

    max_concurrency = 1  # shards of one bucket (shard_id % max_concurrency) identify 5 s apart (Discord)
    _parked: set[int]  # shards connected once and disconnected since: their lease was lost
    _following: asyncio.Lock
    _background: set[asyncio.Task[None]]

    async def setup_hook(self) -> None:
        await super().setup_hook()
        self._parked, self._following, self._background = set(), asyncio.Lock(), set()
        if self.service is not None and self.service.leases is not None:
            self.service.leases.watch(self._leases_changed)
        if self.storage is not None and self.storage.notifies:
            try:
                _, _, limit = await self.http.get_bot_gateway()
                self.max_concurrency = max(1, int(limit.get("max_concurrency", 1)))
            except (discord.HTTPException, *UNREACHABLE, ValueError, TypeError) as exc:
                log.warning("could not read max_concurrency from /gateway/bot (%s); identifying one at a time", exc)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Identify shards of one bucket (``shard_id % max_concurrency``) at least :data:`IDENTIFY_SPACING`
        apart across every process on the shared PostgreSQL; else discord.py's own spacing."""
        storage = self.storage
        if storage is None or not storage.notifies or shard_id is None:
            await super().before_identify_hook(shard_id, initial=initial)
            return
        bucket = shard_id % self.max_concurrency
        await storage.identify_turn(bucket, IDENTIFY_SPACING)
        log.info("shard %s: identifying (bucket %s of %s)", shard_id, bucket, self.max_concurrency)

    async def launch_shard(self, gateway: Any, shard_id: int, *, initial: bool = False) -> None:
        """Connect a shard only once this process holds its lease.

        A process started on a shard range another live process holds is a
        standby: it does not connect those shards, so Discord's events and
        presses for their guilds keep going to the holder alone. Its lease keeper
        takes a lease over when the holder stops renewing it (a crash); the shard
        connects then.
        """
        service = self.service
        leases = service.leases if service is not None else None
        if leases is not None and shard_id not in leases.fences:
            log.info("shard %s: not connecting it while another bot process holds its lease", shard_id)
            while shard_id not in leases.fences and not self.is_closed():
                await asyncio.sleep(min(1.0, leases.renew_every))
            if self.is_closed():
                return
            log.info("shard %s: its lease is ours now; connecting it", shard_id)
        await super().launch_shard(gateway, shard_id, initial=initial)

    def _leases_changed(self, held: frozenset[int]) -> None:
        if not self.is_closed():
            task = asyncio.create_task(self.follow_leases(held), name="baloot-follow-leases")
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def follow_leases(self, held: frozenset[int]) -> None:
        """Keep a shard's gateway session open only while this process holds its lease.

        A process whose lease another took (it stalled past the lease's time, and a
        standby took over) no longer drives the shard's tables; were its session
        left open, Discord would send it the shard's presses too, and two processes
        would answer one press. So the shard is disconnected here, and connected
        again (a new IDENTIFY, spaced like every other) once the lease is ours again.
        """
        async with self._following:
            for shard_id in self.shard_ids or ():
                shard = self.get_shard(shard_id)
                if shard is None:
                    continue  # not launched yet: launch_shard waits for its lease
                if shard_id not in held and not shard.is_closed():
                    log.error("shard %s: another bot process holds its lease now; disconnecting it", shard_id)
                    self._parked.add(shard_id)
                    await shard.disconnect()
                elif shard_id in held and shard_id in self._parked:
                    self._parked.discard(shard_id)
                    log.info("shard %s: its lease is ours again; connecting it", shard_id)
                    await shard.connect()


IDENTIFY_SPACING = 5.5
"""Seconds between two identifies of one bucket across processes: Discord's 5 s, and a margin for the
time between the hook and the IDENTIFY frame."""


def make_bot(settings: Settings) -> BalootClient:
    """The bot for these settings: sharded when ``SHARD_COUNT`` is set, else one plain process."""
    return ShardedBalootBot(settings) if settings.sharded else BalootBot(settings)


def configure_logging(level: str) -> None:
    logging.basicConfig(
        level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr
    )
    logging.getLogger("discord").setLevel(max(logging.getLevelName(level), logging.INFO))


async def run(bot: BalootClient, token: str) -> None:
    """Run the bot until it is closed; SIGINT and SIGTERM close it cleanly."""
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []

    def stop() -> None:
        if not closing:
            log.info("stopping")
            closing.append(loop.create_task(bot.close()))

    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop)
    async with bot:
        await bot.start(token)
    if closing:
        await closing[0]
    log.info("stopped")


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (Linux, macOS): the same asyncio API at a fraction of the
    CPU per socket read, write and callback (bot CPU per press); ``EVENT_LOOP=asyncio`` keeps the
    standard loop. ``None``: asyncio's default. Any other value is refused (:class:`ConfigError`)."""
    choice = os.environ.get("EVENT_LOOP", "").strip().lower() or "uvloop"
    if choice not in ("uvloop", "asyncio"):
        raise ConfigError("EVENT_LOOP must be uvloop or asyncio")
    if choice == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def main() -> int:
    """Run until stopped; exit code 2 when a setting is missing or malformed, the database cannot be
    written or Discord refuses the token; 1 when Discord cannot be reached. Each is one line, no traceback."""
    load_dotenv(override=False)
    try:
        settings = load_settings()
        require_shared_database(settings)
        loop_factory = event_loop_factory()
    except ConfigError as exc:
        print(f"baloot: {exc}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    # A press answered through the token leaves no reference cycle (cogs/transport/wire.py,
    # discord_response): reference counting frees it. What the cyclic collector still finds (a closed
    # connection, a finished task's traceback) is little, so young collections are short; at 5,000 they
    # are rarer than Python's default 700. They used to free each press's interaction, message and
    # buttons (about 42 objects): at 50,000 a young collection then stalled every table's replies for
    # 50-110 ms at 200 tables (scripts/bench_tables.py, a gc.callbacks timer), at 5,000 for 31-37 ms.
    # The full collections stay as rare as before (20 x 1,000 young collections apart).
    gc.set_threshold(5_000, 20, 1_000)
    log.info("starting with %r", settings)
    log.info("engine: %s (BALOOT_PURE_PYTHON=1 forces pure Python)", ENGINE_BUILD)
    try:
        asyncio.run(check_database(settings.database_url or settings.database_path,
                                   synchronous=settings.database_sync))
    except StartupRefused as exc:
        print(f"baloot: {exc}", file=sys.stderr)
        return 2
    try:
        with asyncio.Runner(loop_factory=loop_factory) as runner:
            runner.run(run(make_bot(settings), settings.token))
    except discord.LoginFailure:
        log.error("Discord refused the token (DISCORD_TOKEN): copy it again from the Developer Portal "
                  "(your application -> Bot -> Reset Token)")
        return 2
    except UNREACHABLE as exc:
        log.error("cannot reach Discord (%s): %s", discord.http.Route.BASE, one_line(exc))
        return 1
    return 0


UNREACHABLE = (aiohttp.ClientError, OSError, asyncio.TimeoutError, discord.DiscordServerError)
"""What logging in raises when Discord cannot be reached: no network, DNS, refused or timed-out
connections, or Discord answering 5xx (after discord.py's own retries). Exit code 1: try later."""


def one_line(exc: BaseException) -> str:
    """An exception as one short line (its type when it has no message)."""
    text = " ".join(str(exc).split())
    return text[:300] if text else type(exc).__name__


if __name__ == "__main__":
    sys.exit(main())
