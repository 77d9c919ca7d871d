"""The stand-in is strict like Discord: schema, limits, deadlines, DMs, 429s, counting."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from fakediscord import Channel, DiscordEnv, FakeDiscord, Person
from fakediscord.validation import _load_spec, iter_error_codes, load_spec

EXAMPLE_BOT = Path(__file__).parents[1] / "fakediscord" / "example_bot.py"


async def call(
    server: FakeDiscord, method: str, path: str, body: Any = None, *, auth: bool = True
) -> tuple[int, Any, aiohttp.ClientResponse]:
    """One REST request as the bot (or without a token), answer decoded."""
    headers = {"Authorization": f"Bot {server.token}"} if auth else {}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, server.api_url + path, json=body, headers=headers) as resp,
    ):
        data = await resp.json(content_type=None) if resp.status != 204 else None
        return resp.status, data, resp


@pytest.fixture
async def channel(discord_env: DiscordEnv) -> Channel:
    guild = discord_env.create_guild()
    return discord_env.create_channel(guild, "general")


def button(custom_id: str, label: str = "ok") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def select(custom_id: str, n_options: int) -> dict[str, Any]:
    options = [{"label": f"o{i}", "value": f"v{i}"} for i in range(n_options)]
    return {"type": 3, "custom_id": custom_id, "options": options}


BROKEN_BODIES: dict[str, tuple[dict[str, Any], str]] = {
    "content over 2000": ({"content": "x" * 2001}, "BASE_TYPE_MAX_LENGTH"),
    "11 embeds": ({"embeds": [{"title": "t"}] * 11}, "BASE_TYPE_MAX_LENGTH"),
    "embed title over 256": ({"embeds": [{"title": "t" * 257}]}, "BASE_TYPE_MAX_LENGTH"),
    "embeds over 6000 in total": (
        {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]},
        "MAX_EMBED_SIZE_EXCEEDED",
    ),
    "field value over 1024": (
        {"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]},
        "BASE_TYPE_MAX_LENGTH",
    ),
    "6 action rows": (
        {"components": [row(button(f"b{i}")) for i in range(6)]},
        "BASE_TYPE_MAX_LENGTH",
    ),
    "6 buttons in a row": (
        {"components": [row(*(button(f"b{i}") for i in range(6)))]},
        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
    ),
    "select beside a button": (
        {"components": [row(select("s", 2), button("b"))]},
        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
    ),
    "duplicate custom_id": (
        {"components": [row(button("same")), row(button("same"))]},
        "COMPONENT_CUSTOM_ID_DUPLICATED",
    ),
    "custom_id over 100": ({"components": [row(button("c" * 101))]}, "BASE_TYPE_BAD_LENGTH"),
    "empty custom_id": ({"components": [row(button(""))]}, "BASE_TYPE_BAD_LENGTH"),
    "label over 80": ({"components": [row(button("b", "l" * 81))]}, "BASE_TYPE_MAX_LENGTH"),
    "26 select options": ({"components": [row(select("s", 26))]}, "BASE_TYPE_BAD_LENGTH"),
}


@pytest.mark.parametrize("case", BROKEN_BODIES)
async def test_limits_rejected_with_50035(discord_env: DiscordEnv, channel: Channel, case: str) -> None:
    body, code = BROKEN_BODIES[case]
    status, data, resp = await call(discord_env, "POST", f"/channels/{channel.id}/messages", body)
    assert status == 400
    assert resp.headers["Content-Type"] == "application/json"
    assert data["code"] == 50035
    assert code in set(iter_error_codes(data["errors"]))
    assert discord_env.messages == {}
    assert discord_env.calls.count("POST /channels/{channel_id}/messages", kind="bot", status=400) == 1


async def test_limits_at_the_edge_are_accepted(discord_env: DiscordEnv, channel: Channel) -> None:
    body = {
        "content": "x" * 2000,
        "embeds": [{"description": "d" * 4000}, {"description": "d" * 2000}],
        "components": [row(*(button(f"b{r}{i}") for i in range(5))) for r in range(4)]
        + [row(select("s", 25))],
    }
    status, data, resp = await call(discord_env, "POST", f"/channels/{channel.id}/messages", body)
    assert status == 200, data
    assert resp.headers["Content-Type"] == "application/json"
    assert discord_env.messages[int(data["id"])].content == "x" * 2000


async def test_schema_violations_rejected(discord_env: DiscordEnv, channel: Channel) -> None:
    assert discord_env.schema is not None, "openapi.json should be found (or DISCORD_API_SPEC)"
    status, data, _ = await call(
        discord_env, "POST", f"/channels/{channel.id}/messages", {"content": "hi", "tts": "yes"}
    )
    assert (status, data["code"]) == (400, 50035)
    assert "tts" in data["errors"]
    status, data, _ = await call(
        discord_env, "PUT", f"/applications/{discord_env.application_id}/commands",
        [{"name": "Bad Name!", "description": "d", "type": 1}],
    )
    assert (status, data["code"]) == (400, 50035)
    assert "APPLICATION_COMMAND_INVALID_NAME" in set(iter_error_codes(data["errors"]))
    assert discord_env.global_commands == []


async def test_limits_still_enforced_without_spec(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("DISCORD_API_SPEC", str(tmp_path / "missing.json"))
    assert load_spec() is None
    async with FakeDiscord() as server:
        assert server.schema is None
        ch = server.create_channel(server.create_guild(), "general")
        status, data, _ = await call(server, "POST", f"/channels/{ch.id}/messages", {"content": "x" * 2001})
        assert (status, data["code"]) == (400, 50035)
    _load_spec.cache_clear()


async def test_bad_token_and_empty_message(discord_env: DiscordEnv, channel: Channel) -> None:
    status, data, _ = await call(discord_env, "GET", "/users/@me", auth=False)
    assert (status, data["code"]) == (401, 0)
    async with (
        aiohttp.ClientSession() as session,
        session.get(discord_env.api_url + "/users/@me", headers={"Authorization": "Bot wrong"}) as r,
    ):
        assert r.status == 401
    status, data, _ = await call(discord_env, "POST", f"/channels/{channel.id}/messages", {})
    assert (status, data["code"]) == (400, 50006)


async def test_closed_dms_answer_403_50007(discord_env: DiscordEnv) -> None:
    carol = discord_env.create_user("carol", accepts_dms=False)
    status, dm, _ = await call(discord_env, "POST", "/users/@me/channels", {"recipient_id": str(carol.id)})
    assert status == 200 and dm["type"] == 1
    status, data, _ = await call(discord_env, "POST", f"/channels/{dm['id']}/messages", {"content": "hi"})
    assert (status, data["code"]) == (403, 50007)
    carol.accepts_dms = True
    status, data, _ = await call(discord_env, "POST", f"/channels/{dm['id']}/messages", {"content": "hi"})
    assert status == 200
    assert [m.content for m in carol.dms()] == ["hi"]


async def test_bot_permissions_in_a_channel(discord_env: DiscordEnv) -> None:
    """The bot's permissions in a channel are its ``app_permissions`` and bound its messages there:
    no View Channel → 403/50001, no Send Messages → 403/50013, files without Attach Files → 403/50013."""
    guild = discord_env.create_guild()
    view, send, attach = 1 << 10, 1 << 11, 1 << 15
    mute = discord_env.create_channel(guild, "mute", bot_permissions=view)
    hidden = discord_env.create_channel(guild, "hidden", bot_permissions=0)
    text_only = discord_env.create_channel(guild, "text-only", bot_permissions=view | send)
    status, data, _ = await call(discord_env, "POST", f"/channels/{hidden.id}/messages", {"content": "hi"})
    assert (status, data["code"]) == (403, 50001)
    status, data, _ = await call(discord_env, "POST", f"/channels/{mute.id}/messages", {"content": "hi"})
    assert (status, data["code"]) == (403, 50013)
    status, data, _ = await call(discord_env, "POST", f"/channels/{text_only.id}/messages", {"content": "hi"})
    assert status == 200

    async def post_file() -> int:
        form = aiohttp.FormData()
        form.add_field("payload_json", '{"content": "pic", "attachments": [{"id": "0", "filename": "a.png"}]}',
                       content_type="application/json")
        form.add_field("files[0]", b"\x89PNG", filename="a.png", content_type="image/png")
        async with (
            aiohttp.ClientSession() as session,
            session.post(discord_env.api_url + f"/channels/{text_only.id}/messages", data=form,
                         headers={"Authorization": f"Bot {discord_env.token}"}) as resp,
        ):
            return resp.status if resp.status == 200 else int((await resp.json())["code"])

    assert await post_file() == 50013
    text_only.bot_permissions |= attach
    assert await post_file() == 200
    assert [m.content for m in discord_env.messages.values() if m.channel_id == text_only.id] == ["hi", "pic"]


async def test_rate_limit_answers_429_in_discords_shape(discord_env: DiscordEnv, channel: Channel) -> None:
    discord_env.rate_limit("POST /channels/{channel_id}/messages", times=1, retry_after=0.25)
    status, data, resp = await call(discord_env, "POST", f"/channels/{channel.id}/messages", {"content": "a"})
    assert status == 429
    assert resp.headers["Via"]
    assert resp.headers["Content-Type"] == "application/json"
    assert data == {"message": "You are being rate limited.", "retry_after": 0.25, "global": False}
    status, _, _ = await call(discord_env, "POST", f"/channels/{channel.id}/messages", {"content": "a"})
    assert status == 200


# ---------------------------------------------------------------- with the example bot


@dataclass
class Table:
    env: DiscordEnv
    general: Channel
    alice: Person


@pytest.fixture
async def table(discord_env: DiscordEnv) -> Table:
    guild = discord_env.create_guild()
    general = discord_env.create_channel(guild, "general")
    alice = discord_env.create_user("alice").join(guild)
    await discord_env.start_bot(EXAMPLE_BOT)
    return Table(discord_env, general, alice)


async def test_bot_over_limit_send_is_refused(table: Table) -> None:
    env = table.env
    result = await table.alice.slash("toolong")
    assert result.message is not None
    assert result.message.content == "refused: 400 50035"
    assert [m for m in env.messages.values() if not m.ephemeral] == []


async def test_late_first_response_gets_10062(table: Table) -> None:
    env = table.env
    result = await table.alice.slash("slow", timeout=6)
    assert result.response_type is None
    assert result.rejected == [(404, 10062)]
    assert result.message is None
    assert env.calls.count(
        "POST /interactions/{interaction_id}/{interaction_token}/callback", kind="interaction", status=404
    ) == 1


async def test_second_initial_response_gets_40060(table: Table) -> None:
    result = await table.alice.slash("double")
    assert result.message is not None and result.message.content == "first"
    followups = await result.wait_followups(1)
    assert followups[0].content == "second refused: 400 40060"
    assert result.rejected == [(400, 40060)]
    contents = [m.content for m in table.alice.messages(table.general)]
    assert contents == ["first", "second refused: 400 40060"]


async def test_interaction_token_expires_after_15_minutes(table: Table) -> None:
    env = table.env
    result = await table.alice.slash("ping")
    path = f"/webhooks/{env.application_id}/{result.interaction.token}"
    status, data, _ = await call(env, "POST", path + "?wait=true", {"content": "still here"}, auth=False)
    assert status == 200 and data["content"] == "still here"
    env.age_interaction(result.interaction, 15 * 60 + 1)
    status, data, _ = await call(env, "POST", path, {"content": "too late"}, auth=False)
    assert (status, data["code"]) == (401, 50027)
    status, data, _ = await call(env, "PATCH", path + "/messages/@original", {"content": "x"}, auth=False)
    assert (status, data["code"]) == (401, 50027)


async def test_bot_backs_off_on_429_and_succeeds(table: Table) -> None:
    env, general = table.env, table.general
    route = "POST /channels/{channel_id}/messages"
    env.rate_limit(route, times=2, retry_after=0.05)
    mark = env.calls.mark()
    result = await table.alice.slash("announce", text="after back-off")
    await result.wait_followups(1)
    assert [m.content for m in env.messages.values() if m.channel_id == general.id and not m.ephemeral] == [
        "announcement (edited): after back-off"
    ]
    assert env.calls.count(route, since=mark, status=429) == 2
    assert env.calls.count(route, since=mark, status=200) == 1
    assert env.calls.by_route(kind="bot", since=mark)[route] == 3


# ---------------------------------------------------------------- gateway


async def test_gateway_hello_heartbeat_and_refusals(discord_env: DiscordEnv) -> None:
    discord_env.create_guild()
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(discord_env.gateway_url) as ws:
            hello = await ws.receive_json()
            assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
            await ws.send_json({"op": 1, "d": None})
            assert (await ws.receive_json())["op"] == 11
            await ws.send_json({"op": 2, "d": {"token": discord_env.token, "intents": 1 << 0}})
            ready = await ws.receive_json()
            guild = await ws.receive_json()
            assert (ready["t"], ready["s"]) == ("READY", 1)
            assert ready["d"]["application"]["id"] == str(discord_env.application_id)
            assert (guild["t"], guild["s"]) == ("GUILD_CREATE", 2)
            assert guild["d"]["member_count"] == len(guild["d"]["members"])
        discord_env.granted_intents = 0
        async with session.ws_connect(discord_env.gateway_url) as ws:
            await ws.receive_json()
            await ws.send_json({"op": 2, "d": {"token": discord_env.token, "intents": 1 << 1}})
            await ws.receive()
            assert ws.close_code == 4014
        async with session.ws_connect(discord_env.gateway_url) as ws:
            await ws.receive_json()
            await ws.send_json({"op": 2, "d": {"token": "wrong", "intents": 0}})
            await ws.receive()
            assert ws.close_code == 4004


async def test_interaction_protocol_directly(discord_env: DiscordEnv, channel: Channel) -> None:
    """Without a bot: a pending interaction, answered over plain HTTP."""
    guild = discord_env.guilds[channel.guild_id or 0]
    alice = discord_env.create_user("alice").join(guild)
    await call(
        discord_env, "PUT", f"/applications/{discord_env.application_id}/commands",
        [{"name": "ping", "description": "d", "type": 1}],
    )
    with pytest.raises(TimeoutError, match="did not answer"):
        await alice.slash("ping", timeout=0.2)
    inter = next(iter(discord_env.interactions.values()))
    webhook = f"/webhooks/{discord_env.application_id}/{inter.token}"
    status, data, _ = await call(discord_env, "POST", webhook, {"content": "early"}, auth=False)
    assert (status, data["code"]) == (404, 10015)
    callback = f"/interactions/{inter.id}/{inter.token}/callback?with_response=1"
    answer = {"type": 4, "data": {"content": "pong", "flags": 64}}
    status, data, resp = await call(discord_env, "POST", callback, answer, auth=False)
    assert status == 200 and resp.headers["Content-Type"] == "application/json"
    assert data["interaction"]["response_message_ephemeral"] is True
    assert data["resource"]["message"]["content"] == "pong"
    assert data["interaction"]["response_message_id"] == data["resource"]["message"]["id"]
    assert [m.content for m in alice.ephemerals()] == ["pong"]
    status, data, _ = await call(discord_env, "POST", callback, answer, auth=False)
    assert (status, data["code"]) == (400, 40060)
    assert discord_env.calls.by_kind() == {"bot": 1, "interaction": 3}


async def test_channel_messages_cannot_be_ephemeral_or_huge(
    discord_env: DiscordEnv, channel: Channel
) -> None:
    path = f"/channels/{channel.id}/messages"
    status, data, _ = await call(discord_env, "POST", path, {"content": "psst", "flags": 64})
    assert (status, data["code"]) == (400, 50035)
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", '{"content": "big"}', content_type="application/json")
    form.add_field("files[0]", b"\0" * (10 * 1024 * 1024 + 1), filename="big.png",
                   content_type="image/png")
    async with (
        aiohttp.ClientSession() as session,
        session.post(discord_env.api_url + path, data=form,
                     headers={"Authorization": f"Bot {discord_env.token}"}) as resp,
    ):
        assert resp.status == 413
        assert (await resp.json())["code"] == 40005
    assert discord_env.messages == {}


async def test_guild_lookups(discord_env: DiscordEnv, channel: Channel) -> None:
    guild = discord_env.guilds[channel.guild_id or 0]
    alice = discord_env.create_user("alice").join(guild)
    status, data, _ = await call(discord_env, "GET", f"/guilds/{guild.id}/members/{alice.id}")
    assert status == 200 and data["user"]["username"] == "alice"
    stranger = discord_env.create_user("stranger")
    status, data, _ = await call(discord_env, "GET", f"/guilds/{guild.id}/members/{stranger.id}")
    assert (status, data["code"]) == (404, 10007)
    status, data, _ = await call(discord_env, "GET", f"/guilds/{guild.id}/channels")
    assert [c["name"] for c in data] == ["general"]
    status, data, _ = await call(discord_env, "GET", "/no/such/route")
    assert status == 404
    assert discord_env.unhandled == ["GET /api/v10/no/such/route"]
