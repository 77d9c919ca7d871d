"""The message catalog: every text the bot shows, in English and Arabic.

docs/architecture.md "Rendering is separate": the engine and the table service
speak in keys and values; this package turns a key into words for a locale.

>>> t("bid.pass", "ar")
'بس'
>>> t("error.no_table", "en-GB")
'There is no Baloot table in this channel.'
"""

from __future__ import annotations

from .catalog import (
    DEFAULT_LOCALE,
    LOCALES,
    CatalogError,
    catalog,
    has_key,
    keys,
    placeholders,
    resolve_locale,
    t,
)
from .errors import CODE_KEYS, SERVICE_ERRORS, error_key, error_text

__all__ = [
    "CODE_KEYS",
    "DEFAULT_LOCALE",
    "LOCALES",
    "SERVICE_ERRORS",
    "CatalogError",
    "catalog",
    "error_key",
    "error_text",
    "has_key",
    "keys",
    "placeholders",
    "resolve_locale",
    "t",
]
