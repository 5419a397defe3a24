#!/usr/bin/env bash
# The reckoning of docs/experiments.md M25/M26: probe set 3
# (scripts/gpu_probes3.sh) predicted by M26 (the built-in schedules: bres
# with its two contend lines) and M25q (pingpong with kblocks queue=1,
# traces/probes/reckoning/m25/h100-pingpong-queue.sched), same machine and
# both cross directions, from two sets of calibrations:
#   prereg: set 2's committed zero-delay runs (traces/probes/h100_s2,
#           h200_s2), as the predictions were written (the seed-13 sweep
#           from bres_ml_00000; cross ratios of set 2's copy floors);
#   refit:  each new session's own zero-delay runs (NEW/h100/runs,
#           NEW/h200/runs; the seed-13 sweep from its own zero-delay run).
#
#   scripts/m25_reckoning.sh NEW OUTDIR
#
# NEW holds h100/runs and h200/runs (gpu_probes3.sh output); OUTDIR gets
# {prereg,refit}_{m26,m25q}_{h100,h200,h200_from_h100,h100_from_h200}.tsv.
# Exit 0 when every table was written, 1 if one failed, 2 on bad input.
set -uo pipefail
[ $# = 2 ] || { echo "usage: scripts/m25_reckoning.sh NEW OUTDIR" >&2; exit 2; }
NEW=$1 OUTDIR=$2
HERE=$(dirname "$0")
ROOT=$HERE/..
Q=$ROOT/traces/probes/reckoning/m25/h100-pingpong-queue.sched
for g in h100 h200; do
    [ -d "$NEW/$g/runs" ] || { echo "no such directory: $NEW/$g/runs" >&2; exit 2; }
done
[ -f "$Q" ] || { echo "no such file: $Q" >&2; exit 2; }
mkdir -p "$OUTDIR" || exit 2
fails=0

# table NAME RUNDIR CALDIR CAL3 PP_ARGS [BW [CAL_BPS]]
table() {
    local name=$1 runs=$2 cal=$3 cal3=$4 pp=$5
    shift 5
    if ! PROBESET=3 CAL3_BRES_EPI=$cal3 PP_ARGS=$pp "$HERE/probe_reckoning.sh" "$runs" "$cal" "$@" \
        >"$OUTDIR/$name.tsv.part"; then
        echo "failed: $name" >&2
        fails=$((fails + 1))
        return
    fi
    mv "$OUTDIR/$name.tsv.part" "$OUTDIR/$name.tsv" || fails=$((fails + 1))
}

# set_of PREFIX CAL100 CAL200 CAL3 UP DOWN F200: one calibration set, both models
set_of() {
    local p=$1 c100=$2 c200=$3 cal3=$4 up=$5 down=$6 f200=$7
    for m in m26 m25q; do
        local pp=
        [ $m = m25q ] && pp="--schedule $Q"
        table "${p}_${m}_h100" "$NEW/h100/runs" "$c100" "$cal3" "$pp"
        table "${p}_${m}_h200" "$NEW/h200/runs" "$c200" "$cal3" "$pp"
        table "${p}_${m}_h200_from_h100" "$NEW/h200/runs" "$c100" "$cal3" "$pp" "$up"
        table "${p}_${m}_h100_from_h200" "$NEW/h100/runs" "$c200" "$cal3" "$pp" "$down" "$f200"
    done
}
# prereg: set 2's calibrations and floors (3,009.1 / 4,217.9 GB/s)
set_of prereg "$ROOT/traces/probes/h100_s2" "$ROOT/traces/probes/h200_s2" bres_ml_00000 1.4017 0.7134 4.2179e12
# refit: the new sessions' own zero-delay runs; floors of their probes.log
set_of refit "$NEW/h100/runs" "$NEW/h200/runs" bres_epi_s13_00000 "${UP:-1.4017}" "${DOWN:-0.7134}" "${F200:-4.2179e12}"
[ $fails -eq 0 ] || exit 1
