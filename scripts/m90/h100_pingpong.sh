#!/usr/bin/env bash
# The committed H100 pingpong runs, each predicted out of sample from its
# own sweep's zero-delay run (docs/experiments.md M90): one line per run,
# its period error and the waits that miss issue 12's target.
#
#   scripts/m90/h100_pingpong.sh SCHEDULE [validate args...]
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 SCHEDULE [validate args...]" >&2; exit 2; }
cd "$(dirname "$0")/../.."
S=$1; shift
PG=${PEGEMM:-build/cli/pegemm}
T=traces
score() {
    local out rc=0
    out=$("$PG" model validate "$@" --schedule "$S" 2>&1) || rc=$?
    # validate exits 1 when a run misses the target (what this lists), 2 on bad input
    [ $rc -le 1 ] || { echo "$out" >&2; exit $rc; }
    echo "$out" | awk '
        /out-of-sample\]/ { name = $1; miss = "" }
        name && /tile_period/ { period = $6 }
        name && /MISS/ && !/tile_period/ { miss = miss " " $1 }
        name && /^ *tensor_idle/ { print name, period, miss; name = "" }'
}
rest() { ls "$T"/held_out/"$1"_0*.h5 | grep -v _00000; }
score $T/probes/h100/pingpong_ml_00000.h5 $T/probes/h100/pingpong_ml_03200.h5 $T/probes/h100/pingpong_s3.h5 \
    $T/probes/h100/pingpong_m33792.h5 "$@"
score $T/probes/h100_s6/pingpong_ml_00000.h5 $T/probes/h100_s6/pingpong_s2_epi_01200.h5 "$@"
score $T/runs/epi_sweep/h100_epi_00000.h5 $(ls $T/runs/epi_sweep/h100_epi_*.h5 | grep -v _00000) "$@"
for r in rep_a rep_b rep_c rep_f; do
    score $T/held_out/${r}_00000.h5 $(rest $r) "$@"
done
score $T/held_out/rep_c_00000.h5 $T/held_out/rep_e_08000.h5 "$@"
