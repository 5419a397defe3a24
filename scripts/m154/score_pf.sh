#!/usr/bin/env bash
# M154: bres's --a-prefetch builds predicted from the plain calibration by
# one what-if, the tile's first load served from the L2: first_load x R,
# R = 0.71 (an L2 hit's latency over a DRAM read's, the bench's floors;
# h100-bres's l2reuse ratio), applied as --delta first_load.mean=-(1-R) x
# the calibration's fitted first-load mean (DRAM latency + bytes / bytes per
# cycle).  validate refuses these builds (another kernel), so each run is
# predicted with `pegemm model fit CAL --set <its delays> --delta ...` and
# compared with its own measured tile period (`pegemm model fit RUN`).
#   scripts/m154/score_pf.sh RUNS_DIR     (RUNS_DIR/bres_ml_00000.h5, bres_pf*_*.h5)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
PG=${PEGEMM:-$here/build/cli/pegemm}
R=0.71
cd "$1"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$PG" model fit bres_ml_00000.h5 -q -o "$tmp/cal.sched" >/dev/null
read -r dl bytes bpc < <(sed -n 's/^memory first_load dram_latency=\([0-9.]*\) bytes=\([0-9.]*\) bytes_per_cycle=\([0-9.]*\).*/\1 \2 \3/p' "$tmp/cal.sched")
delta=$(awk -v d="$dl" -v b="$bytes" -v c="$bpc" -v r=$R 'BEGIN { printf "%.1f", -(1 - r) * (d + b / c) }')
echo "calibration bres_ml_00000.h5: first_load mean $(awk -v d="$dl" -v b="$bytes" -v c="$bpc" 'BEGIN { printf "%.1f", d + b / c }'), what-if --delta first_load.mean=$delta"
period() { "$PG" model fit "$@" 2>/dev/null | awk '/^ +tile_period/ {print $2, $3}'; }
printf '%-28s %10s %10s %10s %8s %8s\n' run measured what-if plain what-if plain
for run in bres_pf*_*.h5 bres_epi_*.h5 bres_ml_0[1-9]*.h5; do
    [ -f "$run" ] || continue
    sets=()
    d=$(printf '%s\n' "$run" | sed -n 's/.*_epi_0*\([0-9][0-9]*\)\.h5/\1/p'); [ -n "$d" ] && sets+=(--set "epi_delay=$d")
    m=$(printf '%s\n' "$run" | sed -n 's/.*_ml_0*\([0-9][0-9]*\)\.h5/\1/p'); [ -n "$m" ] && sets+=(--set "mainloop_delay=$m")
    measured=$(period "$run" | awk '{print $2}')
    plain=$(period bres_ml_00000.h5 "${sets[@]}" | awk '{print $1}')
    whatif=$(period bres_ml_00000.h5 "${sets[@]}" --delta "first_load.mean=$delta" | awk '{print $1}')
    case $run in bres_pf*) pf=1 ;; *) pf=0 ;; esac
    awk -v n="$run" -v me="$measured" -v w="$whatif" -v p="$plain" -v pf=$pf 'BEGIN {
        printf "%-28s %10.1f %10.1f %10.1f %+7.1f%% %+7.1f%%%s\n", n, me, w, p, 100 * (w / me - 1), 100 * (p / me - 1),
               pf ? "" : "   (plain build: the plain prediction is the one)" }'
done
