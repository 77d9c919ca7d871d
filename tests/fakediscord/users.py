"""People: the users a test plays. They run slash commands, press buttons, choose in
selects, and read back only what they can see (channels, their DMs, their ephemerals)."""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .state import Channel, ChannelType, Guild, Interaction, Message, User, snowflake

if TYPE_CHECKING:
    from collections.abc import Callable

    from .server import FakeDiscord

JSON = dict[str, Any]
DEFAULT_TIMEOUT = 5.0


class NotVisibleError(LookupError):
    """The person cannot see that message (someone else's ephemeral or DM)."""


@dataclass
class InteractionResult:
    """What came of one interaction; properties read the current state (after edits)."""

    server: FakeDiscord
    interaction: Interaction

    @property
    def response_type(self) -> int | None:
        """The accepted callback type (4 reply, 5 defer, 6 deferred update, 7 update, 9 modal, 12 Activity)."""
        return self.interaction.response_type

    @property
    def rejected(self) -> list[tuple[int, int]]:
        """(status, code) of every refused callback, e.g. ``[(404, 10062)]`` when too late."""
        return self.interaction.rejected

    @property
    def message(self) -> Message | None:
        """The original response message as it stands now."""
        mid = self.interaction.original_message_id
        return self.server.messages.get(mid) if mid is not None else None

    @property
    def followups(self) -> list[Message]:
        return [self.server.messages[m] for m in self.interaction.followup_ids]

    @property
    def messages(self) -> list[Message]:
        """The response message and every followup, without repeats."""
        out = [self.message] if self.message is not None else []
        return out + [m for m in self.followups if m not in out]

    @property
    def ephemeral(self) -> bool:
        return self.message is not None and self.message.ephemeral

    @property
    def modal(self) -> JSON | None:
        return self.interaction.modal

    async def wait_followups(self, count: int = 1, timeout: float = DEFAULT_TIMEOUT) -> list[Message]:
        await self.server.wait_for(lambda: len(self.interaction.followup_ids) >= count, timeout)
        return self.followups

    async def wait_done(self, timeout: float = DEFAULT_TIMEOUT) -> Message:
        """Wait until the response message is no longer a "thinking" placeholder."""
        return await self.server.wait_for(
            lambda: self.message if self.message and not self.message.loading else None, timeout
        )


