"""A faster ``__init__`` for the frozen, slotted dataclasses built on every press.

A frozen dataclass's generated ``__init__`` stores each field with
``object.__setattr__(self, name, value)``: a generic attribute store that looks
the name up on the type again for every field (about 95 ns a field here). A
slotted class keeps each field in a member descriptor, whose ``__set__`` stores
the value directly; :func:`quick_init` gives the class an ``__init__`` that
calls those, half the time. A :class:`~baloot.engine.view.SeatView` (29 fields) is
built four times per action.

Nothing else changes: the parameters, their order, defaults and default
factories, keyword-only fields, fields left out of ``__init__`` and
``__post_init__`` are those ``dataclasses`` itself would give, and assigning to
a field still raises ``FrozenInstanceError``. A class it cannot reproduce
exactly (not a frozen, slotted dataclass with a generated ``__init__``, or one
with an ``InitVar``) is refused when decorated, so that a test import fails
instead of building records wrongly. ``tests/test_records.py`` compares every
decorated class with the ``__init__`` dataclasses generated for it.

Not for the engine modules compiled with mypyc (``_engine_modules.COMPILED``):
their classes are native, and mypyc refuses a replaced ``__init__``.
"""

from __future__ import annotations

import dataclasses
import inspect
import types
from typing import Any, Final, TypeVar

T = TypeVar("T")

ORIGINAL_INIT: Final = "__dataclass_init__"
"""Where the ``__init__`` that dataclasses generated is kept (read by the tests)."""


def _descriptor(cls: type, name: str) -> Any:
    """The member descriptor that holds field ``name`` (on ``cls`` or the base that declared its slot)."""
    for klass in cls.__mro__:
        slot = klass.__dict__.get(name)
        if slot is not None:
            if not isinstance(slot, types.MemberDescriptorType):
                raise TypeError(f"{cls.__qualname__}.{name} is not a slot")
            return slot
    raise TypeError(f"{cls.__qualname__}.{name} has no slot")


def quick_init(cls: type[T]) -> type[T]:
    """Give the frozen, slotted dataclass ``cls`` an equivalent ``__init__`` that stores through its slots.

    Put it above ``@dataclass(frozen=True, slots=True)``; raises ``TypeError`` for a class it
    cannot reproduce exactly (see the module's docstring).
    """
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or not params.init or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__qualname__} is not a frozen, slotted dataclass with a generated __init__")
    declared = cls.__dict__["__dataclass_fields__"]
    annotations = inspect.get_annotations(cls)
    fields_now = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    if any(name not in fields_now and "InitVar" in str(annotations.get(name, "")) for name in declared):
        raise TypeError(f"{cls.__qualname__} has an InitVar")  # declared, not a field, annotated InitVar
    namespace: dict[str, Any] = {"_MISSING": dataclasses.MISSING}
    positional: list[str] = []
    keyword: list[str] = []
    body: list[str] = []  # ClassVars are not fields; the order is dataclasses' own
    for n, f in enumerate(dataclasses.fields(cls)):  # type: ignore[arg-type]
        namespace[f"_set{n}"] = _descriptor(cls, f.name).__set__
        if f.default is not dataclasses.MISSING:
            namespace[f"_default{n}"] = f.default
        if f.default_factory is not dataclasses.MISSING:
            namespace[f"_factory{n}"] = f.default_factory
        if not f.init:
            if f.default_factory is not dataclasses.MISSING:
                body.append(f"_set{n}(self, _factory{n}())")
            elif f.default is not dataclasses.MISSING:
                body.append(f"_set{n}(self, _default{n})")
            continue
        if f.default_factory is not dataclasses.MISSING:
            param = f"{f.name}=_MISSING"
            body.append(f"_set{n}(self, _factory{n}() if {f.name} is _MISSING else {f.name})")
        else:
            param = f.name if f.default is dataclasses.MISSING else f"{f.name}=_default{n}"
            body.append(f"_set{n}(self, {f.name})")
        (keyword if f.kw_only else positional).append(param)
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    args = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    source = f"def __init__({args}) -> None:\n" + "".join(f"    {line}\n" for line in body or ["pass"])
    exec(source, namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = cls.__init__.__doc__
    init.__annotations__ = dict(cls.__init__.__annotations__)
    setattr(cls, ORIGINAL_INIT, cls.__init__)
    cls.__init__ = init  # type: ignore[method-assign]
    return cls
