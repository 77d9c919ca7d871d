"""Helpers for the end-to-end tests of the real bot process (``tests/test_bot_*.py``).

A :class:`BotTable` is a stand-in Discord with one server, one channel, four
people and the bot (``python bot.py``) on a temporary database. Players act
only through what they can see: slash commands, the table message in the
channel, their DMs and their own ephemeral replies. A :data:`Policy` picks
one of the enabled buttons of the player whose turn it is, which lets a test
steer the bidding towards a contract. No test lives here.
"""

from __future__ import annotations

import dataclasses
import json
import re
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fakediscord import BotProcess, Channel, DiscordEnv, Guild, InteractionResult, Message, Person
from fakediscord.state import snowflake

REPO = Path(__file__).resolve().parents[2]
ACTION_RE = re.compile(r"^bl:(\d+):([0-3]):(\d+):(\d+):(\w+)$")
TURN_TIMEOUT = 10.0


@dataclass(frozen=True)
class Button:
    """An enabled action button a player can see."""

    message: Message
    custom_id: str
    label: str
    table: int
    seat: int
    version: tuple[int, int]
    code: str


Policy = Callable[["Player", list[Button]], Button]
"""Chooses the button to press among the enabled ones of the player to move."""


@dataclass
class Player:
    person: Person
    seat: int = -1
    presses: int = 0

    @property
    def name(self) -> str:
        return self.person.name

    def views(self) -> list[Message]:
        """Messages showing this player's private hand: their DMs and their ephemeral views."""
        return [m for m in self.person.dms() + self.person.ephemerals() if m.embeds and _action_ids(m)]

    def buttons(self) -> list[Button]:
        """Enabled action buttons in front of this player (newest version first)."""
        out = []
        for message in self.views():
            for comp in _buttons(message):
                found = ACTION_RE.match(comp.get("custom_id", ""))
                if found and not comp.get("disabled"):
                    table, seat, hand, index, code = found.groups()
                    out.append(Button(message, comp["custom_id"], comp.get("label", ""), int(table), int(seat),
                                      (int(hand), int(index)), code))
        return sorted(out, key=lambda b: b.version, reverse=True)


def _buttons(message: Message) -> list[dict[str, Any]]:
    return [c for row in message.components for c in row.get("components", []) if c.get("type") == 2]


def _action_ids(message: Message) -> list[str]:
    return [c["custom_id"] for c in _buttons(message) if ACTION_RE.match(c.get("custom_id", ""))]


def first_card(player: Player, buttons: list[Button]) -> Button:
    """A simple policy: declare projects when offered, else pass in bidding/doubling, else the first card."""
    by_code = {b.code: b for b in buttons}
    if "x" in by_code:
        return by_code["x"]
    if "p" in by_code:
        return by_code["p"]
    cards = [b for b in buttons if b.code.startswith("c")]
    return cards[0] if cards else buttons[0]


