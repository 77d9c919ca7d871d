"""The engine runs the same compiled (mypyc) or pure; values cross processes by pickle."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import baloot
from baloot import ALL_CARDS, Action
from baloot.engine.projects import Project, ProjectType
from baloot.engine.scoring import HandScore

ROOT = Path(__file__).resolve().parents[2]


def test_engine_values_survive_pickle() -> None:
    """The AI workers receive views by pickle (R10 values: cards, actions, projects, scores)."""
    assert pickle.loads(pickle.dumps(ALL_CARDS[5])) is ALL_CARDS[5]
    action = Action.play(2, "QH")
    assert pickle.loads(pickle.dumps(action)) is action
    project = Project(ProjectType.SIRA, 0b111, 2, 0)
    assert pickle.loads(pickle.dumps(project)) == project
    score = HandScore((100, 62), (10, 6), (10, 6), 0, None, None)
    assert pickle.loads(pickle.dumps(score)) == score


def test_pure_python_is_forced_by_the_environment() -> None:
    """BALOOT_PURE_PYTHON=1 loads every engine module from its .py source."""
    code = "import baloot, baloot.engine.hand as h; print(baloot.ENGINE_BUILD, h.__file__.endswith('.py'))"
    env = {**os.environ, "BALOOT_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["pure", "True"]
    assert baloot.ENGINE_BUILD in ("compiled", "pure") or baloot.ENGINE_BUILD.startswith("partly")


def test_pure_python_covers_the_compiled_ai_modules() -> None:
    """The compiled AI modules (``ai.rollout`` ...) are also loaded from source under BALOOT_PURE_PYTHON=1."""
    from baloot._engine_modules import COMPILED

    ai = [name for name in COMPILED if name.startswith("ai.")]
    assert ai, "the hard AI's search modules are compiled"
    code = (
        "import importlib, baloot; "
        f"print(all(importlib.import_module('baloot.' + n).__file__.endswith('.py') for n in {ai!r}))"
    )
    env = {**os.environ, "BALOOT_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True"]
    compiled = {n: sys.modules[f"baloot.{n}"].__file__ for n in ai if f"baloot.{n}" in sys.modules}
    if baloot.ENGINE_BUILD == "compiled":  # this process: every listed module is an extension
        assert all(not (path or "").endswith(".py") for path in compiled.values())
