"""Looking up catalog keys: locale resolution and ``{placeholder}`` filling."""

from __future__ import annotations

import string
from collections.abc import Mapping
from typing import Final

from .ar import AR
from .en import EN

DEFAULT_LOCALE: Final = "en"
LOCALES: Final = ("en", "ar")
_CATALOGS: Final[Mapping[str, Mapping[str, str]]] = {"en": EN, "ar": AR}


class CatalogError(KeyError):
    """A key that is not in the catalog, or a text missing one of its parameters."""


def resolve_locale(locale: object) -> str:
    """A Discord locale (``"ar"``, ``"ar-SA"``, ``Locale.arabic`` ...) to ``"ar"`` or ``"en"``.

    Anything that is not Arabic falls back to English.
    """
    if locale.__class__ is str and locale in _CATALOGS:  # already resolved: the common case
        return locale
    value = getattr(locale, "value", locale)  # Discord's Locale (or discord.py's proxy of one it lacks, as "ar")
    if not isinstance(value, str):
        return DEFAULT_LOCALE
    resolved = _RESOLVED.get(value)
    if resolved is None:
        resolved = "ar" if value.strip().lower().replace("_", "-").split("-")[0] == "ar" else DEFAULT_LOCALE
        if len(_RESOLVED) < _RESOLVED_LIMIT:
            _RESOLVED[value] = resolved
    return resolved


_RESOLVED_LIMIT: Final = 256
_RESOLVED: dict[str, str] = {}
"""Locales resolved before (Discord's few dozen, as ``Locale`` members or strings), up to a bound."""


def catalog(locale: str) -> Mapping[str, str]:
    """The whole catalog of a (resolved or raw) locale."""
    texts = _CATALOGS.get(locale)  # already resolved: the common case, no parsing
    return texts if texts is not None else _CATALOGS[resolve_locale(locale)]


def has_key(key: str) -> bool:
    """Whether ``key`` exists (both catalogs hold the same keys; a test checks it)."""
    return key in EN


def keys() -> frozenset[str]:
    """Every English catalog key."""
    return frozenset(EN)


def placeholders(text: str) -> frozenset[str]:
    """The ``{names}`` a catalog text expects."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(text) if name)


def t(key: str, locale: str, **params: object) -> str:
    """The text of ``key`` in ``locale`` with ``params`` filled in.

    Raises :class:`CatalogError` for an unknown key or a missing parameter, so
    that a typo fails a test instead of showing a raw key to a player.
    """
    texts = catalog(locale)
    try:
        text = texts[key]
    except KeyError:
        raise CatalogError(f"no catalog key {key!r}") from None
    if not params:
        if "{" in text:
            missing = placeholders(text)
            if missing:
                raise CatalogError(f"catalog key {key!r} needs parameters {sorted(missing)}")
        return text
    try:
        return text.format_map(params)
    except KeyError as exc:
        raise CatalogError(f"catalog key {key!r} needs parameter {exc.args[0]!r}") from None
