#!/usr/bin/env bash
# Probe set 9 of issue 12 (docs/experiments.md M36: bres's loop's fixed
# cycles measured by the fit, and the typical wgmma round trip), settings
# not measured before and predicted (committed) before this script first
# ran, the same list on an H100 and an H200: bres64 (from bres's
# calibration) at zero delay, --mainloop-delay 1200, --epi-delay 700 and
# 3000, M = 401,408; bres at --mainloop-delay 300/1100/3000, both probes at
# once (epi 400 + ml 1200), an --epi-delay sweep at generator seed 23
# (0/350/1100/2600); pingpong at --mainloop-delay 700, --epi-delay 2000 and
# M = 175,616; each variant's zero-delay calibration and the bench's
# floors.  Every traced run keeps rows 0:64 and times 10 launches, as the
# earlier sets.
#
#   scripts/gpu_probes9.sh OUTDIR       -> OUTDIR/probes9.tgz (+ the run files, the log)
#
# Needs an sm_90 GPU, nvcc, meson, ninja, HDF5 headers (scripts/gpu_build.sh
# builds build-gpu).  A failed run is logged and the rest go on.
set -uo pipefail
[ $# = 1 ] || { echo "usage: scripts/gpu_probes9.sh OUTDIR" >&2; exit 2; }
OUT=$1
mkdir -p "$OUT/runs" || exit 2
cd "$(dirname "$0")/.." || exit 2
OUT=$(cd "$OUT" && pwd)
LOG="$OUT/probes.log"
: >"$LOG"
t_start=$(date +%s)
fails=0
source scripts/gpu_build.sh
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
PG=$PGBIN
SH=200704,768,768,196
echo "== bench floors" >>"$LOG"
timeout 150 "$PG" bench --reps 10 --rows 0:64 -o "$OUT/runs/bench_full.h5" >>"$LOG" 2>&1 ||
    { echo "FAILED bench" | tee -a "$LOG"; fails=$((fails + 1)); }
probe pingpong_ml_00000 $PG --variant pingpong --shape $SH
probe pingpong_ml_00700 $PG --variant pingpong --shape $SH --mainloop-delay 700
probe pingpong_epi_02000 $PG --variant pingpong --shape $SH --epi-delay 2000
probe pingpong_m175616 $PG --variant pingpong --shape 175616,768,768,196
probe bres_ml_00000 $PG --variant bres --shape $SH
for d in 300 1100 3000; do
    probe "bres_ml_$(printf %05d $d)" $PG --variant bres --shape $SH --mainloop-delay $d
done
for d in 0 350 1100 2600; do
    probe "bres_epi_s23_$(printf %05d $d)" $PG --variant bres --shape $SH --seed 23 --epi-delay $d
done
probe bres_both_0400_1200 $PG --variant bres --shape $SH --epi-delay 400 --mainloop-delay 1200
probe bres64_ml_00000 $PG --variant bres64 --shape $SH
probe bres64_ml_01200 $PG --variant bres64 --shape $SH --mainloop-delay 1200
probe bres64_epi_00700 $PG --variant bres64 --shape $SH --epi-delay 700
probe bres64_epi_03000 $PG --variant bres64 --shape $SH --epi-delay 3000
probe bres64_m401408 $PG --variant bres64 --shape 401408,768,768,196
t_end=$(date +%s)
echo "build $((t_built - t_start)) s, runs $((t_end - t_built)) s, failures $fails" | tee -a "$LOG"
tar -czf "$OUT/probes9.tgz" -C "$OUT" runs probes.log || exit 1
ls -la "$OUT/probes9.tgz"
[ $fails -eq 0 ]
