"""The layers of ARCHITECTURE.md hold (issue 9): no import crosses one the wrong way.

Every ``import`` of every module (at any depth, ``TYPE_CHECKING`` blocks
included) is read from its source with :mod:`ast`, relative imports resolved,
and checked against what its layer may not import:

- the engine (``baloot/*.py``, ``baloot/ai``) imports nothing from the table
  service, storage, rendering, translation, statistics, the cogs or discord;
- rendering imports no discord, no cogs and no table service (only storage's
  row value types);
- the table service and storage import no discord, cogs, rendering or i18n;
- the cogs import no storage and no engine state (``Hand``, ``Match``,
  ``Bidding``, the service's ``LiveTable``): they render snapshots.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

ENGINE_FORBIDDEN = ("baloot.tables", "baloot.storage", "baloot.render", "baloot.i18n", "baloot.stats", "cogs",
                    "discord", "aiosqlite", "asyncpg")
RENDER_FORBIDDEN = ("discord", "cogs", "baloot.tables", "baloot.stats", "aiosqlite", "asyncpg",
                    "baloot.storage.storage", "baloot.storage.database", "baloot.storage.migrations")
SERVICE_FORBIDDEN = ("discord", "cogs", "baloot.render", "baloot.i18n")
COGS_FORBIDDEN = ("baloot.storage", "aiosqlite", "asyncpg", "baloot.hand", "baloot.match", "baloot.bidding",
                  "baloot.record", "baloot.play", "baloot.scoring", "baloot.tables.live", "baloot.tables.referee",
                  "baloot.tables.turns", "baloot.tables.gameplay", "baloot.tables.lobby")
STATE_CLASSES = {"Hand", "Match", "Bidding", "LiveTable"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> list[tuple[str, tuple[str, ...]]]:
    """(absolute module, names imported from it) for every import statement of a file."""
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
            found.append((module, names))
            found.extend((f"{module}.{n}", ()) for n in names)  # ``from . import x`` imports a module
    return found


def crosses(module: str, forbidden: tuple[str, ...]) -> bool:
    return any(module == f or module.startswith(f + ".") for f in forbidden)


def layer_files() -> dict[str, list[Path]]:
    baloot = ROOT / "baloot"
    return {
        "engine": [*baloot.glob("*.py"), *(baloot / "ai").glob("*.py"), *(baloot / "review").glob("*.py")],
        "render": list((baloot / "render").glob("*.py")),
        "service": [*(baloot / "tables").glob("*.py"), *(baloot / "storage").glob("*.py")],
        "cogs": list((ROOT / "cogs").glob("*.py")),
    }


RULES = {"engine": ENGINE_FORBIDDEN, "render": RENDER_FORBIDDEN, "service": SERVICE_FORBIDDEN,
         "cogs": COGS_FORBIDDEN}


@pytest.mark.parametrize("layer", list(RULES))
def test_no_import_crosses_a_layer_the_wrong_way(layer: str) -> None:
    files = layer_files()[layer]
    assert files, layer
    wrong = []
    for path in files:
        for module, names in imports_of(path):
            if crosses(module, RULES[layer]):
                wrong.append(f"{path.relative_to(ROOT)} imports {module}")
            if layer == "cogs" and STATE_CLASSES & set(names):
                wrong.append(f"{path.relative_to(ROOT)} imports {sorted(STATE_CLASSES & set(names))} from {module}")
    assert not wrong, "\n".join(wrong)


def test_the_checker_sees_a_crossing() -> None:
    """The reader resolves relative imports, so a wrong one in any form would be caught."""
    path = ROOT / "baloot" / "render" / "table.py"
    modules = {m for m, _ in imports_of(path)}
    assert "baloot.view" in modules and "baloot.i18n" in modules
    assert crosses("baloot.tables.live", COGS_FORBIDDEN) and not crosses("baloot.tablesx", SERVICE_FORBIDDEN)


def test_importing_the_engine_and_rendering_loads_no_discord() -> None:
    """Also at run time (transitive imports): a fresh interpreter loads no discord for these packages."""
    code = ("import sys, baloot, baloot.ai, baloot.render, baloot.tables, baloot.storage, baloot.stats; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('discord', 'cogs')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
