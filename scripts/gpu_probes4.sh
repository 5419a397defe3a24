#!/usr/bin/env bash
# Probe set 4 of issue 12 (docs/experiments.md M27): the stage count again,
# predicted (committed) before this script first ran: pingpong built with a
# 2-deep ring (at zero delay and at --epi-delay 2000) and a 3-deep ring
# (at zero delay and at --mainloop-delay 1000), each predicted from the
# 4-stage zero-delay run this script also takes.  Traced runs keep rows 0:64
# and time 10 launches, as scripts/gpu_probes3.sh does.
#
#   scripts/gpu_probes4.sh OUTDIR       -> OUTDIR/probes4.tgz (+ the run files, the log)
set -uo pipefail
[ $# = 1 ] || { echo "usage: scripts/gpu_probes4.sh OUTDIR" >&2; exit 2; }
OUT=$1
mkdir -p "$OUT/runs" || exit 2
cd "$(dirname "$0")/.." || exit 2
OUT=$(cd "$OUT" && pwd)
LOG="$OUT/probes.log"
: >"$LOG"
fails=0
source scripts/gpu_build.sh
for s in 2 3; do # the ring depth is a compile-time constant (PG_STAGES, gemm_kernel.h)
    if [ ! -f build-gpu-s$s/build.ninja ]; then
        meson setup build-gpu-s$s -Dcuda=enabled -Dtests=disabled -Dcuda_args=-DPG_STAGES=$s -Dc_args=-DPG_STAGES=$s \
            >>"$LOG" 2>&1 || echo "build-gpu-s$s setup failed" | tee -a "$LOG"
    fi
    ninja -C build-gpu-s$s cli/pegemm >>"$LOG" 2>&1 || echo "build-gpu-s$s build failed" | tee -a "$LOG"
done
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
SH=200704,768,768,196
probe pingpong_ml_00000 "$PGBIN" --variant pingpong --shape $SH
probe pingpong_s2 ./build-gpu-s2/cli/pegemm --variant pingpong --shape $SH
probe pingpong_s2_epi_02000 ./build-gpu-s2/cli/pegemm --variant pingpong --shape $SH --epi-delay 2000
probe pingpong_s3 ./build-gpu-s3/cli/pegemm --variant pingpong --shape $SH
probe pingpong_s3_ml_01000 ./build-gpu-s3/cli/pegemm --variant pingpong --shape $SH --mainloop-delay 1000
echo "failures $fails" | tee -a "$LOG"
tar -czf "$OUT/probes4.tgz" -C "$OUT" runs probes.log || exit 1
[ $fails -eq 0 ]
