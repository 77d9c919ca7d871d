#!/usr/bin/env bash
# Try Baloot in one command, no Discord needed: sets up the virtual environment, builds
# the web page, and serves a table at http://127.0.0.1:8080 (you against three bots). Any option
# is passed on: bash scripts/play.sh --people 4 --host 0.0.0.0   (see python -m baloot play -h)
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt
bash scripts/build-engine.sh >/dev/null 2>&1 || true  # compiled engine if possible; pure Python otherwise
bash scripts/build-web.sh
exec .venv/bin/python -m baloot play "$@"
