"""The web table in a real browser: Chromium from Debian's packages, driven by Playwright.

* four browser contexts play a whole hand against the real server; every WebSocket frame each one
  received and every card its page shows are checked: no page ever holds another seat's card
  before it is played;
* the Activity's sign-in, with the Embedded App SDK's own ``DiscordSDKMock`` in the page and a
  local stand-in of Discord's OAuth2 endpoints;
* screenshots at phone (390×844) and desktop size, in English and Arabic. With
  ``BALOOT_SCREENSHOTS=1`` they are written to ``docs/screenshots/`` (the README shows them).

``scripts/test.sh`` installs Chromium (``apt-get install chromium``), Playwright (requirements-dev.txt)
and builds the page (``scripts/build-web.sh``); Playwright never downloads a browser of its own.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestServer
from web_helpers import SEEN, discord_stand_in, leaked_cards, served

from baloot.tables import TableService
from baloot.web.oauth import OAuthSettings
from baloot.web.rooms import LOCAL_CHANNEL
from baloot.web.server import WEB_ROOT

playwright_api: Any
try:
    playwright_api = importlib.import_module("playwright.async_api")
except ImportError:  # scripts/test.sh installs it (requirements-dev.txt)
    playwright_api = None

CHROMIUM = next((p for p in (os.environ.get("CHROMIUM"), shutil.which("chromium"), shutil.which("chromium-browser"))
                 if p), None)
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


async def launch() -> Any:
    pw = await playwright_api.async_playwright().start()
    browser = await pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    return pw, browser


class Recorded:
    """A browser context's page and every WebSocket frame it received, in order."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.texts: list[str] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload: str | bytes) -> None:
        self.texts.append(payload if isinstance(payload, str) else payload.decode())

    def states(self) -> list[tuple[str, dict[str, Any]]]:
        out = []
        for text in self.texts:
            frame = json.loads(text)
            if frame.get("type") == "state":
                out.append((text, frame))
        return out

    def latest(self) -> dict[str, Any] | None:
        states = self.states()
        return states[-1][1] if states else None


def missing() -> str | None:
    if playwright_api is None:
        return "Playwright is not installed (scripts/test.sh installs it: requirements-dev.txt)"
    if CHROMIUM is None:
        return "Chromium is not installed (scripts/test.sh installs it: apt-get install chromium)"
    if not (WEB_ROOT / "dist" / "app.js").is_file():
        return "the page is not built (scripts/build-web.sh)"
    return None


@pytest.fixture
async def chromium() -> AsyncIterator[Any]:
    """Debian's Chromium under Playwright; skipped with the reason when missing (failed in CI)."""
    reason = missing()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    pw, browser = await launch()
    try:
        yield browser
    finally:
        await browser.close()
        await pw.stop()


