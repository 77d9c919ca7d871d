"""Short messages: the rules summary, the score sheet, notices and error replies."""

from __future__ import annotations

from typing import Any, Final

from ..engine.rules import Rules
from ..engine.summary import MatchSummary
from ..i18n import error_text, resolve_locale, t
from ..i18n.direction import orient_payload
from .components import DANGER, button, rows
from .custom_ids import LobbyId
from .limits import CONTENT, clip
from .model import Notice, Payload, RenderInfo
from .quick import quick_button
from .result import sheet_embed
from .sections import notice_text
from .table import NO_MENTIONS

RULE_SECTIONS: Final = ("contracts", "bidding", "doubling", "play", "values", "projects", "scoring", "sawa")
BLUE: Final = 0x3498DB


def render_rules(locale: str, rules: Rules | None = None) -> Payload:
    """The rules in short (docs/rules.md): contracts, bidding, doubling, play, card values, projects, scoring; with
    the **Quick match** button (a match with players of every server, README "Quick match")."""
    loc = resolve_locale(locale)
    target = (rules or Rules()).target
    embed: dict[str, Any] = {
        "title": t("rules.title", loc),
        "description": t("rules.intro", loc, target=target),
        "color": BLUE,
        "fields": [
            {"name": t(f"rules.{s}.name", loc), "value": t(f"rules.{s}.value", loc), "inline": False}
            for s in RULE_SECTIONS
        ],
    }
    return orient_payload({"content": "", "embeds": [embed], "components": rows([quick_button(loc)]),
                           "allowed_mentions": NO_MENTIONS}, loc)


def render_score_sheet(info: RenderInfo, sheet: MatchSummary, locale: str | None = None,
                       viewer: int | None = None) -> Payload:
    """The score sheet of every hand (``/baloot score``), the winner once the match is over (R8).

    ``viewer``: the seat of a seated reader, whose sheet says ``Us``/``Them`` (لنا / لهم).
    """
    loc = resolve_locale(locale if locale is not None else info.language)
    return orient_payload({"content": "", "embeds": [sheet_embed(info, sheet, loc, viewer=viewer)], "components": [],
                           "allowed_mentions": NO_MENTIONS}, loc)


def render_notice(info: RenderInfo, notice: Notice, locale: str | None = None) -> Payload:
    """A one-line message (timeout, away/back, table resumed, DMs closed, joins...)."""
    loc = resolve_locale(locale if locale is not None else info.language)
    return _content(notice_text(notice, info, loc) or "", loc)


def render_text(key: str, locale: str, **params: object) -> Payload:
    """A catalog text as a message (a private reply such as ``error.no_table``)."""
    loc = resolve_locale(locale)
    return _content(t(key, loc, **params), loc)


def render_error(exc: BaseException, locale: str) -> Payload:
    """The private reply for a refused action or command (engine or table-service error)."""
    loc = resolve_locale(locale)
    return _content(error_text(exc, loc), loc)


def _content(text: str, locale: str) -> Payload:
    """A message of one text, clipped to Discord's limit, oriented for a right-to-left locale."""
    return orient_payload({"content": clip(text, CONTENT), "components": [], "allowed_mentions": NO_MENTIONS},
                          locale)


def render_last_leave(table_id: str, locale: str) -> Payload:
    """The answer to the last person's leave during a match: what leaving does (the table closes,
    its match is recorded as abandoned), and one button to do it; dismissing the message keeps them seated."""
    loc = resolve_locale(locale)
    payload = _content(t("error.last_player", loc), loc)
    payload["components"] = rows([button(t("lobby.quit", loc), LobbyId(table_id, "quit").encode(), DANGER)])
    return payload


def render_left(name: str, status_live: bool, abandoned: bool, locale: str, *, bots: bool = False) -> Payload:
    """The private answer to a leave: who stood up, and whether the table closed because no person is left
    (and its match was recorded as abandoned); ``bots``: bots were still seated (they do not keep a table)."""
    if status_live:
        return render_text("notice.left", locale, name=name)
    key = "notice.left_closed_match" if abandoned else "notice.left_closed"
    return render_text(key + "_bots" if bots else key, locale, name=name)
