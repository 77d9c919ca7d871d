"""The layers of docs/architecture.md hold: each folder is one layer, and no import runs the wrong way.

Every ``import`` of every module (at any depth, ``TYPE_CHECKING`` blocks and imports inside
functions included) is read from its source with :mod:`ast`, relative imports resolved, and
checked folder by folder against what that folder may import. Inside a folder, no module may
reach itself again through imports (no import circle).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

THIRD_PARTY_SERVERS = ("discord", "aiosqlite", "asyncpg", "aiohttp")

# What each folder of the project may import from the project (besides itself). Everything else
# of the project is forbidden; so is anything in FORBIDDEN_EXTERNAL for that folder.
MAY_IMPORT: dict[str, tuple[str, ...]] = {
    "baloot.engine": (),
    "baloot.ai": ("baloot.engine",),
    "baloot.review": ("baloot.engine", "baloot.ai"),
    "baloot.i18n": ("baloot.engine",),
    "baloot.storage": ("baloot.engine",),
    "baloot.tournaments": ("baloot.engine",),
    "baloot.tables": ("baloot.engine", "baloot.ai", "baloot.review", "baloot.storage", "baloot.tournaments"),
    "baloot.stats": ("baloot.engine", "baloot.storage", "baloot.tables"),
    "baloot.render": ("baloot.engine", "baloot.i18n", "baloot.review.model", "baloot.storage.rows",
                      "baloot.storage.stats_rows", "baloot.storage.reviews", "baloot.tournaments"),
    "baloot.web": ("baloot.engine", "baloot.ai", "baloot.i18n", "baloot.render", "baloot.storage", "baloot.tables",
                   "baloot.stats"),
    "baloot.tools": ("baloot", "baloot.engine", "baloot.ai", "baloot.review", "baloot.i18n", "baloot.render",
                     "baloot.storage", "baloot.tables", "baloot.stats", "baloot.tournaments", "baloot.web"),
    "cogs.transport": ("baloot.engine", "baloot.render"),
    "cogs.presentation": ("baloot.engine", "baloot.i18n", "baloot.render", "baloot.tables", "cogs.transport"),
    "cogs": ("baloot.engine", "baloot.i18n", "baloot.render", "baloot.tables", "baloot.stats", "baloot.tournaments",
             "cogs.presentation", "cogs.transport"),
}
# The Discord layer renders the service's snapshots: it holds no engine or table state of its own.
COGS_NEVER = ("baloot.engine.hand", "baloot.engine.match", "baloot.engine.bidding", "baloot.engine.records",
              "baloot.engine.play", "baloot.engine.scoring", "baloot.tables.live", "baloot.tables.referee",
              "baloot.tables.turns", "baloot.tables.gameplay", "baloot.tables.lobby")
FORBIDDEN_EXTERNAL: dict[str, tuple[str, ...]] = {
    "baloot.engine": (*THIRD_PARTY_SERVERS, "asyncio", "random.random", "time"),
    "baloot.ai": THIRD_PARTY_SERVERS,
    "baloot.review": (*THIRD_PARTY_SERVERS, "asyncio"),
    "baloot.tournaments": (*THIRD_PARTY_SERVERS, "asyncio", "time"),
    "baloot.i18n": THIRD_PARTY_SERVERS,
    "baloot.storage": ("discord", "aiohttp"),
    "baloot.tables": ("discord", "aiohttp", "aiosqlite", "asyncpg"),
    "baloot.stats": ("discord", "aiohttp", "aiosqlite", "asyncpg"),
    "baloot.render": THIRD_PARTY_SERVERS,
    "baloot.web": ("discord", "aiosqlite", "asyncpg"),
    "baloot.tools": ("discord", "aiosqlite", "asyncpg"),
    "cogs.transport": ("aiosqlite", "asyncpg"),
    "cogs.presentation": ("aiosqlite", "asyncpg"),
    "cogs": ("aiosqlite", "asyncpg"),
}
# Engine state classes the Discord layer never holds: it renders the service's snapshots.
STATE_CLASSES = {"Hand", "Match", "Bidding", "LiveTable"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    files = [*ROOT.glob("baloot/**/*.py"), *ROOT.glob("cogs/**/*.py")]
    return {module_name(f): f for f in files}


def imports_of(path: Path) -> list[tuple[str, tuple[str, ...]]]:
    """(absolute module, names imported from it) for every import statement of a file.

    ``from pkg import mod`` where ``mod`` is a module of the project counts as importing ``pkg.mod``
    alone (importing a module of one's own package is not importing the package's other modules).
    """
    modules = project_modules()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: list[tuple[str, tuple[str, ...]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            names = tuple(alias.name for alias in node.names)
            submodules = [f"{module}.{n}" for n in names if f"{module}.{n}" in modules]
            if submodules and len(submodules) == len(names):
                found.extend((m, ()) for m in submodules)
            else:
                found.append((module, names))
    return found


def folder_of(module: str) -> str | None:
    """The layer (folder) a project module belongs to; None for a module outside the layers."""
    parts = module.split(".")
    if parts[0] == "cogs":
        return "cogs." + parts[1] if len(parts) > 2 and parts[1] in ("presentation", "transport") else "cogs"
    if (parts[0] == "baloot" and len(parts) > 2) or (len(parts) == 2 and f"baloot.{parts[1]}" in MAY_IMPORT):
        return ".".join(parts[:2])
    return None


def within(module: str, prefixes: Iterable[str]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def is_project(module: str) -> bool:
    return module.split(".")[0] in ("baloot", "cogs")


def wrong_imports(folder: str) -> list[str]:
    wrong = []
    for module, path in sorted(project_modules().items()):
        if folder_of(module) != folder:
            continue
        for target, names in imports_of(path):
            where = f"{path.relative_to(ROOT)} imports {target}"
            if is_project(target):
                if folder_of(target) == folder or target == "baloot._engine_modules":
                    continue
                allowed = within(target, MAY_IMPORT[folder]) or (target == "baloot" and folder == "baloot.tools")
                if not allowed or (folder.startswith("cogs") and within(target, COGS_NEVER)):
                    wrong.append(where)
            elif within(target, FORBIDDEN_EXTERNAL[folder]):
                wrong.append(where)
            if folder.startswith("cogs") and STATE_CLASSES & set(names):
                wrong.append(f"{where}: {sorted(STATE_CLASSES & set(names))}")
    return wrong


@pytest.mark.parametrize("folder", list(MAY_IMPORT))
def test_no_import_crosses_a_layer_the_wrong_way(folder: str) -> None:
    assert any(folder_of(m) == folder for m in project_modules()), folder
    wrong = wrong_imports(folder)
    assert not wrong, "\n".join(wrong)


def import_graph() -> dict[str, set[str]]:
    modules = project_modules()
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        targets = set()
        for target, _names in imports_of(path):
            while target and target not in modules:  # ``from m import name``: the module m
                target = target.rpartition(".")[0]
            if target and target != module:
                targets.add(target)
        graph[module] = targets
    return graph


def circles(graph: dict[str, set[str]], nodes: set[str]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), within ``nodes``."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in nodes:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle_inside_a_folder() -> None:
    graph = import_graph()
    by_folder: dict[str | None, set[str]] = {}
    for module in graph:
        by_folder.setdefault(folder_of(module), set()).add(module)
    found = [c for folder, nodes in by_folder.items() if folder is not None for c in circles(graph, nodes)]
    assert not found, found


def test_no_import_circle_between_folders() -> None:
    graph = import_graph()
    folders: dict[str, set[str]] = {}
    for module, targets in graph.items():
        here = folder_of(module)
        if here is None:
            continue
        folders.setdefault(here, set()).update(
            f for f in (folder_of(t) for t in targets) if f is not None and f != here)
    assert not circles(folders, set(folders)), folders


def test_the_checker_sees_a_crossing_and_a_circle() -> None:
    """The reader resolves relative imports, and the circle finder finds a circle."""
    modules = {m for m, _ in imports_of(ROOT / "baloot" / "render" / "table.py")}
    assert "baloot.engine.view" in modules and "baloot.i18n" in modules
    assert not within("baloot.tablesx", ("baloot.tables",)) and within("baloot.tables.live", ("baloot.tables",))
    assert folder_of("cogs.presentation.channel") == "cogs.presentation" and folder_of("cogs.buttons") == "cogs"
    assert folder_of("baloot.engine.hand") == "baloot.engine" and folder_of("baloot.tools") == "baloot.tools"
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, {"a", "b", "c", "d"}) == [["a", "b", "c"]]


def test_importing_the_layers_loads_no_discord() -> None:
    """Also at run time (transitive imports): a fresh interpreter loads no discord for ``baloot``."""
    code = ("import sys, baloot, baloot.ai, baloot.render, baloot.tables, baloot.storage, baloot.stats, baloot.i18n; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('discord', 'cogs')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_importing_baloot_loads_neither_the_bench_nor_the_hard_ai() -> None:
    code = "import sys, baloot; print(sorted(m for m in sys.modules if m.startswith(('baloot.tools', 'baloot.ai'))))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
