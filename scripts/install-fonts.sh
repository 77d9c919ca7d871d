#!/usr/bin/env bash
# The table picture (issue 10) draws names, Arabic ones included, with DejaVu Sans (Debian's
# fonts-dejavu-core; Pillow's own font has no Arabic glyphs). Installs it when it is missing and we
# may (root with apt-get); otherwise says how, once. Never fails the set-up.
set -uo pipefail
if [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "== installing fonts-dejavu-core (the table picture's font)"
  { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q fonts-dejavu-core; } >/dev/null \
    || echo "fonts-dejavu-core could not be installed: pictures use Pillow's font (no Arabic glyphs)" >&2
else
  echo "DejaVu Sans is not installed: table pictures use Pillow's font (no Arabic glyphs)." \
    "Install it with: sudo apt-get install fonts-dejavu-core" >&2
fi
exit 0
