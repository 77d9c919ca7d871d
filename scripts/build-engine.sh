#!/usr/bin/env bash
# Compiles the engine modules in place with mypyc (setup.py lists them). Never fails the
# set-up: without mypy or a C compiler the engine stays pure Python. BALOOT_PURE_PYTHON=1 skips it.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "${BALOOT_PURE_PYTHON:-}" != 1 ]; then
  if ! .venv/bin/python -c "import mypyc, setuptools" 2>/dev/null; then
    .venv/bin/python -m pip install -q --disable-pip-version-check setuptools "$(grep '^mypy==' requirements-dev.txt)" \
      2>&1 | grep -v "^WARNING: Location" || true
  fi
  mkdir -p build
  # All or nothing: extensions of an earlier build must not outlive a failed one (stale or partial).
  rm -f baloot/*.so baloot/*/*.so ./*__mypyc.*.so
  if ! .venv/bin/python setup.py -q build_ext --inplace >build/engine-build.log 2>&1; then
    echo "engine build failed (see build/engine-build.log); using the pure-Python engine" >&2
  fi
fi
.venv/bin/python -c "import baloot; print('== engine:', baloot.ENGINE_BUILD)"
