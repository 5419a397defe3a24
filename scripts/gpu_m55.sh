#!/usr/bin/env bash
# docs/experiments.md M55: does D's write traffic cause the H100 bres
# --epi-delay bump?  bres and its ablations (without D's stores, A's loads,
# both, wgmma) timed interleaved launch by launch in one process at each
# --epi-delay, production build (no trace; `bench`, so also its baselines and floors), 20 launches each; 0 and 900
# again at the end to see the drift.
#
#   scripts/gpu_m55.sh OUTDIR      -> OUTDIR/m55.log, OUTDIR/runs/bres_abl_epi_D[_again].h5
DIAG=m55
source "$(dirname "$0")/diag_set_lib.sh" # its build, log and GPU clocks; not its bres runs
one() { # one FILE DELAY
    echo "== $1: --epi-delay $2" >>"$LOG"
    timeout 120 "$PGBIN" bench --variant bres --ablate --epi-delay "$2" --reps 20 --rows 0:64 \
        -o "$OUT/runs/$1.h5" >>"$LOG" 2>&1 || { echo "FAILED $1" | tee -a "$LOG"; fails=$((fails + 1)); }
}
for d in 0 450 900 1300 2000 3000; do
    one "bres_abl_epi_$(printf %05d "$d")" "$d"
done
one bres_abl_epi_00000_again 0
one bres_abl_epi_00900_again 900
echo "failures $fails" | tee -a "$LOG"
[ $fails -eq 0 ]
