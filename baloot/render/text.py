"""Words for game things in a locale: cards, suits, bids, projects, seats and teams.

Everything here returns plain text from the catalog (:mod:`baloot.i18n`).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Final

from ..engine.actions import Action, ActionType
from ..engine.cards import RANKS, SUIT_SYMBOLS, SUITS, Card
from ..engine.projects import Project
from ..i18n import t
from ..i18n.direction import is_rtl, isolate, rtl
from .model import NAME_LIMIT, RenderInfo

_MARKDOWN: Final = str.maketrans({c: "\\" + c for c in "\\*_~`|>#[]()"})

# Trick order high → low (R1.1), as rank indices.
TRUMP_RANKING: Final = (4, 2, 7, 3, 6, 5, 1, 0)  # J 9 A T K Q 8 7
PLAIN_RANKING: Final = (7, 3, 6, 5, 4, 2, 1, 0)  # A T K Q J 9 8 7
SEQUENCE_RANKING: Final = (7, 6, 5, 4, 3, 2, 1, 0)  # A K Q J T 9 8 7
SUIT_ORDER: Final = (0, 1, 3, 2)  # ♠ ♥ ♣ ♦: colours alternate


def escape(text: str) -> str:
    """Display text safe inside Discord markdown, without mentions."""
    return text.translate(_MARKDOWN).replace("@", "@\u200b")


def suit_name(suit: int, locale: str) -> str:
    return t(f"suit.{SUITS[suit]}", locale)


def rank_text(rank: int, locale: str) -> str:
    return t(f"rank.{RANKS[rank]}", locale)


def card_text(card: Card, locale: str) -> str:
    """``Q♥`` in English, ``بنت ♥`` in Arabic.

    An Arabic card is one right-to-left isolate (RLI … PDI), so that its rank and
    suit stay together and read the same way for ``10 ♥`` as for ``بنت ♥``.
    """
    return _card_text(card.index, locale)


@lru_cache(maxsize=256)
def _card_text(index: int, locale: str) -> str:
    """:func:`card_text` by card index: 32 cards x the locales, built once (a private view shows ~15)."""
    card = Card(index)
    text = t("card", locale, rank=rank_text(card.rank, locale), symbol=SUIT_SYMBOLS[card.suit])
    return rtl(text) if is_rtl(locale) else text


def cards_text(cards: Iterable[Card], locale: str) -> str:
    return "  ".join(card_text(c, locale) for c in cards)


def sort_cards(cards: Iterable[Card], trump: int | None, sun: bool | None) -> list[Card]:
    """Cards sorted by suit (trump first, colours alternating), then by trick order (R1.1)."""
    keys = _sort_keys(trump)
    return sorted(cards, key=lambda card: keys[card.index])


@lru_cache(maxsize=8)
def _sort_keys(trump: int | None) -> tuple[int, ...]:
    """:func:`sort_cards`' key of each card index under ``trump`` (five tables, built once each)."""
    order = [s for s in SUIT_ORDER if s != trump]
    if trump is not None:
        order.insert(0, trump)
    keys = []
    for index in range(32):
        card = Card(index)
        ranking = TRUMP_RANKING if card.suit == trump else PLAIN_RANKING
        keys.append(order.index(card.suit) * 8 + ranking.index(card.rank))
    return tuple(keys)


def contract_text(contract: str | None, trump: int | None, locale: str) -> str:
    if contract == "sun":
        return t("contract.sun", locale)
    if contract == "hokum" and trump is not None:
        return t("contract.hokum_in", locale, suit=suit_name(trump, locale), symbol=SUIT_SYMBOLS[trump])
    return t("contract.hokum", locale)


def action_text(action: Action, locale: str, *, confirming: bool = False) -> str:
    """An action in words: a bid, a double, a declaration, or the played card.

    ``confirming``: a Hokum or Sun that confirms or switches a standing Hokum (R3.1 C).
    """
    typ = action.type
    if typ is ActionType.PLAY:
        assert action.card is not None
        return card_text(action.card, locale)
    if typ is ActionType.HOKUM:
        if action.suit is not None:
            return t("bid.hokum_suit", locale, suit=suit_name(action.suit, locale), symbol=SUIT_SYMBOLS[action.suit])
        return t("bid.confirm_hokum" if confirming else "bid.hokum", locale)
    if typ is ActionType.SUN and confirming:
        return t("bid.switch_sun", locale)
    if typ is ActionType.DOUBLE:
        if action.locked is None:
            return t("double.double", locale)
        return t("double.double_locked" if action.locked else "double.double_open", locale)
    if typ is ActionType.FOUR:
        return t("double.four_locked" if action.locked else "double.four_open", locale)
    simple = {
        ActionType.PASS: "bid.pass",
        ActionType.SUN: "bid.sun",
        ActionType.ASHKAL: "bid.ashkal",
        ActionType.KAWESH: "bid.kawesh",
        ActionType.TRIPLE: "double.triple",
        ActionType.GAHWA: "double.gahwa",
        ActionType.DECLARE: "action.declare",
        ActionType.SAWA: "action.sawa",  # R12
    }
    return t(simple[typ], locale)


