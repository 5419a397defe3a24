#!/usr/bin/env bash
# Probe set 8 of issue 12 (docs/experiments.md M35: across GPUs the loads a
# schedule's `dramq` line lists queue at each machine's copy floor), settings
# not measured before and predicted (committed) before this script first ran,
# the same list on an H100 and an H200 so that every run is predicted from
# the other GPU's zero-delay calibration too: pingpong at --epi-delay 1300,
# --mainloop-delay 1800 and M = 351,232; bres at --mainloop-delay 1600, both
# probes at once (epi 800 + mainloop 800), M = 351,232 and an --epi-delay
# sweep at generator seed 17 (0/700/1500); bres64 at --mainloop-delay 500
# and --epi-delay 1800 (from bres's calibration); each variant's zero-delay
# calibration and the bench's floors.  Every traced run keeps rows 0:64 and
# times 10 launches, as the earlier sets.
#
#   scripts/gpu_probes8.sh OUTDIR       -> OUTDIR/probes8.tgz (+ the run files, the log)
#
# Needs an sm_90 GPU, nvcc, meson, ninja, HDF5 headers (scripts/gpu_build.sh
# builds build-gpu).  A failed run is logged and the rest go on.
set -uo pipefail
[ $# = 1 ] || { echo "usage: scripts/gpu_probes8.sh OUTDIR" >&2; exit 2; }
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
probe pingpong_epi_01300 $PG --variant pingpong --shape $SH --epi-delay 1300
probe pingpong_ml_01800 $PG --variant pingpong --shape $SH --mainloop-delay 1800
probe pingpong_m351232 $PG --variant pingpong --shape 351232,768,768,196
probe bres_ml_00000 $PG --variant bres --shape $SH
probe bres_ml_01600 $PG --variant bres --shape $SH --mainloop-delay 1600
for d in 0 700 1500; do
    probe "bres_epi_s17_$(printf %05d $d)" $PG --variant bres --shape $SH --seed 17 --epi-delay $d
done
probe bres_both_0800_0800 $PG --variant bres --shape $SH --epi-delay 800 --mainloop-delay 800
probe bres_m351232 $PG --variant bres --shape 351232,768,768,196
probe bres64_ml_00500 $PG --variant bres64 --shape $SH --mainloop-delay 500
probe bres64_epi_01800 $PG --variant bres64 --shape $SH --epi-delay 1800
t_end=$(date +%s)
echo "build $((t_built - t_start)) s, runs $((t_end - t_built)) s, failures $fails" | tee -a "$LOG"
tar -czf "$OUT/probes8.tgz" -C "$OUT" runs probes.log || exit 1
ls -la "$OUT/probes8.tgz"
[ $fails -eq 0 ]
