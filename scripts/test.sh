#!/usr/bin/env bash
# Sets up a virtual environment (if needed) and runs every check: ruff, mypy, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-dev.txt
echo "== ruff"; .venv/bin/python -m ruff check .
echo "== mypy"; .venv/bin/python -m mypy
echo "== pytest"; .venv/bin/python -m pytest "$@"
