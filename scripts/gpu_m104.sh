#!/usr/bin/env bash
# docs/experiments.md M104: is the loop's stall the DRAM the SMs share, or
# the SM's own pipeline?  The same kernels on fewer SMs: diagnostic builds
# that cap the persistent grid at the environment's PG_DIAG_GRID CTAs
# (-DPG_DIAG_GRID, kernel/gpu_session.c; never the production or trace
# build), one GPU, seed 117, the default shape.  The trace build's runs
# (pingpong at 132 / 66 / 34 CTAs, bres at 132 / 64, at zero delay and
# under a probe) are checked bit for bit on the kept rows; the per-k-block
# clocks (-DPG_KB_TRACE, M45) of pingpong at 132 and 66 come beside them.
#
#   scripts/gpu_m104.sh OUTDIR   -> OUTDIR/m104.log, OUTDIR/m104.tgz (runs/*.h5, kbt/*.kbt, kbt/*.h5)
#   M105=1 scripts/gpu_m104.sh OUTDIR   M105: the held-out set for M104's rule (seed 118): pingpong
#                                       and bres at 132 / 100 / 50 (bres 48) CTAs, zero delay,
#                                       --epi-delay 800 at 50 (48), --mainloop-delay 1,500 at 100;
#                                       no per-k-block clocks
#   M106=1 scripts/gpu_m104.sh OUTDIR   M106: per-k-block clocks only (seed 119): pingpong at 66 CTAs at
#                                       zero delay, --epi-delay 1,600 / 3,200, --mainloop-delay 1,000 /
#                                       2,000, at 132 at zero delay; and without D's stores
#                                       (-DPG_DIAG_NO_STORE) at 132 and 66, zero delay, and 66 with 2,000
set -uo pipefail
[ $# = 1 ] || { echo "usage: scripts/gpu_m104.sh OUTDIR" >&2; exit 2; }
mkdir -p "$1/runs" "$1/kbt" || exit 2
OUT=$(cd "$1" && pwd)
cd "$(dirname "$0")/.." || exit 2
LOG="$OUT/m104.log"
: >"$LOG"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv >>"$LOG" 2>&1
fails=0

build() { # build DIR CUDA_ARGS C_ARGS
    if [ ! -f "$1/build.ninja" ]; then
        meson setup "$1" -Dcuda=enabled -Dtests=disabled -Dcuda_args="$2" -Dc_args="$3" >>"$LOG" 2>&1 ||
            { tail -30 "$LOG"; exit 1; }
    fi
    ninja -C "$1" cli/pegemm >>"$LOG" 2>&1 || { tail -30 "$LOG"; exit 1; }
}
SEED=117
[ "${M105:-0}" = 1 ] && SEED=118
[ "${M106:-0}" = 1 ] && SEED=119
[ "${M106:-0}" = 1 ] || build build-grid "" -DPG_DIAG_GRID
[ "${M105:-0}" = 1 ] || build build-kbt-grid -DPG_KB_TRACE "-DPG_KB_TRACE -DPG_DIAG_GRID"

run() { # run NAME CTAS ARGS...   (the trace build, checked)
    local name=$1 ctas=$2
    shift 2
    echo "== $name: grid $ctas $*" >>"$LOG"
    PG_DIAG_GRID=$ctas timeout 120 ./build-grid/cli/pegemm run --rows 0:64 --shape 200704,768,768,196 --seed $SEED \
        --trace --reps 10 --check "$@" -o "$OUT/runs/$name.h5" >>"$LOG" 2>&1 ||
        { echo "FAILED $name" | tee -a "$LOG"; fails=$((fails + 1)); }
}
kbt() { # kbt NAME CTAS ARGS...   (the per-k-block clocks)
    local name=$1 ctas=$2
    shift 2
    echo "== kbt $name: grid $ctas $*" >>"$LOG"
    if PG_DIAG_GRID=$ctas PG_KBT_OUT="$OUT/kbt/$name.kbt" timeout 120 ./${KBT_BUILD:-build-kbt-grid}/cli/pegemm run --trace \
        --rows 0:64 --reps 3 --shape 200704,768,768,196 --seed $SEED "$@" -o "$OUT/kbt/$name.h5" >>"$LOG" 2>&1 &&
        [ -s "$OUT/kbt/$name.kbt" ]; then
        echo "ok     kbt $name"
    else
        echo "FAILED kbt $name" | tee -a "$LOG"
        fails=$((fails + 1))
    fi
}
if [ "${M106:-0}" = 1 ]; then
    build build-kbt-nostore-grid "-DPG_KB_TRACE -DPG_DIAG_NO_STORE" "-DPG_KB_TRACE -DPG_DIAG_NO_STORE -DPG_DIAG_GRID"
    kbt pp_g132_0 132 --variant pingpong
    kbt pp_g66_0 66 --variant pingpong
    KBT_BUILD=build-kbt-nostore-grid kbt pp_nostore_g132_0 132 --variant pingpong
    KBT_BUILD=build-kbt-nostore-grid kbt pp_nostore_g66_0 66 --variant pingpong
    for d in 1600 3200; do
        kbt pp_g66_epi$d 66 --variant pingpong --epi-delay $d
    done
    for d in 1000 2000; do
        kbt pp_g66_ml$d 66 --variant pingpong --mainloop-delay $d
    done
    KBT_BUILD=build-kbt-nostore-grid kbt pp_nostore_g66_ml2000 66 --variant pingpong --mainloop-delay 2000
    echo "failures $fails" | tee -a "$LOG"
    tar -czf "$OUT/m104.tgz" -C "$OUT" kbt m104.log || exit 1
    [ $fails -eq 0 ]
    exit
fi
if [ "${M105:-0}" = 1 ]; then
    for k in pp br; do
        v=pingpong small=50
        [ $k = br ] && v=bres small=48
        run "${k}_g132_0" 132 --variant $v
        run "${k}_g100_0" 100 --variant $v
        run "${k}_g${small}_0" $small --variant $v
        run "${k}_g${small}_epi800" $small --variant $v --epi-delay 800
        run "${k}_g100_ml1500" 100 --variant $v --mainloop-delay 1500
    done
    echo "failures $fails" | tee -a "$LOG"
    tar -czf "$OUT/m104.tgz" -C "$OUT" runs m104.log || exit 1
    [ $fails -eq 0 ]
    exit
fi
for probe in "0" "epi 1600" "ml 1000"; do
    set -- $probe
    args=() tag=0
    [ "$1" = epi ] && args=(--epi-delay "$2") tag=epi$2
    [ "$1" = ml ] && args=(--mainloop-delay "$2") tag=ml$2
    run "pp_g132_$tag" 132 --variant pingpong "${args[@]}"
    run "pp_g66_$tag" 66 --variant pingpong "${args[@]}"
done
run pp_g34_0 34 --variant pingpong
for probe in "0" "epi 1600"; do
    set -- $probe
    args=() tag=0
    [ "$1" = epi ] && args=(--epi-delay "$2") tag=epi$2
    run "br_g132_$tag" 132 --variant bres "${args[@]}"
    run "br_g64_$tag" 64 --variant bres "${args[@]}"
done
kbt pp_g132_0 132 --variant pingpong
kbt pp_g66_0 66 --variant pingpong
echo "failures $fails" | tee -a "$LOG"
tar -czf "$OUT/m104.tgz" -C "$OUT" runs kbt m104.log || exit 1
[ $fails -eq 0 ]
