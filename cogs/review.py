"""The game review in Discord: the "Review" button, its stepping buttons and ``/baloot review``.

Every answer is private and in the presser's language (:func:`~.replies.user_locale`).
The review service (:mod:`baloot.tables.reviews`) says who may see a hand and
refuses a hand in progress before anything is computed; a refusal is the usual
short private message. While a review is computed its progress line ("Reviewing
trick 5 of 8…") is the private answer, edited in place part by part, and then
replaced by the review itself; a stored review answers at once. A request whose first
line is not ready within :data:`~.replies.DEFER_AFTER` (a busy database, a loaded
machine) is deferred first, so it is never past Discord's 3 s. The ◀ ▶ and seat
buttons of a review edit its own private message (:class:`ReviewButton`, a
``DynamicItem`` rebuilt from its id after any restart).
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import discord

from baloot.render import REVIEW_ID_TEMPLATE, Payload, decode_review_id
from baloot.render.custom_ids import EVERYONE
from baloot.render.review import ReviewShown, is_overview, progress_payload, step_payload
from baloot.tables.reviews import ReviewedHand, ReviewService

from .presentation.pictures import PictureProcess
from .presentation.runtime import runtime_of
from .replies import BadInput, answered, defer_delay, parse_id, reply, user_locale
from .transport.wire import (
    ResponseToken,
    answer_update,
    defer_message,
    defer_update,
    edit_response,
    is_answered,
)


def review_service(interaction: discord.Interaction) -> ReviewService:
    reviews = runtime_of(interaction.client).reviews
    if reviews is None:
        raise BadInput("reviews are not running in this process")
    return reviews


class _Answer:
    """The private answer of one review request: a new ephemeral message, or (a press on a review) its
    own message edited; the first progress line is the answer, later ones and the result edit it."""

    def __init__(self, interaction: discord.Interaction, in_place: bool) -> None:
        self.interaction = interaction
        self.in_place = in_place
        self.token = ResponseToken.of(interaction)
        self.lock = asyncio.Lock()  # one response at a time: a send never races the deferral

    async def send(self, payload: Payload) -> None:
        async with self.lock:
            if is_answered(self.interaction):
                await edit_response(self.interaction.client, self.token, payload)
            elif self.in_place:
                await answer_update(self.interaction, payload)
            else:
                await reply(self.interaction, payload, ephemeral=True)

    async def defer(self) -> None:
        """Acknowledge the request (the review's own message, or a private "thinking" answer) unless a line
        was already sent: what follows then edits it."""
        async with self.lock:
            if is_answered(self.interaction):
                return
            if self.in_place:
                await defer_update(self.interaction)
            else:
                await defer_message(self.interaction, ephemeral=True)


def shown_of(reviewed: ReviewedHand) -> ReviewShown:
    return ReviewShown(str(reviewed.table_id), reviewed.hand_no, reviewed.review, reviewed.names)


async def show_review(interaction: discord.Interaction, table_id: int, hand_no: int | None, step: int = 0,
                      seat: int = EVERYONE, *, in_place: bool = False) -> None:
    """Step ``step`` of hand ``hand_no``'s review (None: the last finished hand), privately."""
    reviews = review_service(interaction)
    locale = user_locale(interaction)
    answer = _Answer(interaction, in_place)
    drawer = runtime_of(interaction.client).review_drawer
    if step == 0:
        drawer.warm()  # the picture process starts (the first time) while the review is read or computed

    async def progress(trick: int, tricks: int) -> None:
        await answer.send(progress_payload(locale, trick, tricks))

    deferral: list[asyncio.Task[None]] = []
    timer = asyncio.get_running_loop().call_later(
        defer_delay(interaction), lambda: deferral.append(asyncio.ensure_future(answer.defer())))
    try:
        reviewed = await reviews.hand_review(table_id, hand_no, interaction.user.id, interaction.guild_id, progress)
        await answer.send(await review_payload(drawer, reviewed, step, locale, seat))
    finally:
        timer.cancel()
        if deferral:
            await deferral[0]  # a refusal's answer must not race the deferral


async def review_payload(drawer: PictureProcess, reviewed: ReviewedHand, step: int, locale: str,
                         seat: int = EVERYONE) -> Payload:
    """Step ``step`` of a review. The overview (step 0, and a step the review does not have) is made in the
    picture process: its picture is Pillow work that, in the bot's process, would take the GIL from the
    event loop and hold up every table's presses (:mod:`.presentation.pictures`). A trick's step is text
    (under a millisecond), made here."""
    shown = shown_of(reviewed)
    if not is_overview(reviewed.review, step):
        return step_payload(shown, step, locale, seat)
    return await drawer.run(step_payload, shown, step, locale, seat)


def _on_private_message(interaction: discord.Interaction) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral


class ReviewButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REVIEW_ID_TEMPLATE):
    """"Review" on a finished hand's message (a new private answer), and ◀ ▶ and the seat buttons of a
    review (its own private message edited)."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.raw_id = custom_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReviewButton:
        return cls(match.group(0))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answered(interaction, self._show(interaction))

    async def _show(self, interaction: discord.Interaction) -> None:
        pressed = decode_review_id(self.raw_id)
        await show_review(interaction, parse_id(pressed.table_id), pressed.hand, pressed.step, pressed.seat,
                          in_place=_on_private_message(interaction))


async def review_command(interaction: discord.Interaction, match: int | None, hand: int | None) -> None:
    """``/baloot review [match] [hand]``: a match of this server (its table number; none: this channel's
    table) and a hand (1 the first; none: the last finished one)."""
    runtime = runtime_of(interaction.client)
    user_locale(interaction)
    table_id = runtime.service.table_info(interaction.channel_id or 0).id if match is None else match
    await show_review(interaction, table_id, None if hand is None else hand - 1)
