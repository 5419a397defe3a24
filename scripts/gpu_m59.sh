#!/usr/bin/env bash
# docs/experiments.md M59: does D's store with an L2 evict-first policy
# spare the loads?  bres traced at --epi-delay 0 / 900 / 1,200 with the
# production trace build (build-gpu) and a diagnostic build whose TMA
# stores carry an L2::evict_first cache policy (build-evict,
# -DPG_DIAG_STORE_EVICT_FIRST; outputs identical, checked with --check on
# kept rows; never the production or trace build), alternating; then both
# untraced at zero delay, alternating twice (separate processes).
#
#   scripts/gpu_m59.sh OUTDIR      -> OUTDIR/m59.log, OUTDIR/m59.tgz (runs/{hint,evict}_epi_D.h5)
DIAG=m59
source "$(dirname "$0")/diag_set_lib.sh"
diag_build build-evict -DPG_DIAG_STORE_EVICT_FIRST
for d in 0 900 1200; do
    dd=$(printf %05d "$d")
    diag_run "plain_epi_$dd" "$PGBIN" --trace --reps 10 --epi-delay "$d"
    diag_run "evict_epi_$dd" ./build-evict/cli/pegemm --trace --reps 10 --epi-delay "$d"
done
for r in 1 2; do
    diag_run "plain_time_$r" "$PGBIN" --check --reps 30
    diag_run "evict_time_$r" ./build-evict/cli/pegemm --check --reps 30
done
diag_finish