class Person:
    """One user. Made by ``FakeDiscord.create_user``; joins guilds with ``join``."""

    def __init__(self, server: FakeDiscord, user: User) -> None:
        self.server = server
        self.user = user

    def __repr__(self) -> str:
        return f"<Person {self.user.username} {self.user.id}>"

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.username

    @property
    def locale(self) -> str:
        return self.user.locale

    @locale.setter
    def locale(self, value: str) -> None:
        self.user.locale = value

    @property
    def accepts_dms(self) -> bool:
        return self.user.accepts_dms

    @accepts_dms.setter
    def accepts_dms(self, value: bool) -> None:
        self.user.accepts_dms = value

    def join(self, guild: Guild, *, admin: bool = False) -> Person:
        self.server.add_member(guild, self, admin=admin)
        return self

    # ------------------------------------------------------------------ reading

    def can_see(self, message: Message) -> bool:
        channel = self.server.channel_of(message)
        if channel.type == ChannelType.DM:
            return message.visible_to(self.id, [u.id for u in channel.recipients])
        guild = self.server.guilds.get(channel.guild_id or 0)
        if guild is None or self.id not in guild.members:
            return False
        return message.visible_to(self.id)

    def messages(self, channel: Channel, *, with_ephemeral: bool = True) -> list[Message]:
        """The channel as this person sees it, oldest first: everyone's messages plus,
        by default, their own ephemeral ones (never another user's)."""
        return [
            m
            for m in self.server.messages.values()
            if m.channel_id == channel.id
            and self.can_see(m)
            and (with_ephemeral or m.ephemeral_for is None)
        ]

    def ephemerals(self, channel: Channel | None = None) -> list[Message]:
        return [
            m
            for m in self.server.messages.values()
            if m.ephemeral_for == self.id
            and not m.deleted
            and (channel is None or m.channel_id == channel.id)
        ]

    @property
    def dm_channel(self) -> Channel:
        return self.server.dm_channel(self.user)

    def dms(self) -> list[Message]:
        return self.messages(self.dm_channel)

    async def wait_dm(
        self, predicate: Callable[[Message], bool] | None = None, timeout: float = DEFAULT_TIMEOUT
    ) -> Message:
        """The newest DM that matches ``predicate`` (waits for it to arrive)."""

        def found() -> Message | None:
            matching = [m for m in self.dms() if predicate is None or predicate(m)]
            return matching[-1] if matching else None

        return await self.server.wait_for(found, timeout)

    async def wait_message(
        self, channel: Channel, predicate: Callable[[Message], bool], timeout: float = DEFAULT_TIMEOUT
    ) -> Message:
        def found() -> Message | None:
            matching = [m for m in self.messages(channel) if predicate(m)]
            return matching[-1] if matching else None

        return await self.server.wait_for(found, timeout)

    # ------------------------------------------------------------------ acting

    async def say(self, channel: Channel, content: str) -> Message:
        """Post a plain message (the bot gets MESSAGE_CREATE)."""
        message = Message(
            id=snowflake(), channel_id=channel.id, guild_id=channel.guild_id,
            author=self.user, content=content,
        )
        self.server.messages[message.id] = message
        await self.server.announce_message(message)
        return message

    async def slash(
        self,
        command: str,
        *path: str,
        channel: Channel | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        delivery_delay: float = 0.0,
        **options: Any,
    ) -> InteractionResult:
        """Run ``/command [group] [subcommand] option=value...`` and wait for the bot's
        first answer (accepted or refused). ``channel`` defaults to the first text channel
        of the first guild this person is in. ``delivery_delay``: seconds between Discord
        creating the interaction (its id's time, and the start of its 3 s) and sending it on
        the gateway, as when Discord or the bot's socket is slow to deliver it."""
        channel = channel or self._default_channel()
        guild = self.server.guilds.get(channel.guild_id or 0)
        definition = self.server.find_command(command, guild)
        if definition is None:
            raise LookupError(f"no synced command /{command} (global or in this guild)")
        data: JSON = {"id": definition["id"], "name": command, "type": 1}
        if "guild_id" in definition:
            data["guild_id"] = definition["guild_id"]
        resolved: JSON = {}
        data["options"] = _build_options(definition, list(path), options, resolved, self.server, guild)
        if resolved:
            data["resolved"] = resolved
        return await self._interact(2, channel, data, None, timeout, delivery_delay)

    async def click(
        self, message: Message, button: str, *, timeout: float = DEFAULT_TIMEOUT
    ) -> InteractionResult:
        """Press a button (by label or custom_id) on a message this person can see."""
        comp = self._component(message, button)
        if comp.get("type") != 2:
            raise ValueError(f"{button!r} is not a button")
        if comp.get("disabled"):
            raise ValueError(f"button {button!r} is disabled")
        data = {"custom_id": comp["custom_id"], "component_type": 2}
        return await self._interact(3, self.server.channel_of(message), data, message, timeout)

    async def select(
        self, message: Message, select: str, values: list[str], *, timeout: float = DEFAULT_TIMEOUT
    ) -> InteractionResult:
        """Choose ``values`` in a select (by custom_id or placeholder)."""
        comp = self._component(message, select)
        if comp.get("type") != 3:
            raise ValueError(f"{select!r} is not a string select")
        allowed = {o["value"] for o in comp.get("options", [])}
        if not set(values) <= allowed:
            raise ValueError(f"{values} not among the options {sorted(allowed)}")
        low, high = comp.get("min_values", 1), comp.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ValueError(f"choose between {low} and {high} values")
        data = {"custom_id": comp["custom_id"], "component_type": 3, "values": values}
        return await self._interact(3, self.server.channel_of(message), data, message, timeout)

    async def select_users(
        self, message: Message, select: str, users: list[Person], *, timeout: float = DEFAULT_TIMEOUT
    ) -> InteractionResult:
        """Choose ``users`` in a user select (component type 5, by custom_id or placeholder); the
        interaction carries them resolved (users, and members of the channel's guild) as Discord does."""
        comp = self._component(message, select)
        if comp.get("type") != 5:
            raise ValueError(f"{select!r} is not a user select")
        low, high = comp.get("min_values", 1), comp.get("max_values", 1)
        if not low <= len(users) <= high:
            raise ValueError(f"choose between {low} and {high} users")
        channel = self.server.channel_of(message)
        guild = self.server.guilds.get(channel.guild_id or 0)
        resolved: JSON = {}
        values = [str(_option_value({"type": 6, "name": "user"}, user, resolved, self.server, guild)) for user in users]
        data = {"custom_id": comp["custom_id"], "component_type": 5, "values": values, "resolved": resolved}
        return await self._interact(3, channel, data, message, timeout)

    async def submit_modal(
        self, opened: InteractionResult, values: dict[str, str], *, timeout: float = DEFAULT_TIMEOUT
    ) -> InteractionResult:
        """Fill and submit the modal the bot opened (callback type 9) in ``opened``.
        ``values`` maps each text input's custom_id or label to its text."""
        modal = opened.modal
        if modal is None or opened.interaction.user.id != self.id:
            raise LookupError(f"no modal open for {self.name} on that interaction")
        used: set[str] = set()

        def fill(comp: JSON, label: str | None = None) -> JSON:
            if comp.get("type") == 1:
                return {"type": 1, "components": [fill(c) for c in comp.get("components", [])]}
            if comp.get("type") == 18:
                return {"type": 18, "component": fill(comp["component"], comp.get("label"))}
            if comp.get("type") == 4:
                cid = comp["custom_id"]
                key = cid if cid in values else (label or comp.get("label"))
                value = values.get(key or "", comp.get("value") or "")
                used.add(str(key))
                if comp.get("required", True) and not value:
                    raise ValueError(f"text input {cid!r} is required")
                if len(value) > int(comp.get("max_length") or 4000):
                    raise ValueError(f"text input {cid!r} is too long")
                return {"type": 4, "custom_id": cid, "value": value}
            return {"type": comp.get("type"), "custom_id": comp.get("custom_id")}

        data = {"custom_id": modal["custom_id"],
                "components": [fill(c) for c in modal.get("components", [])]}
        unknown = set(values) - used
        if unknown:
            raise LookupError(f"the modal has no inputs {sorted(unknown)}")
        return await self._interact(5, opened.interaction.channel, data,
                                    opened.interaction.message, timeout)

    def _component(self, message: Message, key: str) -> JSON:
        current = self.server.messages.get(message.id, message)
        if not self.can_see(current):
            raise NotVisibleError(f"{self.name} cannot see message {message.id}")
        comp = current.find_component(key)
        if comp is None:
            raise LookupError(f"no component {key!r} on message {message.id}")
        return comp

    def _default_channel(self) -> Channel:
        for guild in self.server.guilds.values():
            if self.id in guild.members:
                for channel in guild.channels.values():
                    if channel.type == ChannelType.GUILD_TEXT:
                        return channel
        raise LookupError(f"{self.name} is in no guild with a text channel")

    async def _interact(
        self, kind: int, channel: Channel, data: JSON, message: Message | None, timeout: float,
        delivery_delay: float = 0.0,
    ) -> InteractionResult:
        server = self.server
        guild = server.guilds.get(channel.guild_id or 0)
        inter = Interaction(
            id=snowflake(), token="aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48), type=kind,
            user=self.user, channel=channel, guild=guild, data=data, message=message,
        )
        server.interactions[inter.id] = inter
        server.interaction_tokens[inter.token] = inter
        if delivery_delay > 0:
            await asyncio.sleep(delivery_delay)
        await server.gateway.dispatch("INTERACTION_CREATE", self._payload(inter))
        result = InteractionResult(server, inter)
        try:
            await server.wait_for(lambda: inter.acknowledged or inter.rejected, timeout)
        except TimeoutError as exc:
            raise TimeoutError(
                f"the bot did not answer {self.name}'s interaction {inter.data} in {timeout}s; "
                f"recent refusals: {server.rejections[-3:]}; unhandled routes: {server.unhandled}"
            ) from exc
        return result

    def _payload(self, inter: Interaction) -> JSON:
        server = self.server
        payload: JSON = {
            "id": str(inter.id),
            "application_id": str(server.application_id),
            "type": inter.type,
            "token": inter.token,
            "version": 1,
            "data": inter.data,
            "channel_id": str(inter.channel.id),
            "channel": inter.channel.payload(),
            "locale": self.user.locale,
            "app_permissions": str(inter.channel.bot_permissions),
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if inter.guild is not None:
            member = inter.guild.members[self.id]
            payload["guild_id"] = str(inter.guild.id)
            payload["guild_locale"] = inter.guild.locale
            payload["guild"] = {"id": str(inter.guild.id), "locale": inter.guild.locale, "features": []}
            payload["member"] = member.payload(inter.guild.everyone)
            payload["context"] = 0
            payload["authorizing_integration_owners"] = {"0": str(inter.guild.id)}
        else:
            payload["user"] = self.user.payload()
            payload["context"] = 1
            payload["authorizing_integration_owners"] = {"1": str(self.id)}
        if inter.message is not None:
            current = server.messages.get(inter.message.id, inter.message)
            inter.message = current
            payload["message"] = current.payload()
        return payload


def _build_options(
    definition: JSON,
    path: list[str],
    values: dict[str, Any],
    resolved: JSON,
    server: FakeDiscord,
    guild: Guild | None,
) -> list[JSON]:
    """Turn ``("join",), {"seat": 2}`` into Discord's nested ``data.options``, checked
    against the synced command (names, types, required options, choices)."""
    options = definition.get("options") or []
    if path:
        name = path[0]
        sub = next((o for o in options if o["name"] == name and o["type"] in (1, 2)), None)
        if sub is None:
            raise LookupError(f"/{definition['name']} has no subcommand or group {name!r}")
        return [{"type": sub["type"], "name": name,
                 "options": _build_options(sub, path[1:], values, resolved, server, guild)}]
    if any(o["type"] in (1, 2) for o in options):
        raise ValueError(f"/{definition['name']} needs a subcommand")
    out: list[JSON] = []
    known = {o["name"]: o for o in options}
    for key in values:
        if key not in known:
            raise LookupError(f"/{definition['name']} has no option {key!r}")
    for opt in options:
        if opt["name"] not in values:
            if opt.get("required"):
                raise ValueError(f"option {opt['name']!r} is required")
            continue
        out.append({"type": opt["type"], "name": opt["name"],
                    "value": _option_value(opt, values[opt["name"]], resolved, server, guild)})
    return out


def _option_value(opt: JSON, value: Any, resolved: JSON, server: FakeDiscord, guild: Guild | None) -> Any:
    kind = opt["type"]
    if kind == 6:  # user
        user = value.user if isinstance(value, Person) else value
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        if guild is not None and user.id in guild.members:
            member = guild.members[user.id].payload(guild.everyone)
            member.pop("user")
            resolved.setdefault("members", {})[str(user.id)] = member
        return str(user.id)
    if kind == 8:  # role
        resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        return str(value.id)
    if kind == 7:  # channel
        channel_payload = value.payload()
        channel_payload["permissions"] = str((1 << 50) - 1)
        resolved.setdefault("channels", {})[str(value.id)] = channel_payload
        return str(value.id)
    checks: dict[int, type | tuple[type, ...]] = {3: str, 4: int, 5: bool, 10: (int, float)}
    if kind in checks and (not isinstance(value, checks[kind]) or (kind == 4 and isinstance(value, bool))):
        raise TypeError(f"option {opt['name']!r} wants type {kind}, got {value!r}")
    choices = [c["value"] for c in opt.get("choices") or []]
    if choices and value not in choices:
        raise ValueError(f"option {opt['name']!r}: {value!r} not among {choices}")
    return value
