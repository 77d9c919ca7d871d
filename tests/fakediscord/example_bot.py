"""A small, ordinary discord.py bot used to prove the stand-in works.

It knows nothing of tests: it reads DISCORD_TOKEN (and optionally EXAMPLE_GUILD_ID
for a guild command sync) from the environment, like a real bot would.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import struct
import zlib
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

# A 1x1 PNG, built by hand so the example needs no image library.
_PNG_ROW = b"\x00\xff\x00\x00"


def tiny_png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(_PNG_ROW))
        + chunk(b"IEND", b"")
    )


class Counter(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"counter:(?P<n>\d+)"):
    """A button that survives restarts: its count lives in its custom_id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"counter:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        await interaction.response.edit_message(content=f"count={self.n + 1}", view=view)


class TableView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Pass", custom_id="table:pass")
    async def pass_(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(content=f"{interaction.user.name} passed", view=self)

    @discord.ui.button(label="Bid", custom_id="table:bid")
    async def bid(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"{interaction.user.name} bid")

    @discord.ui.select(
        custom_id="table:suit",
        placeholder="Pick a suit",
        options=[discord.SelectOption(label=s, value=s.lower()) for s in ("Hearts", "Spades")],
    )
    async def suit(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"you chose {select.values[0]}", ephemeral=True)


baloot = app_commands.Group(name="baloot", description="Baloot table")


@baloot.command(name="join", description="Sit at the table")
@app_commands.describe(seat="Seat number")
async def join(interaction: discord.Interaction, seat: app_commands.Range[int, 1, 4]) -> None:
    await interaction.response.send_message(
        f"{interaction.user.name} sits in seat {seat}", view=TableView()
    )


@baloot.command(name="hand", description="See your hand (only you)")
async def hand(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("your hand: A♠ K♠", ephemeral=True, view=TableView())


@app_commands.command(name="ping", description="Answer with pong")
async def ping(interaction: discord.Interaction, text: str | None = None) -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(Counter(0))
    await interaction.response.send_message(f"pong {text or ''}".strip(), view=view)


@app_commands.command(name="whoami", description="Locale and permissions")
async def whoami(interaction: discord.Interaction) -> None:
    admin = interaction.permissions.administrator
    await interaction.response.send_message(
        f"locale={interaction.locale.value} guild_locale="
        f"{interaction.guild_locale.value if interaction.guild_locale else None} admin={admin}",
        ephemeral=True,
    )


@app_commands.command(name="slow", description="Answers too late")
async def slow(interaction: discord.Interaction) -> None:
    await asyncio.sleep(3.5)
    try:
        await interaction.response.send_message("late")
    except discord.HTTPException as exc:
        print(f"slow failed: {exc.status} {exc.code}", flush=True)


@app_commands.command(name="double", description="Answers twice")
async def double(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("first")
    try:
        await interaction.client.http.request(
            discord.http.Route(
                "POST", "/interactions/{interaction_id}/{interaction_token}/callback",
                interaction_id=interaction.id, interaction_token=interaction.token,
            ),
            json={"type": 4, "data": {"content": "second"}},
        )
    except discord.HTTPException as exc:
        await interaction.followup.send(f"second refused: {exc.status} {exc.code}")


@app_commands.command(name="think", description="Defers, then answers")
async def think(interaction: discord.Interaction, private: bool = False) -> None:
    await interaction.response.defer(thinking=True, ephemeral=private)
    await interaction.followup.send("thought about it")
    await interaction.followup.send("and one more thing")


@app_commands.command(name="dm", description="Sends you a DM")
async def dm(interaction: discord.Interaction) -> None:
    try:
        await interaction.user.send("hello in private", view=TableView())
    except discord.Forbidden as exc:
        await interaction.response.send_message(f"dm refused: {exc.code}", ephemeral=True)
    else:
        await interaction.response.send_message("dm sent", ephemeral=True)


@app_commands.command(name="upload", description="Sends a PNG and a JSON file")
async def upload(interaction: discord.Interaction) -> None:
    files = [
        discord.File(io.BytesIO(tiny_png()), filename="card.png"),
        discord.File(io.BytesIO(json.dumps({"score": 26}).encode()), filename="score.json"),
    ]
    await interaction.response.send_message("files", files=files)


@app_commands.command(name="announce", description="Posts in the channel, then edits it")
async def announce(interaction: discord.Interaction, text: str) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    channel = interaction.channel
    assert isinstance(channel, discord.abc.Messageable)
    message = await channel.send(f"announcement: {text}")
    await message.edit(content=f"announcement (edited): {text}")
    await interaction.followup.send("posted", ephemeral=True)


@app_commands.command(name="toolong", description="Tries to post 2001 characters")
async def toolong(interaction: discord.Interaction) -> None:
    channel = interaction.channel
    assert isinstance(channel, discord.abc.Messageable)
    try:
        await channel.send("x" * 2001)
    except discord.HTTPException as exc:
        await interaction.response.send_message(f"refused: {exc.status} {exc.code}", ephemeral=True)
    else:
        await interaction.response.send_message("sent", ephemeral=True)


class NoteModal(discord.ui.Modal, title="Leave a note"):
    note: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Your note", custom_id="note:text", max_length=200
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"noted: {self.note.value}", ephemeral=True)


@app_commands.command(name="note", description="Opens a form")
async def note(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(NoteModal())


class ExampleBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Counter)
        self.add_view(TableView())
        commands_: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = [
            baloot, ping, whoami, slow, double, think, dm, upload, announce, toolong, note,
        ]
        for command in commands_:
            self.tree.add_command(command)
        await self.tree.sync()
        guild_id = os.environ.get("EXAMPLE_GUILD_ID")
        if guild_id:
            guild = discord.Object(id=int(guild_id))
            self.tree.add_command(ping, guild=guild, override=True)
            await self.tree.sync(guild=guild)

    async def on_ready(self) -> None:
        print(f"ready as {self.user} in {len(self.guilds)} guilds", flush=True)


def main() -> None:
    ExampleBot().run(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    main()
