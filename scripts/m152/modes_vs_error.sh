#!/usr/bin/env bash
# M152: per pingpong run of a probe set, the kernel's and the model's per-SM
# median share of loop-bound turns (scripts/m144/turn_modes.py) beside the
# model's period error, the model as validate predicts the run from the
# set's zero-delay calibration (its what-ifs, then `pegemm model fit CAL
# --set ... --trace-out`).  SCHEDULE=FILE.sched tries another schedule (the
# trace's fit and validate's check both); VARIANT="--variant P=V" goes to
# validate only (`model fit` has no --variant: give the fit the same
# option through SCHEDULE).  The prefetch builds' model traces leave out
# validate's refit (M148): read those with `validate --held`.
#   scripts/m152/modes_vs_error.sh SETDIR   (SETDIR/h200/runs/pingpong_*.h5)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
PG=${PEGEMM:-$here/build/cli/pegemm}
PY=${PY:-/usr/bin/python3}
sched=(); [ -n "${SCHEDULE:-}" ] && sched=(--schedule "$SCHEDULE")
read -r -a variant <<< "${VARIANT:-}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$1/h200/runs"
cal=pingpong_ml_00000.h5
for run in pingpong_*.h5; do
    [ "$run" = "$cal" ] && continue
    report=$("$PG" model validate "$cal" "$run" "${sched[@]}" "${variant[@]}" 2>/dev/null || true)
    sets=$(printf '%s\n' "$report" | grep -A1 "^$run  \[" | sed -n 's/.*what-if ([^)]*): //p')
    args=(); for s in $sets; do [ "$s" = "(none)" ] || args+=(--set "$s"); done
    "$PG" model fit "$cal" -q "${sched[@]}" "${args[@]}" --trace-out "$tmp/m.h5" >/dev/null
    k=$("$PY" "$here/scripts/m144/turn_modes.py" "$run" 2>/dev/null | awk '/share/ {print $(NF-3)}')
    m=$("$PY" "$here/scripts/m144/turn_modes.py" "$tmp/m.h5" 2>/dev/null | awk '/share/ {print $(NF-3)}')
    e=$(printf '%s\n' "$report" | grep -A2 "^$run  \[" | awk '/tile_period/ {print $6}')
    printf '%-36s kernel %5s  model %5s  period %s\n' "$run" "$k" "$m" "$e"
done
