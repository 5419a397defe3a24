#!/usr/bin/env bash
# docs/experiments.md M64: is the H100 bres bump the time D's store leaves?
# bres traced at --epi-delay 0 / 600 / 1,200 / 2,000 with the production
# trace build (build-gpu) and with a diagnostic build that spins the delay
# after the store is issued instead of before it (build-dlyafter,
# -DPG_DIAG_DELAY_AFTER_STORE: the epilogue as long, the store at its
# zero-delay time; outputs unchanged, checked), alternating, one GPU.  Then
# (M65) bres at 5 tiles per SM (M = 10,560) at zero delay and with
# --mainloop-delay 1,200, and at 200,704 rows with the same spin, production
# trace build, for the small runs' mainloop under a spin.
#
#   scripts/gpu_m64.sh OUTDIR      -> OUTDIR/m64.log, OUTDIR/m64.tgz (runs/*.h5)
DIAG=m64
source "$(dirname "$0")/diag_set_lib.sh"
diag_build build-dlyafter -DPG_DIAG_DELAY_AFTER_STORE
for d in 0 600 1200 2000; do
    dd=$(printf %05d "$d")
    diag_run "before_epi_$dd" "$PGBIN" --trace --reps 10 --epi-delay "$d"
    diag_run "after_epi_$dd" ./build-dlyafter/cli/pegemm --trace --reps 10 --epi-delay "$d" --check
done
for spec in 10560:0 10560:1200 200704:1200; do
    m=${spec%%:*} ml=${spec##*:}
    name=$(printf 'small_m%d_ml_%05d' "$m" "$ml")
    echo "== $name" >>"$LOG"
    timeout 120 "$PGBIN" run --rows 0:64 --variant bres --shape "$m,768,768,196" --seed 31 --trace --reps 10 \
        --mainloop-delay "$ml" -o "$OUT/runs/$name.h5" >>"$LOG" 2>&1 || { echo "FAILED $name" | tee -a "$LOG"; fails=$((fails + 1)); }
done
diag_finish
