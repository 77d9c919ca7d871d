"""Table options: the R9 variants, the match target and the number of deals (R8)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from .error_codes import ErrorCode
from .errors import NotationError

NUMBERS = frozenset({"target", "deals"})
"""The options that are whole numbers; every other one is true or false."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The R9 options of a table; every variant is off by default, except ``sawa`` (R12), on.

    ``deals``: 0 for a match to the ``target`` (R8); N > 0 for a match of N deals (R8, a tournament
    round of a fixed number of deals), the target then unused.
    """

    target: int = 152
    ashkal_on_ace: bool = False
    ashkal_round_two: bool = False
    third_round_on_ace: bool = False
    kawesh: bool = False
    declarer_leads: bool = False
    trump_sequence_priority: bool = False
    projects_multiply_fully: bool = False
    baloot_stays_with_holder: bool = False
    sawa: bool = True
    deals: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.target, bool) or not isinstance(self.target, int) or self.target < 1:
            raise NotationError(
                f"rule 'target' must be a positive whole number, not {self.target!r}", code=ErrorCode.BAD_RULES
            )
        if isinstance(self.deals, bool) or not isinstance(self.deals, int) or self.deals < 0:
            raise NotationError(
                f"rule 'deals' must be a whole number, 0 or more, not {self.deals!r}", code=ErrorCode.BAD_RULES
            )
        for f in fields(self):
            if f.name not in NUMBERS and not isinstance(getattr(self, f.name), bool):
                raise NotationError(f"rule {f.name!r} must be true or false", code=ErrorCode.BAD_RULES)

    @staticmethod
    def from_json(obj: object) -> Rules:
        """Read R10's ``rules`` object; a missing option takes its default.

        Unknown option names are ignored, like unknown keys elsewhere (R11.4).
        """
        if obj is None:
            return Rules()
        if not isinstance(obj, dict):
            raise NotationError("'rules' must be a JSON object", code=ErrorCode.BAD_RULES)
        known = {f.name for f in fields(Rules)}
        return Rules(**{k: v for k, v in obj.items() if k in known})

    def to_json(self) -> dict[str, Any]:
        """All options, for a record's ``rules``; ``deals`` only when set (a match to the target leaves it out,
        so its record reads as before)."""
        options = asdict(self)
        if not self.deals:
            del options["deals"]
        return options

    @staticmethod
    def option_names() -> list[str]:
        """Names of the R9 options, ``target`` first."""
        return [f.name for f in fields(Rules)]
