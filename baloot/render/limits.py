"""Discord's hard limits (shared/DISCORD_TESTING.md), checked on a rendered payload.

Rendering clips long texts itself (:func:`clip`); :func:`check_limits` is the
safety net the tests run on every payload, and the cogs may run in debug.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

CONTENT: Final = 2000
EMBEDS: Final = 10
TITLE: Final = 256
DESCRIPTION: Final = 4096
FIELDS: Final = 25
FIELD_NAME: Final = 256
FIELD_VALUE: Final = 1024
FOOTER: Final = 2048
AUTHOR: Final = 256
EMBED_TOTAL: Final = 6000
ROWS: Final = 5
BUTTONS_PER_ROW: Final = 5
LABEL: Final = 80
CUSTOM_ID: Final = 100
ELLIPSIS: Final = "…"


class LimitError(ValueError):
    """A payload Discord would refuse (400, code 50035)."""


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ending in an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def _embed_problems(embed: Mapping[str, Any], where: str) -> tuple[list[str], int]:
    problems: list[str] = []
    total = 0

    def text(value: object, limit: int, name: str, required: bool = False) -> None:
        nonlocal total
        if value is None:
            if required:
                problems.append(f"{where}.{name} is missing")
            return
        if not isinstance(value, str):
            problems.append(f"{where}.{name} is not text")
            return
        if required and not value.strip():
            problems.append(f"{where}.{name} is empty")
        if len(value) > limit:
            problems.append(f"{where}.{name} has {len(value)} > {limit} characters")
        total += len(value)

    text(embed.get("title"), TITLE, "title")
    text(embed.get("description"), DESCRIPTION, "description")
    footer = embed.get("footer")
    if footer is not None:
        text(footer.get("text"), FOOTER, "footer.text", required=True)
    author = embed.get("author")
    if author is not None:
        text(author.get("name"), AUTHOR, "author.name", required=True)
    fields = embed.get("fields") or []
    if len(fields) > FIELDS:
        problems.append(f"{where} has {len(fields)} > {FIELDS} fields")
    for i, f in enumerate(fields):
        text(f.get("name"), FIELD_NAME, f"fields[{i}].name", required=True)
        text(f.get("value"), FIELD_VALUE, f"fields[{i}].value", required=True)
    color = embed.get("color")
    if color is not None and not (isinstance(color, int) and 0 <= color <= 0xFFFFFF):
        problems.append(f"{where}.color is not 0..0xFFFFFF")
    return problems, total


def _component_problems(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    problems: list[str] = []
    if len(rows) > ROWS:
        problems.append(f"{len(rows)} > {ROWS} action rows")
    ids: set[str] = set()
    for r, row in enumerate(rows):
        if row.get("type") != 1:
            problems.append(f"components[{r}] is not an action row")
        buttons = row.get("components") or []
        if not 1 <= len(buttons) <= BUTTONS_PER_ROW:
            problems.append(f"components[{r}] holds {len(buttons)} buttons (1..{BUTTONS_PER_ROW})")
        for b, button in enumerate(buttons):
            where = f"components[{r}][{b}]"
            if button.get("type") != 2:
                problems.append(f"{where} is not a button")
            if button.get("style") not in (1, 2, 3, 4):
                problems.append(f"{where} has style {button.get('style')!r}")
            label = button.get("label")
            if not label and not button.get("emoji"):
                problems.append(f"{where} has neither label nor emoji")
            if label is not None and (not isinstance(label, str) or len(label) > LABEL):
                problems.append(f"{where}.label is longer than {LABEL}")
            custom_id = button.get("custom_id")
            if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= CUSTOM_ID:
                problems.append(f"{where}.custom_id must be 1..{CUSTOM_ID} characters")
            elif custom_id in ids:
                problems.append(f"{where}.custom_id {custom_id!r} is not unique")
            else:
                ids.add(custom_id)
    return problems


def limit_problems(payload: Mapping[str, Any]) -> list[str]:
    """Every way ``payload`` breaks Discord's limits (empty when it is fine)."""
    problems: list[str] = []
    content = payload.get("content")
    if content is not None and len(content) > CONTENT:
        problems.append(f"content has {len(content)} > {CONTENT} characters")
    embeds = payload.get("embeds") or []
    if len(embeds) > EMBEDS:
        problems.append(f"{len(embeds)} > {EMBEDS} embeds")
    total = 0
    for i, embed in enumerate(embeds):
        found, size = _embed_problems(embed, f"embeds[{i}]")
        problems.extend(found)
        total += size
    if total > EMBED_TOTAL:
        problems.append(f"embeds hold {total} > {EMBED_TOTAL} characters in all")
    problems.extend(_component_problems(payload.get("components") or []))
    if not content and not embeds:
        problems.append("the message is empty")
    return problems


def check_limits(payload: Mapping[str, Any]) -> None:
    """Raise :class:`LimitError` listing every broken limit of ``payload``."""
    problems = limit_problems(payload)
    if problems:
        raise LimitError("; ".join(problems))