@dataclass
class BotTable:
    """One server, one channel, four players and the bot process."""

    env: DiscordEnv
    guild: Guild
    channel: Channel
    players: list[Player]
    bot: BotProcess
    db: Path
    last_version: tuple[int, int] = (-1, -1)
    acted: list[tuple[int, str]] = field(default_factory=list)  # (seat, action code) in order

    @property
    def host(self) -> Player:
        return self.players[0]

    def by_seat(self, seat: int) -> Player:
        return next(p for p in self.players if p.seat == seat)

    # -- the database (read only, as an operator would) ----------------------------------
    def query(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        conn = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=5)
        conn.row_factory = sqlite3.Row
        try:
            return conn.execute(sql, params).fetchall()
        finally:
            conn.close()

    def table_id(self) -> int:
        return int(self.query("SELECT id FROM tables WHERE channel_id = ? ORDER BY id DESC", (self.channel.id,))[0][0])

    def status(self) -> str:
        return str(self.query("SELECT status FROM tables WHERE id = ?", (self.table_id(),))[0][0])

    def record(self) -> dict[str, Any]:
        """The stored R10 record of the channel's table."""
        table_id = self.table_id()
        rules = json.loads(self.query("SELECT rules FROM tables WHERE id = ?", (table_id,))[0][0])
        hands = []
        for h in self.query("SELECT * FROM hands WHERE table_id = ? ORDER BY hand_no", (table_id,)):
            actions = [json.loads(a["action"]) for a in self.query(
                "SELECT action FROM actions WHERE table_id = ? AND hand_no = ? ORDER BY idx", (table_id, h["hand_no"]))]
            hands.append({"dealer": h["dealer"], "deck": json.loads(h["deck"]), "actions": actions})
        return {"format": "baloot-game/1", "rules": rules, "hands": hands}

    def replay(self, tmp: Path) -> dict[str, Any]:
        """``python -m baloot replay`` of the stored record."""
        path = tmp / f"record-{self.table_id()}.json"
        path.write_text(json.dumps(self.record()))
        out = subprocess.run([sys.executable, "-m", "baloot", "replay", str(path)], cwd=REPO,
                             capture_output=True, text=True, timeout=60, check=False)
        assert out.returncode == 0, out.stdout + out.stderr
        result: dict[str, Any] = json.loads(out.stdout)
        return result

    def action_count(self) -> int:
        return int(self.query("SELECT COUNT(*) FROM actions WHERE table_id = ?", (self.table_id(),))[0][0])

    # -- what people see ---------------------------------------------------------------------------
    def table_messages(self, viewer: Player | None = None) -> list[Message]:
        """The bot's non-ephemeral messages in the channel that show a hand of the table."""
        who = viewer or self.host
        return [m for m in who.person.messages(self.channel, with_ephemeral=False)
                if m.author.bot and m.embeds and m.embeds[0].get("footer", {}).get("text", "").endswith(
                    str(self.table_id())) and "—" in m.embeds[0].get("title", "")]

    def to_move(self) -> tuple[Player, list[Button]] | None:
        """The player with enabled buttons newer than the last press, and those buttons."""
        best: tuple[Player, list[Button]] | None = None
        for player in self.players:
            buttons = [b for b in player.buttons() if b.version > self.last_version]
            if buttons:
                newest = [b for b in buttons if b.version == buttons[0].version and b.message is buttons[0].message]
                if best is None or newest[0].version > best[1][0].version:
                    best = (player, newest)
        return best

    async def wait_turn(self, timeout: float = TURN_TIMEOUT) -> tuple[Player, list[Button]] | None:
        """The next player to move, or None once the table's match is over."""
        def ready() -> tuple[Player, list[Button]] | bool | None:
            if self.status() != "playing":
                return True
            return self.to_move()

        found = await self.env.wait_for(ready, timeout)
        return None if found is True else found  # type: ignore[return-value]

    async def press(self, player: Player, button: Button) -> InteractionResult:
        """Press and check the bot accepted it by updating the pressed message."""
        result = await player.person.click(button.message, button.custom_id)
        assert not result.rejected, result.rejected
        assert result.response_type == 7, (button, [m.content for m in result.messages])
        player.presses += 1
        self.last_version = button.version
        self.acted.append((button.seat, button.code))
        return result

    async def step(self, policy: Policy = first_card) -> bool:
        """One action by whoever is to move; False once the match is over."""
        turn = await self.wait_turn()
        if turn is None:
            return False
        player, buttons = turn
        assert all(b.seat == player.seat for b in buttons), "a player sees buttons of another seat"
        await self.press(player, policy(player, buttons))
        return True

    async def play_hand(self, policy: Policy = first_card) -> int:
        """Play until the hand being played is over (a new hand is dealt or the match ends)."""
        start = self.last_version[0]
        turn = await self.wait_turn()
        if turn is None:
            return 0
        hand_no = turn[1][0].version[0] if start < 0 else max(start, turn[1][0].version[0])
        steps = 0
        while True:
            turn = await self.wait_turn()
            if turn is None or turn[1][0].version[0] > hand_no:
                return steps
            player, buttons = turn
            await self.press(player, policy(player, buttons))
            steps += 1

    def assert_clean_log(self) -> None:
        """The bot logged no error and no traceback (refused input is not an error)."""
        lines = [line for line in self.bot.output.splitlines() if " ERROR " in line or "Traceback" in line]
        assert not lines, "\n".join(lines[:20])

    def assert_private(self) -> None:
        """Nobody sees another seat's buttons or cards: action buttons only in one's own DMs/ephemerals."""
        for player in self.players:
            for message in player.person.dms() + player.person.ephemerals():
                for cid in _action_ids(message):
                    found = ACTION_RE.match(cid)
                    assert found is not None and int(found.group(2)) == player.seat, (player.name, cid)
            for message in player.person.messages(self.channel, with_ephemeral=False):
                assert not _action_ids(message), "action buttons in a channel message"
                for embed in message.embeds:
                    names = [f.get("name", "") for f in embed.get("fields", [])]
                    assert "Your cards" not in names and "أوراقك" not in names, "cards shown in the channel"


