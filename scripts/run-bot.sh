#!/usr/bin/env bash
# Sets up a virtual environment (if needed) and runs the bot; settings come from .env.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt
bash scripts/install-fonts.sh  # DejaVu Sans for the table picture (Arabic names)
bash scripts/build-engine.sh  # compiled engine; pure Python if it cannot be built
# The web table and Activity page (served only when WEB_PORT is set): bundled from web/.
bash scripts/build-web.sh || echo "The web table's page could not be built; its address says so." >&2
exec .venv/bin/python bot.py
