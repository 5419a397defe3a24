#!/usr/bin/env bash
# The reckoning of docs/experiments.md M22: probe set 2 (scripts/gpu_probes2.sh)
# predicted by M21's model (default) and M22's (`--set dramq=1`), same machine
# and both cross directions, from two sets of calibrations:
#   prereg: the committed M21 zero-delay runs (traces/probes/h100, h200), as
#           M22's predictions were written (copy floors of M21's sessions);
#   refit:  each new session's own zero-delay runs (NEW/h100/runs,
#           NEW/h200/runs; the seed-11 epi sweep from its own zero-delay run),
#           copy floors of the new sessions' probes.log.
#
#   scripts/m22_reckoning.sh NEW OUTDIR
#
# NEW holds h100/runs and h200/runs (the lead's gpu_probes2.sh output);
# OUTDIR gets {prereg,refit}_{m21,m22}_{h100,h200,h200_from_h100,h100_from_h200}.tsv
# and refit_clock_{m21,m22}_{h100,h200}.tsv (given each run's SM clock).
# Exit 0 when every table was written, 1 if one failed, 2 on bad input.
set -uo pipefail
[ $# = 2 ] || { echo "usage: scripts/m22_reckoning.sh NEW OUTDIR" >&2; exit 2; }
NEW=$1 OUTDIR=$2
HERE=$(dirname "$0")
for g in h100 h200; do
    [ -d "$NEW/$g/runs" ] || { echo "no such directory: $NEW/$g/runs" >&2; exit 2; }
done
mkdir -p "$OUTDIR" || exit 2
fails=0

# table NAME RUNDIR CALDIR CAL2 BW CAL_BPS MODEL_ARGS
table() {
    local name=$1 runs=$2 cal=$3 cal2=$4 bw=$5 cal_bps=$6 margs=$7
    local args=("$runs" "$cal" "$bw")
    [ -n "$cal_bps" ] && args+=("$cal_bps")
    if ! PROBESET=2 CAL2_BRES_EPI=$cal2 MODEL_ARGS=$margs "$HERE/probe_reckoning.sh" "${args[@]}" >"$OUTDIR/$name.tsv.part"; then
        echo "failed: $name" >&2
        fails=$((fails + 1))
        return
    fi
    mv "$OUTDIR/$name.tsv.part" "$OUTDIR/$name.tsv" || fails=$((fails + 1))
}

# dq B B0: M22's model with the target (B) and calibration (B0) copy floors
dq() { echo "--set dramq=1 --set dramq.bytes_per_s=$1 --set dramq.cal_bytes_per_s=$2"; }

# set_of PREFIX CAL100 CAL200 CAL2 F100 F200 UP DOWN: the eight tables of one
# calibration set (UP, DOWN: M22's bandwidth ratios H200/H100, H100/H200)
set_of() {
    local p=$1 c100=$2 c200=$3 cal2=$4 f100=$5 f200=$6 up=$7 down=$8
    table "${p}_m21_h100" "$NEW/h100/runs" "$c100" "$cal2" 1 "" ""
    table "${p}_m22_h100" "$NEW/h100/runs" "$c100" "$cal2" 1 "" "$(dq "$f100" "$f100")"
    table "${p}_m21_h200" "$NEW/h200/runs" "$c200" "$cal2" 1 "" ""
    table "${p}_m22_h200" "$NEW/h200/runs" "$c200" "$cal2" 1 "" "$(dq "$f200" "$f200")"
    # M21 cross as M21 ran it (M20's x1.43); M22 with the measured floor ratio
    table "${p}_m21_h200_from_h100" "$NEW/h200/runs" "$c100" "$cal2" 1.43 "" ""
    table "${p}_m22_h200_from_h100" "$NEW/h200/runs" "$c100" "$cal2" "$up" "" "$(dq "$f200" "$f100")"
    table "${p}_m21_h100_from_h200" "$NEW/h100/runs" "$c200" "$cal2" 0.6993 4.29e12 ""
    table "${p}_m22_h100_from_h200" "$NEW/h100/runs" "$c200" "$cal2" "$down" "$f200" "$(dq "$f100" "$f200")"
}

ROOT=$HERE/..
# prereg: M22's own numbers (floors 3.007e12, 4.233e12 of M21's probes.log;
# ratios 1.408 and 0.7102 as M22 wrote them)
set_of prereg "$ROOT/traces/probes/h100" "$ROOT/traces/probes/h200" bres_ml_00000 3.007e12 4.233e12 1.408 0.7102
# refit: the new sessions' floors (D2D copy, probes.log: 3,009.1 and 4,217.9 GB/s)
set_of refit "$NEW/h100/runs" "$NEW/h200/runs" bres_epi_s11_00000 3.0091e12 4.2179e12 1.4017 0.7134
# refit_clock: the same-machine refit given each probe run's own SM clock
# (M22: "labelled as using that input")
export RUN_CLOCK=1
table refit_clock_m21_h100 "$NEW/h100/runs" "$NEW/h100/runs" bres_epi_s11_00000 1 "" ""
table refit_clock_m22_h100 "$NEW/h100/runs" "$NEW/h100/runs" bres_epi_s11_00000 1 "" "$(dq 3.0091e12 3.0091e12)"
table refit_clock_m21_h200 "$NEW/h200/runs" "$NEW/h200/runs" bres_epi_s11_00000 1 "" ""
table refit_clock_m22_h200 "$NEW/h200/runs" "$NEW/h200/runs" bres_epi_s11_00000 1 "" "$(dq 4.2179e12 4.2179e12)"
[ $fails -eq 0 ] || exit 1
