"""What the stand-in Discord knows: users, guilds, channels, members, messages, interactions.

Everything here is plain data with a ``payload()`` that renders the object the way
Discord's API v10 sends it (the shapes discord.py 2.7 parses). The server mutates
these objects; the people helpers read them back.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import IntEnum
from typing import Any

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000
ADMINISTRATOR = 1 << 3
# What an ordinary member may do in a text channel: view, send, read history, embed,
# attach, add reactions, use application commands, send in threads.
DEFAULT_MEMBER_PERMISSIONS = (
    (1 << 10) | (1 << 11) | (1 << 16) | (1 << 14) | (1 << 15) | (1 << 6) | (1 << 31) | (1 << 38)
)
ALL_PERMISSIONS = (1 << 50) - 1
# The bits the stand-in enforces on the bot's channel messages (Discord answers 403, code 50013
# "Missing Permissions", or 50001 "Missing Access" without View Channel).
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
SEND_MESSAGES_IN_THREADS = 1 << 38
CREATE_PUBLIC_THREADS = 1 << 35

_counter = itertools.count(1)


def snowflake() -> int:
    """A fresh, unique, time-ordered Discord snowflake."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


class ChannelType(IntEnum):
    GUILD_TEXT = 0
    DM = 1
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12


class MessageFlag(IntEnum):
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7


@dataclass
class User:
    id: int
    username: str
    locale: str = "en-US"
    bot: bool = False
    accepts_dms: bool = True

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.username,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class Channel:
    id: int
    type: ChannelType
    name: str = ""
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    recipients: list[User] = field(default_factory=list)
    owner_id: int | None = None
    # What Discord computes for the bot in this channel from its roles and the channel's
    # overwrites: sent as every interaction's ``app_permissions`` and enforced on its messages.
    bot_permissions: int = ALL_PERMISSIONS

    @property
    def is_thread(self) -> bool:
        return self.type in (ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD)

    def payload(self) -> JSON:
        data: JSON = {"id": str(self.id), "type": int(self.type)}
        if self.type == ChannelType.DM:
            data["recipients"] = [u.payload() for u in self.recipients]
            data["last_message_id"] = None
            return data
        data.update(
            {
                "name": self.name,
                "position": self.position,
                "permission_overwrites": [],
                "nsfw": False,
                "topic": None,
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "parent_id": str(self.parent_id) if self.parent_id else None,
            }
        )
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.is_thread:
            data["owner_id"] = str(self.owner_id or 0)
            data["message_count"] = 0
            data["member_count"] = 0
            data["thread_metadata"] = {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": iso_now(),
                "locked": False,
            }
        return data


@dataclass
class Member:
    user: User
    guild_id: int
    roles: list[Role] = field(default_factory=list)
    joined_at: str = field(default_factory=iso_now)

    def permissions(self, everyone: Role) -> int:
        perms = everyone.permissions
        for role in self.roles:
            perms |= role.permissions
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def payload(self, everyone: Role | None = None) -> JSON:
        data: JSON = {
            "user": self.user.payload(),
            "roles": [str(r.id) for r in self.roles],
            "joined_at": self.joined_at,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "communication_disabled_until": None,
        }
        if everyone is not None:
            data["permissions"] = str(self.permissions(everyone))
        return data


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    locale: str = "en-US"
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    roles: dict[int, Role] = field(default_factory=dict)

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    def payload(self) -> JSON:
        """The full GUILD_CREATE payload (available guild, every member sent)."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": iso_now(),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "members": [m.payload() for m in self.members.values()],
            "channels": [c.payload() for c in self.channels.values() if not c.is_thread],
            "threads": [c.payload() for c in self.channels.values() if c.is_thread],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


@dataclass
class Attachment:
    id: int
    filename: str
    content_type: str
    data: bytes
    base_url: str

    def payload(self) -> JSON:
        url = f"{self.base_url}/attachments/{self.id}/{self.filename}"
        return {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
            "content_type": self.content_type,
        }


@dataclass
class Message:
    """A message as it stands now; edits change it in place (``edits`` counts them)."""

    id: int
    channel_id: int
    author: User
    guild_id: int | None = None
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    ephemeral_for: int | None = None  # user id who alone can see it
    allowed_mentions: JSON | None = None  # as the bot sent it (who the message may notify)
    interaction_id: int | None = None
    webhook_id: int | None = None
    created_at: str = field(default_factory=iso_now)
    edited_at: str | None = None
    edits: int = 0
    deleted: bool = False

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MessageFlag.EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & MessageFlag.LOADING)

    def visible_to(self, user_id: int, dm_recipients: list[int] | None = None) -> bool:
        if self.deleted:
            return False
        if self.ephemeral_for is not None:
            return self.ephemeral_for == user_id
        if dm_recipients is not None:
            return user_id in dm_recipients
        return True

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in iter_components(self.components) if "custom_id" in c]

    def find_component(self, key: str) -> JSON | None:
        """A button or select by custom_id, button label, or select placeholder."""
        for comp in iter_components(self.components):
            if comp.get("type") == 1:
                continue
            if key in (comp.get("custom_id"), comp.get("label"), comp.get("placeholder")):
                return comp
        return None

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.created_at,
            "edited_timestamp": self.edited_at,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": 20 if self.interaction_id else 0,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        return data


def iter_components(components: list[JSON]) -> list[JSON]:
    """Every component, depth first (rows, then what they hold)."""
    out: list[JSON] = []
    for comp in components:
        out.append(comp)
        out.extend(iter_components(comp.get("components", [])))
    return out


INTERACTION_TOKEN_TTL = 15 * 60.0
FIRST_RESPONSE_DEADLINE = 3.0


@dataclass
class Interaction:
    """One interaction a person started, and everything the bot did with it."""

    id: int
    token: str
    type: int  # 2 application command, 3 component
    user: User
    channel: Channel
    guild: Guild | None
    data: JSON
    message: Message | None = None  # the message a component sits on
    created_at: float = field(default_factory=time.monotonic)
    response_type: int | None = None  # callback type accepted (4, 5, 6, 7, 9...)
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    rejected: list[tuple[int, int]] = field(default_factory=list)  # (status, code)
    modal: JSON | None = None
    activity_instance_id: str | None = None  # LAUNCH_ACTIVITY (12): the Activity instance Discord started
    first_callback_at: float | None = None  # monotonic time the bot's first callback arrived
    late_callback_type: Any = None  # the callback type of a first answer refused for coming past 3 s

    @property
    def first_response_latency(self) -> float | None:
        """Seconds from INTERACTION_CREATE to the bot's first callback (accepted or refused)."""
        return None if self.first_callback_at is None else self.first_callback_at - self.created_at

    @property
    def age(self) -> float:
        return time.monotonic() - self.created_at

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None
