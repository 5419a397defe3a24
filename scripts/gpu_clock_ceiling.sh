#!/usr/bin/env bash
# What holds the SM clock at the top of the clock line (docs/experiments.md
# M182): the driver's clock settings, then the clock and the clock-event
# reasons NVML reports every 50 ms while the fixed pingpong runs untraced at
# zero delay, under a 10,000-cycle --epi-delay and under a 9,000 spin
# (M = 200,704, N = K = 768).  If the runs that sit at the clock line's
# ceiling (~1.76-1.785 GHz on the H200s of sets 83-84) report no power cap
# while their clock equals the applications clock, the ceiling is a setting
# NVML can read on any machine, not a constant of our H200s.
#
#   scripts/gpu_clock_ceiling.sh OUTDIR   -> OUTDIR/clock_ceiling.txt
set -uo pipefail
[ $# = 1 ] || { echo "usage: scripts/gpu_clock_ceiling.sh OUTDIR" >&2; exit 2; }
mkdir -p "$1" || exit 2
OUT=$(cd "$1" && pwd)
cd "$(dirname "$0")/.." || exit 2
source scripts/gpu_build.sh
LOG="$OUT/clock_ceiling.txt"
nvidia-smi -q -d CLOCK,PERFORMANCE,POWER >"$LOG" 2>&1
for args in "--epi-delay 0" "--epi-delay 10000" "--mainloop-delay 9000"; do
    echo "== $args" >>"$LOG"
    nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.applications.graphics,clocks.max.sm,power.draw,clocks_event_reasons.active,clocks_event_reasons.sw_power_cap,clocks_event_reasons.hw_slowdown,clocks_event_reasons.sw_thermal_slowdown,temperature.gpu \
        --format=csv,noheader -lms 50 >>"$LOG" 2>&1 &
    smi=$!
    for i in 1 2 3 4 5 6 7 8; do # ~1-3 s of launches in all: tens of samples
        timeout 120 $PGBIN run --variant pingpong --shape 200704,768,768,196 --reps 256 $args -o "$OUT/run.h5" >>"$OUT/runs.log" 2>&1 ||
            echo "FAILED run $args" | tee -a "$LOG"
    done
    kill $smi
    wait $smi 2>/dev/null
    rm -f "$OUT/run.h5"
done
grep -E "fused|sm_clock|SM clock" "$OUT/runs.log" | head -20 >>"$LOG"