def bot_env(db: Path, **extra: str) -> dict[str, str]:
    """The bot's settings for a test: a temporary database, short delays, no worker processes."""
    env = {
        "DATABASE_PATH": str(db),
        "DEV_GUILD_ID": "",
        "DEFAULT_LANGUAGE": "en",
        "TURN_SECONDS": "60",
        "BOT_DELAY_SECONDS": "0.05",
        "AI_WORKERS": "0",
        "REVIEW_WORKERS": "0",  # reviews (asked for, or of finished matches) in a thread of the bot
        "LOG_LEVEL": "INFO",
    }
    env.update(extra)
    return env


async def open_table(
    env: DiscordEnv,
    tmp: Path,
    *,
    names: Sequence[str] = ("alice", "bob", "carol", "dave"),
    locales: Sequence[str] | None = None,
    accepts_dms: Sequence[bool] | None = None,
    create: dict[str, Any] | None = None,
    bot_settings: dict[str, str] | None = None,
    guild_locale: str = "en-US",
    start: bool = True,
) -> BotTable:
    """Start the bot, open a table (host: the first name), seat everyone in order and start."""
    guild = env.create_guild("Diwaniya", locale=guild_locale)
    channel = env.create_channel(guild, "baloot")
    players = []
    for i, name in enumerate(names):
        person = env.create_user(name, locale=(locales or ["en-US"] * 4)[i],
                                 accepts_dms=(accepts_dms or [True] * 4)[i]).join(guild, admin=(i == 0))
        players.append(Player(person))
    db = tmp / "baloot.db"
    bot = await env.start_bot("bot.py", env=bot_env(db, **(bot_settings or {})))
    table = BotTable(env, guild, channel, players, bot, db)
    created = await table.host.person.slash("baloot", "create", channel=channel, **(create or {}))
    assert created.response_type == 4 and not created.ephemeral, created.rejected
    table.host.seat = 0
    for seat, player in enumerate(players[1:], start=1):
        joined = await player.person.slash("baloot", "join", channel=channel, seat=seat + 1)
        assert joined.ephemeral and joined.message is not None
        assert not joined.message.content.startswith(("This", "That", "You")), joined.message.content
        player.seat = seat
    if start:
        started = await table.host.person.slash("baloot", "start", channel=channel)
        assert started.response_type == 4 and not started.ephemeral, started.message
    return table


# -- policies that steer the bidding (R3, R4) -------------------------------------------------------
HOKUM_SUIT = re.compile(r"^h[SHDC]$")


def _pick(buttons: list[Button], *codes: str) -> Button | None:
    by_code = {b.code: b for b in buttons}
    return next((by_code[c] for c in codes if c in by_code), None)


