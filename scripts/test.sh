#!/usr/bin/env bash
# README command two: install what is missing, build, run every test suite --
# once in build/, then again in build-asan/ under AddressSanitizer (with leak
# checking) and UndefinedBehaviorSanitizer (reference-only: -Dcuda=disabled;
# meson's built-in -Db_sanitize option).  PG_SANITIZE=0 skips the second run.
# Extra arguments go to both `meson test` runs (e.g. --suite model).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
meson test -C build --print-errorlogs --num-processes 2 "$@"

if [ "${PG_SANITIZE:-1}" != 0 ]; then
  echo "test: the same suites under ASan+UBSan (build-asan/)"
  [ -f build-asan/build.ninja ] || meson setup build-asan -Dcuda=disabled -Db_sanitize=address,undefined
  meson compile -C build-asan
  # Any sanitizer report fails the test; no leak suppressions are needed
  # (docs/reliability.md).  Tests run ~2-3x slower instrumented.
  ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1" \
  UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
    meson test -C build-asan --print-errorlogs --num-processes 2 --timeout-multiplier 3 "$@"
fi
