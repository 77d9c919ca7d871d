"""Table options: the R9 variants, the match target or number of deals (R8) and the turn time, validated.

Bad values raise :class:`BadOption` with a message that says what is allowed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Final

from ..engine.errors import BalootError
from ..engine.rules import Rules
from .errors import BadOption

LANGUAGES: Final = ("en", "ar")
TARGET_RANGE: Final = (1, 1000)
DEALS_RANGE: Final = (0, 32)
"""A match of a fixed number of deals (R8): 0 (a match to the target) to 32 deals."""
TURN_SECONDS_RANGE: Final = (5.0, 600.0)
"""The turn times a table may have; the service can be given a wider range (tests)."""


def table_rules(options: Rules | Mapping[str, object] | None) -> Rules:
    """The R9 options and target (R8) of a new table; unknown names and bad values are refused."""
    if options is None:
        return Rules()
    if isinstance(options, Rules):
        rules = options
    else:
        known = Rules.option_names()
        for name in options:
            if name not in known:
                raise BadOption(f"Unknown table option {name!r}. The options are: {', '.join(known)}.")
        try:
            rules = Rules(**{k: v for k, v in options.items()})  # type: ignore[arg-type]
        except (BalootError, TypeError) as exc:
            raise BadOption(f"Bad table option: {exc}.") from None
    low, high = TARGET_RANGE
    if not low <= rules.target <= high:
        raise BadOption(f"The match target must be a whole number from {low} to {high}.")
    low, high = DEALS_RANGE
    if not low <= rules.deals <= high:
        raise BadOption(f"The number of deals must be a whole number from {low} to {high} (0: play to the target).")
    return rules


def turn_seconds(value: object, allowed: tuple[float, float] = TURN_SECONDS_RANGE) -> float:
    """A turn time in seconds within ``allowed``."""
    low, high = allowed
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise BadOption(f"The turn time must be a number of seconds from {low:g} to {high:g}.")
    if not low <= value <= high:
        raise BadOption(f"The turn time must be from {low:g} to {high:g} seconds.")
    return float(value)


def language(value: object) -> str | None:
    """A table or server language: one of :data:`LANGUAGES`, or None to follow the server."""
    if value is None:
        return None
    if not isinstance(value, str) or value not in LANGUAGES:
        raise BadOption(f"The language must be one of: {', '.join(LANGUAGES)}.")
    return value
