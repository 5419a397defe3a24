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
HERE=$(dirname "$0")
ROOT=$HERE/..
OLD=$ROOT/traces/probes/reckoning/m33/h100-pingpong-m26.sched
PREDICT_ONLY=${PREDICT_ONLY:-}
if [ -z "$PREDICT_ONLY" ]; then
    for g in h100 h200; do
        [ -d "$NEW/$g/runs" ] || { echo "no such directory: $NEW/$g/runs" >&2; exit 2; }
    done
fi
[ -f "$OLD" ] || { echo "no such file: $OLD" >&2; exit 2; }
mkdir -p "$OUTDIR" || exit 2
fails=0

# table NAME RUNDIR CALDIR CAL6 PP_ARGS [BW [CAL_BPS]]
table() {
    local name=$1 runs=$2 cal=$3 cal6=$4 pp=$5
    shift 5
    [ -n "$PREDICT_ONLY" ] && runs=$cal # before the runs: the predictions alone
    if ! PROBESET=6 CAL6_BRES_EPI=$cal6 PP_ARGS=$pp PREDICT_ONLY=$PREDICT_ONLY "$HERE/probe_reckoning.sh" "$runs" "$cal" "$@" \
        >"$OUTDIR/$name.tsv.part"; then
        echo "failed: $name" >&2
        fails=$((fails + 1))
        return
    fi
    mv "$OUTDIR/$name.tsv.part" "$OUTDIR/$name.tsv" || fails=$((fails + 1))
}

# set_of PREFIX RUNS100 RUNS200 CAL100 CAL200 CAL6 UP DOWN F200: one calibration set, both models
set_of() {
    local p=$1 r100=$2 r200=$3 c100=$4 c200=$5 cal6=$6 up=$7 down=$8 f200=$9
    for m in m26 m33; do
        local pp=
        [ $m = m26 ] && pp="--schedule $OLD"
        table "${p}_${m}_h100" "$r100" "$c100" "$cal6" "$pp"
        table "${p}_${m}_h200" "$r200" "$c200" "$cal6" "$pp"
        table "${p}_${m}_h200_from_h100" "$r200" "$c100" "$cal6" "$pp" "$up"
        table "${p}_${m}_h100_from_h200" "$r100" "$c200" "$cal6" "$pp" "$down" "$f200"
    done
}
# prereg: set 5's calibrations and floors (2,997.7 / 4,210.8 GB/s)
set_of prereg "$NEW/h100/runs" "$NEW/h200/runs" "$ROOT/traces/probes/h100_s5" "$ROOT/traces/probes/h200_s5" \
    bres_ml_00000 1.40468 0.711908 4.2108e12
# refit: set 6's own zero-delay runs; floors of its probes.log (UP, DOWN, F200)
[ -n "$PREDICT_ONLY" ] ||
    set_of refit "$NEW/h100/runs" "$NEW/h200/runs" "$NEW/h100/runs" "$NEW/h200/runs" bres_epi_s9_00000 \
        "${UP:-1.40468}" "${DOWN:-0.711908}" "${F200:-4.2108e12}"
[ $fails -eq 0 ] || exit 1
