#!/usr/bin/env bash
# The reckoning of docs/experiments.md M34: probe set 7
# (scripts/gpu_probes7.sh) predicted by bres's schedule before M34 (m33:
# traces/probes/reckoning/m34/h100-bres-m33.sched, both contend lines'
# slowdown fitted from the trace) and after it (m34: the built-in,
# fit=overlap); pingpong by its built-in (M33) in both; same machine and both
# cross directions, from two sets of calibrations:
#   prereg: set 6's committed zero-delay runs (traces/probes/h100_s6,
#           h200_s6), as the predictions were written (the seed-3 sweep from
#           bres_ml_00000; cross ratios of set 6's copy floors, 3,008.8 and
#           4,237.5 GB/s);
#   refit:  set 7's own zero-delay runs (NEW/h100/runs, NEW/h200/runs; the
#           seed-3 sweep from its own zero-delay run).
#
#   scripts/m34_reckoning.sh NEW OUTDIR        (PREDICT_ONLY=1: prereg only, no runs needed; NEW is then ignored;
#                                              MEASURED_CACHE=DIR: each run measured once)
#
# OUTDIR gets {prereg,refit}_{m33,m34}_{h100,h200,h200_from_h100,h100_from_h200}.tsv.
# Exit 0 when every table was written, 1 if one failed, 2 on bad input.
set -uo pipefail
[ $# = 2 ] || { echo "usage: scripts/m34_reckoning.sh NEW OUTDIR" >&2; exit 2; }
NEW=$1 OUTDIR=$2
ROOT=$(dirname "$0")/..
SET=7 OLD=$ROOT/traces/probes/reckoning/m34/h100-bres-m33.sched OLD_NAME=m33 NEW_NAME=m34 ARGS_VAR=BR_ARGS
PREDICT_ONLY=${PREDICT_ONLY:-}
source "$(dirname "$0")/set_reckoning_lib.sh"
# prereg: the previous set's calibrations and floors (3,008.8 / 4,237.5 GB/s)
set_of prereg "$NEW/h100/runs" "$NEW/h200/runs" "$ROOT/traces/probes/h100_s6" "$ROOT/traces/probes/h200_s6" \
    bres_ml_00000 1.40837 0.710041 4.2375e12
# refit: the set's own zero-delay runs; floors of its probes.log (UP, DOWN, F200)
[ -n "$PREDICT_ONLY" ] ||
    set_of refit "$NEW/h100/runs" "$NEW/h200/runs" "$NEW/h100/runs" "$NEW/h200/runs" bres_epi_s3_00000 \
        "${UP:-1.40837}" "${DOWN:-0.710041}" "${F200:-4.2375e12}"
[ $fails -eq 0 ] || exit 1
