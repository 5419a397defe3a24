#!/usr/bin/env bash
# docs/experiments.md M101: does pingpong's loop shorten under an epilogue
# delay because the other warpgroup's D store leaves it, or because the
# warpgroup comes back later (the model's ring)?  Pingpong traced at
# --epi-delay 0 / 3,000 / 4,800 / 6,400 with the production trace build
# (build-gpu: the delay spun before the store) and with the diagnostic build
# that spins it after the store is issued (build-dlyafter,
# -DPG_DIAG_DELAY_AFTER_STORE: the store at its zero-delay time; outputs
# unchanged, --check on the kept rows), alternating, one GPU, seed 116.
#
#   scripts/gpu_m101.sh OUTDIR      -> OUTDIR/m101.log, OUTDIR/m101.tgz (runs/*.h5)
DIAG=m101
source "$(dirname "$0")/diag_set_lib.sh"
diag_build build-dlyafter -DPG_DIAG_DELAY_AFTER_STORE
pp_run() { # pp_run NAME BIN ARGS...
    local name=$1 bin=$2
    shift 2
    echo "== $name: $*" >>"$LOG"
    timeout 120 "$bin" run --rows 0:64 --variant pingpong --shape 200704,768,768,196 --seed 116 --trace --reps 10 "$@" \
        -o "$OUT/runs/$name.h5" >>"$LOG" 2>&1 || { echo "FAILED $name" | tee -a "$LOG"; fails=$((fails + 1)); }
}
for d in 0 3000 4800 6400; do
    dd=$(printf %05d "$d")
    pp_run "before_epi_$dd" "$PGBIN" --epi-delay "$d"
    pp_run "after_epi_$dd" ./build-dlyafter/cli/pegemm --epi-delay "$d" --check
done
diag_finish
