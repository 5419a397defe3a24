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
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-traces/runs}
mkdir -p "$OUT/epi_sweep"
LOG=$(mktemp -d)/gpu_all.log
summary=()
fails=0
note() { summary+=("$1"); }
step() { # step NAME CMD... : run, log, record pass/fail
    local name=$1; shift
    echo "== $name: $*" | tee -a "$LOG"
    if "$@" 2>&1 | tee -a "$LOG"; then note "$(printf '%-44s ok' "$name")"; else note "$(printf '%-44s FAILED' "$name")"; fails=$((fails + 1)); fi
}

# cmocka from carried .debs when the machine lacks it
tests=auto
if ! pkg-config --exists cmocka; then
    if ls .debs/libcmocka*.deb >/dev/null 2>&1; then
        rm -rf build-gpu-deps && mkdir -p build-gpu-deps
        for d in .debs/libcmocka*.deb; do dpkg -x "$d" build-gpu-deps; done
        pc=$(dirname "$(find "$PWD/build-gpu-deps" -name cmocka.pc | head -1)")
        sed -i "s#/usr/#$PWD/build-gpu-deps/usr/#g" "$pc/cmocka.pc" # Debian's .pc has absolute paths
        export PKG_CONFIG_PATH="$pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
        export LD_LIBRARY_PATH="$(dirname "$(find "$PWD/build-gpu-deps" -name 'libcmocka.so.0' | head -1)")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    else
        tests=disabled
    fi
fi

if [ ! -f build-gpu/build.ninja ]; then
    meson setup build-gpu -Dcuda=enabled -Dtests=$tests >"$LOG.setup" 2>&1 || { cat "$LOG.setup"; exit 1; }
fi
ninja -C build-gpu >"$LOG.build" 2>&1 || { tail -50 "$LOG.build"; exit 1; }
PG=./build-gpu/cli/pegemm
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv,noheader || true

if [ "$tests" != disabled ]; then
    step "meson test --suite kernel" meson test -C build-gpu --suite kernel --print-errorlogs
fi

# bit-exact, reduced sizes, every family; the odd M leaves a partial tile
for fam in normal codes band subnormal special; do
    for M in 12544 12345; do
        step "bit-exact M=$M $fam" $PG run --shape $M,768,768,196 --family $fam --rows all --check --reps 3
    done
done
# committed runs
step "bench full (baselines, sample rows)" $PG bench --rows sample:4096 --check -o "$OUT/h100_full_bench.h5"
step "trace build full (whole trace)" $PG run --trace --rows sample:4096 --check --reps 30 -o "$OUT/h100_full_trace.h5"
step "reduced M=12544, all outputs" $PG run --shape 12544,768,768,196 --rows all --check -o "$OUT/h100_m12544.h5"
for d in 0 400 800 1200 1600 2000 2400 3200 4800 8000; do
    step "epi-delay $d (trace, M=200704)" $PG run --trace --shape 200704,768,768,196 --epi-delay $d --rows 0:64 --reps 10 \
        -o "$OUT/epi_sweep/h100_epi_$(printf %05d $d).h5"
done
if [ "${QUICK:-0}" != 1 ]; then
    for fam in normal codes; do
        step "bit-exact full M=928256 $fam (all outputs)" $PG run --family $fam --rows all --check --reps 3
    done
    for tool in memcheck racecheck synccheck; do
        for M in 12544 12345; do
            step "compute-sanitizer $tool M=$M" bash -c "compute-sanitizer --tool $tool --error-exitcode 9 $PG run --shape $M,768,768,196 --family special --reps 1 --warmup 0 2>&1 | tail -4"
        done
    done
fi

if $PG verify --help >/dev/null 2>&1; then
    for f in "$OUT/h100_full_bench.h5" "$OUT/h100_m12544.h5"; do
        step "pegemm verify outputs $(basename $f)" $PG verify outputs "$f"
    done
fi

echo
echo "==== pegemm on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)"
grep -E "^  (fused|cuBLASLt|D2D)|fused / copy" "$LOG" | head -8
sed -n '/== trace build full/,$p' "$LOG" | grep -m1 "trace build overhead"
for l in "${summary[@]}"; do echo "  $l"; done
echo "failures: $fails   (log: $LOG)"
[ -n "${GPU_ALL_LOG:-}" ] && cp "$LOG" "$GPU_ALL_LOG"
[ $fails -eq 0 ]
