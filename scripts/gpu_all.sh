#!/usr/bin/env bash
# The one GPU script: build pegemm with CUDA, run the kernel's tests, check
# the kernel bit for bit against the CPU reference (every family at M = 12544
# and an odd M; the full problem for `normal` and `codes`), run
# compute-sanitizer, benchmark against the cuBLASLt baselines, write the runs
# that get committed under traces/runs/, and print a short table.
#
#   scripts/gpu_all.sh [OUTDIR]        (default OUTDIR: traces/runs)
#
# Needs an sm_90 GPU, nvcc, meson, ninja, HDF5 headers.  If cmocka is not
# installed, Debian's libcmocka0/libcmocka-dev .debs in .debs/ are unpacked
# into build-gpu-deps/ (the GPU machines here cannot reach a package registry);
# without them the cmocka suite is skipped.  OMP_NUM_THREADS sets the
# reference's threads (default: all cores).  QUICK=1 skips the full-size
# all-output checks and the sanitizers (which run after the committed runs).
# VARIANTS (default "pingpong bres bres64"): the kernel variants checked bit for bit
# (every family, reduced sizes; `normal` at full size), traced and sanitized
# besides the default; `pegemm bench` times them all, interleaved.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-traces/runs}
VARIANTS=${VARIANTS:-pingpong bres bres64}
mkdir -p "$OUT/epi_sweep" "$OUT/variants"
LOG=$(mktemp -d)/gpu_all.log
summary=()
fails=0
note() { summary+=("$1"); }
hung=0
step() { # step NAME CMD... : run, log, record pass/fail; after a timeout (exit 124) skip the rest
    local name=$1; shift
    if [ $hung = 1 ]; then note "$(printf '%-52s skipped (an earlier step timed out)' "$name")"; fails=$((fails + 1)); return; fi
    echo "== $name: $*" | tee -a "$LOG"
    "$@" 2>&1 | tee -a "$LOG"
    local rc=${PIPESTATUS[0]}
    if [ $rc = 0 ]; then note "$(printf '%-52s ok' "$name")"; else note "$(printf '%-52s FAILED (%d)' "$name" $rc)"; fails=$((fails + 1)); fi
    [ $rc = 124 ] && hung=1
}

source scripts/gpu_build.sh
# PG_TIMEOUT=SECONDS: each pegemm step is killed after that long (a hung
# kernel fails its step and skips the rest instead of eating the machine's time)
PG="${PG_TIMEOUT:+timeout $PG_TIMEOUT }$PGBIN"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader || true

if [ "$tests" != disabled ]; then
    step "meson test --suite kernel" meson test -C build-gpu --suite kernel --print-errorlogs
fi

# bit-exact, reduced sizes, every family and variant; the odd M leaves a partial tile
for v in $VARIANTS; do
    for fam in normal codes band subnormal special; do
        for M in 12544 12345; do
            step "bit-exact M=$M $fam ($v)" $PG run --variant $v --shape $M,768,768,196 --family $fam --rows all --check --reps 3
        done
    done
done
# committed runs
# the GPU's power and SM clock while the bench runs (every 50 ms): whether the
# GEMMs run at the power cap (docs/experiments.md K24)
PWR=""
if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=power.draw,power.limit,clocks.sm,clocks_event_reasons.sw_power_cap --format=csv,noheader,nounits \
        -lms 50 >"$LOG.power" 2>/dev/null &
    PWR=$!
fi
step "bench full (baselines, sample rows)" $PG bench --rows sample:4096 --check -o "$OUT/h100_full_bench.h5"
step "bench full, ablations and energy per launch" $PG bench --ablate --energy --rows sample:64 -o "$LOG.ablate.h5"
if [ -n "$PWR" ]; then
    kill $PWR 2>/dev/null
    wait $PWR 2>/dev/null
fi
step "trace build full (whole trace)" $PG run --trace --rows sample:4096 --check --reps 30 -o "$OUT/h100_full_trace.h5"
for v in $VARIANTS; do
    step "trace build full ($v)" $PG run --variant $v --trace --rows sample:4096 --check --reps 30 \
        -o "$OUT/variants/h100_full_trace_$v.h5"
done
step "reduced M=12544, all outputs" $PG run --shape 12544,768,768,196 --rows all --check -o "$OUT/h100_m12544.h5"
# The --epi-delay sweep the cycle model is validated on (docs/model.md): the
# pingpong kernel, as committed in traces/runs/epi_sweep; the default (bres)
# kernel's beside it in epi_sweep_bres (not committed; a check of the model on it).
for v in pingpong bres; do
    dir="$OUT/epi_sweep"; [ $v = pingpong ] || dir="$OUT/epi_sweep_$v"
    mkdir -p "$dir"
    for d in 0 400 800 1200 1600 2000 2400 3200 4800 8000; do
        step "epi-delay $d ($v, trace, M=200704)" $PG run --variant $v --trace --shape 200704,768,768,196 --epi-delay $d \
            --rows 0:64 --reps 10 -o "$dir/h100_epi_$(printf %05d $d).h5"
    done
    if [ $v = pingpong ]; then
        step "model validate-delays ($v sweep)" $PGBIN model validate-delays "$dir"/h100_epi_*.h5
    else
        # shown, not a pass/fail step: the h100-pingpong schedule does not
        # describe bres's response to small delays (docs/model.md, held_out/README.md)
        echo "== model validate-delays ($v sweep, informational)" | tee -a "$LOG"
        $PGBIN model validate-delays "$dir"/h100_epi_*.h5 2>&1 | tee -a "$LOG"
    fi
done
if [ "${QUICK:-0}" != 1 ]; then
    for fam in normal codes; do
        step "bit-exact full M=928256 $fam (all outputs)" $PG run --family $fam --rows all --check --reps 3
    done
    for v in $VARIANTS; do
        step "bit-exact full M=928256 normal ($v, all outputs)" $PG run --variant $v --family normal --rows all --check --reps 3
    done
    step "compute-sanitizer, every variant; GPU error paths" bash scripts/gpu_hardening.sh
fi

if $PGBIN verify --help >/dev/null 2>&1; then
    for f in "$OUT/h100_full_bench.h5" "$OUT/h100_m12544.h5"; do
        step "pegemm verify outputs $(basename $f)" $PG verify outputs "$f"
    done
fi

echo
echo "==== pegemm on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
sed -n '/== bench full (baselines/,/== bench full, ablations/p' "$LOG" | grep -E "^  (fused|cuBLASLt|D2D|stream|write)|floor|/ cuBLASLt FP8 alone"
sed -n '/== bench full, ablations/,/== trace build full/p' "$LOG" | grep -E "\(ablation\)|energy|mJ"
if [ -s "$LOG.power" ]; then # samples above 300 W: the GPU was busy
    awk -F', *' '$1 > 300 { n++; p += $1; c += $3; if ($4 ~ /Active/ && $4 !~ /Not/) cap++; lim = $2 }
        END { if (n) printf "  power while busy (%d samples of 50 ms): mean %.0f W of a %.0f W limit, SM clock mean %.0f MHz, power cap active in %.0f%%\n", n, p / n, lim, c / n, 100 * cap / n }' "$LOG.power"
fi
sed -n '/== trace build full/,$p' "$LOG" | grep -E "^== trace build full|trace build overhead" | head -$((2 + 2 * $(echo $VARIANTS | wc -w)))
for l in "${summary[@]}"; do echo "  $l"; done
echo "failures: $fails   (log: $LOG)"
[ -n "${GPU_ALL_LOG:-}" ] && cp "$LOG" "$GPU_ALL_LOG"
[ $fails -eq 0 ]
