# The harness of a probe set (scripts/gpu_probes5.sh and later), sourced
# after the caller sets SET (its number) and, optionally, STAGE_BUILDS (ring
# depths that get a build of their own, build-gpu-sN: the depth is a
# compile-time constant, PG_STAGES in gemm_kernel.h), with the output
# directory as its one argument: builds build-gpu (scripts/gpu_build.sh),
# logs the GPU, takes the bench's floors and defines `probe`; the caller
# lists its runs and ends with `probe_set_finish`.  A failed run is logged
# and the rest go on; the set exits 1 if any failed.
set -uo pipefail
[ $# = 1 ] || { echo "usage: scripts/gpu_probes$SET.sh OUTDIR" >&2; exit 2; }
OUT=$1
mkdir -p "$OUT/runs" || exit 2
cd "$(dirname "$0")/.." || exit 2
OUT=$(cd "$OUT" && pwd)
LOG="$OUT/probes.log"
: >"$LOG"
t_start=$(date +%s)
fails=0
source scripts/gpu_build.sh
for s in ${STAGE_BUILDS:-}; do
    if [ ! -f build-gpu-s$s/build.ninja ]; then
        meson setup build-gpu-s$s -Dcuda=enabled -Dtests=disabled -Dcuda_args=-DPG_STAGES=$s -Dc_args=-DPG_STAGES=$s \
            >>"$LOG" 2>&1 || echo "build-gpu-s$s setup failed" | tee -a "$LOG"
    fi
    ninja -C build-gpu-s$s cli/pegemm >>"$LOG" 2>&1 || echo "build-gpu-s$s build failed" | tee -a "$LOG"
done
t_built=$(date +%s)

gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
echo "gpu: ${gpu:-unknown}" | tee -a "$LOG"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,memory.total,power.limit --format=csv >>"$LOG" 2>&1

probe() { # probe FILE PEGEMM ARGS... : one traced run into runs/FILE.h5
    local name=$1 bin=$2
    shift 2
    echo "== $name: $*" >>"$LOG"
    if [ -x "$bin" ] && timeout 120 "$bin" run --trace --rows 0:64 --reps 10 "$@" -o "$OUT/runs/$name.h5" >>"$LOG" 2>&1; then
        echo "ok     $name" | tee -a "$LOG"
    else
        echo "FAILED $name" | tee -a "$LOG"
        fails=$((fails + 1))
    fi
}

# pp NAME ARGS... / br NAME ARGS...: a pingpong / bres run into
# runs/pingpong_NAME.h5 / bres_NAME.h5, with the caller's $S (its seed)
pp() { probe "pingpong_$1" $PG --variant pingpong $S "${@:2}"; }
br() { probe "bres_$1" $PG --variant bres $S "${@:2}"; }
# ppst S NAME ARGS...: a pingpong run of the S-stage build (STAGE_BUILDS) into
# runs/pingpong_sS_NAME.h5
ppst() { probe "pingpong_s${1}_${2}" ./build-gpu-s${1}/cli/pegemm --variant pingpong $S "${@:3}"; }

small_m_probes() { # small_m_probes T... : each variant's calibration, then
    # pingpong at M = 2,816 x T and bres at 2,112 x T (T tiles per SM)
    local t
    probe pingpong_ml_00000 $PG --variant pingpong --shape $SH
    for t in "$@"; do
        probe pingpong_m$((2816 * t)) $PG --variant pingpong --shape $((2816 * t)),768,768,196
    done
    probe bres_ml_00000 $PG --variant bres --shape $SH
    for t in "$@"; do
        probe bres_m$((2112 * t)) $PG --variant bres --shape $((2112 * t)),768,768,196
    done
}

probe_set_finish() { # the log's totals and OUT/probesSET.tgz
    local t_end
    t_end=$(date +%s)
    echo "build $((t_built - t_start)) s, runs $((t_end - t_built)) s, failures $fails" | tee -a "$LOG"
    tar -czf "$OUT/probes$SET.tgz" -C "$OUT" runs probes.log || exit 1
    ls -la "$OUT/probes$SET.tgz"
    [ $fails -eq 0 ]
}

PG=$PGBIN
SH=200704,768,768,196
echo "== bench floors" >>"$LOG"
timeout 150 "$PG" bench --reps 10 --rows 0:64 -o "$OUT/runs/bench_full.h5" >>"$LOG" 2>&1 ||
    { echo "FAILED bench" | tee -a "$LOG"; fails=$((fails + 1)); }
