"""No private attribute, parser or method of a library is read, written or replaced.

An AST walk over the project's code (``baloot/``, ``cogs/``, ``bot.py``,
``scripts/``): an attribute whose name starts with ``_`` may be reached only on
``self``/``cls`` or when the project itself defines that name (a method,
slot, field or module-level name of its own); anything else - discord.py's
``client._connection``, aiohttp's ``site._server``, a name-mangled
``client.http._HTTPClient__session`` - is a reach into a library. So are
``getattr``/``setattr`` with such a name, a write into discord.py's
``state.parsers``, and an attribute of discord.py's ``client.http`` replaced.
The walk is checked against the reaches this project used to make.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
ROOTS = ("baloot", "cogs", "bot.py", "scripts")
DOCUMENTED: frozenset[str] = frozenset({
    "_replace", "_asdict", "_fields", "_make",  # namedtuple's public API (underscored so fields cannot clash)
    "_exit",  # os._exit: documented, for a forked child
})
"""Names with a leading underscore that their library documents as public."""


def project_files() -> list[Path]:
    files: list[Path] = []
    for root in ROOTS:
        path = REPO / root
        files += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return files


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def own_names(trees: list[ast.Module]) -> set[str]:
    """The private names the project defines: functions, classes, module and class-level names, attributes
    set on ``self``/``cls``, ``__slots__`` entries and dataclass fields."""
    names: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and isinstance(
                    node.value, ast.Name) and node.value.id in ("self", "cls"):
                names.add(node.attr)
            elif isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets):
                names.update(c.value for c in ast.walk(node.value)
                             if isinstance(c, ast.Constant) and isinstance(c.value, str))
    return {name for name in names if private(name)}


def chain(node: ast.expr) -> list[str]:
    """``a.b.c`` as ["a", "b", "c"] (calls and subscripts in between are looked through)."""
    parts: list[str] = []
    while True:
        if isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Subscript):
            node = node.value
        else:
            if isinstance(node, ast.Name):
                parts.append(node.id)
            return parts[::-1]


def reaches(tree: ast.Module, own: set[str]) -> Iterator[tuple[int, str]]:
    """(line, what) for each reach into a library's private parts in ``tree``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr) and node.attr not in own | DOCUMENTED:
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                yield node.lineno, ".".join(chain(node))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (
                "getattr", "setattr", "delattr", "hasattr") and len(node.args) >= 2:
            name = node.args[1]
            if isinstance(name, ast.Constant) and isinstance(name.value, str) and private(name.value) \
                    and name.value not in own:
                yield node.lineno, f"{node.func.id}(..., {name.value!r})"
            if node.func.id in ("setattr", "delattr") and "http" in chain(node.args[0]):
                yield node.lineno, f"{node.func.id} on discord.py's HTTP client"
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Delete):
            targets = node.targets if isinstance(node, ast.Assign | ast.Delete) else [node.target]
            for target in targets:
                path = chain(target)
                if "parsers" in path[1:]:
                    yield node.lineno, f"a write into discord.py's gateway parsers ({'.'.join(path)})"
                elif isinstance(target, ast.Attribute) and "http" in path[1:-1]:
                    yield node.lineno, f"an attribute of discord.py's HTTP client replaced ({'.'.join(path)})"


def all_reaches() -> list[str]:
    files = project_files()
    trees = [ast.parse(path.read_text(encoding="utf-8"), str(path)) for path in files]
    own = own_names(trees)
    return [f"{path.relative_to(REPO)}:{line}: {what}"
            for path, tree in zip(files, trees, strict=True) for line, what in reaches(tree, own)]


def test_the_project_reaches_into_no_librarys_private_parts() -> None:
    assert all_reaches() == []


@pytest.mark.parametrize("source", [
    "client.http._HTTPClient__session = session",
    "session = client.http._HTTPClient__session",
    "state = client._connection",
    "store = client._connection._view_store",
    "state.parsers['INTERACTION_CREATE'] = parse",
    "client._connection.parsers['INTERACTION_CREATE'] = parse",
    "interaction.response._response_type = kind",
    "setattr(client.http, '_try_clear_expired_ratelimits', sweep)",
    "setattr(http, 'request', paced)",
    "client.http.request = paced",
    "buckets = self.http._buckets",
    "port = site._server.sockets[0]",
    "delay = utils._parse_ratelimit_header(response)",
    "value = getattr(store, '_views')",
    "thread = getattr(connecting, '_thread', None)",
])
def test_the_walk_catches_the_reaches_the_project_used_to_make(source: str) -> None:
    own = own_names([ast.parse("class Mine:\n    __slots__ = ('_mine',)\n    def _helper(self): self._x = 1\n")])
    assert list(reaches(ast.parse(source), own)), source


@pytest.mark.parametrize("source", [
    "self._buckets = {}", "mine._mine = 1", "value = other._helper()", "parts._replace(netloc='x')",
    "os._exit(0)", "client.http.edit_message(1, 2)", "data = self._x",
])
def test_the_walk_lets_the_projects_own_names_be(source: str) -> None:
    own = own_names([ast.parse("class Mine:\n    __slots__ = ('_mine',)\n    def _helper(self): self._x = 1\n")])
    assert list(reaches(ast.parse(source), own)) == [], source
