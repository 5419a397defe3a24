#!/usr/bin/env bash
# Configure (once) and build pegemm into build/ .  Extra arguments go to
# `meson setup` (e.g. -Dcuda=disabled for reference-only mode).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f build/build.ninja ]; then
  [ $# -eq 0 ] || meson configure build "$@"
else
  meson setup build "$@"
fi
meson compile -C build
