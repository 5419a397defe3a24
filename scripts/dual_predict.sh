#!/usr/bin/env bash
# Issue 14's design contest, predicted by the model (docs/experiments.md D1).
# The predictions live as data in model/contests/dual-gemm.contest (the
# same figures this script computed when D1 was committed, before any
# dual-GEMM kernel code); with a measured file, predicted and measured side
# by side.
# usage: scripts/dual_predict.sh [PEGEMM] [MEASURED]
set -euo pipefail
cd "$(dirname "$0")/.."
PEGEMM=${1:-build/cli/pegemm}
[ -x "$PEGEMM" ] || { echo "dual_predict.sh: $PEGEMM is not an executable (build first)" >&2; exit 2; }
exec "$PEGEMM" model contest model/contests/dual-gemm.contest ${2:+--measured "$2"}
