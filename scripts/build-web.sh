#!/usr/bin/env bash
# Builds the web table's page: installs its npm packages (web/package-lock.json: the
# Discord Embedded App SDK and the esbuild bundler, from the npm registry) and bundles the
# project's own JavaScript (web/src) into web/dist/app.js. Nothing built or downloaded is committed.
# Installs Node.js and npm with apt-get when they are missing and we may (root on Debian).
set -euo pipefail
cd "$(dirname "$0")/../web"
if ! command -v npm >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== installing Node.js and npm (apt-get install nodejs npm)"
    { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm; } >/dev/null
  else
    echo "npm is missing: install Node.js and npm (e.g. sudo apt-get install nodejs npm), then run this again." >&2
    exit 1
  fi
fi
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
npm run --silent build
echo "== built web/dist/app.js"
