"""The web table's server: pages, the WebSocket protocol, security, resuming."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestServer, make_mocked_request
from web_helpers import CARD_CODE, PageClient, discord_stand_in, leaked_cards, open_page, served

from baloot.storage.rows import TableStatus
from baloot.tables import NoTableHere, TableService
from baloot.web.frames import MAX_FRAME, BadFrame, parse_client_frame
from baloot.web.oauth import OAuthSettings
from baloot.web.rooms import LOCAL_CHANNEL
from baloot.web.server import web_user_id


def table_state(service: TableService) -> tuple[Any, ...]:
    info = service.table_info(LOCAL_CHANNEL)
    return info.version, info.to_move, info.seats


async def test_page_sets_a_cookie_and_says_so_when_not_built(tmp_path: Path) -> None:
    async with served(tmp_path) as (_, _, server), aiohttp.ClientSession() as session, session.get(
            server.make_url("/")) as response:
        assert response.status == 200
        assert "baloot_id" in response.cookies and response.cookies["baloot_id"]["httponly"]
        assert "frame-ancestors" in response.headers["Content-Security-Policy"]
    empty = tmp_path / "empty"
    (empty / "static").mkdir(parents=True)
    async with served(tmp_path / "b", root=empty) as (_, _, server), aiohttp.ClientSession() as session, session.get(
            server.make_url("/")) as response:
        assert response.status == 503
        assert "scripts/build-web.sh" in await response.text()


async def test_sit_plays_against_three_bots_with_only_its_own_cards(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    async with served(tmp_path / "a") as (service, _, server):
        page = await open_page(server)
        first = await page.receive()
        assert first["status"] == "none" and first["labels"]["sit"] == "Sit down"
        await page.send({"type": "sit", "name": "Ali"})
        state = await page.state_where(lambda f: f["status"] == "playing" and f["hand"])
        info = service.table_info(LOCAL_CHANNEL)
        assert [s.is_bot for s in info.seats if s is not None] == [False, True, True, True]
        seat = state["seat"]
        assert seat == 0 and state["seats"][0]["name"] == "Ali"
        view = service.snapshot(info.id).view_of(seat)
        assert view is not None
        assert {c["code"] for c in state["hand"]} == {c.text for c in view.hand}
        named = set(CARD_CODE.findall(json.dumps(state)))
        for other in (1, 2, 3):
            theirs = service.snapshot(info.id).view_of(other)
            assert theirs is not None
            hidden = {c.text for c in theirs.hand} - {state["up_card"]["code"] if state["up_card"] else ""}
            assert not hidden & named
        await page.close()


async def play_hand(pages: dict[int, PageClient], service: TableService, table_id: int) -> int:
    """The seat to move taps: Sun if it can open, else Pass, else the first legal card, until the hand ends.
    Returns the number of taps."""
    taps = 0
    hand_no = service.table_by_id(table_id).version[0]  # type: ignore[index]
    while True:
        info = service.table_by_id(table_id)
        if info.version is None or info.version[0] != hand_no:
            return taps
        seat = info.to_move
        if seat is None:  # the hand is over (the next one is being dealt)
            return taps
        page = pages[seat]
        version = list(info.version or ())
        frame = await page.state_where(lambda f, v=version, s=seat: f.get("version") == v and f["to_move"] == s)
        by_type = {a["type"]: a for a in frame["actions"]}
        if "sun" in by_type and frame["phase"] == "bidding" and not frame["contract"]:
            action = by_type["sun"]["action"]
        elif "pass" in by_type:
            action = by_type["pass"]["action"]
        elif frame["actions"] and not any(c["legal"] for c in frame["hand"]):
            action = frame["actions"][0]["action"]
        else:
            card = next(c for c in frame["hand"] if c["legal"])
            action = {"seat": seat, "type": "play", "card": card["code"]}
        await page.send({"type": "act", "action": action, "version": frame["version"]})
        taps += 1
        for _ in range(200):  # wait until the tap is applied (the table's version moves)
            if service.table_by_id(table_id).version != info.version:
                break
            await page.state_where(lambda f, v=info.version: f.get("version") != list(v), timeout=5)
        assert taps < 200


async def test_four_pages_play_a_hand_and_no_page_sees_another_seats_card(tmp_path: Path) -> None:
    async with served(tmp_path, people=4) as (service, _, server):
        pages = [await open_page(server) for _ in range(4)]
        for n, page in enumerate(pages):
            await page.receive()
            await page.send({"type": "sit", "name": f"P{n}"})
        await pages[3].state_where(lambda f: f["status"] == "playing")
        info = service.table_info(LOCAL_CHANNEL)
        assert all(s is not None and not s.is_bot for s in info.seats)
        by_seat = {}
        for page in pages:
            frame = await page.state_where(lambda f: f["seat"] is not None and f["hand"])
            by_seat[frame["seat"]] = page
        assert sorted(by_seat) == [0, 1, 2, 3]
        taps = await play_hand(by_seat, service, info.id)
        assert taps >= 32 + 1  # a bid, then eight tricks
        record = await service.storage.game_record(info.id)
        assert len(record["hands"][0]["actions"]) == taps
        for seat, page in by_seat.items():
            own = {c["code"] for f in page.frames if f.get("seat") == seat for c in f["hand"]}
            assert len(own) >= 8
            for text, frame in zip(page.texts, page.frames, strict=True):
                if frame.get("type") == "state" and frame.get("hand_no") == 0:
                    assert not leaked_cards(text, own, frame), (seat, frame)
        for page in pages:
            await page.close()


async def test_taps_are_checked_like_presses_and_change_nothing(tmp_path: Path) -> None:
    async with served(tmp_path, people=4) as (service, _, server):
        pages = [await open_page(server) for _ in range(4)]
        for n, page in enumerate(pages):
            await page.receive()
            await page.send({"type": "sit", "name": f"P{n}"})
        await pages[3].state_where(lambda f: f["status"] == "playing")
        frames = {}
        for page in pages:
            frame = await page.state_where(lambda f: f["hand"])
            frames[frame["seat"]] = (page, frame)
        before = table_state(service)
        to_move = before[1]
        other = (to_move + 1) % 4
        page, frame = frames[other]
        # not their turn
        await page.send({"type": "act", "action": {"type": "pass"}, "version": frame["version"]})
        await page.error_reply()
        # someone else's hand
        await page.send({"type": "act", "action": {"seat": to_move, "type": "pass"}, "version": frame["version"]})
        error = await page.error_reply()
        assert "not your cards" in error["message"].lower()
        # a stale version
        mover, mover_frame = frames[to_move]
        await mover.send({"type": "act", "action": {"type": "pass"}, "version": [0, 99]})
        await mover.error_reply()
        # a card not held / not an action
        await mover.send({"type": "act", "action": {"type": "play", "card": "ZZ"}, "version": mover_frame["version"]})
        await mover.error_reply()
        assert table_state(service) == before
        for page in pages:
            await page.close()


@pytest.mark.parametrize(("payload", "code", "reason"), [
    ("{not json", 1008, "not JSON"),
    ('["act"]', 1008, "not a JSON object"),
    ('{"type": "act", "action": {"type": "pass"}}', 1008, "unknown frame"),
    ('{"type": "act", "action": {"type": "pass"}, "version": [0, "x"]}', 1008, "version must be [hand, count]"),
    ('{"type": "sit", "name": 5}', 1008, "name must be text"),
    ('{"type": "dance"}', 1008, "unknown frame"),
])
async def test_malformed_frames_close_the_socket_with_a_reason(tmp_path: Path, payload: str, code: int,
                                                               reason: str) -> None:
    async with served(tmp_path) as (service, _, server):
        page = await open_page(server)
        await page.receive()
        await page.send({"type": "sit", "name": "Ali"})
        await page.state_where(lambda f: f.get("to_move") == 0 and f["hand"])  # the bots wait for the player now
        before = table_state(service)
        await page.ws.send_str(payload)
        msg = await page.ws.receive(timeout=5)
        while msg.type == aiohttp.WSMsgType.TEXT:
            msg = await page.ws.receive(timeout=5)
        assert msg.type == aiohttp.WSMsgType.CLOSE
        assert page.ws.close_code == code and msg.extra == reason
        assert table_state(service) == before
        await page.close()


async def test_oversized_and_binary_frames_close_the_socket(tmp_path: Path) -> None:
    async with served(tmp_path) as (service, _, server):
        page = await open_page(server)
        await page.receive()
        await page.ws.send_str(json.dumps({"type": "sit", "name": "x" * (MAX_FRAME + 10)}))
        msg = await page.ws.receive(timeout=5)
        assert msg.type == aiohttp.WSMsgType.CLOSE and page.ws.close_code == 1009
        with pytest.raises(NoTableHere):
            service.table_info(LOCAL_CHANNEL)  # nothing was created
        await page.close()
        page = await open_page(server)
        await page.receive()
        await page.ws.send_bytes(b"\x00\x01")
        msg = await page.ws.receive(timeout=5)
        assert msg.type == aiohttp.WSMsgType.CLOSE and page.ws.close_code == 1003
        await page.close()
    with pytest.raises(BadFrame, match="too large"):
        parse_client_frame('{"type": "sit", "name": "' + "y" * MAX_FRAME + '"}')


async def test_a_watcher_sees_the_public_view_and_cannot_sit(tmp_path: Path) -> None:
    async with served(tmp_path) as (service, _, server):
        player = await open_page(server)
        await player.receive()
        await player.send({"type": "sit", "name": "Ali"})
        mine = await player.state_where(lambda f: f["hand"])
        watcher = await open_page(server, cookie=None)
        frame = await watcher.state_where(lambda f: f["status"] == "playing")
        assert frame["seat"] is None and frame["hand"] == [] and frame["actions"] == []
        assert not {c["code"] for c in mine["hand"]} & set(frame.get("played") or []) - {
            frame["up_card"]["code"] if frame.get("up_card") else ""}
        await watcher.send({"type": "sit", "name": "Eve"})
        error = await watcher.error_reply()
        assert error["type"] == "error" and "table link" in error["message"]
        assert len(service.table_info(LOCAL_CHANNEL).humans) == 1
        await player.close()
        await watcher.close()


async def test_one_seat_per_user(tmp_path: Path) -> None:
    async with served(tmp_path, people=4) as (service, _, server):
        first = await open_page(server, cookie="same-browser")
        second = await open_page(server, cookie="same-browser")
        await first.receive()
        await second.receive()
        await first.send({"type": "sit", "name": "Ali"})
        await first.state_where(lambda f: f["seat"] == 0)
        await second.send({"type": "sit", "name": "Ali again"})
        error = await second.error_reply()
        assert "already" in error["message"].lower()
        info = service.table_info(LOCAL_CHANNEL)
        assert len(info.humans) == 1 and info.seats[0] is not None and info.seats[0].user_id == web_user_id(
            "same-browser")
        await first.close()
        await second.close()


async def test_other_sites_and_strangers_without_the_key_cannot_play(tmp_path: Path) -> None:
    async with served(tmp_path) as (_, table, server):
        async with aiohttp.ClientSession() as session:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(server.make_url("/ws"), headers={"Origin": "http://evil.example"})
            assert refused.value.status == 403
        # a request from another computer: a watcher unless it brings the table link's key
        for query, seated in (("", False), ("?key=wrong", False), ("?key=" + "k" * 22, True)):
            request = make_mocked_request("GET", "/ws" + query, headers={"Cookie": "baloot_id=abc"})
            request = request.clone(remote="192.168.1.20")
            room, user_id, _, _ = table._who(request)
            assert room is not None and (user_id is not None) == seated


async def test_a_restart_resumes_the_table_and_the_seat(tmp_path: Path) -> None:
    async with served(tmp_path, people=4) as (service, _, server):
        page = await open_page(server, cookie="browser-1")
        await page.receive()
        await page.send({"type": "sit", "name": "Ali"})
        await page.send({"type": "start"})
        before = await page.state_where(lambda f: f["hand"])
        await page.close()
    async with served(tmp_path, people=4) as (service, _, server):
        await service.resume_all()
        page = await open_page(server, cookie="browser-1")
        after = await page.state_where(lambda f: f["hand"])
        assert after["seat"] == before["seat"] == 0 and after["table"] == before["table"]
        assert {c["code"] for c in after["hand"]} == {c["code"] for c in before["hand"]}
        assert service.table_info(LOCAL_CHANNEL).status == TableStatus.PLAYING
        await page.close()


def test_web_user_ids_are_stable_and_below_discord_snowflakes() -> None:
    assert web_user_id("a") == web_user_id("a") != web_user_id("b")
    assert 0 < web_user_id("a") < 1 << 40 < 175928847299117063  # Discord's first snowflakes are far above


# an instance id as Discord gives it (the Embedded App SDK's ``instanceId``): not a snowflake
INSTANCE = f"i-1276580072400224306-gc-{9 << 40}-{8 << 40}"


async def activity_server(tmp_path: Path, *, members: tuple[int, ...] | None = None) -> tuple[Any, OAuthSettings]:
    stand_in = TestServer(discord_stand_in("42", "s3cret-value", user_id=7 << 40, instance=INSTANCE, guild_id=9 << 40,
                                           channel_id=8 << 40, members=members), host="127.0.0.1")
    await stand_in.start_server()
    return stand_in, OAuthSettings("42", "s3cret-value", "bot-token", api_base=str(stand_in.make_url("")).rstrip("/"))


async def test_activity_sign_in_checks_the_code_and_the_instance_with_discord(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    stand_in, settings = await activity_server(tmp_path)
    try:
        async with served(tmp_path, oauth=settings) as (service, table, server), aiohttp.ClientSession() as http:
            url = server.make_url("/api/token")
            for body, status in (({"code": "wrong", "instance_id": INSTANCE}, 403),
                                 ({"code": "mock_code", "instance_id": INSTANCE + "0"}, 403),
                                 ({"code": "mock_code", "instance_id": "556"}, 403),
                                 ({"code": "mock_code"}, 400), ({"code": 5, "instance_id": INSTANCE}, 400),
                                 ({"code": "mock_code", "instance_id": "../../users/@me"}, 400),
                                 ({"code": "mock_code", "instance_id": "i-1?x=2"}, 400),
                                 ({"code": "mock_code", "instance_id": "i" * 129}, 400),
                                 ({"code": "mock_code", "instance_id": ""}, 400)):
                async with http.post(url, json=body) as response:
                    assert response.status == status, body
            assert table.sessions == {}
            async with http.post(url, json={"code": "mock_code", "instance_id": INSTANCE}) as response:
                assert response.status == 200
                answer = await response.json()
            assert set(answer) == {"access_token", "session"} and answer["access_token"] == f"token-of-{7 << 40}"
            async with http.ws_connect(server.make_url(f"/ws?session={answer['session']}")) as ws:
                first = json.loads((await ws.receive(timeout=5)).data)
                assert first["locale"] == "ar"
                await ws.send_str(json.dumps({"type": "sit", "name": "ignored"}))
                while True:
                    frame = json.loads((await ws.receive(timeout=5)).data)
                    if frame.get("seat") == 0:
                        break
            info = service.table_info(8 << 40)
            assert info.guild_id == 9 << 40 and info.seats[0] is not None and info.seats[0].name == "Layla"
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await http.ws_connect(server.make_url("/ws?session=forged"))
        assert "s3cret-value" not in caplog.text and "s3cret-value" not in repr(settings)
    finally:
        await stand_in.close()


async def test_activity_refuses_a_user_who_is_not_in_the_instance(tmp_path: Path) -> None:
    stand_in, settings = await activity_server(tmp_path, members=(1234,))
    try:
        async with served(tmp_path, oauth=settings) as (_, table, server), aiohttp.ClientSession() as http:
            body = {"code": "mock_code", "instance_id": INSTANCE}
            async with http.post(server.make_url("/api/token"), json=body) as r:
                assert r.status == 403 and "not in this Activity" in (await r.json())["error"]
            assert table.sessions == {}
    finally:
        await stand_in.close()


async def test_no_activity_without_the_client_secret(tmp_path: Path) -> None:
    async with served(tmp_path) as (_, _, server), aiohttp.ClientSession() as http, http.post(
            server.make_url("/api/token"), json={"code": "x", "instance_id": "1"}) as response:
        assert response.status == 404
