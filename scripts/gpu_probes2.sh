#!/usr/bin/env bash
# The probe runs of docs/experiments.md M22 (issue 12), settings not measured
# before, whose predictions (the M21 model and M22's `dramq` line) were
# committed before this script first ran: a bres --epi-delay sweep at
# generator seed 11, --mainloop-delay 1200/2400/4800 for both variants,
# M = 100,352 and 401,408 at zero delay, pingpong --epi-delay 600/1000/2800,
# each variant's zero-delay calibration run of this session, and the bench's
# copy / stream floors.  Every traced run keeps rows 0:64 only (small files)
# and times 10 launches, as scripts/gpu_probes.sh does.
#
#   scripts/gpu_probes2.sh OUTDIR       -> OUTDIR/probes2.tgz (+ the run files, the log)
#
# Needs an sm_90 GPU, nvcc, meson, ninja, HDF5 headers (scripts/gpu_build.sh
# builds build-gpu).  Aims at ~3 minutes after the build.  A failed run is
# logged and the rest go on.
set -uo pipefail
[ $# = 1 ] || { echo "usage: scripts/gpu_probes2.sh OUTDIR" >&2; exit 2; }
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

probe() { # probe FILE ARGS... : one traced run into runs/FILE.h5
    local name=$1; shift
    echo "== $name: $*" >>"$LOG"
    if timeout 120 "$PGBIN" run --trace --rows 0:64 --reps 10 "$@" -o "$OUT/runs/$name.h5" >>"$LOG" 2>&1; then
        echo "ok     $name" | tee -a "$LOG"
    else
        echo "FAILED $name (exit $?)" | tee -a "$LOG"
        fails=$((fails + 1))
    fi
}
SH=200704,768,768,196
# the floors: copy, stream (A in, D out), memset, cuBLASLt; full problem
echo "== bench floors" >>"$LOG"
timeout 150 "$PGBIN" bench --reps 10 --rows 0:64 -o "$OUT/runs/bench_full.h5" >>"$LOG" 2>&1 ||
    { echo "FAILED bench" | tee -a "$LOG"; fails=$((fails + 1)); }
# this session's calibrations (zero delay), then the --mainloop-delay points
for v in pingpong bres; do
    for d in 0 1200 2400 4800; do
        probe "${v}_ml_$(printf %05d $d)" --variant $v --shape $SH --mainloop-delay $d
    done
done
# bres --epi-delay at a generator seed not used before (11); 0 is its calibration
for d in 0 600 1000 2000 3600; do
    probe "bres_epi_s11_$(printf %05d $d)" --variant bres --shape $SH --seed 11 --epi-delay $d
done
for d in 600 1000 2800; do
    probe "pingpong_epi_$(printf %05d $d)" --variant pingpong --shape $SH --epi-delay $d
done
# other M, zero delay
for v in pingpong bres; do
    for m in 100352 401408; do
        probe "${v}_m$m" --variant $v --shape $m,768,768,196
    done
done
t_end=$(date +%s)
echo "build $((t_built - t_start)) s, runs $((t_end - t_built)) s, failures $fails" | tee -a "$LOG"
tar -czf "$OUT/probes2.tgz" -C "$OUT" runs probes.log || exit 1
ls -la "$OUT/probes2.tgz"
[ $fails -eq 0 ]
