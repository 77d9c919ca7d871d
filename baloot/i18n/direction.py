"""Right-to-left text that reads right in Discord.

Discord lays embeds and messages out left to right. An Arabic line that
mixes directions — a Latin name, a card ``10 ♥``, a row of numbers — is then
reordered by the Unicode bidirectional algorithm (UAX #9) in ways a reader
cannot follow: a trailing suit jumps to the far end of the line, a row of
card values comes out reversed. Unicode isolates fix this without changing
the words:

- every user-supplied name is wrapped in FSI … PDI (:func:`isolate`): its
  own direction, whatever its script, never mixing with its neighbours;
- every Arabic line is wrapped in RLI … PDI (:func:`rtl_lines`), so that it
  is laid out right to left even inside Discord's left-to-right paragraph;
- Latin runs that must stay left to right get LRI … PDI (:func:`ltr`).

:func:`orient_payload` applies the line rule to a whole rendered payload.
The tests run payloads through a bidi implementation (``python-bidi``) and
check the visual order, not only the strings.
"""

from __future__ import annotations

from typing import Any, Final

LRI: Final = "\u2066"
RLI: Final = "\u2067"
FSI: Final = "\u2068"
PDI: Final = "\u2069"
ISOLATES: Final = frozenset((LRI, RLI, FSI, PDI))
RTL_LOCALES: Final = frozenset(("ar",))
_FENCE: Final = "```"


def is_rtl(locale: str) -> bool:
    """Whether ``locale`` (already resolved: ``en`` / ``ar``) is written right to left."""
    return locale in RTL_LOCALES


def isolate(text: str) -> str:
    """``text`` (a name, of unknown direction) in FSI … PDI; empty text stays empty."""
    return f"{FSI}{text}{PDI}" if text else text


def ltr(text: str) -> str:
    """``text`` (a Latin run such as ``Bot 4``) in LRI … PDI."""
    return f"{LRI}{text}{PDI}" if text else text


def rtl(text: str) -> str:
    """``text`` in RLI … PDI: laid out right to left inside any paragraph."""
    return f"{RLI}{text}{PDI}" if text else text


def strip_isolates(text: str) -> str:
    """``text`` without isolate marks (to compare words in tests or logs)."""
    return "".join(c for c in text if c not in ISOLATES)


def rtl_lines(text: str) -> str:
    """Each non-empty line of ``text`` in RLI … PDI, except code fences (their lines too, inside)."""
    if "\n" not in text:  # most texts are one line (a field name, a card list): no split and join
        return _rtl_line(text)
    return "\n".join(_rtl_line(line) for line in text.split("\n"))


def _rtl_line(line: str) -> str:
    """One line of :func:`rtl_lines`: in RLI … PDI, unless it is blank or a code fence."""
    return line if not line.strip() or line.startswith(_FENCE) else rtl(line)


def _fit(text: str, limit: int) -> str:
    """``rtl_lines(text)`` within ``limit`` characters: when the marks overflow, lines after the
    first are dropped (the first, a heading, and the last, a total, stay) for one ``…``."""
    oriented = rtl_lines(text)
    if len(oriented) <= limit:
        return oriented
    lines = oriented.split("\n")
    gap = rtl("…")
    while len(lines) > 2 and len("\n".join(lines)) + len(gap) + 1 > limit:
        del lines[1]
    if len(lines) <= 2 and len("\n".join(lines)) + len(gap) + 1 > limit:
        return rtl(strip_isolates(text)[: limit - 3] + "…")
    return "\n".join([lines[0], gap, *lines[1:]])


def orient_payload(payload: dict[str, Any], locale: str) -> dict[str, Any]:
    """The payload with every text line of a right-to-left ``locale`` oriented (:func:`rtl_lines`).

    Content, embed titles, descriptions, field names and values, footers. Button
    labels are left alone (Discord lays each out on its own). Limits are kept
    (Discord's: content 2000, title 256, description 4096, field 256/1024, footer 2048).
    """
    if not is_rtl(locale):
        return payload
    if payload.get("content"):
        payload["content"] = _fit(payload["content"], 2000)
    for embed in payload.get("embeds", ()):
        if embed.get("title"):
            embed["title"] = _fit(embed["title"], 256)
        if embed.get("description"):
            embed["description"] = _fit(embed["description"], 4096)
        for fld in embed.get("fields", ()):
            fld["name"] = _fit(fld["name"], 256)
            fld["value"] = _fit(fld["value"], 1024)
        footer = embed.get("footer")
        if footer and footer.get("text"):
            footer["text"] = _fit(footer["text"], 2048)
    return payload
