#!/usr/bin/env bash
# docs/experiments.md M57: does the first load still slow with --epi-delay
# when the kernel stores nothing?  bres traced at --epi-delay 0 / 600 / 900
# / 1,200 / 1,600 with the production trace build (build-gpu) and with a
# diagnostic build without D's TMA stores (build-nostore, -DPG_DIAG_NO_STORE:
# no write traffic and no drain; outputs unwritten; never the production or
# trace build), alternating, one GPU.
#
#   scripts/gpu_m57.sh OUTDIR      -> OUTDIR/m57.log, OUTDIR/m57.tgz (runs/{store,nostore}_epi_D.h5)
DIAG=m57
source "$(dirname "$0")/diag_set_lib.sh"
diag_build build-nostore -DPG_DIAG_NO_STORE -DPG_DIAG_NO_STORE
for d in 0 600 900 1200 1600; do
    dd=$(printf %05d "$d")
    diag_run "store_epi_$dd" "$PGBIN" --trace --reps 10 --epi-delay "$d"
    diag_run "nostore_epi_$dd" ./build-nostore/cli/pegemm --trace --reps 10 --epi-delay "$d"
done
diag_finish
