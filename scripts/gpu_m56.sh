#!/usr/bin/env bash
# docs/experiments.md M56: is the first load's growth with --epi-delay the
# combined-rows load's?  bres traced at --epi-delay 0 / 600 / 900 / 1,200 /
# 1,600 / 2,600 with the production trace build (build-gpu) and with a
# diagnostic build that keeps the store-drain wait but drops the 24 KB
# combined TMA load (build-nocomb, -DPG_DIAG_NO_COMBINED: outputs wrong,
# never the production or trace build), alternating, one GPU.
#
#   scripts/gpu_m56.sh OUTDIR      -> OUTDIR/m56.log, OUTDIR/runs/{comb,nocomb}_epi_D.h5, OUTDIR/m56.tgz
set -uo pipefail
[ $# = 1 ] || { echo "usage: scripts/gpu_m56.sh OUTDIR" >&2; exit 2; }
OUT=$1
mkdir -p "$OUT/runs" || exit 2
cd "$(dirname "$0")/.." || exit 2
OUT=$(cd "$OUT" && pwd)
LOG="$OUT/m56.log"
: >"$LOG"
source scripts/gpu_build.sh
if [ ! -f build-nocomb/build.ninja ]; then
    meson setup build-nocomb -Dcuda=enabled -Dtests=disabled -Dcuda_args=-DPG_DIAG_NO_COMBINED >>"$LOG" 2>&1 ||
        { tail -30 "$LOG"; exit 1; }
fi
ninja -C build-nocomb cli/pegemm >>"$LOG" 2>&1 || { tail -30 "$LOG"; exit 1; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv >>"$LOG" 2>&1
fails=0
one() { # one NAME BIN DELAY
    echo "== $1: --epi-delay $3" >>"$LOG"
    timeout 120 "$2" run --trace --rows 0:64 --reps 10 --variant bres --shape 200704,768,768,196 --seed 31 \
        --epi-delay "$3" -o "$OUT/runs/$1.h5" >>"$LOG" 2>&1 || { echo "FAILED $1" | tee -a "$LOG"; fails=$((fails + 1)); }
}
for d in 0 600 900 1200 1600 2600; do
    dd=$(printf %05d "$d")
    one "comb_epi_$dd" "$PGBIN" "$d"
    one "nocomb_epi_$dd" ./build-nocomb/cli/pegemm "$d"
done
echo "failures $fails" | tee -a "$LOG"
tar -czf "$OUT/m56.tgz" -C "$OUT" runs m56.log || exit 1
[ $fails -eq 0 ]
