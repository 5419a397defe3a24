#!/usr/bin/env bash
# docs/experiments.md M175: each set's pingpong runs predicted from its
# zero-delay run with the built-in schedule and with the schedule `pegemm
# model fit -o` writes from that run; the largest difference in a predicted
# period and in a predicted mean wait (cycles).
#   scripts/m175/written_vs_builtin.sh SETDIR...     (SETDIR/h200/runs)
set -uo pipefail
P=${PEGEMM:-./build/cli/pegemm}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
for sd in "$@"; do
    R=$sd/h200/runs
    "$P" model fit "$R/pingpong_ml_00000.h5" -o "$tmp/fit.sched" -q >/dev/null || exit 1
    "$P" model validate "$R/pingpong_ml_00000.h5" "$R"/pingpong_*.h5 2>&1 | grep -E "tile_period|_wait  |idle  " > "$tmp/a"
    "$P" model validate "$R/pingpong_ml_00000.h5" "$R"/pingpong_*.h5 --schedule "$tmp/fit.sched" 2>&1 |
        grep -E "tile_period|_wait  |idle  " > "$tmp/b"
    paste -d'|' "$tmp/a" "$tmp/b" | awk -F'|' -v s="$(basename "$sd")" '
        {split($1,a," "); split($2,b," "); d=a[5]-b[5]; if(d<0)d=-d; k=(a[1]=="tile_period")?"p":"w"; if(d>m[k])m[k]=d; n++}
        END{printf "%s: %d figures, largest difference: period %.1f cycles, wait %.1f cycles\n", s, n, m["p"], m["w"]}'
done
