#!/usr/bin/env bash
# The reckoning of docs/experiments.md M33: probe set 6
# (scripts/gpu_probes6.sh) predicted by pingpong's schedule before M33
# (m26: traces/probes/reckoning/m33/h100-pingpong-m26.sched) and after it
# (m33: the built-in, kblocks queue=1 and contend window=1); bres by its
# built-in schedule in both; same machine and both cross directions, from
# two sets of calibrations:
#   prereg: set 5's committed zero-delay runs (traces/probes/h100_s5,
#           h200_s5), as the predictions were written (the seed-9 sweep from
#           bres_ml_00000; cross ratios of set 5's copy floors, 2,997.7 and
#           4,210.8 GB/s);
#   refit:  set 6's own zero-delay runs (NEW/h100/runs, NEW/h200/runs; the
#           seed-9 sweep from its own zero-delay run).
#
#   scripts/m33_reckoning.sh NEW OUTDIR        (PREDICT_ONLY=1: prereg only, no runs needed; NEW is then ignored;
#                                              MEASURED_CACHE=DIR: each run measured once)
#
# OUTDIR gets {prereg,refit}_{m26,m33}_{h100,h200,h200_from_h100,h100_from_h200}.tsv.
# Exit 0 when every table was written, 1 if one failed, 2 on bad input.
set -uo pipefail
[ $# = 2 ] || { echo "usage: scripts/m33_reckoning.sh NEW OUTDIR" >&2; exit 2; }
NEW=$1 OUTDIR=$2
ROOT=$(dirname "$0")/..
SET=6 OLD=$ROOT/traces/probes/reckoning/m33/h100-pingpong-m26.sched OLD_NAME=m26 NEW_NAME=m33 ARGS_VAR=PP_ARGS
PREDICT_ONLY=${PREDICT_ONLY:-}
source "$(dirname "$0")/set_reckoning_lib.sh"
# prereg: the previous set's calibrations and floors (2,997.7 / 4,210.8 GB/s)
set_of prereg "$NEW/h100/runs" "$NEW/h200/runs" "$ROOT/traces/probes/h100_s5" "$ROOT/traces/probes/h200_s5" \
    bres_ml_00000 1.40468 0.711908 4.2108e12
# refit: the set's own zero-delay runs; floors of its probes.log (UP, DOWN, F200)
[ -n "$PREDICT_ONLY" ] ||
    set_of refit "$NEW/h100/runs" "$NEW/h200/runs" "$NEW/h100/runs" "$NEW/h200/runs" bres_epi_s9_00000 \
        "${UP:-1.40468}" "${DOWN:-0.711908}" "${F200:-4.2108e12}"
[ $fails -eq 0 ] || exit 1