def level_text(level: int, locale: str) -> str:
    """1 none, 2 Double, 3 Triple, 4 Four, 5 Gahwa (R4)."""
    return t(f"level.{min(max(level, 1), 5)}", locale)


def project_name(kind: str, locale: str) -> str:
    return t(f"project.{kind}", locale)


def project_text(project: Project, locale: str, *, cards: bool = True) -> str:
    """``Sira A-K-Q ♥`` or ``Hundred (four K)``; ``cards=False`` gives the type only."""
    name = project_name(project.type.value, locale)
    if not cards:
        return name
    if project.suit is None:
        return t("project.quad", locale, project=name, rank=rank_text(project.top, locale))
    ranks = sorted((c.rank for c in project.cards), key=SEQUENCE_RANKING.index)
    return t(
        "project.sequence",
        locale,
        project=name,
        cards=t("seq.sep", locale).join(rank_text(r, locale) for r in ranks),
        symbol=SUIT_SYMBOLS[project.suit],
    )


def projects_text(projects: Iterable[Project], locale: str, *, cards: bool = True) -> str:
    return t("project.and", locale).join(project_text(p, locale, cards=cards) for p in projects)


def default_bot_name(seat: int) -> str:
    """The name the table service gives a bot it seats (``Bot 4``)."""
    return f"Bot {seat + 1}"


def bot_name(seat: int, locale: str) -> str:
    """A default-named bot in ``locale``: ``Bot 4``, ``بوت 4`` (isolated). Its number is written in
    Western digits like every other number the bot shows, in the picture too."""
    return isolate(t("bot.name", locale, n=seat + 1))


def display_name(raw: str, locale: str) -> str:
    """A user-supplied name as shown: cut, markdown-escaped, in FSI … PDI (its own direction)."""
    return _display_name(raw)


@lru_cache(maxsize=4096)
def _display_name(raw: str) -> str:
    """:func:`display_name`, kept for the names of the tables being played (a view shows each name often)."""
    return isolate(escape(raw.strip()[:NAME_LIMIT]))


def seat_name(info: RenderInfo, seat: int, locale: str, *, marks: bool = True) -> str:
    """A seat's display name, escaped, cut and isolated, with (bot)/(away) marks.

    A bot with the service's default name is named in the locale (``Bot 4``, ``بوت 4``) and gets
    no (bot) mark: its name already says so.
    """
    raw = info.names[seat]
    if raw is None:
        return t("seat.number", locale, n=seat + 1)
    named_bot = info.is_bot[seat] and raw == default_bot_name(seat)
    if named_bot:
        name = bot_name(seat, locale)
    elif raw.strip():
        name = display_name(raw, locale)
    else:
        name = t("seat.number", locale, n=seat + 1)
    if marks and info.is_bot[seat] and not named_bot:
        name = t("seat.bot", locale, name=name)
    if marks and info.away[seat]:
        name = t("seat.away", locale, name=name)
    return name


def team_name(info: RenderInfo, team: int, locale: str, viewer: int | None = None) -> str:
    """``Us``/``Them`` for a seat's private view; else the pair of names, or "Team n"."""
    if viewer is not None:
        return t("team.us" if viewer & 1 == team else "team.them", locale)
    if info.names[team] is None and info.names[team + 2] is None:
        return t("team.number", locale, n=team + 1)
    return t(
        "team.pair",
        locale,
        a=seat_name(info, team, locale, marks=False),
        b=seat_name(info, team + 2, locale, marks=False),
    )


def timestamp(unix: float, style: str = "R") -> str:
    """A Discord timestamp (``<t:1700000000:R>`` shows "in 42 seconds" for each reader)."""
    return f"<t:{int(unix)}:{style}>"
