#!/usr/bin/env bash
# The reckoning of docs/experiments.md M28: probe set 5
# (scripts/gpu_probes5.sh) predicted by the built-in schedules (bres with its
# contend lines; pingpong as built in), M25q (pingpong with kblocks
# queue=1, traces/probes/reckoning/m25/h100-pingpong-queue.sched) and each
# with pingpong's contention on the last tile's overlap (`--set
# contend.window=1`, M30: mainw1, m25qw1) and the built-in with M29's
# wgmma round trip (`--set kblocks.roundtrip=320`: r320), same
# machine and both cross directions, from two sets of calibrations:
#   prereg: set 3's committed zero-delay runs (traces/probes/h100_s3,
#           h200_s3), as the predictions were written (the seed-5 sweep from
#           bres_ml_00000; cross ratios of set 3's copy floors, 3,000.4 and
#           4,232.0 GB/s);
#   refit:  set 5's own zero-delay runs (NEW/h100/runs, NEW/h200/runs; the
#           seed-5 sweep from its own zero-delay run).
#
#   scripts/m28_reckoning.sh NEW OUTDIR        (PREDICT_ONLY=1: prereg only, no runs needed; NEW is then ignored;
#                                              MODELS="main ...": a subset; MEASURED_CACHE=DIR: each run measured once)
#
# OUTDIR gets {prereg,refit}_{main,m25q,mainw1,m25qw1,r320}_{h100,h200,h200_from_h100,h100_from_h200}.tsv.
# Exit 0 when every table was written, 1 if one failed, 2 on bad input.
set -uo pipefail
[ $# = 2 ] || { echo "usage: scripts/m28_reckoning.sh NEW OUTDIR" >&2; exit 2; }
NEW=$1 OUTDIR=$2
HERE=$(dirname "$0")
ROOT=$HERE/..
Q=$ROOT/traces/probes/reckoning/m25/h100-pingpong-queue.sched
PREDICT_ONLY=${PREDICT_ONLY:-}
if [ -z "$PREDICT_ONLY" ]; then
    for g in h100 h200; do
        [ -d "$NEW/$g/runs" ] || { echo "no such directory: $NEW/$g/runs" >&2; exit 2; }
    done
fi
[ -f "$Q" ] || { echo "no such file: $Q" >&2; exit 2; }
mkdir -p "$OUTDIR" || exit 2
fails=0

# table NAME RUNDIR CALDIR CAL5 PP_ARGS [BW [CAL_BPS]]
table() {
    local name=$1 runs=$2 cal=$3 cal5=$4 pp=$5
    shift 5
    [ -n "$PREDICT_ONLY" ] && runs=$cal # before the runs: the predictions alone
    if ! MODEL_ARGS=$MODEL_ARGS PROBESET=5 CAL5_BRES_EPI=$cal5 PP_ARGS=$pp PREDICT_ONLY=$PREDICT_ONLY "$HERE/probe_reckoning.sh" "$runs" "$cal" "$@" \
        >"$OUTDIR/$name.tsv.part"; then
        echo "failed: $name" >&2
        fails=$((fails + 1))
        return
    fi
    mv "$OUTDIR/$name.tsv.part" "$OUTDIR/$name.tsv" || fails=$((fails + 1))
}

# set_of PREFIX RUNS100 RUNS200 CAL100 CAL200 CAL5 UP DOWN F200: one calibration set, both models
set_of() {
    local p=$1 r100=$2 r200=$3 c100=$4 c200=$5 cal5=$6 up=$7 down=$8 f200=$9
    for m in ${MODELS:-main m25q mainw1 m25qw1 r320}; do
        local pp=
        MODEL_ARGS=
        case $m in
        r320) MODEL_ARGS="--set kblocks.roundtrip=320" ;; # M29: bres64's round trip
        m25q) pp="--schedule $Q" ;;
        mainw1) pp="--set contend.window=1" ;;
        m25qw1) pp="--schedule $Q --set contend.window=1" ;;
        esac
        table "${p}_${m}_h100" "$r100" "$c100" "$cal5" "$pp"
        table "${p}_${m}_h200" "$r200" "$c200" "$cal5" "$pp"
        table "${p}_${m}_h200_from_h100" "$r200" "$c100" "$cal5" "$pp" "$up"
        table "${p}_${m}_h100_from_h200" "$r100" "$c200" "$cal5" "$pp" "$down" "$f200"
    done
}
# prereg: set 3's calibrations and floors (3,000.4 / 4,232.0 GB/s)
set_of prereg "$NEW/h100/runs" "$NEW/h200/runs" "$ROOT/traces/probes/h100_s3" "$ROOT/traces/probes/h200_s3" \
    bres_ml_00000 1.4105 0.7090 4.232e12
# refit: set 5's own zero-delay runs; floors of its probes.log (UP, DOWN, F200)
[ -n "$PREDICT_ONLY" ] ||
    set_of refit "$NEW/h100/runs" "$NEW/h200/runs" "$NEW/h100/runs" "$NEW/h200/runs" bres_epi_s5_00000 \
        "${UP:-1.4105}" "${DOWN:-0.7090}" "${F200:-4.232e12}"
[ $fails -eq 0 ] || exit 1
