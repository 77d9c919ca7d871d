"""baloot/engine/quick_init.py: ``quick_init`` builds exactly what dataclasses' own ``__init__`` builds."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
from dataclasses import InitVar, dataclass, field
from typing import Any, ClassVar

import pytest

import baloot
import cogs
from baloot.engine.quick_init import ORIGINAL_INIT, quick_init

_UNSET = object()


def _decorated_classes() -> list[type]:
    """Every class of the project given :func:`quick_init` (found by importing every module)."""
    found: dict[str, type] = {}
    for package in (baloot, cogs):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if module.name.endswith("__main__"):
                continue
            for value in vars(importlib.import_module(module.name)).values():
                if isinstance(value, type) and ORIGINAL_INIT in value.__dict__:
                    found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[name] for name in sorted(found)]


DECORATED = _decorated_classes()


def _built(cls: type, init: Any, args: list[Any], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    record: Any = object.__new__(cls)
    init(record, *args, **kwargs)
    return tuple(getattr(record, f.name, _UNSET) for f in dataclasses.fields(record))


def _same_signature(cls: type) -> tuple[inspect.Signature, inspect.Signature]:
    """Both signatures, with a default factory's marker (dataclasses' ``<factory>``) left out."""
    def plain(sig: inspect.Signature) -> inspect.Signature:
        factories = {f.name for f in dataclasses.fields(cls) if f.default_factory is not dataclasses.MISSING}
        return sig.replace(parameters=[p.replace(default=inspect.Parameter.empty) if p.name in factories else p
                                       for p in sig.parameters.values()], return_annotation=inspect.Signature.empty)

    return (plain(inspect.signature(cls.__dict__["__init__"])),
            plain(inspect.signature(getattr(cls, ORIGINAL_INIT))))


def test_the_hot_records_are_decorated() -> None:
    """The classes built several times per press (the reason for the module) keep their quick ``__init__``."""
    names = {f"{c.__module__}.{c.__qualname__}" for c in DECORATED}
    assert {"baloot.engine.view.SeatView", "baloot.engine.view.PublicView", "baloot.engine.view.TrickView",
            "baloot.tables.snapshot.TableSnapshot", "baloot.tables.info.TableInfo",
            "baloot.tables.events.ActionApplied", "baloot.render.model.RenderInfo"} <= names


@pytest.mark.parametrize("cls", DECORATED, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_every_decorated_class_builds_what_dataclasses_builds(cls: type) -> None:
    new, original = _same_signature(cls)
    assert new == original
    # Every parameter given (a distinct object each), then only the required ones (the defaults).
    params = list(original.parameters.values())[1:]
    values = {p.name: object() for p in params}
    for given in (values, {p.name: values[p.name] for p in params if p.default is inspect.Parameter.empty}):
        args = [given[p.name] for p in params if p.kind is p.POSITIONAL_OR_KEYWORD and p.name in given]
        kwargs = {p.name: given[p.name] for p in params if p.kind is p.KEYWORD_ONLY and p.name in given}
        assert _built(cls, cls.__dict__["__init__"], args, kwargs) == _built(cls, getattr(cls, ORIGINAL_INIT),
                                                                           args, kwargs)


def test_defaults_factories_keywords_and_post_init() -> None:
    made: list[object] = []

    @quick_init
    @dataclass(frozen=True, slots=True)
    class Base:
        a: int
        b: list[int] = field(default_factory=list)

    @quick_init
    @dataclass(frozen=True, slots=True, kw_only=True)
    class Record(Base):
        limit: ClassVar[int] = 3
        c: str = "c"
        d: tuple[int, ...]
        hidden: int = field(default=7, init=False)
        made_by: list[int] = field(default_factory=lambda: [1], init=False)

        def __post_init__(self) -> None:
            made.append(self)

    first = Record(1, d=(2,))
    second = Record(1, [5], c="x", d=())
    assert (first.a, first.b, first.c, first.d, first.hidden, first.made_by) == (1, [], "c", (2,), 7, [1])
    assert (second.a, second.b, second.c, second.d) == (1, [5], "x", ())
    assert first.b is not Record(1, d=()).b  # a fresh list from the factory each time
    assert made[:2] == [first, second]
    assert first == Record(1, d=(2,))
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.a = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        Record(1, (2,))  # type: ignore[call-arg, arg-type]  # d is keyword-only
    with pytest.raises(TypeError):
        Record(1)  # type: ignore[call-arg]  # d is required
    assert _same_signature(Record)[0] == _same_signature(Record)[1]
    assert dataclasses.replace(second, c="y") == Record(1, [5], c="y", d=())


@pytest.mark.parametrize("decorate", [
    lambda cls: dataclass(cls),
    lambda cls: dataclass(slots=True)(cls),
    lambda cls: dataclass(frozen=True)(cls),
    lambda cls: dataclass(frozen=True, slots=True, init=False)(cls),
], ids=["plain", "not frozen", "not slotted", "own init"])
def test_a_class_it_cannot_reproduce_is_refused(decorate: Any) -> None:
    class Record:
        __annotations__ = {"a": int}

    with pytest.raises(TypeError):
        quick_init(decorate(Record))


def test_an_init_var_is_refused() -> None:
    with pytest.raises(TypeError, match="InitVar"):
        @quick_init
        @dataclass(frozen=True, slots=True)
        class Record:
            a: int
            b: InitVar[int]
