"""The WebSocket protocol of the web table: what a page receives and what it may send.

Server → page: one ``state`` frame per published snapshot, built from **one seat's**
:class:`~baloot.engine.view.SeatView` (or, for a watcher, the spectators'
:class:`~baloot.engine.view.PublicView`), so a page can never hold another seat's
hidden cards (R2.2, R6.2: a seat knows its own cards, the cards played and the
projects shown). ``error`` frames carry a refusal in the viewer's language.

Page → server: small JSON objects, at most :data:`MAX_FRAME` bytes:

* ``{"type": "sit", "name": "Ali"}`` — take a seat at the table of the socket;
* ``{"type": "act", "action": {R10 action}, "version": [hand, count]}`` — a tap,
  checked by ``TableService.act`` exactly like a button press;
* ``{"type": "start"}`` — a seated player starts the match (bots take the empty seats);
* ``{"type": "ping"}``.

Anything else is malformed: :func:`parse_client_frame` raises :class:`BadFrame`
and the server closes the socket with the reason, having changed nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from ..engine.actions import ActionType
from ..engine.cards import Card
from ..engine.hand import Phase
from ..engine.summary import MatchSummary
from ..engine.view import PublicView, SeatView, TrickView
from ..i18n import resolve_locale, t
from ..i18n.catalog import catalog
from ..i18n.direction import is_rtl, strip_isolates
from ..render.adapt import ServiceTableLike, table_info_from
from ..render.hand_view import action_label
from ..render.model import RenderInfo
from ..render.result import goal_line, winner_line
from ..render.sections import bid_lines, contract_line, doubling_line, project_lines
from ..render.text import bot_name, card_text, default_bot_name, sort_cards

MAX_FRAME: Final = 2048
"""The largest frame a page may send, in bytes (a tap is under 150); a larger one closes the socket."""

NAME_LIMIT: Final = 32
"""A seat name's most characters (Discord's nickname limit, as at the Discord table)."""

_RED: Final = (1, 2)  # hearts, diamonds

_LABEL_KEYS: Final = (
    "web.title", "web.your_cards", "web.sit", "web.your_name", "web.table_link", "web.watching",
    "web.waiting_players", "web.connecting", "web.disconnected", "web.your_turn", "web.waiting_for",
    "web.hand_over", "web.match_over", "web.up_card", "web.contract", "web.doubling", "web.bids",
    "web.projects", "web.trick", "web.last_trick", "web.score", "web.us", "web.them", "web.tricks",
    "web.seconds", "web.language", "web.start", "web.guest", "web.not_seated", "web.dealer",
)


class BadFrame(ValueError):
    """A frame from a page that is not one of the protocol's (the socket is closed with this reason)."""


@dataclass(frozen=True, slots=True)
class SitFrame:
    name: str


@dataclass(frozen=True, slots=True)
class ActFrame:
    action: dict[str, Any]
    version: tuple[int, int]


@dataclass(frozen=True, slots=True)
class StartFrame:
    pass


@dataclass(frozen=True, slots=True)
class PingFrame:
    pass


ClientFrame = SitFrame | ActFrame | StartFrame | PingFrame


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_client_frame(text: str) -> ClientFrame:
    """One page frame, checked for shape only (the service checks the rules). Raises BadFrame."""
    if len(text.encode("utf-8")) > MAX_FRAME:
        raise BadFrame("frame too large")
    try:
        obj = json.loads(text)
    except ValueError:
        raise BadFrame("not JSON") from None
    if not isinstance(obj, dict):
        raise BadFrame("not a JSON object")
    kind = obj.get("type")
    if kind == "ping" and len(obj) == 1:
        return PingFrame()
    if kind == "start" and len(obj) == 1:
        return StartFrame()
    if kind == "sit" and set(obj) <= {"type", "name"}:
        name = obj.get("name", "")
        if not isinstance(name, str):
            raise BadFrame("name must be text")
        name = " ".join(strip_isolates(name).split())[:NAME_LIMIT]
        return SitFrame(name)
    if kind == "act" and set(obj) == {"type", "action", "version"}:
        action, version = obj["action"], obj["version"]
        if not isinstance(action, dict) or len(action) > 6:
            raise BadFrame("action must be an R10 action object")
        if not (isinstance(version, list) and len(version) == 2 and all(_is_int(v) for v in version)):
            raise BadFrame("version must be [hand, count]")
        return ActFrame(action, (int(version[0]), int(version[1])))
    raise BadFrame("unknown frame")