async def wait_for(check: Any, timeout: float = 20.0) -> None:
    for _ in range(int(timeout / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("timed out")


async def tap_for(page: Any, frame: dict[str, Any]) -> None:
    """The seat's move on its page: Sun to open the bidding, else Pass, else the first legal card."""
    if frame["phase"] == "bidding" and not frame["contract"] and await page.locator(
            "button[data-action=sun]").count():
        await page.click("button[data-action=sun]")
    elif await page.locator("button[data-action=pass]").count():
        await page.click("button[data-action=pass]")
    elif await page.locator(".cards .card.legal").count():
        await page.locator(".cards .card.legal").first.click()
    else:
        await page.locator(".actions button").first.click()


async def test_four_browsers_play_a_whole_hand_and_never_see_another_seats_cards(tmp_path: Path,
                                                                                 chromium: Any) -> None:
    async with served(tmp_path, people=4) as (service, _, server):
        pages: list[Recorded] = []
        for n in range(4):
            context = await chromium.new_context(viewport=PHONE)
            page = Recorded(await context.new_page())
            await page.page.goto(str(server.make_url("/")))
            await page.page.fill("#name", f"Player {n + 1}")
            await page.page.click("#sit")
            await wait_for(lambda p=page: (p.latest() or {}).get("seat") is not None)
            pages.append(page)
        table = service.table_info(LOCAL_CHANNEL)
        by_seat = {p.latest()["seat"]: p for p in pages}  # type: ignore[index]
        assert sorted(by_seat) == [0, 1, 2, 3]
        taps = await play_hand_in_browsers(service, table.id, by_seat)
        assert taps >= 33
        for seat, page in by_seat.items():
            # the first hand's states only: the next deal may already have reached the page
            own = {c["code"] for _, f in page.states() if f.get("seat") == seat and f.get("hand_no") == 0
                   for c in f["hand"]}
            assert len(own) == 8
            for text, frame in page.states():
                if frame.get("hand_no") == 0:
                    assert not leaked_cards(text, own, frame), (seat, frame)


async def play_hand_in_browsers(service: TableService, table_id: int, by_seat: dict[int, Recorded]) -> int:
    taps = 0
    while True:
        info = service.table_by_id(table_id)
        if info.version is None or info.version[0] != 0 or info.to_move is None:
            return taps
        version = list(info.version)
        page = by_seat[info.to_move]
        await wait_for(lambda p=page, v=version: (p.latest() or {}).get("version") == v)
        # the mover's page has drawn that state (a frame is received before the page draws it)
        await page.page.wait_for_selector(f'#app[data-version="{".".join(map(str, version))}"]',
                                          state="attached")
        for seat, other in by_seat.items():  # what each page shows: its own cards only
            shown = set(await other.page.locator(".cards .card").evaluate_all(
                "cards => cards.map(c => c.dataset.card)"))
            # every card this seat was ever sent: the page may not have drawn its newest frame yet
            # (a card it has just played can still show for a frame), but it never shows a card
            # that was not sent to this seat as its own
            held = {c["code"] for _, f in other.states() if f.get("seat") == seat for c in f.get("hand", [])}
            assert shown <= held, (seat, shown, held)
        await tap_for(page.page, page.latest())  # type: ignore[arg-type]
        taps += 1
        await wait_for(lambda v=version: list(service.table_by_id(table_id).version or ()) != v)
        assert taps < 200


async def reach_my_card_turn(page: Recorded) -> None:
    """Bid (Sun, else pass) until it is this seat's turn to play a card."""
    for _ in range(40):
        await wait_for(lambda: (f := page.latest() or {}).get("seat") is not None and f.get("to_move") == f["seat"])
        frame = page.latest()
        assert frame is not None
        if frame["phase"] == "playing" and any(c["legal"] for c in frame["hand"]):
            return
        before = frame["version"]
        await tap_for(page.page, frame)
        await wait_for(lambda v=before: (page.latest() or {}).get("version") != v)
    raise AssertionError("never reached a card turn")


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
@pytest.mark.parametrize("locale", ["en", "ar"])
async def test_screenshots(tmp_path: Path, chromium: Any, size: str, viewport: dict[str, int], locale: str) -> None:
    async with served(tmp_path, rng_factory=lambda table_id: __import__("random").Random(7)) as (_, _, server):
        context = await chromium.new_context(viewport=viewport, locale=locale)
        page = Recorded(await context.new_page())
        await page.page.goto(str(server.make_url(f"/?lang={locale}")))
        await page.page.fill("#name", "Layla" if locale == "en" else "ليلى")
        await page.page.click("#sit")
        await reach_my_card_turn(page)
        await page.page.wait_for_selector(".cards .card.legal")
        assert await page.page.evaluate("document.documentElement.dir") == ("rtl" if locale == "ar" else "ltr")
        legal = await page.page.locator(".cards .card.legal").count()
        assert 0 < legal <= await page.page.locator(".cards .card").count()
        out = SHOTS if os.environ.get("BALOOT_SCREENSHOTS") == "1" else tmp_path
        out.mkdir(parents=True, exist_ok=True)
        await page.page.screenshot(path=str(out / f"web-{size}-{locale}.png"), full_page=True)


async def test_activity_signs_in_with_the_sdk_mock_and_sits_in_the_instance_channel(tmp_path: Path,
                                                                                   chromium: Any) -> None:
    user_id, guild_id, channel_id = 290926798626357250, 81384788765712384, 381870553235193857
    secret = "client-secret-never-shown"
    # the SDK's mock has this instance id (a real one reads like "i-1276…-gc-<guild>-<channel>")
    stand_in = TestServer(discord_stand_in("1234567890", secret, user_id=user_id, instance="123456789012345678",
                                           guild_id=guild_id, channel_id=channel_id), host="127.0.0.1")
    await stand_in.start_server()
    settings = OAuthSettings("1234567890", secret, "bot-token", api_base=str(stand_in.make_url("")).rstrip("/"))
    try:
        async with served(tmp_path, oauth=settings) as (service, table, server):
            context = await chromium.new_context(viewport=PHONE)
            page = Recorded(await context.new_page())
            bodies: list[str] = []

            async def keep(response: Any) -> None:
                if response.request.resource_type in ("document", "fetch", "script"):
                    bodies.append(await response.text())

            page.page.on("response", keep)
            await page.page.goto(str(server.make_url("/?frame_id=f1&instance_id=123456789012345678&sdk=mock")))
            await wait_for(lambda: page.latest() is not None)
            await page.page.click("#sit")
            await wait_for(lambda: (page.latest() or {}).get("seat") == 0)
            info = service.table_info(channel_id)
            assert info.guild_id == guild_id and info.seats[0] is not None
            assert info.seats[0].user_id == user_id and info.seats[0].name == "Layla"
            assert (page.latest() or {})["locale"] == "ar"  # the Discord user's language
            assert stand_in.app[SEEN] and stand_in.app[SEEN][0]["code"] == "mock_code"
            assert len(table.sessions) == 1
            await wait_for(lambda: len(bodies) >= 3)
            assert not any(secret in body for body in bodies)
            assert not any(secret in text for text in page.texts)
    finally:
        await stand_in.close()
