"""The table as a Discord Activity, through the real bot and the stand-in.

"Open table" on the table message and ``/baloot play`` answer with LAUNCH_ACTIVITY; the
Activity's page then signs in as the Embedded App SDK does (authorize → the bot exchanges the code
with Discord → the page's socket) and plays the channel's own table: the channel messages and the
page are two views of one table (docs/architecture.md, the web table). A bot with no Activity set
up says so privately and launches nothing.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import socket
from pathlib import Path
from typing import Any

import aiohttp
from fakediscord import DiscordEnv, Message
from test_bot_harness import BotTable, Player, contract_policy, forge, open_table, refused

ACTIVITY_OFF = ("The live table is not set up on this bot: its owner sets WEB_PORT and DISCORD_CLIENT_SECRET "
                "(see the README).")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def open_button(table: BotTable) -> tuple[Message, str] | None:
    """The table message's "Open table" button, once it is there."""
    for message in table.host.person.messages(table.channel, with_ephemeral=False):
        for row in message.components:
            for comp in row.get("components", []):
                if comp.get("custom_id", "").endswith(":open"):
                    return message, comp["custom_id"]
    return None


class Page:
    """What the Activity's page does once Discord started it: sign in, then hold the table's socket."""

    def __init__(self, http: aiohttp.ClientSession, port: int) -> None:
        self.http = http
        self.base = f"http://127.0.0.1:{port}"
        self.frames: list[dict[str, Any]] = []
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self._reader: asyncio.Task[None] | None = None

    async def sign_in(self, code: str, instance_id: str) -> tuple[int, dict[str, Any]]:
        async with self.http.post(f"{self.base}/api/token", json={"code": code, "instance_id": instance_id}) as r:
            return r.status, await r.json()

    async def connect(self, session: str) -> None:
        self.ws = await self.http.ws_connect(f"{self.base.replace('http', 'ws')}/ws?session={session}")
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.ws is not None
        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                self.frames.append(json.loads(msg.data))

    def latest(self) -> dict[str, Any]:
        states = [f for f in self.frames if f.get("type") == "state"]
        return states[-1] if states else {}

    async def act(self, action: dict[str, Any], version: list[int]) -> None:
        assert self.ws is not None
        await self.ws.send_str(json.dumps({"type": "act", "action": action, "version": version}))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await self._reader


async def test_open_table_launches_the_activity_whose_page_plays_the_channel_table(
        discord_env: DiscordEnv, tmp_path: Path) -> None:
    secret = "activity-secret-" + secrets.token_urlsafe(12)
    port = free_port()
    discord_env.activity.enable(secret)
    table = await open_table(discord_env, tmp_path, bot_settings={"WEB_PORT": str(port),
                                                                  "DISCORD_CLIENT_SECRET": secret})
    found = await discord_env.wait_for(lambda: open_button(table), 30)
    bob: Player = table.players[1]
    launched = await bob.person.click(found[0], found[1])
    assert not launched.rejected and launched.response_type == 12 and not launched.messages
    instance = discord_env.activity.instances[launched.interaction.activity_instance_id or ""]
    assert instance.channel.id == table.channel.id and instance.users == {bob.person.id}

    # /baloot play launches it too, for whoever types it in the table's channel
    played = await table.players[2].person.slash("baloot", "play", channel=table.channel)
    assert not played.rejected and played.response_type == 12

    async with aiohttp.ClientSession() as http:
        page = Page(http, port)
        # a code of the Activity's own user, for an instance the user is not in, is refused
        stranger_code = discord_env.activity.authorize(table.players[3].person.user)
        status, body = await page.sign_in(stranger_code, instance.id)
        assert status == 403 and "not in this Activity" in body["error"]
        code = discord_env.activity.authorize(bob.person.user)
        status, body = await page.sign_in(code, instance.id)
        assert status == 200 and set(body) == {"access_token", "session"}
        assert (await page.sign_in(code, instance.id))[0] == 403  # a code is good once
        await page.connect(body["session"])
        try:
            await discord_env.wait_for(lambda: page.latest().get("seat") == bob.seat, 30)
            # the page shows bob's seat at the channel's table: his own cards, as in his Discord hand
            assert page.latest()["table"] == table.table_id()
            await play_until_the_page_plays_a_card(table, bob, page)
        finally:
            await page.close()
    assert (401, False) not in discord_env.activity.exchanges  # the bot sent the right secret
    assert secret not in table.bot.output  # and never printed it
    table.assert_clean_log()


async def play_until_the_page_plays_a_card(table: BotTable, bob: Player, page: Page) -> None:
    """Everyone else presses in Discord; bob acts only from the page, until he played a card there."""
    policy = contract_policy("sun")
    for _ in range(60):
        turn = await table.wait_turn()
        assert turn is not None
        player, buttons = turn
        if player is not bob:
            await table.press(player, policy(player, buttons))
            continue
        version = list(buttons[0].version)

        def my_turn_on_the_page(v: list[int] = version) -> dict[str, Any] | None:
            frame = page.latest()
            return frame if frame.get("version") == v and frame.get("to_move") == bob.seat else None

        def page_moved_on(v: list[int] = version) -> bool:
            return page.latest().get("version") != v

        frame = await table.env.wait_for(my_turn_on_the_page, 30)
        legal = [c["code"] for c in frame["hand"] if c["legal"]]
        if not legal:  # bidding: pass, or bid Sun when nobody has (the page's buttons)
            actions = {a["action"]["type"]: a["action"] for a in frame["actions"]}
            await page.act(actions.get("pass") or frame["actions"][0]["action"], version)
            await table.env.wait_for(page_moved_on, 30)
            table.last_version = (version[0], version[1])
            continue
        card: str = legal[0]

        def off_bobs_discord_hand(c: str = card) -> bool:
            return not any(b.code == c for b in bob.buttons())

        def played_on_the_page(c: str = card) -> bool:
            return c in (page.latest().get("played") or [])

        await page.act({"seat": bob.seat, "type": "play", "card": card}, version)
        # the channel's table and bob's Discord hand follow the page's tap
        await table.env.wait_for(off_bobs_discord_hand, 30)
        await table.env.wait_for(played_on_the_page, 30)
        table.last_version = (version[0], version[1])
        nxt = await table.wait_turn()  # (bob again if his card won the trick: he may press in his DMs too)
        assert nxt is not None
        await table.press(nxt[0], policy(nxt[0], nxt[1]))  # the table goes on in Discord
        return
    raise AssertionError("bob never had a card to play")


async def test_without_an_activity_play_and_open_table_say_so_privately(
        discord_env: DiscordEnv, tmp_path: Path) -> None:
    table = await open_table(discord_env, tmp_path)
    assert open_button(table) is None  # no "Open table" on a bot that serves no Activity
    answer = await table.players[1].person.slash("baloot", "play", channel=table.channel)
    assert refused(answer) == ACTIVITY_OFF
    # an "Open table" button from when the bot served one (or a forged one): the same answer
    message = next(m for m in table.host.person.messages(table.channel, with_ephemeral=False)
                   if m.author.bot and m.components)
    assert refused(await forge(table.players[1].person, message, f"bl:{table.table_id()}:open")) == ACTIVITY_OFF
    assert not discord_env.activity.instances
    table.assert_clean_log()
