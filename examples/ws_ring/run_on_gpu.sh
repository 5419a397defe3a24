#!/usr/bin/env bash
# Build the ws_ring example with nvcc for sm_90a and run it on the GPU:
# a baseline, runs with a softmax delay (the what-if probes), a larger run
# for the tracing overhead, an overflowing trace buffer, a usage error, and
# compute-sanitizer where installed.  Everything goes under OUTDIR.
#
#   examples/ws_ring/run_on_gpu.sh OUTDIR        (NVCC=..., CC=... to override)
#
# OUTDIR/ws_ring_dD.csv(.gz): the trace of the run with softmax delay D
# (pgtrace CSV: traces/kit/README.md); OUTDIR/ws_ring_dD.txt its summary
# (timing of the plain and traced builds interleaved, check, events, phase
# means); OUTDIR/run.log everything printed.
set -euo pipefail

out=${1:?usage: run_on_gpu.sh OUTDIR}
here=$(cd "$(dirname "$0")" && pwd)
kit=$(cd "$here/../../traces/kit" && pwd)
NVCC=${NVCC:-nvcc}
CC=${CC:-cc}
DELAYS=${DELAYS:-"0 2000 4000 8000 16000"}
ROWS=${ROWS:-6336}          # 132 SMs x 12 tiles x 4 rows: ~22k events, a trace < 1 MB
BIG_ROWS=${BIG_ROWS:-52800} # 100 tiles per SM, for the overhead
REPS=${REPS:-100}

die() { echo "run_on_gpu.sh: $*" >&2; exit 1; }
command -v "$NVCC" >/dev/null || die "nvcc not found (set NVCC)"
command -v "$CC" >/dev/null || die "C compiler '$CC' not found (set CC)"
cuda_inc=$(cd "$(dirname "$(command -v "$NVCC")")/../include" && pwd)
[ -f "$cuda_inc/cuda_runtime_api.h" ] || die "no cuda_runtime_api.h under $cuda_inc"

mkdir -p "$out"
out=$(cd "$out" && pwd)
build=$out/build
mkdir -p "$build"
log=$out/run.log
: >"$log"
step() { echo "== $*" | tee -a "$log"; }

step "build (nvcc $("$NVCC" --version | tail -1))"
for v in plain traced; do
    on=0; [ "$v" = traced ] && on=1
    "$NVCC" -arch=sm_90a -O3 -std=c++17 -Xptxas=-warn-spills -DPGTRACE_ENABLED=$on -DWS_RING_LAUNCH=ws_ring_launch_$v \
        -I"$kit" -I"$here" -c "$here/ws_ring_kernel.cu" -o "$build/kernel_$v.o" 2>&1 | tee -a "$log"
done
for src in "$kit/pgtrace_trace.c" "$kit/pgtrace_csv_write.c" "$kit/pgtrace_csv_read.c" "$kit/pgtrace_host.c" \
           "$here/ws_ring_main.c"; do
    "$CC" -std=c17 -O2 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
        -I"$kit" -I"$here" -I"$cuda_inc" -c "$src" -o "$build/$(basename "$src" .c).o" 2>&1 | tee -a "$log"
done
"$NVCC" -arch=sm_90a "$build"/*.o -lm -o "$build/ws_ring" 2>&1 | tee -a "$log"
[ -x "$build/ws_ring" ] || die "the build produced no binary"

# The plain kernel has no pgtrace code: no atomics, %smid or %globaltimer
# (its clock64 is the delay probe's spin, present in both builds).
step "plain build has no tracing"
"$NVCC" -arch=sm_90a -O3 -std=c++17 -DPGTRACE_ENABLED=0 -DWS_RING_LAUNCH=ws_ring_launch_plain -I"$kit" -I"$here" \
    -ptx "$here/ws_ring_kernel.cu" -o "$build/kernel_plain.ptx"
if grep -qE 'atom\.|%smid|%globaltimer' "$build/kernel_plain.ptx"; then die "the plain kernel still traces"; fi
echo "ok" | tee -a "$log"

step "usage errors exit 2"
set +e
"$build/ws_ring" --rows 5 >>"$log" 2>&1; rc1=$?
"$build/ws_ring" --cols 100 >>"$log" 2>&1; rc2=$?
set -e
[ "$rc1" = 2 ] && [ "$rc2" = 2 ] || die "bad options exited $rc1, $rc2 (expected 2)"
echo "ok" | tee -a "$log"

for d in $DELAYS; do
    step "rows $ROWS, softmax delay $d cycles"
    "$build/ws_ring" --rows "$ROWS" --softmax-delay "$d" --reps "$REPS" \
        --trace "$out/ws_ring_d$d.csv" --summary "$out/ws_ring_d$d.txt" 2>&1 | tee -a "$log"
    gzip -9 -n -f -k "$out/ws_ring_d$d.csv"
done

step "tracing overhead at rows $BIG_ROWS (no trace file)"
"$build/ws_ring" --rows "$BIG_ROWS" --reps 50 --summary "$out/ws_ring_big.txt" 2>&1 | tee -a "$log"

step "overflow: a 1000-event buffer counts every event and drops the rest"
"$build/ws_ring" --rows "$ROWS" --reps 3 --capacity 1000 --summary "$out/ws_ring_overflow.txt" 2>&1 | tee -a "$log"
grep -q '^events_recorded=1000$' "$out/ws_ring_overflow.txt" || die "overflow run did not record exactly 1000 events"

if command -v compute-sanitizer >/dev/null; then
    for tool in memcheck synccheck initcheck; do
        step "compute-sanitizer --tool $tool"
        compute-sanitizer --tool "$tool" --error-exitcode 3 "$build/ws_ring" --rows 1056 --reps 1 --softmax-delay 1000 \
            >"$out/sanitizer_$tool.log" 2>&1 || die "compute-sanitizer $tool failed: $out/sanitizer_$tool.log"
        tail -2 "$out/sanitizer_$tool.log" | tee -a "$log"
    done
else
    step "compute-sanitizer not found: skipped" 
fi

step "done: $out"
ls -l "$out" | tee -a "$log"
