#!/usr/bin/env bash
# docs/experiments.md M56: is the first load's growth with --epi-delay the
# combined-rows load's?  bres traced at --epi-delay 0 / 600 / 900 / 1,200 /
# 1,600 / 2,600 with the production trace build (build-gpu) and with a
# diagnostic build that keeps the store-drain wait but drops the 24 KB
# combined TMA load (build-nocomb, -DPG_DIAG_NO_COMBINED: outputs wrong,
# never the production or trace build), alternating, one GPU.
#
#   scripts/gpu_m56.sh OUTDIR      -> OUTDIR/m56.log, OUTDIR/runs/{comb,nocomb}_epi_D.h5, OUTDIR/m56.tgz
DIAG=m56
source "$(dirname "$0")/diag_set_lib.sh"
diag_build build-nocomb -DPG_DIAG_NO_COMBINED
for d in 0 600 900 1200 1600 2600; do
    dd=$(printf %05d "$d")
    diag_run "comb_epi_$dd" "$PGBIN" --trace --reps 10 --epi-delay "$d"
    diag_run "nocomb_epi_$dd" ./build-nocomb/cli/pegemm --trace --reps 10 --epi-delay "$d"
done
diag_finish
