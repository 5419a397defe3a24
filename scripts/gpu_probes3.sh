#!/usr/bin/env bash
# Probe set 3 of issue 12 (docs/experiments.md M24), settings not measured
# before and predicted (committed) before this script first ran:
# --mainloop-delay 600/1000/2000/3600 for both variants; a bres --epi-delay
# sweep at generator seed 13 (300..2800) and pingpong --epi-delay
# 1200/2000/4000; both probes at once (bres and pingpong, 800 + 800); M =
# 150,528 and 602,112 at zero delay; structure: bres64 at zero delay and at
# --mainloop-delay 1000 (from bres's calibration), pingpong with a 3-deep ring
# at --epi-delay 1000 (from the 4-deep calibration), bres --a-prefetch 2;
# each variant's zero-delay calibration of this session, and the bench's
# copy / stream floors.  Every traced run keeps rows 0:64 and times 10
# launches, as scripts/gpu_probes.sh does.
#
#   scripts/gpu_probes3.sh OUTDIR       -> OUTDIR/probes3.tgz (+ the run files, the log)
#
# Needs an sm_90 GPU, nvcc, meson, ninja, HDF5 headers (scripts/gpu_build.sh
# builds build-gpu; the 3-stage pingpong gets build-gpu-s3).  A failed run is
# logged and the rest go on.
set -uo pipefail
[ $# = 1 ] || { echo "usage: scripts/gpu_probes3.sh OUTDIR" >&2; exit 2; }
OUT=$1
mkdir -p "$OUT/runs" || exit 2
cd "$(dirname "$0")/.." || exit 2
OUT=$(cd "$OUT" && pwd)
LOG="$OUT/probes.log"
: >"$LOG"
t_start=$(date +%s)
fails=0
source scripts/gpu_build.sh
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
    local name=$1 bin=$2
    shift 2
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
echo "== bench floors" >>"$LOG"
timeout 150 "$PG" bench --reps 10 --rows 0:64 -o "$OUT/runs/bench_full.h5" >>"$LOG" 2>&1 ||
    { echo "FAILED bench" | tee -a "$LOG"; fails=$((fails + 1)); }
for v in pingpong bres; do
    for d in 0 600 1000 2000 3600; do
        probe "${v}_ml_$(printf %05d $d)" $PG --variant $v --shape $SH --mainloop-delay $d
    done
done
for d in 0 300 700 1000 1400 2000 2800; do
    probe "bres_epi_s13_$(printf %05d $d)" $PG --variant bres --shape $SH --seed 13 --epi-delay $d
done
for d in 1200 2000 4000; do
    probe "pingpong_epi_$(printf %05d $d)" $PG --variant pingpong --shape $SH --epi-delay $d
done
for v in pingpong bres; do
    probe "${v}_both_00800" $PG --variant $v --shape $SH --epi-delay 800 --mainloop-delay 800
    for m in 150528 602112; do
        probe "${v}_m$m" $PG --variant $v --shape $m,768,768,196
    done
done
probe bres64_ml_00000 $PG --variant bres64 --shape $SH
probe bres64_ml_01000 $PG --variant bres64 --shape $SH --mainloop-delay 1000
probe bres_prefetch2 $PG --variant bres --shape $SH --a-prefetch 2
if [ -x build-gpu-s3/cli/pegemm ]; then
    probe pingpong_s3_epi_01000 ./build-gpu-s3/cli/pegemm --variant pingpong --shape $SH --epi-delay 1000
else
    echo "FAILED pingpong_s3_epi_01000 (no build)" | tee -a "$LOG"
    fails=$((fails + 1))
fi
t_end=$(date +%s)
echo "build $((t_built - t_start)) s, runs $((t_end - t_built)) s, failures $fails" | tee -a "$LOG"
tar -czf "$OUT/probes3.tgz" -C "$OUT" runs probes.log || exit 1
ls -la "$OUT/probes3.tgz"
[ $fails -eq 0 ]
