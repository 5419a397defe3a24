#!/usr/bin/env bash
# M149: each traced phase's mean in a run against the model's trace of the
# same setting: the run's what-ifs as validate derives them from CAL, then
# `pegemm model fit CAL --set ... --trace-out`, then scripts/m140/phase_means.py.
#   scripts/m149/phase_vs_model.sh CAL.h5 RUN.h5...
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
PG=${PEGEMM:-$here/build/cli/pegemm}
PY=${PY:-/usr/bin/python3}
cal=$1; shift
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for run in "$@"; do
    sets=$("$PG" model validate "$cal" "$run" 2>/dev/null | grep -A1 "$(basename "$run")  \[" | sed -n 's/.*what-if ([^)]*): //p' || true)
    args=(); for s in $sets; do [ "$s" = "(none)" ] || args+=(--set "$s"); done
    "$PG" model fit "$cal" -q "${args[@]}" --trace-out "$tmp/m.h5" >/dev/null
    "$PY" "$here/scripts/m140/phase_means.py" "$run" "$tmp/m.h5"
done
