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
set -uo pipefail
[ $# = 1 ] || { echo "usage: scripts/gpu_m59.sh OUTDIR" >&2; exit 2; }
OUT=$1
mkdir -p "$OUT/runs" || exit 2
cd "$(dirname "$0")/.." || exit 2
OUT=$(cd "$OUT" && pwd)
LOG="$OUT/m59.log"
: >"$LOG"
source scripts/gpu_build.sh
if [ ! -f build-evict/build.ninja ]; then
    meson setup build-evict -Dcuda=enabled -Dtests=disabled -Dcuda_args=-DPG_DIAG_STORE_EVICT_FIRST >>"$LOG" 2>&1 ||
        { tail -30 "$LOG"; exit 1; }
fi
ninja -C build-evict cli/pegemm >>"$LOG" 2>&1 || { tail -30 "$LOG"; exit 1; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv >>"$LOG" 2>&1
fails=0
one() { # one NAME BIN ARGS...
    local name=$1 bin=$2
    shift 2
    echo "== $name: $*" >>"$LOG"
    timeout 120 "$bin" run --rows 0:64 --variant bres --shape 200704,768,768,196 --seed 31 "$@" \
        -o "$OUT/runs/$name.h5" >>"$LOG" 2>&1 || { echo "FAILED $name" | tee -a "$LOG"; fails=$((fails + 1)); }
}
for d in 0 900 1200; do
    dd=$(printf %05d "$d")
    one "plain_epi_$dd" "$PGBIN" --trace --reps 10 --epi-delay "$d"
    one "evict_epi_$dd" ./build-evict/cli/pegemm --trace --reps 10 --epi-delay "$d"
done
for r in 1 2; do
    one "plain_time_$r" "$PGBIN" --check --reps 30
    one "evict_time_$r" ./build-evict/cli/pegemm --check --reps 30
done
echo "failures $fails" | tee -a "$LOG"
tar -czf "$OUT/m59.tgz" -C "$OUT" runs m59.log || exit 1
[ $fails -eq 0 ]
