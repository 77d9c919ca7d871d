# ruff: noqa: E402  (the build is chosen before the engine modules are imported)
"""Baloot: a pure rules engine (R1-R11), game records, AI and the table service.

The engine modules import only the standard library.
"""

# The engine modules may be compiled with mypyc (setup.py). This file is never compiled:
# it chooses the build before any engine module is imported. BALOOT_PURE_PYTHON=1 forces the
# pure-Python sources even where compiled extensions are present.
import importlib.machinery as _machinery
import importlib.util as _util
import os as _os
import sys as _sys
from collections.abc import Sequence as _Sequence
from types import ModuleType as _ModuleType

from ._engine_modules import COMPILED as _COMPILED


class _PureEngineFinder:
    """A meta-path finder that loads ``baloot.<engine module>`` from its ``.py`` source."""

    @staticmethod
    def find_spec(
        fullname: str, path: _Sequence[str] | None = None, target: _ModuleType | None = None
    ) -> _machinery.ModuleSpec | None:
        if not fullname.startswith(__name__ + "."):
            return None
        name = fullname[len(__name__) + 1 :]
        if name not in _COMPILED:
            return None
        source = _os.path.join(_os.path.dirname(__file__), *name.split(".")) + ".py"
        if not _os.path.exists(source):
            return None
        return _util.spec_from_file_location(fullname, source)


if _os.environ.get("BALOOT_PURE_PYTHON") == "1" and not any(
    isinstance(f, _PureEngineFinder) for f in _sys.meta_path
):
    _sys.meta_path.insert(0, _PureEngineFinder())

from .engine.actions import Action, ActionType
from .engine.cards import ALL_CARDS, Card
from .engine.error_codes import ErrorCode
from .engine.errors import (
    BalootError,
    GameOverError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    RecordError,
)
from .engine.hand import Hand, Phase
from .engine.match import Match
from .engine.records import match_from_record, replay_summary
from .engine.rules import Rules
from .engine.view import SeatView, seat_view
from .engine.vocab import CardMask, Contract, Seat


def engine_build() -> str:
    """Which engine runs: ``"compiled"`` when every module in ``_engine_modules.COMPILED`` is a C
    extension (mypyc), ``"pure"`` when none is (``ENGINE_BUILD`` is this, computed once)."""
    import importlib

    compiled = 0
    for name in _COMPILED:
        module = importlib.import_module(f"{__name__}.{name}")
        if (getattr(module, "__file__", None) or "").endswith(tuple(_machinery.EXTENSION_SUFFIXES)):
            compiled += 1
    if compiled == len(_COMPILED):
        return "compiled"
    return "pure" if compiled == 0 else f"partly compiled ({compiled} of {len(_COMPILED)} modules)"


def __getattr__(name: str) -> str:
    """``ENGINE_BUILD``: which engine runs, ``"compiled"`` (mypyc) or ``"pure"`` (Python).

    Computed on first use, not at import: it imports every compiled module (the bench and the
    hard AI among them), which ``import baloot`` alone should not load.
    """
    if name == "ENGINE_BUILD":
        build = engine_build()
        globals()["ENGINE_BUILD"] = build
        return build
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "ALL_CARDS",
    "ENGINE_BUILD",
    "Action",
    "ActionType",
    "BalootError",
    "Card",
    "CardMask",
    "Contract",
    "ErrorCode",
    "GameOverError",
    "Hand",
    "IllegalActionError",
    "Match",
    "NotYourTurnError",
    "NotationError",
    "Phase",
    "RecordError",
    "Rules",
    "Seat",
    "SeatView",
    "engine_build",
    "match_from_record",
    "replay_summary",
    "seat_view",
]
