#!/usr/bin/env bash
# Sets up a virtual environment (if needed), installs PostgreSQL for the storage tests if missing
# (as root, with apt-get), and runs every check: ruff, mypy, pytest.
# The engine is compiled in place first (scripts/build-engine.sh).
# All three run even if one fails; the exit code is non-zero if any failed.
set -uo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv || exit 1
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-dev.txt 2>&1 \
  | grep -v "^WARNING: Location" || true
# discord.py is a range (requirements.txt: >=2.7,<3). The suite runs on the lowest 2.x of the range;
# the Discord-layer tests run once more on the newest 2.x, in a second environment (.venv-newest).
LOWEST="$(sed -n 's/^discord\.py>=\([0-9.]*\),.*/\1/p' requirements.txt)"
case "$LOWEST" in *.*.*) ;; *) LOWEST="$LOWEST.0" ;; esac
.venv/bin/python -m pip install -q --disable-pip-version-check "discord.py==$LOWEST" 2>&1 \
  | grep -v "^WARNING: Location" || true
if [ ! -x .venv-newest/bin/python ]; then
  "$PY" -m venv .venv-newest || exit 1
fi
{ .venv-newest/bin/python -m pip install -q --disable-pip-version-check -r requirements-dev.txt \
  && .venv-newest/bin/python -m pip install -q --disable-pip-version-check --upgrade "discord.py>=$LOWEST,<3"; } 2>&1 \
  | grep -v "^WARNING: Location" || true
.venv/bin/python -c "import discord, aiosqlite, asyncpg, dotenv, openskill, PIL, pytest, hypothesis, playwright" \
  || exit 1
# The storage tests run on PostgreSQL too; they start their own throwaway cluster with
# initdb/pg_ctl. Install Debian's server when it is missing and we may (CI runs as root on Debian).
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing PostgreSQL (apt-get install postgresql)"
    { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql; } >/dev/null \
      || echo "PostgreSQL could not be installed" >&2
  else
    echo "PostgreSQL is not installed: its storage tests are skipped here (CI fails them)." \
      "Install it with: sudo apt-get install postgresql" >&2
  fi
fi
bash scripts/install-fonts.sh  # DejaVu Sans for the table picture (Arabic names)
# The web table: its page is bundled from web/ (npm packages, esbuild; Node.js and npm
# installed with apt-get when missing), and its browser tests drive Debian's Chromium through
# Playwright (which never downloads a browser of its own here).
bash scripts/build-web.sh || exit 1
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing Chromium for the browser tests (apt-get install chromium)"
    { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; } >/dev/null \
      || echo "Chromium could not be installed" >&2
  else
    echo "Chromium is not installed: the browser tests are skipped here (CI runs them)." \
      "Install it with: sudo apt-get install chromium" >&2
  fi
fi
bash scripts/build-engine.sh || exit 1
status=0
echo "== ruff"; .venv/bin/python -m ruff check . || status=1
echo "== mypy"; .venv/bin/python -m mypy || status=1
echo "== pytest (discord.py $(.venv/bin/python -c 'import discord; print(discord.__version__)'), the lowest)"
.venv/bin/python -m pytest "$@" || status=1
echo "== pytest (discord.py $(.venv-newest/bin/python -c 'import discord; print(discord.__version__)'), the newest:" \
  "the Discord layer)"
.venv-newest/bin/python -m pytest tests/bot tests/cogs/test_buttons_dispatch.py tests/cogs/test_token_http.py \
  tests/cogs/test_wire.py tests/cogs/test_pacing.py tests/test_no_private_access.py || status=1
# The engine and AI tests, and the differential test, on the pure-Python engine too.
echo "== pytest (BALOOT_PURE_PYTHON=1: engine, AI, differential)"
BALOOT_PURE_PYTHON=1 .venv/bin/python -m pytest tests/engine tests/ai \
  || status=1
exit $status
