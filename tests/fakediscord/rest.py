"""REST API v10 handlers: identity, command sync, channel messages, DMs, interactions.

Route templates are spelled as in Discord's OpenAPI spec, so the call log and
the schema validation share one vocabulary.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import time
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .state import (
    ATTACH_FILES,
    CREATE_PUBLIC_THREADS,
    FIRST_RESPONSE_DEADLINE,
    INTERACTION_TOKEN_TTL,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Attachment,
    Channel,
    ChannelType,
    Guild,
    Interaction,
    Message,
    MessageFlag,
    User,
    iso_now,
    snowflake,
)
from .validation import DiscordError, FormErrors, check_attachments, check_commands, check_files, check_message

if TYPE_CHECKING:
    from .server import FakeDiscord

JSON = dict[str, Any]
Files = list[tuple[str, str, bytes]]
Handler = Any

UNKNOWN_INTERACTION = DiscordError(404, 10062, "Unknown interaction")
ALREADY_ACKNOWLEDGED = DiscordError(400, 40060, "Interaction has already been acknowledged.")
UNKNOWN_WEBHOOK = DiscordError(404, 10015, "Unknown Webhook")
INVALID_WEBHOOK_TOKEN = DiscordError(401, 50027, "Invalid Webhook Token")
UNKNOWN_MESSAGE = DiscordError(404, 10008, "Unknown Message")
UNKNOWN_CHANNEL = DiscordError(404, 10003, "Unknown Channel")
CANNOT_DM = DiscordError(403, 50007, "Cannot send messages to this user")
EMPTY_MESSAGE = DiscordError(400, 50006, "Cannot send an empty message")
MISSING_ACCESS = DiscordError(403, 50001, "Missing Access")
MISSING_PERMISSIONS = DiscordError(403, 50013, "Missing Permissions")


def check_bot_permissions(channel: Channel, files: Files, *, creating: bool) -> None:
    """Refuse a bot message the bot may not send in ``channel`` as Discord does: no View Channel →
    50001; no Send Messages (Send Messages in Threads in a thread) for a new message, or no Attach
    Files for a message with files → 50013. (Interaction responses need none of these.)"""
    if channel.guild_id is None:
        return
    perms = channel.bot_permissions
    if not perms & VIEW_CHANNEL:
        raise MISSING_ACCESS
    send = SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES
    if (creating and not perms & send) or (files and not perms & ATTACH_FILES):
        raise MISSING_PERMISSIONS


def _ok(data: Any, status: int = 200) -> web.Response:
    from .server import json_response

    return json_response(data, status)


def _no_content() -> web.Response:
    return web.Response(status=204)


class RestApi:
    def __init__(self, server: FakeDiscord) -> None:
        self.server = server

    def register(self, router: web.UrlDispatcher, prefix: str) -> None:
        webhook = "/webhooks/{webhook_id}/{webhook_token}"
        routes: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self.get_me),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/@me", self.get_application),
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_bot_gateway),
            ("GET", "/applications/{application_id}/commands", self.list_commands),
            ("PUT", "/applications/{application_id}/commands", self.sync_commands),
            ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", self.list_commands),
            ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self.sync_commands),
            ("GET", "/applications/{application_id}/emojis", self.list_app_emojis),
            ("POST", "/applications/{application_id}/emojis", self.create_app_emoji),
            ("DELETE", "/applications/{application_id}/emojis/{emoji_id}", self.delete_app_emoji),
            ("POST", "/users/@me/channels", self.create_dm),
            ("GET", "/users/{user_id}", self.get_user),
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/channels", self.get_guild_channels),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("GET", "/channels/{channel_id}/messages", self.list_messages),
            ("POST", "/channels/{channel_id}/messages", self.create_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            ("POST", "/channels/{channel_id}/threads", self.start_thread),
            ("POST", "/interactions/{interaction_id}/{interaction_token}/callback", self.callback),
            ("POST", webhook, self.followup),
            ("GET", webhook + "/messages/@original", self.webhook_get),
            ("PATCH", webhook + "/messages/@original", self.webhook_edit),
            ("DELETE", webhook + "/messages/@original", self.webhook_delete),
            ("GET", webhook + "/messages/{message_id}", self.webhook_get),
            ("PATCH", webhook + "/messages/{message_id}", self.webhook_edit),
            ("DELETE", webhook + "/messages/{message_id}", self.webhook_delete),
        ]
        for method, path, handler in routes:
            router.add_route(method, prefix + path, handler)

    # ------------------------------------------------------------------ body handling

    async def read_body(self, request: web.Request) -> tuple[Any, Files]:
        """JSON body, or multipart ``payload_json`` + ``files[n]``; validated against the spec."""
        files: Files = []
        body: Any = None
        try:
            if request.content_type == "multipart/form-data":
                reader = await request.multipart()
                async for part in reader:
                    if part is None or not hasattr(part, "name"):
                        continue
                    name = part.name or ""
                    if name == "payload_json":
                        body = json.loads(await part.text())  # type: ignore[union-attr]
                    elif name.startswith("files["):
                        data = bytes(await part.read())  # type: ignore[union-attr]
                        ctype = part.headers.get("Content-Type", "application/octet-stream")
                        files.append((part.filename or "file", ctype, data))  # type: ignore[union-attr]
            elif request.can_read_body:
                body = json.loads(await request.text())
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise DiscordError(400, 50109, "The request body contains invalid JSON.") from exc
        check_files(files)
        resource = request.match_info.route.resource
        template = (resource.canonical if resource else request.path).removeprefix("/api/v10")
        errors = FormErrors()
        if self.server.schema is not None and body is not None:
            self.server.schema.check(request.method, template, body, errors)
        if template.startswith(("/channels/", "/webhooks/")) and not template.endswith("/threads"):
            check_message(body, errors)
        elif template.endswith("/commands") and request.method == "PUT":
            check_commands(body, errors)
        elif (
            template.endswith("/callback")
            and isinstance(body, dict)
            and body.get("type") in (4, 7)
            and isinstance(body.get("data"), dict)
        ):
            check_message(body["data"], errors, ("data",))
        errors.raise_if_any()
        return body if body is not None else {}, files

    def _attachments(self, body: JSON, files: Files) -> list[Attachment]:
        """New attachments from uploaded ``files``.

        discord.py names them in ``attachments`` as ``{"id": n, "filename": ...}`` for ``files[n]``
        (small ids; kept attachments carry their snowflakes)."""
        out = []
        for filename, ctype, data in files:
            out.append(Attachment(snowflake(), filename, ctype, data, self.server.url))
        for meta in body.get("attachments") or []:
            idx = meta.get("id")
            if isinstance(idx, (int, str)) and str(idx).isdigit() and int(idx) < len(out):
                out[int(idx)].filename = meta.get("filename") or out[int(idx)].filename
        return out

    def new_message(
        self,
        channel: Channel,
        body: JSON,
        files: Files,
        *,
        author: User | None = None,
        ephemeral_for: int | None = None,
        interaction: Interaction | None = None,
        flags: int = 0,
    ) -> Message:
        attachments = self._attachments(body, files)
        embeds = body.get("embeds") or []
        check_attachments(embeds, [a.filename for a in attachments])
        message = Message(
            id=snowflake(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author or self.server.bot_user,
            content=body.get("content") or "",
            embeds=_resolve_attachments(embeds, attachments),
            components=body.get("components") or [],
            attachments=attachments,
            flags=flags | (int(body.get("flags") or 0) & MessageFlag.EPHEMERAL),
            ephemeral_for=ephemeral_for,
            interaction_id=interaction.id if interaction else None,
            allowed_mentions=body.get("allowed_mentions"),  # who it may notify (a followup too)
            webhook_id=self.server.application_id if interaction else None,
        )
        if not (message.flags & MessageFlag.LOADING) and not (
            message.content or message.embeds or message.components or message.attachments
        ):
            raise EMPTY_MESSAGE
        self.server.messages[message.id] = message
        return message

    def apply_edit(self, message: Message, body: JSON, files: Files) -> None:
        """An edit; ``attachments`` in the body lists the old ones to keep (and names the new files).

        Checked before anything changes: a refused edit leaves the message as it was.
        """
        attachments = list(message.attachments)
        if "attachments" in body:
            keep = {str(a.get("id")) for a in body["attachments"] or []}
            attachments = [a for a in attachments if str(a.id) in keep]
        attachments += self._attachments(body, files)
        embeds = body["embeds"] or [] if "embeds" in body else message.embeds
        check_attachments(embeds, [a.filename for a in attachments])
        for key in ("content", "components"):
            if key in body:
                setattr(message, key, body[key] if body[key] is not None else ([] if key != "content" else ""))
        message.attachments = attachments
        message.embeds = _resolve_attachments(embeds, attachments)
        message.flags &= ~MessageFlag.LOADING
        message.edited_at = iso_now()
        message.edits += 1

    # ------------------------------------------------------------------ identity

    async def get_me(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization", "").startswith("Bearer "):  # a user's OAuth2 token
            user = self.server.activity.bearer_user(request)
            return _ok({**user.payload(), "locale": user.locale, "mfa_enabled": False, "flags": 0})
        return _ok({**self.server.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0})

    async def get_application(self, request: web.Request) -> web.Response:
        s = self.server
        return _ok(
            {
                "id": str(s.application_id),
                "name": s.bot_user.username,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "owner": s.bot_user.payload(),
                "flags": 0,
                "team": None,
                "summary": "",
                "bot": s.bot_user.payload(),
            }
        )

    # ------------------------------------------------------------------ application emojis

    def _emoji(self, emoji_id: int) -> JSON:
        name, _image = self.server.app_emojis[emoji_id]
        return {"id": str(emoji_id), "name": name, "roles": [], "user": self.server.bot_user.payload(),
                "require_colons": True, "managed": False, "animated": False, "available": True}

    async def list_app_emojis(self, request: web.Request) -> web.Response:
        self._check_app(request)
        return _ok({"items": [self._emoji(i) for i in self.server.app_emojis]})

    async def create_app_emoji(self, request: web.Request) -> web.Response:
        """Like Discord: a name of 2-32 of ``[A-Za-z0-9_]``, unique; a PNG/JPEG/GIF/WebP data URI up to 256 KiB;
        at most 2000 emojis per application."""
        self._check_app(request)
        body, _files = await self.read_body(request)
        errors = FormErrors()
        name = body.get("name") if isinstance(body, dict) else None
        image = body.get("image") if isinstance(body, dict) else None
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_]{2,32}", name):
            errors.add(("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 2 and 32 in length, letters, digits, _.")
        elif any(n == name for n, _ in self.server.app_emojis.values()):
            errors.add(("name",), "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Emoji name already taken.")
        data = b""
        found = re.fullmatch(r"data:image/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/=]+)", image or "")
        if found is None:
            errors.add(("image",), "IMAGE_INVALID", "Invalid image data")
        else:
            try:
                data = base64.b64decode(found.group(2), validate=True)
            except binascii.Error:
                errors.add(("image",), "IMAGE_INVALID", "Invalid image data")
            if len(data) > 256 * 1024:
                errors.add(("image",), "BINARY_TYPE_MAX_SIZE", "File cannot be larger than 256.0 kb.")
        errors.raise_if_any()
        if len(self.server.app_emojis) >= 2000:
            raise DiscordError(400, 30018, "Maximum number of emojis reached (2000)")
        emoji_id = snowflake()
        self.server.app_emojis[emoji_id] = (str(name), data)
        return _ok(self._emoji(emoji_id), 201)

    async def delete_app_emoji(self, request: web.Request) -> web.Response:
        self._check_app(request)
        if self.server.app_emojis.pop(int(request.match_info["emoji_id"]), None) is None:
            raise DiscordError(404, 10014, "Unknown Emoji")
        return _no_content()

    async def get_gateway(self, request: web.Request) -> web.Response:
        return _ok({"url": self.server.gateway_url})

    async def get_bot_gateway(self, request: web.Request) -> web.Response:
        """The gateway URL, the recommended shard count, and the session start limit: IDENTIFYs left
        today (1000 a day), and ``max_concurrency``, how many shards may identify per 5 seconds."""
        s = self.server
        return _ok(
            {
                "url": s.gateway_url,
                "shards": s.recommended_shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": max(1000 - s.gateway.identifies, 0),
                    "reset_after": 86_400_000,
                    "max_concurrency": s.max_concurrency,
                },
            }
        )

    async def get_user(self, request: web.Request) -> web.Response:
        user = self.server.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise DiscordError(404, 10013, "Unknown User")
        return _ok(user.payload())

    def _guild(self, request: web.Request) -> Guild:
        guild = self.server.guilds.get(int(request.match_info["guild_id"]))
        if guild is None:
            raise DiscordError(404, 10004, "Unknown Guild")
        return guild

    async def get_guild(self, request: web.Request) -> web.Response:
        return _ok(self._guild(request).payload())

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        return _ok([c.payload() for c in self._guild(request).channels.values() if not c.is_thread])

    async def get_member(self, request: web.Request) -> web.Response:
        member = self._guild(request).members.get(int(request.match_info["user_id"]))
        if member is None:
            raise DiscordError(404, 10007, "Unknown Member")
        return _ok(member.payload())

    # ------------------------------------------------------------------ commands

    def _check_app(self, request: web.Request) -> None:
        if request.match_info["application_id"] != str(self.server.application_id):
            raise DiscordError(404, 10002, "Unknown Application")

    async def list_commands(self, request: web.Request) -> web.Response:
        self._check_app(request)
        gid = request.match_info.get("guild_id")
        if gid is None:
            return _ok(self.server.global_commands)
        return _ok(self.server.guild_commands.get(int(gid), []))

    async def sync_commands(self, request: web.Request) -> web.Response:
        self._check_app(request)
        body, _ = await self.read_body(request)
        gid = request.match_info.get("guild_id")
        if gid is not None and int(gid) not in self.server.guilds:
            raise DiscordError(403, 50001, "Missing Access")
        stored = []
        for cmd in body:
            entry = {
                **cmd,
                "id": str(snowflake()),
                "application_id": str(self.server.application_id),
                "version": str(snowflake()),
                "type": cmd.get("type", 1),
                "default_member_permissions": cmd.get("default_member_permissions"),
                "description": cmd.get("description", ""),
            }
            if gid is not None:
                entry["guild_id"] = gid
            stored.append(entry)
        if gid is None:
            self.server.global_commands = stored
        else:
            self.server.guild_commands[int(gid)] = stored
        self.server.command_syncs += 1
        return _ok(stored)

    # ------------------------------------------------------------------ channels and DMs

    def _channel(self, request: web.Request) -> Channel:
        channel = self.server.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            raise UNKNOWN_CHANNEL
        return channel

    def _message(self, request: web.Request, channel: Channel) -> Message:
        message = self.server.messages.get(int(request.match_info["message_id"]))
        if message is None or message.deleted or message.channel_id != channel.id:
            raise UNKNOWN_MESSAGE
        if message.ephemeral_for is not None:
            raise UNKNOWN_MESSAGE  # ephemeral messages are not reachable through channels
        return message

    async def get_channel(self, request: web.Request) -> web.Response:
        return _ok(self._channel(request).payload())

    async def create_dm(self, request: web.Request) -> web.Response:
        body, _ = await self.read_body(request)
        user = self.server.users.get(int(body.get("recipient_id", 0)))
        if user is None:
            raise DiscordError(400, 50035, "Invalid Form Body", {"recipient_id": {"_errors": [
                {"code": "USER_NOT_FOUND", "message": "Unknown user"}]}})
        return _ok(self.server.dm_channel(user).payload())

    async def list_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        limit = int(request.query.get("limit", "50"))
        found = [
            m.payload()
            for m in reversed(self.server.messages.values())
            if m.channel_id == channel.id and not m.deleted and m.ephemeral_for is None
        ]
        return _ok(found[:limit])

    async def create_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, files = await self.read_body(request)
        if int(body.get("flags") or 0) & MessageFlag.EPHEMERAL:
            raise DiscordError(400, 50035, "Invalid Form Body", {"flags": {"_errors": [
                {"code": "MESSAGE_FLAGS_INVALID", "message": "Ephemeral needs an interaction."}]}})
        if channel.type == ChannelType.DM and not channel.recipients[0].accepts_dms:
            raise CANNOT_DM
        check_bot_permissions(channel, files, creating=True)
        message = self.new_message(channel, body, files)
        await self.server.announce_message(message)
        return _ok(message.payload())

    async def start_thread(self, request: web.Request) -> web.Response:
        """Start Thread without Message: a public thread (type 11) of a guild text channel, its
        ``name`` 1-100 characters; the bot needs View Channel and Create Public Threads there
        (50001/50013). Answers the thread (201) and dispatches ``THREAD_CREATE`` like Discord."""
        parent = self._channel(request)
        body, _files = await self.read_body(request)
        if parent.guild_id is None or parent.is_thread:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        if not parent.bot_permissions & VIEW_CHANNEL:
            raise MISSING_ACCESS
        if not parent.bot_permissions & CREATE_PUBLIC_THREADS:
            raise MISSING_PERMISSIONS
        errors = FormErrors()
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            errors.add(("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        if body.get("type", ChannelType.PRIVATE_THREAD) != ChannelType.PUBLIC_THREAD:
            errors.add(("type",), "BASE_TYPE_CHOICES", "Only public threads are supported here.")
        errors.raise_if_any()
        guild = self.server.guilds[parent.guild_id]
        thread = self.server.create_channel(guild, str(name), thread_of=parent,
                                            bot_permissions=parent.bot_permissions)
        self.server.threads_started.append(thread.id)
        return _ok(thread.payload(), 201)

    async def get_message(self, request: web.Request) -> web.Response:
        return _ok(self._message(request, self._channel(request)).payload())

    async def edit_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        message = self._message(request, channel)
        body, files = await self.read_body(request)
        check_bot_permissions(channel, files, creating=False)
        if message.author.id != self.server.bot_user.id:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        self.apply_edit(message, body, files)
        await self.server.announce_message(message, edited=True)
        return _ok(message.payload())

    async def delete_message(self, request: web.Request) -> web.Response:
        message = self._message(request, self._channel(request))
        message.deleted = True
        self.server.notify()
        return _no_content()

    # ------------------------------------------------------------------ interactions

    async def callback(self, request: web.Request) -> web.Response:
        server = self.server
        inter = server.interactions.get(int(request.match_info["interaction_id"]))
        if inter is None or inter.token != request.match_info["interaction_token"]:
            raise UNKNOWN_INTERACTION
        if inter.first_callback_at is None:
            inter.first_callback_at = time.monotonic()
        try:
            body, files = await self.read_body(request)
            if inter.acknowledged:
                raise ALREADY_ACKNOWLEDGED
            if inter.age > FIRST_RESPONSE_DEADLINE:
                inter.late_callback_type = body.get("type")
                raise UNKNOWN_INTERACTION
            response = await self._respond(inter, body, files)
        except DiscordError as err:
            inter.rejected.append((err.status, err.code))
            raise
        finally:
            server.notify()
        if request.query.get("with_response") in ("1", "true", "True"):
            return _ok(response)
        return _no_content()

    async def _respond(self, inter: Interaction, body: JSON, files: Files) -> JSON:
        kind = body.get("type")
        data = body.get("data") or {}
        ephemeral = bool(int(data.get("flags") or 0) & MessageFlag.EPHEMERAL)
        eph_user = inter.user.id if ephemeral else None
        message: Message | None = None
        if kind in (6, 7) and inter.type != 3:
            raise DiscordError(400, 50035, "Invalid Form Body", {"type": {"_errors": [
                {"code": "INTERACTION_TYPE_INVALID", "message": "Only for component interactions."}]}})
        if kind == 4:
            message = self.new_message(inter.channel, data, files, ephemeral_for=eph_user, interaction=inter)
            await self.server.announce_message(message)
        elif kind == 5:
            message = self.new_message(
                inter.channel, {"flags": data.get("flags")}, [],
                ephemeral_for=eph_user, interaction=inter, flags=MessageFlag.LOADING,
            )
            await self.server.announce_message(message)
        elif kind == 6:
            message = inter.message
        elif kind == 7:
            message = inter.message
            assert message is not None
            self.apply_edit(message, data, files)
            await self.server.announce_message(message, edited=True)
        elif kind == 8:
            inter.modal = None
        elif kind == 9:
            inter.modal = data
        elif kind == 12:  # LAUNCH_ACTIVITY: commands and components only; Discord starts the app's Activity
            if inter.type not in (2, 3):
                raise DiscordError(400, 50035, "Invalid Form Body", {"type": {"_errors": [
                    {"code": "INTERACTION_TYPE_INVALID", "message": "Only for commands and components."}]}})
            if self.server.activity.client_secret is None:
                raise DiscordError(400, 50035, "Invalid Form Body", {"type": {"_errors": [
                    {"code": "INTERACTION_TYPE_INVALID", "message": "This application has no Activity."}]}})
            inter.activity_instance_id = self.server.activity.launch(inter.channel, inter.user).id
        else:
            raise DiscordError(400, 50035, "Invalid Form Body", {"type": {"_errors": [
                {"code": "BASE_TYPE_CHOICES", "message": f"Value {kind!r} is not a valid callback."}]}})
        inter.response_type = int(kind)
        inter.original_message_id = message.id if message else None
        payload: JSON = {
            "interaction": {
                "id": str(inter.id),
                "type": inter.type,
                "response_message_id": str(message.id) if message else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(message and message.ephemeral),
            },
            "resource": {"type": kind},
        }
        if message is not None and kind in (4, 5, 7):
            payload["resource"]["message"] = message.payload()
        if inter.activity_instance_id is not None:
            payload["resource"]["activity_instance"] = {"id": inter.activity_instance_id}
        return payload

    def _webhook_interaction(self, request: web.Request) -> Interaction:
        if request.match_info["webhook_id"] != str(self.server.application_id):
            raise UNKNOWN_WEBHOOK
        token = request.match_info["webhook_token"]
        inter = self.server.interaction_tokens.get(token)
        if inter is None:
            raise UNKNOWN_WEBHOOK
        if inter.age > INTERACTION_TOKEN_TTL:
            raise INVALID_WEBHOOK_TOKEN
        if not inter.acknowledged:
            raise UNKNOWN_WEBHOOK
        return inter

    def _webhook_message(self, request: web.Request, inter: Interaction) -> Message:
        mid = request.match_info.get("message_id")
        if mid is None:  # @original
            if inter.original_message_id is None:
                raise UNKNOWN_MESSAGE
            message_id = inter.original_message_id
        else:
            message_id = int(mid)
            if message_id not in (inter.original_message_id, *inter.followup_ids):
                raise UNKNOWN_MESSAGE
        message = self.server.messages.get(message_id)
        if message is None or message.deleted:
            raise UNKNOWN_MESSAGE
        return message

    async def followup(self, request: web.Request) -> web.Response:
        inter = self._webhook_interaction(request)
        body, files = await self.read_body(request)
        original = self.server.messages.get(inter.original_message_id or 0)
        if inter.response_type == 5 and original is not None and original.loading and not inter.followup_ids:
            # The first followup after a "thinking" defer replaces the loading message.
            self.apply_edit(original, body, files)
            message = original
            await self.server.announce_message(message, edited=True)
        else:
            ephemeral = bool(int(body.get("flags") or 0) & MessageFlag.EPHEMERAL)
            message = self.new_message(
                inter.channel, body, files,
                ephemeral_for=inter.user.id if ephemeral else None, interaction=inter,
            )
            await self.server.announce_message(message)
        inter.followup_ids.append(message.id)
        self.server.notify()
        if request.query.get("wait") in ("1", "true", "True"):
            return _ok(message.payload())
        return _no_content()

    async def webhook_get(self, request: web.Request) -> web.Response:
        inter = self._webhook_interaction(request)
        return _ok(self._webhook_message(request, inter).payload())

    async def webhook_edit(self, request: web.Request) -> web.Response:
        inter = self._webhook_interaction(request)
        message = self._webhook_message(request, inter)
        body, files = await self.read_body(request)
        self.apply_edit(message, body, files)
        await self.server.announce_message(message, edited=True)
        return _ok(message.payload())

    async def webhook_delete(self, request: web.Request) -> web.Response:
        inter = self._webhook_interaction(request)
        self._webhook_message(request, inter).deleted = True
        self.server.notify()
        return _no_content()


def _resolve_attachments(embeds: list[JSON], attachments: list[Attachment]) -> list[JSON]:
    """Embeds as Discord returns them: ``attachment://name`` in an image or thumbnail becomes that file's URL."""
    urls = {a.filename: a.payload()["url"] for a in attachments}
    out = []
    for embed in embeds:
        if isinstance(embed, dict):
            embed = dict(embed)
            for key in ("image", "thumbnail"):
                media = embed.get(key)
                if not isinstance(media, dict):
                    continue
                url = media.get("url")
                if isinstance(url, str) and url.startswith("attachment://") and url[13:] in urls:
                    embed[key] = {**media, "url": urls[url[13:]], "proxy_url": urls[url[13:]]}
        out.append(embed)
    return out
