"""The Activity's sign-in: Discord's OAuth2 code exchange, done by the bot, never the page.

The page runs the Embedded App SDK's flow: ``authorize`` gives it a one-time
code; it posts the code here; the bot exchanges it with Discord (its client
secret stays in this process), asks Discord who the token belongs to, and checks
with Discord that this user is in the Activity instance the page names (and in
which channel it runs). Only then does the user get a session for the table's
WebSocket; the page gets the access token back for the SDK's ``authenticate``.

Only Discord's documented HTTP endpoints are called, through aiohttp's client:
``POST /oauth2/token``, ``GET /users/@me`` (the user's bearer token) and
``GET /applications/{id}/activity-instances/{instance}`` (the bot token).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

import aiohttp

DISCORD_API: Final = "https://discord.com/api/v10"
TIMEOUT: Final = aiohttp.ClientTimeout(total=10)


class OAuthError(Exception):
    """Discord refused the code or the token, or the user is not in the instance (the page is told so)."""


@dataclass(frozen=True, slots=True)
class OAuthSettings:
    """The application's OAuth2 credentials; the secrets are kept out of ``repr`` (and so out of logs)."""

    client_id: str
    client_secret: str = field(repr=False)
    bot_token: str = field(repr=False)
    api_base: str = DISCORD_API


@dataclass(frozen=True, slots=True)
class DiscordUser:
    id: int
    name: str
    locale: str | None


@dataclass(frozen=True, slots=True)
class InstanceLocation:
    guild_id: int
    channel_id: int
    users: frozenset[int]


class DiscordOAuth:
    """The three calls of the sign-in, on one aiohttp client session."""

    def __init__(self, settings: OAuthSettings, session: aiohttp.ClientSession) -> None:
        self.settings = settings
        self.session = session

    async def _json(self, response: aiohttp.ClientResponse, what: str) -> dict[str, Any]:
        if response.status != 200:
            raise OAuthError(f"Discord refused the {what} (HTTP {response.status})")
        try:
            data = await response.json()
        except (aiohttp.ContentTypeError, ValueError):
            raise OAuthError(f"Discord's answer to the {what} was not JSON") from None
        if not isinstance(data, dict):
            raise OAuthError(f"Discord's answer to the {what} was not an object")
        return data

    async def exchange(self, code: str) -> str:
        """The access token for an ``authorize`` code (``grant_type=authorization_code``)."""
        s = self.settings
        form = {"client_id": s.client_id, "client_secret": s.client_secret, "grant_type": "authorization_code",
                "code": code}
        async with self.session.post(f"{s.api_base}/oauth2/token", data=form, timeout=TIMEOUT) as response:
            data = await self._json(response, "code")
        token = data.get("access_token")
        if not isinstance(token, str) or not token:
            raise OAuthError("Discord gave no access token")
        return token

    async def user(self, access_token: str) -> DiscordUser:
        """Who the token belongs to (``identify`` scope)."""
        headers = {"Authorization": f"Bearer {access_token}"}
        async with self.session.get(f"{self.settings.api_base}/users/@me", headers=headers,
                                    timeout=TIMEOUT) as response:
            data = await self._json(response, "token")
        try:
            user_id = int(data["id"])
        except (KeyError, TypeError, ValueError):
            raise OAuthError("Discord's user has no id") from None
        name = data.get("global_name") or data.get("username") or str(user_id)
        locale = data.get("locale")
        return DiscordUser(user_id, str(name), locale if isinstance(locale, str) else None)

    async def instance(self, instance_id: str) -> InstanceLocation:
        """Where an Activity instance runs and who is in it (the bot token: the page cannot forge it)."""
        s = self.settings
        headers = {"Authorization": f"Bot {s.bot_token}"}
        async with self.session.get(f"{s.api_base}/applications/{s.client_id}/activity-instances/{instance_id}",
                                    headers=headers, timeout=TIMEOUT) as response:
            data = await self._json(response, "Activity instance")
        location = data.get("location")
        try:
            assert isinstance(location, dict)
            users = frozenset(int(u) for u in data["users"])
            return InstanceLocation(int(location["guild_id"]), int(location["channel_id"]), users)
        except (AssertionError, KeyError, TypeError, ValueError):
            raise OAuthError("the Activity is not in a server's channel") from None

    async def sign_in(self, code: str, instance_id: str) -> tuple[str, DiscordUser, InstanceLocation]:
        """The whole check: code → token → user → the user is in the instance. Raises OAuthError."""
        token = await self.exchange(code)
        user = await self.user(token)
        where = await self.instance(instance_id)
        if user.id not in where.users:
            raise OAuthError("you are not in this Activity")
        return token, user, where
