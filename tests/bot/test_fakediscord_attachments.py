"""Attachments and application emojis in the stand-in.

Attachments: uploaded on create and on edit, replaced, limited, referenced.

Like Discord: multipart ``payload_json`` + ``files[n]``; on an edit, ``attachments`` lists the old
ones to keep (by id) and names the new files (by index); at most 10; an embed's
``attachment://name`` becomes that file's URL. Stricter: a reference to a file the
message does not have is refused (Discord would show no image), and a refused edit
changes nothing.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import aiohttp
import pytest
from fakediscord import Channel, DiscordEnv

PICTURE_EMBED = {"title": "table", "image": {"url": "attachment://table.png"}}


async def upload(
    env: DiscordEnv, method: str, path: str, body: dict[str, Any], files: list[tuple[str, bytes]]
) -> tuple[int, Any]:
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps(body), content_type="application/json")
    for i, (name, data) in enumerate(files):
        form.add_field(f"files[{i}]", data, filename=name, content_type="image/png")
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, env.api_url + path, data=form,
                        headers={"Authorization": f"Bot {env.token}"}) as resp,
    ):
        return resp.status, await resp.json(content_type=None)


@pytest.fixture
async def channel(discord_env: DiscordEnv) -> Channel:
    return discord_env.create_channel(discord_env.create_guild(), "general")


async def dm_channel(env: DiscordEnv) -> int:
    alice = env.create_user("alice")
    status, data = await upload(env, "POST", "/users/@me/channels", {"recipient_id": str(alice.id)}, [])
    assert status == 200, data
    return int(data["id"])


@pytest.mark.parametrize("where", ["guild", "dm"])
async def test_an_edit_replaces_the_picture(discord_env: DiscordEnv, channel: Channel, where: str) -> None:
    channel_id = channel.id if where == "guild" else await dm_channel(discord_env)
    path = f"/channels/{channel_id}/messages"
    body = {"embeds": [PICTURE_EMBED], "attachments": [{"id": 0, "filename": "table.png"}]}
    status, sent = await upload(discord_env, "POST", path, body, [("table.png", b"\x89PNG one")])
    assert status == 200, sent
    message = discord_env.messages[int(sent["id"])]
    first = message.attachments[0]
    assert (first.filename, first.data) == ("table.png", b"\x89PNG one")
    assert sent["embeds"][0]["image"]["url"] == first.payload()["url"]

    status, edited = await upload(discord_env, "PATCH", f"{path}/{sent['id']}", body, [("table.png", b"\x89PNG two")])
    assert status == 200, edited
    assert [(a.filename, a.data) for a in message.attachments] == [("table.png", b"\x89PNG two")]
    assert message.attachments[0].id != first.id
    assert edited["embeds"][0]["image"]["url"] == message.attachments[0].payload()["url"]
    assert message.edits == 1

    # an edit without ``attachments`` keeps the picture
    status, _ = await upload(discord_env, "PATCH", f"{path}/{sent['id']}", {"content": "x", "embeds": [PICTURE_EMBED]},
                             [])
    assert status == 200
    assert [a.data for a in message.attachments] == [b"\x89PNG two"]


async def test_eleven_files_are_refused(discord_env: DiscordEnv, channel: Channel) -> None:
    files = [(f"f{i}.png", b"x") for i in range(11)]
    status, data = await upload(discord_env, "POST", f"/channels/{channel.id}/messages", {"content": "hi"}, files)
    assert (status, data["code"]) == (400, 50035)
    assert discord_env.messages == {}


async def test_an_embed_naming_a_missing_file_is_refused_and_changes_nothing(
    discord_env: DiscordEnv, channel: Channel
) -> None:
    path = f"/channels/{channel.id}/messages"
    status, data = await upload(discord_env, "POST", path, {"embeds": [PICTURE_EMBED]}, [("other.png", b"x")])
    assert (status, data["code"]) == (400, 50035)
    assert "ATTACHMENT_NOT_FOUND" in json.dumps(data["errors"])
    body = {"embeds": [PICTURE_EMBED], "attachments": [{"id": 0, "filename": "table.png"}]}
    status, sent = await upload(discord_env, "POST", path, body, [("table.png", b"one")])
    assert status == 200
    message = discord_env.messages[int(sent["id"])]
    # dropping every attachment while the embed still shows the picture: refused, nothing changes
    status, data = await upload(discord_env, "PATCH", f"{path}/{sent['id']}",
                                {"embeds": [PICTURE_EMBED], "attachments": []}, [])
    assert (status, data["code"]) == (400, 50035)
    assert [a.data for a in message.attachments] == [b"one"] and message.edits == 0


async def test_application_emojis_are_created_listed_and_checked(discord_env: DiscordEnv) -> None:
    """``/applications/{id}/emojis`` like Discord: a valid name, unique, an image data URI up to 256 KiB."""
    path = f"/applications/{discord_env.application_id}/emojis"
    png = "data:image/png;base64," + base64.b64encode(b"\x89PNG tiny").decode()
    status, made = await upload(discord_env, "POST", path, {"name": "bl_QH", "image": png}, [])
    assert status == 201 and made["name"] == "bl_QH"
    async with (
        aiohttp.ClientSession() as session,
        session.get(discord_env.api_url + path, headers={"Authorization": f"Bot {discord_env.token}"}) as resp,
    ):
        listed = await resp.json()
    assert [e["name"] for e in listed["items"]] == ["bl_QH"]
    big = "data:image/png;base64," + base64.b64encode(b"x" * (256 * 1024 + 1)).decode()
    for body, field in [
        ({"name": "bl_QH", "image": png}, "name"),  # taken
        ({"name": "q", "image": png}, "name"),
        ({"name": "bl-QH", "image": png}, "name"),
        ({"name": "bl_KH", "image": "not an image"}, "image"),
        ({"name": "bl_KH", "image": big}, "image"),  # over 256 KiB
    ]:
        status, data = await upload(discord_env, "POST", path, body, [])
        assert (status, data["code"]) == (400, 50035), body["name"]
        assert list(data["errors"]) == [field], data
    assert [name for name, _ in discord_env.app_emojis.values()] == ["bl_QH"]
