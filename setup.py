"""Build hook: compile the engine modules with mypyc, always optionally.

``pip install .`` / ``pip install -e .`` / ``python setup.py build_ext --inplace`` compile the
modules in ``baloot._engine_modules.COMPILED`` into C extensions. Every extension is optional: with
no C compiler (or if mypyc fails) the build still succeeds and the pure-Python modules are used.
``BALOOT_PURE_PYTHON=1`` at build time skips compiling altogether.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "baloot"))
from _engine_modules import COMPILED  # noqa: E402  (no package import: baloot/__init__ needs nothing built)

sys.path.pop(0)


class OptionalBuildExt(build_ext):
    """Builds each extension if it can; a compiler error leaves that module pure Python."""

    failed = False

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler at all (setuptools raises before building any)
            print(f"baloot: compiled engine not built ({exc}); using pure Python", file=sys.stderr)
            self.failed = True
        if self.failed:
            # All or nothing: a module whose shared mypyc library is missing would not import.
            for ext in self.extensions:
                path = Path(self.get_ext_fullpath(ext.name))
                if path.exists():
                    path.unlink()

    def build_extension(self, ext: object) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            print(f"baloot: could not compile {getattr(ext, 'name', ext)} ({exc}); pure Python", file=sys.stderr)
            self.failed = True


def _extensions() -> list[object]:
    if os.environ.get("BALOOT_PURE_PYTHON") == "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("baloot: mypyc is not installed; using the pure-Python engine", file=sys.stderr)
        return []
    old = os.getcwd()
    os.chdir(ROOT)
    try:
        exts = mypycify([f"baloot/{name.replace('.', '/')}.py" for name in COMPILED], opt_level="3", debug_level="0")
    except BaseException as exc:  # mypyc type errors end with SystemExit
        print(f"baloot: mypyc failed ({exc!r}); using the pure-Python engine", file=sys.stderr)
        return []
    finally:
        os.chdir(old)
    for ext in exts:
        ext.optional = True
    return list(exts)


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
