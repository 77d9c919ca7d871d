"""The stand-in Discord: an aiohttp app on 127.0.0.1 serving REST API v10 and the gateway.

One ``FakeDiscord`` per test. It owns the world (``state``), the gateway
connections, the REST call log and the strictness knobs. Tests act through
``create_guild`` / ``create_user`` / people helpers (``users.Person``) and wait
with ``wait_for`` instead of sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from aiohttp import web

from .activity import ActivityRegistry
from .calls import CallLog, CallRecord, TokenKind
from .gateway import INTENT_DIRECT_MESSAGES, INTENT_GUILD_MESSAGES, PRIVILEGED_INTENTS, Gateway
from .rest import RestApi
from .state import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    DEFAULT_MEMBER_PERMISSIONS,
    Channel,
    ChannelType,
    Guild,
    Interaction,
    Member,
    Message,
    Role,
    User,
    snowflake,
)
from .validation import ApiSchema, DiscordError, load_spec

if TYPE_CHECKING:
    from .users import Person

JSON = dict[str, Any]
T = TypeVar("T")
API_PREFIX = "/api/v10"
GLOBAL_RATE_LIMIT = 50
"""Discord's global limit: bot-token requests per second, all sessions and processes of a token together."""


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON answer whose Content-Type is exactly ``application/json`` (discord.py needs it)."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


@dataclass
class RateLimitRule:
    remaining: int
    retry_after: float


