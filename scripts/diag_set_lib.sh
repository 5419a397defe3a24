# The harness of a diagnostic comparison (scripts/gpu_m55.sh and later),
# sourced after the caller sets DIAG (its experiment, e.g. m56), with the
# output directory as its one argument: builds build-gpu
# (scripts/gpu_build.sh), logs the GPU's clocks and defines `diag_build` (a build
# directory of its own with diagnostic defines, never the production or
# trace build), `diag_run` (one bres run at M = 200,704, seed 31, rows 0:64,
# with the caller's options) and `diag_finish` (OUT/DIAG.tgz; exit 1 if a
# run failed).  A failed run is logged and the rest go on.
set -uo pipefail
[ $# = 1 ] || { echo "usage: scripts/gpu_$DIAG.sh OUTDIR" >&2; exit 2; }
OUT=$1
mkdir -p "$OUT/runs" || exit 2
cd "$(dirname "$0")/.." || exit 2
OUT=$(cd "$OUT" && pwd)
LOG="$OUT/$DIAG.log"
: >"$LOG"
source scripts/gpu_build.sh
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv >>"$LOG" 2>&1
fails=0

diag_build() { # diag_build DIR CUDA_ARGS [C_ARGS]
    if [ ! -f "$1/build.ninja" ]; then
        meson setup "$1" -Dcuda=enabled -Dtests=disabled -Dcuda_args="$2" ${3:+-Dc_args="$3"} >>"$LOG" 2>&1 ||
            { tail -30 "$LOG"; exit 1; }
    fi
    ninja -C "$1" cli/pegemm >>"$LOG" 2>&1 || { tail -30 "$LOG"; exit 1; }
}

diag_run() { # diag_run NAME BIN ARGS...
    local name=$1 bin=$2
    shift 2
    echo "== $name: $*" >>"$LOG"
    timeout 120 "$bin" run --rows 0:64 --variant bres --shape 200704,768,768,196 --seed 31 "$@" \
        -o "$OUT/runs/$name.h5" >>"$LOG" 2>&1 || { echo "FAILED $name" | tee -a "$LOG"; fails=$((fails + 1)); }
}

diag_finish() {
    echo "failures $fails" | tee -a "$LOG"
    tar -czf "$OUT/$DIAG.tgz" -C "$OUT" runs "$DIAG.log" || exit 1
    [ $fails -eq 0 ]
}
