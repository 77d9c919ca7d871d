"""Discord's side of an Activity (the Embedded App SDK's sign-in), as the stand-in plays it.

What Discord does around an Activity that the bot talks to:

- an interaction answered with LAUNCH_ACTIVITY (callback type 12) starts an *instance* of the
  application's Activity in the interaction's channel, with the presser in it
  (:meth:`ActivityRegistry.launch`); others join it (:meth:`ActivityRegistry.join`);
- inside the Activity the SDK's ``authorize`` command gives the page a one-time OAuth2 code
  (:meth:`ActivityRegistry.authorize`);
- ``POST /oauth2/token`` exchanges that code, with the application's client id and secret, for a
  bearer token; ``GET /users/@me`` with the bearer token says who it is;
- ``GET /applications/{id}/activity-instances/{instance}`` (bot token) says where an instance runs
  and who is in it.

Instance ids look like Discord's (``i-<launch>-gc-<guild>-<channel>``), not like snowflakes.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from aiohttp import web

from .state import snowflake
from .validation import DiscordError

if TYPE_CHECKING:
    from .server import FakeDiscord
    from .state import Channel, User


@dataclass
class ActivityInstance:
    """One running Activity: where it is and who is in it."""

    id: str
    launch_id: int
    channel: Channel
    users: set[int] = field(default_factory=set)

    def payload(self, application_id: int) -> dict[str, object]:
        guild = self.channel.guild_id
        location_id = f"gc-{guild}-{self.channel.id}"
        return {
            "application_id": str(application_id), "instance_id": self.id, "launch_id": str(self.launch_id),
            "location": {"id": location_id, "kind": "gc", "channel_id": str(self.channel.id),
                         "guild_id": str(guild)},
            "users": [str(u) for u in sorted(self.users)],
        }


class ActivityRegistry:
    """The application's Activity instances, OAuth2 codes and bearer tokens."""

    def __init__(self, server: FakeDiscord) -> None:
        self.server = server
        self.client_secret: str | None = None  # set by :meth:`enable`: the application has an Activity
        self.instances: dict[str, ActivityInstance] = {}
        self.codes: dict[str, int] = {}  # one-time authorization codes -> user id
        self.tokens: dict[str, int] = {}  # bearer tokens -> user id
        self.exchanges: list[tuple[int, bool]] = []  # (status, secret right) of every token exchange

    def enable(self, client_secret: str) -> None:
        """Give the application an Activity (Developer Portal) with this OAuth2 client secret."""
        self.client_secret = client_secret

    def launch(self, channel: Channel, user: User) -> ActivityInstance:
        launch_id = snowflake()
        instance = ActivityInstance(f"i-{launch_id}-gc-{channel.guild_id}-{channel.id}", launch_id, channel,
                                    {user.id})
        self.instances[instance.id] = instance
        return instance

    def join(self, instance_id: str, user: User) -> None:
        self.instances[instance_id].users.add(user.id)

    def authorize(self, user: User) -> str:
        """The SDK's ``authorize`` inside the Activity: a one-time code for this user."""
        code = secrets.token_urlsafe(16)
        self.codes[code] = user.id
        return code

    # ------------------------------------------------------------------ HTTP

    def register(self, router: web.UrlDispatcher, prefix: str) -> None:
        router.add_post(prefix + "/oauth2/token", self.token)
        router.add_get(prefix + "/applications/{application_id}/activity-instances/{instance_id}", self.instance)

    async def token(self, request: web.Request) -> web.Response:
        """``POST /oauth2/token`` (form): the authorization-code grant, checked like Discord does."""
        from .server import json_response

        form = await request.post()
        right = (self.client_secret is not None and form.get("client_id") == str(self.server.application_id)
                 and form.get("client_secret") == self.client_secret)
        if not right:
            self.exchanges.append((401, False))
            return json_response({"error": "invalid_client"}, status=401)
        user_id = self.codes.pop(str(form.get("code", "")), None)
        if form.get("grant_type") != "authorization_code" or user_id is None:
            self.exchanges.append((400, True))
            return json_response({"error": "invalid_grant", "error_description": 'Invalid "code" in request.'},
                                 status=400)
        token = secrets.token_urlsafe(24)
        self.tokens[token] = user_id
        self.exchanges.append((200, True))
        return json_response({"access_token": token, "token_type": "Bearer", "expires_in": 604800,
                              "refresh_token": secrets.token_urlsafe(24), "scope": "identify"})

    def bearer_user(self, request: web.Request) -> User:
        """The user a ``Bearer`` token stands for (401 for an unknown token)."""
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        user_id = self.tokens.get(token)
        if user_id is None:
            raise DiscordError(401, 0, "401: Unauthorized")
        return self.server.users[user_id]

    async def instance(self, request: web.Request) -> web.Response:
        from .server import json_response

        if request.match_info["application_id"] != str(self.server.application_id):
            raise DiscordError(404, 10002, "Unknown Application")
        found = self.instances.get(request.match_info["instance_id"])
        if found is None:
            raise DiscordError(404, 10000, "Unknown Activity Instance")  # code as the route's docs name none
        return json_response(found.payload(self.server.application_id))