class FakeDiscord:
    """Discord on 127.0.0.1: ``async with FakeDiscord() as server: ...``."""

    def __init__(
        self,
        *,
        validate_schema: bool = True,
        granted_intents: int = PRIVILEGED_INTENTS,
        bot_name: str = "TestBot",
        global_rate_limit: int | None = GLOBAL_RATE_LIMIT,
        recommended_shards: int = 1,
        max_concurrency: int = 1,
    ) -> None:
        self.token = "fake." + secrets.token_urlsafe(24)
        self.application_id = snowflake()
        self.bot_user = User(id=self.application_id, username=bot_name, bot=True)
        self.granted_intents = granted_intents
        self.schema: ApiSchema | None = load_spec() if validate_schema else None

        self.users: dict[int, User] = {self.bot_user.id: self.bot_user}
        self.app_emojis: dict[int, tuple[str, bytes]] = {}  # the application's own emojis: id -> (name, image)
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.threads_started: list[int] = []  # threads the bot started (POST /channels/{id}/threads)
        self.messages: dict[int, Message] = {}
        self.interactions: dict[int, Interaction] = {}
        self.interaction_tokens: dict[str, Interaction] = {}  # the same interactions by token (webhook calls)
        self.global_commands: list[JSON] = []
        self.guild_commands: dict[int, list[JSON]] = {}
        self.command_syncs = 0
        self.calls = CallLog()
        self.unhandled: list[str] = []
        self.rejections: list[tuple[str, DiscordError]] = []
        self.hook_events: list[JSON] = []
        self.rate_limits: dict[str, RateLimitRule] = {}
        # The global limit (None: off): times of the bot-token calls let through in the last second.
        self.global_rate_limit = global_rate_limit
        self._global_window: deque[float] = deque()
        self.global_refusals = 0
        # What ``GET /gateway/bot`` answers: the recommended shard count and identify concurrency.
        self.recommended_shards = recommended_shards
        self.max_concurrency = max_concurrency

        self.gateway = Gateway(self)
        self.rest = RestApi(self)
        self.activity = ActivityRegistry(self)  # the application's Activity (LAUNCH_ACTIVITY, OAuth2)
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ------------------------------------------------------------------ lifecycle

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_url(self) -> str:
        return self.url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> FakeDiscord:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/gateway/", self.gateway.handle)
        app.router.add_post("/_fakediscord/hook", self._hook)
        app.router.add_get("/attachments/{attachment_id}/{filename}", self._attachment)
        self.activity.register(app.router, API_PREFIX)
        self.rest.register(app.router, API_PREFIX)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._unhandled)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        return self

    async def close(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def env(self) -> dict[str, str]:
        """Environment for a bot process: where Discord is, and the bot's token."""
        return {
            "FAKEDISCORD_URL": self.url,
            "FAKEDISCORD_GATEWAY": self.gateway_url,
            "DISCORD_TOKEN": self.token,
        }

    # ------------------------------------------------------------------ waiting

    def notify(self) -> None:
        """Wake everything waiting in ``wait_for`` (called after each change)."""
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def wait_for(self, predicate: Callable[[], T | None], timeout: float = 5.0) -> T:
        """Wait until ``predicate()`` is truthy (re-checked on every change); return it."""
        deadline = time.monotonic() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"condition not met within {timeout}s")
            changed = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), min(remaining, 0.25))

    # ------------------------------------------------------------------ world building

    def create_guild(self, name: str = "Test Guild", *, locale: str = "en-US") -> Guild:
        gid = snowflake()
        guild = Guild(id=gid, name=name, owner_id=self.bot_user.id, locale=locale)
        guild.roles[gid] = Role(id=gid, name="@everyone", permissions=DEFAULT_MEMBER_PERMISSIONS)
        admin = Role(id=snowflake(), name="Admin", permissions=ADMINISTRATOR, position=1)
        guild.roles[admin.id] = admin
        guild.members[self.bot_user.id] = Member(self.bot_user, gid, roles=[admin])
        self.guilds[gid] = guild
        self._spawn(self.gateway.dispatch("GUILD_CREATE", guild.payload()))
        return guild

    def create_channel(
        self, guild: Guild, name: str, *, thread_of: Channel | None = None,
        bot_permissions: int = ALL_PERMISSIONS,
    ) -> Channel:
        """A text channel (or a public thread of ``thread_of``); ``bot_permissions``: the bot's
        permissions there (interactions' ``app_permissions``, enforced on its channel messages)."""
        kind = ChannelType.PUBLIC_THREAD if thread_of else ChannelType.GUILD_TEXT
        channel = Channel(
            id=snowflake(),
            type=kind,
            name=name,
            guild_id=guild.id,
            parent_id=thread_of.id if thread_of else None,
            position=len(guild.channels),
            owner_id=self.bot_user.id if thread_of else None,
            bot_permissions=bot_permissions,
        )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        event = "THREAD_CREATE" if thread_of else "CHANNEL_CREATE"
        self._spawn(self.gateway.dispatch(event, channel.payload()))
        return channel

    def create_user(
        self, name: str, *, locale: str = "en-US", accepts_dms: bool = True
    ) -> Person:
        from .users import Person

        user = User(id=snowflake(), username=name, locale=locale, accepts_dms=accepts_dms)
        self.users[user.id] = user
        return Person(self, user)

    def add_member(self, guild: Guild, person: Person | User, *, admin: bool = False) -> Member:
        user = person if isinstance(person, User) else person.user
        roles = [r for r in guild.roles.values() if r.name == "Admin"] if admin else []
        member = Member(user, guild.id, roles=roles)
        guild.members[user.id] = member
        self._spawn(
            self.gateway.dispatch("GUILD_MEMBER_ADD", {**member.payload(), "guild_id": str(guild.id)})
        )
        return member

    def create_role(self, guild: Guild, name: str, *, permissions: int = 0) -> Role:
        """A new role of ``guild`` (no permissions by default), announced with GUILD_ROLE_CREATE."""
        role = Role(id=snowflake(), name=name, permissions=permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        self._spawn(self.gateway.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()}))
        return role

    def give_role(self, guild: Guild, person: Person | User, role: Role) -> None:
        """Add ``role`` to a member (their next interactions carry it), announced with GUILD_MEMBER_UPDATE."""
        user = person if isinstance(person, User) else person.user
        member = guild.members[user.id]
        if role not in member.roles:
            member.roles.append(role)
        self._spawn(
            self.gateway.dispatch("GUILD_MEMBER_UPDATE", {**member.payload(), "guild_id": str(guild.id)})
        )

    def dm_channel(self, user: User) -> Channel:
        for channel in self.channels.values():
            if channel.type == ChannelType.DM and channel.recipients[0].id == user.id:
                return channel
        channel = Channel(id=snowflake(), type=ChannelType.DM, recipients=[user])
        self.channels[channel.id] = channel
        return channel

    # ------------------------------------------------------------------ strictness knobs

    def rate_limit(self, route: str, times: int = 1, retry_after: float = 0.05) -> None:
        """Answer the next ``times`` calls of ``route`` ("POST /channels/{channel_id}/messages")
        with 429 (``Via`` header, JSON ``retry_after``, ``global: false``)."""
        self.rate_limits[route] = RateLimitRule(times, retry_after)

    def age_interaction(self, interaction: Interaction, seconds: float) -> None:
        """Pretend ``seconds`` have passed for this interaction (token expiry tests)."""
        interaction.created_at -= seconds

    # ------------------------------------------------------------------ readiness

    @property
    def ready_pids(self) -> list[int]:
        """Bot processes that reported discord.py's ``on_ready`` (via sitecustomize)."""
        return [int(e["pid"]) for e in self.hook_events if e.get("event") == "ready"]

    @property
    def commands_synced(self) -> bool:
        return self.command_syncs > 0

    def find_command(self, name: str, guild: Guild | None) -> JSON | None:
        pool = (self.guild_commands.get(guild.id, []) if guild else []) + self.global_commands
        return next((c for c in pool if c["name"] == name), None)

    # ------------------------------------------------------------------ messages

    def channel_of(self, message: Message) -> Channel:
        return self.channels[message.channel_id]

    async def announce_message(self, message: Message, *, edited: bool = False) -> None:
        """MESSAGE_CREATE / MESSAGE_UPDATE to the bot, as Discord does for channel messages."""
        if message.ephemeral_for is not None:
            self.notify()
            return
        data = message.payload()
        intent = INTENT_GUILD_MESSAGES if message.guild_id else INTENT_DIRECT_MESSAGES
        if message.guild_id:
            member = self.guilds[message.guild_id].members.get(message.author.id)
            if member is not None:
                data["member"] = {k: v for k, v in member.payload().items() if k != "user"}
        await self.gateway.dispatch("MESSAGE_UPDATE" if edited else "MESSAGE_CREATE", data, intent=intent)
        self.notify()

    # ------------------------------------------------------------------ HTTP plumbing

    def _spawn(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        task.add_done_callback(lambda t: t.cancelled() or t.exception())

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        if not request.path.startswith(API_PREFIX):
            return await handler(request)
        resource = request.match_info.route.resource
        canonical = resource.canonical if resource is not None else request.path
        template = canonical[len(API_PREFIX) :]
        if template == "/{tail}":
            template = request.path[len(API_PREFIX) :]
        kind = self._token_kind(request)
        route = f"{request.method} {template}"
        try:
            bad_token = kind == "bot" and request.headers["Authorization"] != f"Bot {self.token}"
            if kind == "none" or bad_token:
                raise DiscordError(401, 0, "401: Unauthorized")
            rule = self.rate_limits.get(route)
            wait = self._global_wait() if kind == "bot" else None
            if wait is not None:
                self.global_refusals += 1
                response: web.StreamResponse = json_response(
                    {"message": "You are being rate limited.", "retry_after": wait, "global": True, "code": 0},
                    status=429,
                    headers={"Via": "1.1 google", "X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"},
                )
            elif rule is not None and rule.remaining > 0:
                rule.remaining -= 1
                response = json_response(
                    {
                        "message": "You are being rate limited.",
                        "retry_after": rule.retry_after,
                        "global": False,
                    },
                    status=429,
                    headers={"Via": "1.1 google", "X-RateLimit-Scope": "user"},
                )
            else:
                response = await handler(request)
        except DiscordError as err:
            self.rejections.append((route, err))
            response = json_response(err.body(), status=err.status)
        self.calls.add(CallRecord(request.method, template, kind, response.status, time.monotonic(),
                              request.headers.get("User-Agent", ""), request.headers.get("Accept-Encoding", ""),
                              request.content_type))
        self.notify()
        return response

    def _global_wait(self) -> float | None:
        """Count one bot-token call against the global limit: None if it may pass, else the
        seconds until it could (the oldest call of the last second leaves the window).

        Interaction callbacks and webhook calls with the interaction token are exempt, as on
        Discord; refused calls (429) are not counted.
        """
        if self.global_rate_limit is None:
            return None
        now = time.monotonic()
        window = self._global_window
        while window and window[0] <= now - 1.0:
            window.popleft()
        if len(window) >= self.global_rate_limit:
            return round(max(window[0] + 1.0 - now, 0.001), 3)
        window.append(now)
        return None

    @staticmethod
    def _token_kind(request: web.Request) -> TokenKind:
        if request.headers.get("Authorization", "").startswith("Bot "):
            return "bot"
        if request.headers.get("Authorization", "").startswith("Bearer "):
            return "bearer"  # a user's OAuth2 token (the Activity's sign-in)
        path = request.path[len(API_PREFIX) :]
        if path.startswith(("/interactions/", "/webhooks/")):
            return "interaction"
        if path == "/oauth2/token" and request.method == "POST":
            return "client"  # the client id and secret are in the form
        return "none"

    async def _unhandled(self, request: web.Request) -> web.Response:
        self.unhandled.append(f"{request.method} {request.path}")
        return json_response({"message": "404: Not Found", "code": 0}, status=404)

    async def _hook(self, request: web.Request) -> web.Response:
        self.hook_events.append(await request.json())
        self.notify()
        return json_response({})

    async def _attachment(self, request: web.Request) -> web.Response:
        att_id = int(request.match_info["attachment_id"])
        for message in self.messages.values():
            for att in message.attachments:
                if att.id == att_id:
                    return web.Response(body=att.data, content_type=att.content_type)
        raise web.HTTPNotFound()
