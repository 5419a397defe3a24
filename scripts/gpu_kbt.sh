#!/usr/bin/env bash
# docs/experiments.md M45: per-k-block clocks (producer issue, consumer's
# observed landing, stage release) from the diagnostic build -DPG_KB_TRACE
# (build-kbt; never the production or trace build), one GPU: pingpong at
# zero delay, --mainloop-delay 3200, --epi-delay 3200; bres at zero delay,
# --epi-delay 350 and 1100, and with --a-prefetch 1 at 0 and 1100.  Each run also writes its traced run file.
#
#   scripts/gpu_kbt.sh OUTDIR     -> OUTDIR/NAME.kbt (raw int64, [cta][tile][k][3]), NAME.h5, kbt.log
#   KBT_SLEEP=1 scripts/gpu_kbt.sh OUTDIR   M49: bres at --epi-delay 0 / 350 / 1100 with the delay
#                                           spinning (build-kbt) and sleeping (build-kbt-sleep,
#                                           -DPG_DELAY_SLEEP), alternating
#   KBT_SMALL=1 scripts/gpu_kbt.sh OUTDIR   M63: bres at M = 10,560 (5 tiles per SM, kept in the L2)
#                                           and 200,704, at zero delay and --mainloop-delay 1200
#   KBT_PP=1 scripts/gpu_kbt.sh OUTDIR      M96: pingpong's in-loop loads at zero delay, under a
#                                           --mainloop-delay 2200 spin, --epi-delay 1700, and at K = 640
#   KBT_PPD=1 scripts/gpu_kbt.sh OUTDIR     M102: pingpong's k-blocks across --epi-delay 0 / 800 /
#                                           1,600 / 2,400 / 3,200 and --mainloop-delay 1,000 / 2,000
#   KBT_M119=1 scripts/gpu_kbt.sh OUTDIR    M119: pingpong at --epi-delay 0 / 1,600 / 3,200 and
#                                           --mainloop-delay 1,000 / 2,000 / 3,000; bres K = 512 at
#                                           --epi-delay 2,000 (each load against the machine's loads in flight)
#   KBT_M122=1 scripts/gpu_kbt.sh OUTDIR    M122: pingpong at K = 512 / 640 / 768 / 1,024 / 1,280 /
#                                           1,536 (zero delay) and K = 640 / 1,280 with --epi-delay
#                                           1,000: does the tile's first load join the SM's FIFO at every K
#   KBT_M113=1 scripts/gpu_kbt.sh OUTDIR    M113: bres at K = 768 (zero delay, --epi-delay 2,600) and
#                                           K = 512 (zero delay, --epi-delay 1,400); pingpong at N = 768
#                                           and 256 (zero delay): where the releases fall in the loop
#   KBT_M134=1 scripts/gpu_kbt.sh OUTDIR    M134: bres at --epi-delay 0 / 200 / 600 / 1,500 / 2,900 /
#                                           5,200 and K = 512 at 1,000, with the epilogue's step clocks
#                                           (NAME.kbt.ept, raw int64 [cta][tile][warp][7]: M134's five
#                                           steps, then M135's loop begin and end; M134's own runs had 5)
#   KBT_M135=1 scripts/gpu_kbt.sh OUTDIR    M135: the same at --epi-delay 600 / 1,000 / 1,500 / 2,100 /
#                                           2,900 / 5,200 and K = 512 at 1,000
#   KBT_M150=1 scripts/gpu_kbt.sh OUTDIR    M150: the fixed pingpong at --epi-delay 0 / 3,000 / 6,000 /
#                                           8,500 and --mainloop-delay 3,000: the in-loop loads' cycles
#                                           as the SM clock rises with the spin
#   KBT_M155=1 scripts/gpu_kbt.sh OUTDIR    M155: the fixed pingpong at K = 640 / 768 / 896 / 1,024 /
#                                           1,280 / 1,408 (zero delay), K = 1,024 with --epi-delay
#                                           4,000, K = 640 with 2,500, K = 768 with 7,500: each
#                                           k-block's start and release at every K
#   KBT_M165=1 scripts/gpu_kbt.sh OUTDIR    M165: the fixed pingpong on rings of 4, 3 and 2 stages
#                                           (build-kbt-s3, -s2) at zero delay, 3 stages at
#                                           --epi-delay 2,600 and K = 640 with 1,000, 2 stages at 1,000
#   KBT_M172=1 scripts/gpu_kbt.sh OUTDIR    M172: the fixed pingpong on 4 / 3 / 2 stages at other K
#                                           (K = 896 on 4 and 3, 1,152 on 3, 640 and 896 on 2), zero delay
#   KBT_M180=1 scripts/gpu_kbt.sh OUTDIR    M180: the fixed pingpong at --epi-delay 0 / 1,600 / 4,700 /
#                                           7,800 with the epilogue's step clocks (NAME.kbt.ept, as M134's)
#   KBT_N, KBT_K, KBT_SHAPE (M)             the run's N, K and M (768, 768, 200,704)
set -uo pipefail
[ $# = 1 ] || { echo "usage: scripts/gpu_kbt.sh OUTDIR" >&2; exit 2; }
mkdir -p "$1" || exit 2
OUT=$(cd "$1" && pwd)
cd "$(dirname "$0")/.." || exit 2
build() { # build DIR DEFINES [C_DEFINES]
    if [ ! -f "$1/build.ninja" ]; then
        meson setup "$1" -Dcuda=enabled -Dtests=disabled -Dcuda_args="$2" -Dc_args="${3:--DPG_KB_TRACE}" \
            >>"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
    fi
    ninja -C "$1" cli/pegemm >>"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
}
build build-kbt -DPG_KB_TRACE
fails=0
BIN=./build-kbt/cli/pegemm
kbt() { # kbt NAME ARGS...  (with $BIN)
    local name=$1
    shift
    echo "== $name: $*" >>"$OUT/kbt.log"
    if PG_KBT_OUT="$OUT/$name.kbt" timeout 120 $BIN run --trace --rows 0:64 --reps 3 \
        --shape ${KBT_SHAPE:-200704},${KBT_N:-768},${KBT_K:-768},196 "$@" -o "$OUT/$name.h5" >>"$OUT/kbt.log" 2>&1 && [ -s "$OUT/$name.kbt" ]; then
        echo "ok     $name"
    else
        echo "FAILED $name"
        fails=$((fails + 1))
    fi
}
if [ "${KBT_M165:-0}" = 1 ]; then
    for st in 3 2; do
        build build-kbt-s$st "-DPG_KB_TRACE -DPG_STAGES=$st" "-DPG_KB_TRACE -DPG_STAGES=$st"
    done
    kbt pp4_0 --variant pingpong
    BIN=./build-kbt-s3/cli/pegemm kbt pp3_0 --variant pingpong
    BIN=./build-kbt-s2/cli/pegemm kbt pp2_0 --variant pingpong
    BIN=./build-kbt-s3/cli/pegemm kbt pp3_epi2600 --variant pingpong --epi-delay 2600
    BIN=./build-kbt-s3/cli/pegemm KBT_K=640 kbt pp3_k640_epi1000 --variant pingpong --epi-delay 1000
    BIN=./build-kbt-s2/cli/pegemm kbt pp2_epi1000 --variant pingpong --epi-delay 1000
    [ $fails -eq 0 ]
    exit
fi
if [ "${KBT_M172:-0}" = 1 ]; then
    for st in 3 2; do
        build build-kbt-s$st "-DPG_KB_TRACE -DPG_STAGES=$st" "-DPG_KB_TRACE -DPG_STAGES=$st"
    done
    KBT_K=896 kbt pp4_k896_0 --variant pingpong
    BIN=./build-kbt-s3/cli/pegemm KBT_K=896 kbt pp3_k896_0 --variant pingpong
    BIN=./build-kbt-s3/cli/pegemm KBT_K=1152 kbt pp3_k1152_0 --variant pingpong
    BIN=./build-kbt-s2/cli/pegemm KBT_K=640 kbt pp2_k640_0 --variant pingpong
    BIN=./build-kbt-s2/cli/pegemm KBT_K=896 kbt pp2_k896_0 --variant pingpong
    [ $fails -eq 0 ]
    exit
fi
if [ "${KBT_SLEEP:-0}" = 1 ]; then
    build build-kbt-sleep "-DPG_KB_TRACE -DPG_DELAY_SLEEP"
    for d in 00000 00350 01100; do
        BIN=./build-kbt/cli/pegemm kbt br_spin_$d --variant bres --epi-delay $((10#$d))
        BIN=./build-kbt-sleep/cli/pegemm kbt br_sleep_$d --variant bres --epi-delay $((10#$d))
    done
    [ $fails -eq 0 ]
    exit
fi
if [ "${KBT_PP:-0}" = 1 ]; then
    kbt pp_0 --variant pingpong
    kbt pp_ml2200 --variant pingpong --mainloop-delay 2200
    kbt pp_epi1700 --variant pingpong --epi-delay 1700
    KBT_K=640 kbt pp_k640 --variant pingpong
    [ $fails -eq 0 ]
    exit
fi
if [ "${KBT_PPD:-0}" = 1 ]; then
    for d in 0 800 1600 2400 3200; do
        kbt pp_epi$d --variant pingpong --epi-delay $d
    done
    for d in 1000 2000; do
        kbt pp_ml$d --variant pingpong --mainloop-delay $d
    done
    [ $fails -eq 0 ]
    exit
fi
if [ "${KBT_M119:-0}" = 1 ]; then
    for d in 0 1600 3200; do
        kbt pp_epi$d --variant pingpong --epi-delay $d
    done
    for d in 1000 2000 3000; do
        kbt pp_ml$d --variant pingpong --mainloop-delay $d
    done
    KBT_K=512 kbt br_k512_epi2000 --variant bres --epi-delay 2000
    [ $fails -eq 0 ]
    exit
fi
if [ "${KBT_M122:-0}" = 1 ]; then
    for k in 512 640 768 1024 1280 1536; do
        KBT_K=$k kbt pp_k${k}_0 --variant pingpong
    done
    for k in 640 1280; do
        KBT_K=$k kbt pp_k${k}_epi1000 --variant pingpong --epi-delay 1000
    done
    [ $fails -eq 0 ]
    exit
fi
if [ "${KBT_M150:-0}" = 1 ]; then
    for d in 0 3000 6000 8500; do
        kbt pp_epi$d --variant pingpong --epi-delay $d
    done
    kbt pp_ml3000 --variant pingpong --mainloop-delay 3000
    [ $fails -eq 0 ]
    exit
fi
if [ "${KBT_M155:-0}" = 1 ]; then
    for k in 640 768 896 1024 1280 1408; do
        KBT_K=$k kbt pp_k${k}_0 --variant pingpong
    done
    KBT_K=1024 kbt pp_k1024_epi4000 --variant pingpong --epi-delay 4000
    KBT_K=640 kbt pp_k640_epi2500 --variant pingpong --epi-delay 2500
    kbt pp_epi7500 --variant pingpong --epi-delay 7500
    [ $fails -eq 0 ]
    exit
fi
if [ "${KBT_M113:-0}" = 1 ]; then
    kbt br_0 --variant bres
    kbt br_epi2600 --variant bres --epi-delay 2600
    KBT_K=512 kbt br_k512_0 --variant bres
    KBT_K=512 kbt br_k512_epi1400 --variant bres --epi-delay 1400
    kbt pp_0 --variant pingpong
    KBT_N=256 kbt pp_n256_0 --variant pingpong
    [ $fails -eq 0 ]
    exit
fi
kbt_ept() { # kbt_ept NAME ARGS...: kbt, and the epilogue's clocks written beside it
    local failed_before=$fails
    kbt "$@"
    [ $fails -gt $failed_before ] || [ -s "$OUT/$1.kbt.ept" ] ||
        { echo "FAILED $1: no epilogue clocks ($1.kbt.ept)"; fails=$((fails + 1)); }
}
if [ "${KBT_M134:-0}" = 1 ] || [ "${KBT_M135:-0}" = 1 ]; then
    delays="0 200 600 1500 2900 5200" # M134
    [ "${KBT_M135:-0}" = 1 ] && delays="600 1000 1500 2100 2900 5200" # M135
    for d in $delays; do
        kbt_ept br_epi$d --variant bres --epi-delay $d
    done
    KBT_K=512 kbt_ept br_k512_epi1000 --variant bres --epi-delay 1000
    [ $fails -eq 0 ]
    exit
fi
if [ "${KBT_M180:-0}" = 1 ]; then
    for d in 0 1600 4700 7800; do
        kbt_ept pp_epi$d --variant pingpong --epi-delay $d
    done
    [ $fails -eq 0 ]
    exit
fi
if [ "${KBT_SMALL:-0}" = 1 ]; then
    for m in 10560 200704; do
        KBT_SHAPE=$m kbt br_m${m}_0 --variant bres
        KBT_SHAPE=$m kbt br_m${m}_ml1200 --variant bres --mainloop-delay 1200
    done
    [ $fails -eq 0 ]
    exit
fi
kbt pp_0 --variant pingpong
kbt pp_ml3200 --variant pingpong --mainloop-delay 3200
kbt pp_epi3200 --variant pingpong --epi-delay 3200
kbt br_0 --variant bres
kbt br_epi350 --variant bres --epi-delay 350
kbt br_epi1100 --variant bres --epi-delay 1100
kbt br_pf1_0 --variant bres --a-prefetch 1
kbt br_pf1_epi1100 --variant bres --a-prefetch 1 --epi-delay 1100
[ $fails -eq 0 ]
