#!/usr/bin/env bash
# The table picture draws names, Arabic ones included, with DejaVu Sans (Debian's
# fonts-dejavu-core; Pillow's own font has no Arabic glyphs) and the emoji in names in colour with Noto
# Color Emoji (fonts-noto-color-emoji; without it an emoji is left out of the picture, never a box).
# Installs what is missing when we may (root with apt-get); otherwise says how, once. Never fails the set-up.
set -uo pipefail
missing=()
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
[ -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || missing+=(fonts-noto-color-emoji)
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "== installing ${missing[*]} (the table picture's fonts)"
  { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"; } >/dev/null \
    || echo "${missing[*]} could not be installed: pictures go without (no Arabic glyphs / no emoji)" >&2
else
  echo "Fonts for the table picture are missing (${missing[*]}): names draw without Arabic glyphs or emoji." \
    "Install them with: sudo apt-get install ${missing[*]}" >&2
fi
exit 0
