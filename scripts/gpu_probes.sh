#!/usr/bin/env bash
# The probe runs the cycle model was asked to predict (issue 12; the
# predictions are written in docs/experiments.md M20 before these runs):
# --mainloop-delay and --epi-delay sweeps of both variants, other M, the
# structural what-ifs (bres64, a 3-stage pingpong build, bres with an L2
# prefetch of A one tile ahead), and the bench's copy / stream floors, on
# whichever GPU this runs on.  Every traced run keeps rows 0:64 only (small
# files) and times 10 launches, as scripts/gpu_all.sh's sweep does.
#
#   scripts/gpu_probes.sh OUTDIR        -> OUTDIR/probes.tgz (+ the run files, the log)
#
# Needs an sm_90 GPU, nvcc, meson, ninja, HDF5 headers (scripts/gpu_build.sh
# builds build-gpu; the 3-stage pingpong gets its own build-gpu-s3).  Aims at
# ~6 minutes after the build.  A failed run is logged and the rest go on.
set -uo pipefail
[ $# = 1 ] || { echo "usage: scripts/gpu_probes.sh OUTDIR" >&2; exit 2; }
OUT=$1
mkdir -p "$OUT/runs" || exit 2
cd "$(dirname "$0")/.." || exit 2
OUT=$(cd "$OUT" && pwd)
LOG="$OUT/probes.log"
: >"$LOG"
t_start=$(date +%s)
fails=0
source scripts/gpu_build.sh
# the stage-count what-if: pingpong with a 3-deep ring (PG_STAGES, gemm_kernel.h;
# 5 would need 264 KB of shared memory); the host reads the device's value
if [ ! -f build-gpu-s3/build.ninja ]; then
    meson setup build-gpu-s3 -Dcuda=enabled -Dtests=disabled -Dcuda_args=-DPG_STAGES=3 -Dc_args=-DPG_STAGES=3 \
        >>"$LOG" 2>&1 || echo "build-gpu-s3 setup failed" | tee -a "$LOG"
fi
ninja -C build-gpu-s3 cli/pegemm >>"$LOG" 2>&1 || echo "build-gpu-s3 build failed" | tee -a "$LOG"
t_built=$(date +%s)

gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
echo "gpu: ${gpu:-unknown}" | tee -a "$LOG"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,memory.total,power.limit --format=csv >>"$LOG" 2>&1

probe() { # probe FILE PEGEMM ARGS... : one traced run into runs/FILE.h5
    local name=$1 bin=$2; shift 2
    echo "== $name: $*" >>"$LOG"
    if timeout 120 "$bin" run --trace --rows 0:64 --reps 10 "$@" -o "$OUT/runs/$name.h5" >>"$LOG" 2>&1; then
        echo "ok     $name" | tee -a "$LOG"
    else
        echo "FAILED $name (exit $?)" | tee -a "$LOG"
        fails=$((fails + 1))
    fi
}
PG=$PGBIN
SH=200704,768,768,196
# the floors: copy, stream (A in, D out), memset, cuBLASLt; full problem
echo "== bench floors" >>"$LOG"
timeout 150 $PG bench --reps 10 --rows 0:64 -o "$OUT/runs/bench_full.h5" >>"$LOG" 2>&1 || { echo "FAILED bench" | tee -a "$LOG"; fails=$((fails + 1)); }
# --mainloop-delay sweeps (the 0 runs are each variant's calibration run)
for v in pingpong bres; do
    for d in 0 400 800 1600 3200 6400; do
        probe "${v}_ml_$(printf %05d $d)" $PG --variant $v --shape $SH --mainloop-delay $d
    done
done
# --epi-delay sweeps at a generator seed not committed (7)
for d in 0 400 800 1200 1600 2400 4800; do
    probe "bres_epi_s7_$(printf %05d $d)" $PG --variant bres --shape $SH --seed 7 --epi-delay $d
done
for d in 400 800 1600 3200; do
    probe "pingpong_epi_$(printf %05d $d)" $PG --variant pingpong --shape $SH --epi-delay $d
done
# other M, zero delay
for v in pingpong bres; do
    probe "${v}_m50176" $PG --variant $v --shape 50176,768,768,196
    probe "${v}_m928256" $PG --variant $v
done
# structural what-ifs at M = 200,704
probe bres64_ml_00000 $PG --variant bres64 --shape $SH
probe bres_prefetch1 $PG --variant bres --shape $SH --a-prefetch 1
if [ -x build-gpu-s3/cli/pegemm ]; then
    probe pingpong_s3 ./build-gpu-s3/cli/pegemm --variant pingpong --shape $SH
else
    echo "FAILED pingpong_s3 (no build)" | tee -a "$LOG"
    fails=$((fails + 1))
fi
t_end=$(date +%s)
echo "build $((t_built - t_start)) s, runs $((t_end - t_built)) s, failures $fails" | tee -a "$LOG"
tar -czf "$OUT/probes.tgz" -C "$OUT" runs probes.log || exit 1
ls -la "$OUT/probes.tgz"
[ $fails -eq 0 ]
