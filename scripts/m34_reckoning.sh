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
HERE=$(dirname "$0")
ROOT=$HERE/..
OLD=$ROOT/traces/probes/reckoning/m34/h100-bres-m33.sched
PREDICT_ONLY=${PREDICT_ONLY:-}
if [ -z "$PREDICT_ONLY" ]; then
    for g in h100 h200; do
        [ -d "$NEW/$g/runs" ] || { echo "no such directory: $NEW/$g/runs" >&2; exit 2; }
    done
fi
[ -f "$OLD" ] || { echo "no such file: $OLD" >&2; exit 2; }
mkdir -p "$OUTDIR" || exit 2
fails=0

# table NAME RUNDIR CALDIR CAL7 BR_ARGS [BW [CAL_BPS]]
table() {
    local name=$1 runs=$2 cal=$3 cal7=$4 br=$5
    shift 5
    [ -n "$PREDICT_ONLY" ] && runs=$cal # before the runs: the predictions alone
    if ! PROBESET=7 CAL7_BRES_EPI=$cal7 BR_ARGS=$br PREDICT_ONLY=$PREDICT_ONLY "$HERE/probe_reckoning.sh" "$runs" "$cal" "$@" \
        >"$OUTDIR/$name.tsv.part"; then
        echo "failed: $name" >&2
        fails=$((fails + 1))
        return
    fi
    mv "$OUTDIR/$name.tsv.part" "$OUTDIR/$name.tsv" || fails=$((fails + 1))
}

# set_of PREFIX RUNS100 RUNS200 CAL100 CAL200 CAL7 UP DOWN F200: one calibration set, both models
set_of() {
    local p=$1 r100=$2 r200=$3 c100=$4 c200=$5 cal7=$6 up=$7 down=$8 f200=$9
    for m in m33 m34; do
        local br=
        [ $m = m33 ] && br="--schedule $OLD"
        table "${p}_${m}_h100" "$r100" "$c100" "$cal7" "$br"
        table "${p}_${m}_h200" "$r200" "$c200" "$cal7" "$br"
        table "${p}_${m}_h200_from_h100" "$r200" "$c100" "$cal7" "$br" "$up"
        table "${p}_${m}_h100_from_h200" "$r100" "$c200" "$cal7" "$br" "$down" "$f200"
    done
}
# prereg: set 6's calibrations and floors (3,008.8 / 4,237.5 GB/s)
set_of prereg "$NEW/h100/runs" "$NEW/h200/runs" "$ROOT/traces/probes/h100_s6" "$ROOT/traces/probes/h200_s6" \
    bres_ml_00000 1.40837 0.710041 4.2375e12
# refit: set 7's own zero-delay runs; floors of its probes.log (UP, DOWN, F200)
[ -n "$PREDICT_ONLY" ] ||
    set_of refit "$NEW/h100/runs" "$NEW/h200/runs" "$NEW/h100/runs" "$NEW/h200/runs" bres_epi_s3_00000 \
        "${UP:-1.40837}" "${DOWN:-0.710041}" "${F200:-4.2375e12}"
[ $fails -eq 0 ] || exit 1
