#!/usr/bin/env bash
# Probe set 7 of issue 12 (docs/experiments.md M34), settings not measured
# before and predicted (committed) before this script first ran, mostly
# bres (M34 changed bres's schedule): --mainloop-delay 700/2200/4400; a
# --epi-delay sweep at generator seed 3 (0/500/1000/2000); both probes at
# once (epi 1200 + mainloop 300); M = 501,760; bres64 at --mainloop-delay
# 1500 (from bres's calibration); pingpong at --mainloop-delay 1100,
# --epi-delay 2600 and M = 250,880; each variant's zero-delay calibration of
# this session and the bench's floors.  Every traced run keeps rows 0:64 and
# times 10 launches, as the earlier sets.
#
#   scripts/gpu_probes7.sh OUTDIR       -> OUTDIR/probes7.tgz (+ the run files, the log)
#
# Needs an sm_90 GPU, nvcc, meson, ninja, HDF5 headers (scripts/gpu_build.sh
# builds build-gpu).  A failed run is logged and the rest go on.
set -uo pipefail
[ $# = 1 ] || { echo "usage: scripts/gpu_probes7.sh OUTDIR" >&2; exit 2; }
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
probe pingpong_ml_01100 $PG --variant pingpong --shape $SH --mainloop-delay 1100
probe pingpong_epi_02600 $PG --variant pingpong --shape $SH --epi-delay 2600
probe pingpong_m250880 $PG --variant pingpong --shape 250880,768,768,196
probe bres_ml_00000 $PG --variant bres --shape $SH
for d in 700 2200 4400; do
    probe "bres_ml_$(printf %05d $d)" $PG --variant bres --shape $SH --mainloop-delay $d
done
for d in 0 500 1000 2000; do
    probe "bres_epi_s3_$(printf %05d $d)" $PG --variant bres --shape $SH --seed 3 --epi-delay $d
done
probe bres_both_1200_0300 $PG --variant bres --shape $SH --epi-delay 1200 --mainloop-delay 300
probe bres_m501760 $PG --variant bres --shape 501760,768,768,196
probe bres64_ml_01500 $PG --variant bres64 --shape $SH --mainloop-delay 1500
t_end=$(date +%s)
echo "build $((t_built - t_start)) s, runs $((t_end - t_built)) s, failures $fails" | tee -a "$LOG"
tar -czf "$OUT/probes7.tgz" -C "$OUT" runs probes.log || exit 1
ls -la "$OUT/probes7.tgz"
[ $fails -eq 0 ]
