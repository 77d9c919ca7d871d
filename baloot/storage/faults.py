"""A fault-injection seam for storage: make chosen calls raise :class:`StorageUnavailable`.

:func:`inject_faults` wraps every public ``async`` method of one storage
object (SQLite's :class:`~baloot.storage.Storage`, or any backend with the
same methods) so that, while a :class:`Faults` plan says so, a call raises
``StorageUnavailable`` *before* it reaches the database: nothing is written,
exactly what a locked, full or failing database (or a dropped connection)
means to the callers. Plans choose calls by method name, by count and until
they are cleared::

    faults = inject_faults(storage)
    faults.fail("add_action", times=1)            # the next add_action fails once
    faults.fail(reason="database is locked")      # every call fails ...
    faults.clear()                                # ... until cleared

Tests and operators' drills use it; the bot itself never installs it.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from .errors import StorageUnavailable

WRITES: frozenset[str] = frozenset(
    {
        "save_guild_settings",
        "set_organiser_role",
        "create_table",
        "set_table_language",
        "close_table",
        "put_seats",
        "remove_seat",
        "start_match",
        "add_hand",
        "add_action",
        "set_message",
        "forget_message",
    }
)
"""The storage methods that write (``fail(writes_only=True)`` picks these)."""


@dataclasses.dataclass
class _Rule:
    methods: frozenset[str] | None  # None: every method
    remaining: int | None  # None: until cleared
    reason: str
    after: int  # calls of the chosen methods to let through first

    def takes(self, method: str) -> bool:
        return self.methods is None or method in self.methods


@dataclasses.dataclass
class Faults:
    """What to fail, and what was failed: ``injected`` counts raised faults, ``calls`` every call."""

    injected: int = 0
    calls: dict[str, int] = dataclasses.field(default_factory=dict)
    failed: list[str] = dataclasses.field(default_factory=list)
    _rules: list[_Rule] = dataclasses.field(default_factory=list)

    def fail(
        self,
        *methods: str,
        times: int | None = None,
        after: int = 0,
        reason: str = "database is locked",
        writes_only: bool = False,
    ) -> None:
        """Fail the next ``times`` calls (None: every call until :meth:`clear`) of ``methods``.

        No methods: every method (``writes_only``: every method of :data:`WRITES`).
        ``after``: let that many matching calls succeed first.
        """
        chosen: Iterable[str] | None = methods or (WRITES if writes_only else None)
        self._rules.append(_Rule(None if chosen is None else frozenset(chosen), times, reason, after))

    def clear(self) -> None:
        """The fault is over: every call goes through again."""
        self._rules.clear()

    @property
    def active(self) -> bool:
        return bool(self._rules)

    def check(self, method: str) -> None:
        """Called before ``method`` runs: raise if a rule says this call fails."""
        self.calls[method] = self.calls.get(method, 0) + 1
        for rule in list(self._rules):
            if not rule.takes(method):
                continue
            if rule.after > 0:
                rule.after -= 1
                continue
            if rule.remaining is not None:
                rule.remaining -= 1
                if rule.remaining <= 0:
                    self._rules.remove(rule)
            self.injected += 1
            self.failed.append(method)
            raise StorageUnavailable(f"{rule.reason} (injected in {method})")


def inject_faults(storage: Any, faults: Faults | None = None) -> Faults:
    """Wrap ``storage``'s public async methods (on this object only) to consult ``faults`` first."""
    plan = faults if faults is not None else Faults()
    for name, member in inspect.getmembers(type(storage)):
        if name.startswith("_") or not inspect.iscoroutinefunction(member) or name in ("open", "close"):
            continue
        setattr(storage, name, _guarded(plan, name, getattr(storage, name)))
    return plan


def _guarded(plan: Faults, name: str, method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    @functools.wraps(method)
    async def guarded(*args: Any, **kwargs: Any) -> Any:
        plan.check(name)
        return await method(*args, **kwargs)

    return guarded
