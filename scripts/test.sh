#!/usr/bin/env bash
# Sets up a virtual environment (if needed) and runs every check: ruff, mypy, pytest.
# All three run even if one fails; the exit code is non-zero if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv || exit 1
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-dev.txt 2>&1 \
  | grep -v "^WARNING: Location" || true
.venv/bin/python -c "import discord, aiosqlite, dotenv, openskill, pytest, hypothesis" || exit 1
status=0
echo "== ruff"; .venv/bin/python -m ruff check . || status=1
echo "== mypy"; .venv/bin/python -m mypy || status=1
echo "== pytest"; .venv/bin/python -m pytest "$@" || status=1
exit $status
