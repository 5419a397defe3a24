#!/usr/bin/env bash
# docs/experiments.md M57: does the first load still slow with --epi-delay
# when the kernel stores nothing?  bres traced at --epi-delay 0 / 600 / 900
# / 1,200 / 1,600 with the production trace build (build-gpu) and with a
# diagnostic build without D's TMA stores (build-nostore, -DPG_DIAG_NO_STORE:
# no write traffic and no drain; outputs unwritten; never the production or
# trace build), alternating, one GPU.
#
#   scripts/gpu_m57.sh OUTDIR      -> OUTDIR/m57.log, OUTDIR/m57.tgz (runs/{store,nostore}_epi_D.h5)
set -uo pipefail
[ $# = 1 ] || { echo "usage: scripts/gpu_m57.sh OUTDIR" >&2; exit 2; }
OUT=$1
mkdir -p "$OUT/runs" || exit 2
cd "$(dirname "$0")/.." || exit 2
OUT=$(cd "$OUT" && pwd)
LOG="$OUT/m57.log"
: >"$LOG"
source scripts/gpu_build.sh
if [ ! -f build-nostore/build.ninja ]; then
    meson setup build-nostore -Dcuda=enabled -Dtests=disabled -Dcuda_args=-DPG_DIAG_NO_STORE \
        -Dc_args=-DPG_DIAG_NO_STORE >>"$LOG" 2>&1 || { tail -30 "$LOG"; exit 1; }
fi
ninja -C build-nostore cli/pegemm >>"$LOG" 2>&1 || { tail -30 "$LOG"; exit 1; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv >>"$LOG" 2>&1
fails=0
one() { # one NAME BIN DELAY
    echo "== $1: --epi-delay $3" >>"$LOG"
    timeout 120 "$2" run --trace --rows 0:64 --reps 10 --variant bres --shape 200704,768,768,196 --seed 31 \
        --epi-delay "$3" -o "$OUT/runs/$1.h5" >>"$LOG" 2>&1 || { echo "FAILED $1" | tee -a "$LOG"; fails=$((fails + 1)); }
}
for d in 0 600 900 1200 1600; do
    dd=$(printf %05d "$d")
    one "store_epi_$dd" "$PGBIN" "$d"
    one "nostore_epi_$dd" ./build-nostore/cli/pegemm "$d"
done
echo "failures $fails" | tee -a "$LOG"
tar -czf "$OUT/m57.tgz" -C "$OUT" runs m57.log || exit 1
[ $fails -eq 0 ]
