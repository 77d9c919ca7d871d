"""Card-face emojis: the 32 cards as the application's own emojis, on the card buttons.

At start-up the bot lists its application emojis (one call) and, in the
background, creates the cards that are missing (``bl2_QH`` …, images drawn by
:func:`baloot.render.card_art.card_emoji_png`; ``bl4_QH`` … with the
four-colour deck, ``CARD_COLORS=4``; the older ``bl_`` faces, whose suit was
too small at button size, are no longer used). A card button whose card has
an emoji shows it beside its text label; until then, or if Discord refuses
(no permission, the limit reached, an outage), the text form alone is shown.
Nothing else depends on them. Turned off with ``TABLE_PICTURES=0``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Final

import discord

from baloot.engine.cards import ALL_CARDS, Card
from baloot.render.card_art import card_emoji_png

log = logging.getLogger("baloot.discord")

PREFIXES: Final = {2: "bl2_", 4: "bl4_"}  # by CARD_COLORS: each deck its own emojis


def emoji_name(card: Card, colors: int = 2) -> str:
    """The application emoji's name of ``card``: ``bl2_QH`` (2-32 of ``[A-Za-z0-9_]``), ``bl4_QH`` four-coloured."""
    return PREFIXES[colors] + card.text


class CardEmojis:
    """Which cards have an application emoji (by card index)."""

    def __init__(self) -> None:
        self.by_card: dict[int, discord.PartialEmoji] = {}
        self.task: asyncio.Task[None] | None = None
        self.json_by_card: dict[int, dict[str, Any]] = {}
        """Discord's JSON of each card's emoji, by card index: what private views are drawn with."""
        self.colors = 2  # CARD_COLORS: the deck the emojis are drawn in

    def replace(self, by_card: dict[int, discord.PartialEmoji]) -> None:
        """Use exactly these card emojis (tests; start-up goes through :meth:`load`)."""
        self.by_card = dict(by_card)
        self._changed()

    def _remember(self, emoji: discord.Emoji) -> None:
        for card in ALL_CARDS:
            if emoji.name == emoji_name(card, self.colors) and emoji.id is not None:
                self.by_card[card.index] = discord.PartialEmoji(name=emoji.name, id=emoji.id)
                self._changed()

    def _changed(self) -> None:
        # a new dict (not updated in place): a view being drawn keeps the one it started with
        self.json_by_card = {index: dict(emoji.to_dict()) for index, emoji in self.by_card.items()}

    async def load(self, client: discord.Client, colors: int = 2) -> None:
        """Read the application's emojis (start-up); then create the missing cards of the ``colors`` deck
        (CARD_COLORS: 2 or 4) in the background."""
        self.colors = colors
        try:
            for emoji in await client.fetch_application_emojis():
                self._remember(emoji)
        except discord.HTTPException as exc:
            log.warning("card emojis unavailable (%s); cards are shown as text", exc.status)
            return
        if len(self.by_card) < len(ALL_CARDS):
            self.task = asyncio.create_task(self.create_missing(client), name="baloot-card-emojis")

    async def create_missing(self, client: discord.Client) -> None:
        """Create the card emojis not there yet; stop at the first refusal (the text form stays)."""
        missing = [card for card in ALL_CARDS if card.index not in self.by_card]
        for card in missing:
            try:
                image = await asyncio.to_thread(card_emoji_png, card, 128, self.colors == 4)  # off the event loop
                emoji = await client.create_application_emoji(name=emoji_name(card, self.colors), image=image)
            except discord.HTTPException as exc:
                log.warning("could not create card emojis (%s %s); cards are shown as text", exc.status, exc.code)
                return
            self._remember(emoji)
        log.info("created %d card emojis", len(missing))

    def close(self) -> None:
        if self.task is not None:
            self.task.cancel()


CARD_EMOJIS: Final = CardEmojis()
"""The bot process's card emojis (one application per process)."""
