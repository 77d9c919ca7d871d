"""Table options: the R9 variants and the match target."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from .error_codes import ErrorCode
from .errors import NotationError


@dataclass(frozen=True, slots=True)
class Rules:
    """The R9 options of a table; every variant is off by default, except ``sawa`` (R12), on."""

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

    def __post_init__(self) -> None:
        if isinstance(self.target, bool) or not isinstance(self.target, int) or self.target < 1:
            raise NotationError(
                f"rule 'target' must be a positive whole number, not {self.target!r}", code=ErrorCode.BAD_RULES
            )
        for f in fields(self):
            if f.name != "target" and not isinstance(getattr(self, f.name), bool):
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
        """All options, for a record's ``rules``."""
        return asdict(self)

    @staticmethod
    def option_names() -> list[str]:
        """Names of the R9 options, ``target`` first."""
        return [f.name for f in fields(Rules)]
