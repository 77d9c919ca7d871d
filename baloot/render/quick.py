"""The quick-match queue's private message: who is waiting, and its buttons (README "Quick match").

One message in the player's direct messages, edited as the queue changes:
how many of the four are found, the display names of those waiting, a
**Leave queue** button and, once the player has waited
``baloot.tables.matching.BOTS_OFFER_AFTER`` seconds, **Play now with bots**.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..i18n import resolve_locale, t
from ..i18n.direction import orient_payload
from .components import DANGER, PRIMARY, SECONDARY, button, rows
from .custom_ids import encode_invite_id, encode_quick_id
from .model import Payload

COLOUR = 0x2E7D32
SHOWN_NAMES = 12


def quick_button(locale: str) -> dict[str, object]:
    """The **Quick match** button (on the lobby and the help)."""
    return button(t("button.quick", resolve_locale(locale)), encode_quick_id("join"), PRIMARY)


def render_queue(others: int, names: Sequence[str], offer_bots: bool, locale: str) -> Payload:
    """The queue message: how many ``others`` wait in the queue (everyone not of the player's entry — not a
    promise that the matcher seats them together: it balances by rating), who is waiting, the buttons."""
    loc = resolve_locale(locale)
    shown = list(names[:SHOWN_NAMES])
    lines = [t("quick.waiting", loc, others=others)]
    if shown:
        lines.append(t("quick.who", loc, names=t("list.sep", loc).join(shown)))
    if offer_bots:
        lines.append(t("quick.bots_offer", loc))
    buttons = [button(t("button.leave_queue", loc), encode_quick_id("leave"), DANGER)]
    if offer_bots:
        buttons.append(button(t("button.play_bots", loc), encode_quick_id("bots"), SECONDARY))
    return orient_payload({
        "content": "",
        "embeds": [{"title": t("quick.title", loc), "description": "\n".join(lines), "color": COLOUR}],
        "components": rows(buttons),
    }, loc)


def render_queue_over(key: str, locale: str) -> Payload:
    """The queue message once it is over: ``quick.found`` (a table), ``quick.left`` (left the queue)."""
    loc = resolve_locale(locale)
    return orient_payload({
        "content": "",
        "embeds": [{"title": t("quick.title", loc), "description": t(key, loc), "color": COLOUR}],
        "components": [],
    }, loc)


def render_invite(asker: str, asker_id: int, guild_id: int, waiting_message: int, until: int,
                  language: str | None, locale: str) -> Payload:
    """The invitation in the partner's DMs: ``asker`` asks them to queue as their partner, until ``until``
    (Unix seconds, shown as Discord's relative time), with **Accept** and **Decline**."""
    loc = resolve_locale(locale)
    ids = (asker_id, guild_id, waiting_message, until, language)
    return orient_payload({
        "content": "",
        "embeds": [{"title": t("quick.title", loc), "color": COLOUR,
                    "description": t("quick.invite", loc, name=asker, until=f"<t:{until}:R>")}],
        "components": rows([button(t("button.accept", loc), encode_invite_id("accept", *ids), PRIMARY),
                            button(t("button.decline", loc), encode_invite_id("decline", *ids), DANGER)]),
    }, loc)


def render_invite_note(key: str, locale: str, **values: str) -> Payload:
    """An invitation's outcome, with no buttons: ``quick.invite_waiting`` (the asker's message while the partner
    decides), ``quick.invite_declined``/``quick.invite_expired`` (the asker's, nobody queued),
    ``quick.invite_you_declined``/``quick.invite_over`` (the partner's)."""
    loc = resolve_locale(locale)
    return orient_payload({
        "content": "",
        "embeds": [{"title": t("quick.title", loc), "description": t(key, loc, **values), "color": COLOUR}],
        "components": [],
    }, loc)
