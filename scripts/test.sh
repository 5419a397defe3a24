#!/usr/bin/env bash
# README command two: install what is missing, build, run every test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
meson test -C build --print-errorlogs --num-processes 2 "$@"