def contract_policy(kind: str) -> Policy:
    """Bid for one kind of hand: ``sun``, ``hokum`` (round one), ``ashkal``, ``hokum2`` (round two)
    or ``double`` (Hokum, then Double locked → Triple → Four locked, no Gahwa). Play the first legal card."""

    def choose(player: Player, buttons: list[Button]) -> Button:
        declare = _pick(buttons, "x")
        if declare is not None:
            return declare
        cards = [b for b in buttons if b.code.startswith("c")]
        if cards:
            return cards[0]
        round_two = buttons[0].version[1] >= 4  # four passes: the second round of bidding (R3.2)
        doubling = any(b.code in ("dL", "dO", "d", "t", "fL", "fO", "g") for b in buttons)
        if doubling:
            wanted = _pick(buttons, "dL", "t", "fL") if kind == "double" else None
            return wanted or _pick(buttons, "p") or buttons[0]
        if kind == "sun":
            choice = _pick(buttons, "s")
        elif kind in ("hokum", "double"):
            choice = _pick(buttons, "h") or (_pick(buttons, "s") if round_two else None)
        elif kind == "ashkal":
            choice = _pick(buttons, "a") or (_pick(buttons, "s") if round_two else None)
        else:  # hokum2: pass round one; in round two bid Hokum, then confirm naming a suit
            suits = [b for b in buttons if HOKUM_SUIT.match(b.code)]
            choice = (suits[0] if suits else _pick(buttons, "h")) if round_two else None
        return choice or _pick(buttons, "p") or buttons[0]

    return choose


def plan_policy(plan: Sequence[str], then: str = "sun") -> Policy:
    """Hand ``n`` is bid as ``plan[n]`` (then ``then``)."""
    policies = {kind: contract_policy(kind) for kind in {*plan, then}}

    def choose(player: Player, buttons: list[Button]) -> Button:
        hand_no = buttons[0].version[0]
        return policies[plan[hand_no] if hand_no < len(plan) else then](player, buttons)

    return choose


def hand_kinds(record: dict[str, Any]) -> list[str]:
    """What each stored hand was: sun, ashkal, hokum, hokum2, double (locked chain), thrown."""
    kinds = []
    for hand in record["hands"]:
        types = [(a.get("type"), a) for a in hand["actions"]]
        bids = [a for t, a in types if t in ("hokum", "sun", "ashkal")]
        doubles = [a for t, a in types if t in ("double", "triple", "four", "gahwa")]
        if not bids:
            kinds.append("thrown")
        elif doubles and any(a.get("locked") for a in doubles):
            kinds.append("double")
        elif any(a["type"] == "ashkal" for a in bids):
            kinds.append("ashkal")
        elif bids[-1]["type"] == "sun" or any(a["type"] == "sun" for a in bids):
            kinds.append("sun")
        elif any(a.get("suit") for a in bids):
            kinds.append("hokum2")
        else:
            kinds.append("hokum")
    return kinds


class UntilSeen:
    """A policy that bids each hand as the first kind of ``wanted`` not yet in the stored record."""

    def __init__(self, table: BotTable, wanted: Sequence[str], then: str = "sun") -> None:
        self.table = table
        self.wanted = list(wanted)
        self.then = then
        self.kind_of: dict[int, str] = {}
        self.policies = {kind: contract_policy(kind) for kind in {*wanted, then}}

    def __call__(self, player: Player, buttons: list[Button]) -> Button:
        hand_no = buttons[0].version[0]
        if hand_no not in self.kind_of:
            seen = set(hand_kinds(self.table.record())[:hand_no])
            self.kind_of[hand_no] = next((k for k in self.wanted if k not in seen), self.then)
        return self.policies[self.kind_of[hand_no]](player, buttons)


async def forge(person: Person, message: Message, custom_id: str) -> InteractionResult:
    """A press of ``custom_id`` on an older state of ``message`` that still showed that button.

    This is what a client that missed an edit (or a tampered one) sends; the
    stand-in's own ``click`` only presses buttons on the current state.
    """
    channel = person.server.channel_of(message)
    shown = dataclasses.replace(message, id=snowflake(), components=[
        {"type": 1, "components": [{"type": 2, "style": 2, "label": "old", "custom_id": custom_id}]}])
    data = {"custom_id": custom_id, "component_type": 2}
    return await person._interact(3, channel, data, shown, 5.0)


def refused(result: InteractionResult) -> str:
    """The text of the private refusal an interaction got (fails if it was not one)."""
    assert not result.rejected, result.rejected
    assert result.response_type == 4 and result.ephemeral, (result.response_type, result.messages)
    message = result.message
    assert message is not None and not message.embeds and not message.components
    return plain(message.content)


def plain(text: str) -> str:
    """``text`` without the Unicode isolates (U+2066–U+2069) the bot puts around names and Arabic lines."""
    return "".join(c for c in text if c not in "\u2066\u2067\u2068\u2069")
