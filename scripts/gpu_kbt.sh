#!/usr/bin/env bash
# docs/experiments.md M45: per-k-block clocks (producer issue, consumer's
# observed landing, stage release) from the diagnostic build -DPG_KB_TRACE
# (build-kbt; never the production or trace build), one GPU: pingpong at
# zero delay, --mainloop-delay 3200, --epi-delay 3200; bres at zero delay,
# --epi-delay 350 and 1100, and with --a-prefetch 1 at 0 and 1100.  Each run also writes its traced run file.
#
#   scripts/gpu_kbt.sh OUTDIR     -> OUTDIR/NAME.kbt (raw int64, [cta][tile][k][3]), NAME.h5, kbt.log
set -uo pipefail
[ $# = 1 ] || { echo "usage: scripts/gpu_kbt.sh OUTDIR" >&2; exit 2; }
mkdir -p "$1" || exit 2
OUT=$(cd "$1" && pwd)
cd "$(dirname "$0")/.." || exit 2
if [ ! -f build-kbt/build.ninja ]; then
    meson setup build-kbt -Dcuda=enabled -Dtests=disabled -Dcuda_args=-DPG_KB_TRACE -Dc_args=-DPG_KB_TRACE \
        >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
fi
ninja -C build-kbt cli/pegemm >>"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
fails=0
kbt() { # kbt NAME ARGS...
    local name=$1
    shift
    echo "== $name: $*" >>"$OUT/kbt.log"
    if PG_KBT_OUT="$OUT/$name.kbt" timeout 120 ./build-kbt/cli/pegemm run --trace --rows 0:64 --reps 3 \
        --shape 200704,768,768,196 "$@" -o "$OUT/$name.h5" >>"$OUT/kbt.log" 2>&1 && [ -s "$OUT/$name.kbt" ]; then
        echo "ok     $name"
    else
        echo "FAILED $name"
        fails=$((fails + 1))
    fi
}
kbt pp_0 --variant pingpong
kbt pp_ml3200 --variant pingpong --mainloop-delay 3200
kbt pp_epi3200 --variant pingpong --epi-delay 3200
kbt br_0 --variant bres
kbt br_epi350 --variant bres --epi-delay 350
kbt br_epi1100 --variant bres --epi-delay 1100
kbt br_pf1_0 --variant bres --a-prefetch 1
kbt br_pf1_epi1100 --variant bres --a-prefetch 1 --epi-delay 1100
[ $fails -eq 0 ]