def labels(locale: str) -> dict[str, str]:
    """The page's fixed words in ``locale`` (sent once with the first state frame); a ``{name}`` is
    left for the page to fill."""
    words = catalog(locale)
    return {key.removeprefix("web."): words[key] for key in _LABEL_KEYS}


def _card(card: Card, locale: str) -> dict[str, Any]:
    return {"code": card.text, "label": strip_isolates(card_text(card, locale)), "red": card.suit in _RED}


def _trick(trick: TrickView | None, locale: str) -> dict[str, Any] | None:
    if trick is None:
        return None
    return {"leader": trick.leader, "winner": trick.winner,
            "cards": [{"seat": seat, "card": _card(card, locale)} for seat, card in trick.cards]}


def _plain(text: str | None) -> str | None:
    """A render line without its Unicode isolates (the page sets the direction itself)."""
    return None if text is None else strip_isolates(text)


def _seats(info: RenderInfo, locale: str) -> list[dict[str, Any] | None]:
    """Each seat's name as the page shows it (a default bot name in the viewer's language, e.g. بوت 2)."""
    seats: list[dict[str, Any] | None] = []
    for seat, name in enumerate(info.names):
        if name is None:
            seats.append(None)
            continue
        if info.is_bot[seat]:
            shown = bot_name(seat, locale) if name == default_bot_name(seat) else t("seat.bot", locale, name=name)
        else:
            shown = name
        seats.append({"seat": seat, "bot": info.is_bot[seat], "away": info.away[seat], "name": strip_isolates(shown)})
    return seats


def state_frame(
    table: ServiceTableLike,
    status: str,
    view: SeatView | PublicView | None,
    seat: int | None,
    *,
    hand_no: int | None,
    deadline: float | None,
    sheet: MatchSummary | None,
    locale: str,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The ``state`` frame of one viewer: ``view`` is that seat's own view (a watcher's: the public one).

    Every card in it is either the viewer's own, played, the up card, or a project shown to
    that seat (R2.2, R5, R6.2): the frame is built from nothing else.
    """
    loc = resolve_locale(locale)
    info = table_info_from(table, deadline=deadline, default_language=loc)
    frame: dict[str, Any] = {
        "type": "state", "locale": loc, "dir": "rtl" if is_rtl(loc) else "ltr", "table": table.id,
        "status": status, "seat": seat, "seats": _seats(info, loc), "turn_seconds": info.turn_time,
        "deadline": deadline, "hand_no": hand_no, "version": None, "phase": None, "to_move": None, "dealer": None,
        "hand": [], "actions": [],
    }
    if extra:
        frame.update(extra)
    if sheet is not None:
        frame["match"] = {"score": list(sheet.score), "target": sheet.target, "winner": sheet.winner,
                          "deals": sheet.deals}
        if sheet.deals and hand_no is not None:  # a match of N deals (R8): "Hand 2 of 4."
            frame["goal"] = goal_line(sheet, hand_no, loc)
    if view is None or hand_no is None:
        return frame
    own = view if isinstance(view, SeatView) else None
    frame.update({
        "version": [hand_no, len(view.history)],
        "phase": view.phase.name.lower(),
        "to_move": view.to_move,
        "dealer": view.dealer,
        "up_card": _card(view.up_card, loc) if view.phase == Phase.BIDDING else None,
        "contract": _plain(contract_line(view, info, loc)),
        "doubling": _plain(doubling_line(view, info, loc)),
        "bids": _plain(bid_lines(view, info, loc)) if view.phase == Phase.BIDDING else None,
        "projects": _plain(project_lines(view, info, loc)),
        "trick": _trick(view.current_trick, loc),
        "last_trick": _trick(view.tricks[-1] if view.tricks else None, loc),
        "tricks_won": list(view.tricks_won),
        "card_points": list(view.card_points),
        "match_score": list(view.match_score),
        "hand_score": None if view.hand_score is None else list(view.hand_score),
        "played": [card.text for card in view.played],
    })
    if own is not None:
        playable = {a.card for a in own.legal if a.type is ActionType.PLAY}
        frame["hand"] = [{**_card(card, loc), "legal": card in playable}
                         for card in sort_cards(own.hand, own.trump, own.contract == "sun")]
        frame["actions"] = [{"label": strip_isolates(action_label(own, a, loc)), "type": a.type.value,
                             "action": a.to_json()} for a in own.legal if a.type is not ActionType.PLAY]
    if view.phase == Phase.FINISHED and sheet is not None and sheet.hands:
        frame["result"] = strip_isolates(winner_line(info, sheet.hands[-1], loc))
    return frame


def error_frame(text: str) -> dict[str, Any]:
    return {"type": "error", "message": strip_isolates(text)}
