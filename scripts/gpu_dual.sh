#!/usr/bin/env bash
# The issue-14 GPU job: the fused SwiGLU dual GEMM checked, traced, fitted,
# benchmarked and sanitized on an H100.
#
#   scripts/gpu_dual.sh OUTDIR
#
# Steps (each logged, each with a time limit; a timeout skips the rest):
#   1. build with CUDA (scripts/gpu_build.sh) and `meson test --suite kernel`;
#   2. `pegemm dual run --check` of both designs on reduced shapes (bf16 and
#      fp16, G > 1), every output element against the CPU reference;
#   3. both designs on the large shape 1,8192,2048,7168 and the pitch shape
#      8,256,4096,7168 with --check (EVERY output element: 2 x 120 GMAC on
#      the CPU each) and --trace (the trace build's output is also compared
#      with the production launch's, bit for bit), run files into OUTDIR;
#   4. `pegemm model fit` of each run file with its schedule
#      (h100-dual-inter / h100-dual-seq);
#   5. `pegemm dual bench --energy` on both shapes (designs and the cuBLASLt
#      baselines, interleaved, one process) and scripts/dual_torch_bench.py
#      (torch's rows and the fused kernel through libpegemm_dual.so,
#      interleaved, one process);
#   6. compute-sanitizer memcheck, racecheck, synccheck, initcheck of both
#      designs on a reduced shape (2,1152,1152,768).
# Writes into OUTDIR (refuses to replace any): dual_build_test.log,
# dual_check.log, dual_fit.log, dual_bench.log, dual_torch.jsonl,
# dual_torch.log, dual_sanitize.log, dual_summary.txt, dual_runs.tar.gz (the
# four traced run files and the JSON of every run and bench).  Target: under
# 9 minutes on one H100 with 16 CPU cores.  Exit status: the number of
# failed steps (0 = all ok); 2 for usage errors.
set -uo pipefail
# shellcheck source=scripts/lib_outdir.sh
. "$(dirname "$0")/lib_outdir.sh" || exit 2
outdir_args "$@"
FILES="dual_build_test.log dual_check.log dual_fit.log dual_bench.log dual_torch.jsonl dual_torch.log dual_sanitize.log dual_summary.txt dual_runs.tar.gz"
# shellcheck disable=SC2086 # FILES is a word list on purpose
outdir_claim "$OUT" $FILES
RUNS=$(mktemp -d) || exit 2
trap 'rm -rf "$RUNS"' EXIT
T0=$(date +%s)
fails=0
hung=0
summary=()
note() { summary+=("$(printf '%-60s %s' "$1" "$2")"); }
step() { # step LOG LIMIT_S NAME CMD... : run with a time limit, append to OUT/LOG, record the result
    local log=$1 limit=$2 name=$3; shift 3
    if [ $hung = 1 ]; then note "$name" "skipped (an earlier step timed out)"; fails=$((fails + 1)); return; fi
    local t took
    t=$(date +%s)
    echo "== $name: $*" | tee -a "$OUT/$log"
    timeout "$limit" "$@" 2>&1 | tee -a "$OUT/$log"
    local rc=${PIPESTATUS[0]}
    took=$(( $(date +%s) - t ))
    if [ $rc = 0 ]; then note "$name" "ok (${took} s)"
    else note "$name" "FAILED ($rc, ${took} s)"; fails=$((fails + 1)); fi
    [ $rc = 124 ] && hung=1
}

{
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader || true
    nvcc --version | tail -2 || true
    nproc
} >"$OUT/dual_build_test.log" 2>&1
t=$(date +%s)
source scripts/gpu_build.sh >>"$OUT/dual_build_test.log" 2>&1 # exits 1 if the build fails
note "build (build-gpu, CUDA)" "ok ($(( $(date +%s) - t )) s)"
PG=$PGBIN

# shellcheck disable=SC2154 # tests: set by gpu_build.sh
if [ "$tests" != disabled ]; then
    step dual_build_test.log 240 "meson test --suite kernel" meson test -C build-gpu --suite kernel --print-errorlogs
else
    note "meson test --suite kernel" "not built (no cmocka)"; fails=$((fails + 1))
fi

LARGE=1,8192,2048,7168
PITCH=8,256,4096,7168
# 2. reduced shapes: G > 1, M != N, several tiles per CTA on some; fp16 too
for d in inter seq; do
    for spec in "2,256,384,512 bf16" "3,384,256,1024 fp16" "1,1024,1024,896 bf16"; do
        set -- $spec
        step dual_check.log 120 "check $d $1 $2 (every element)" $PG dual run --design $d --problem "$1" --out "$2" --check
    done
done
# 3. full outputs of the large and pitch shapes, with the trace build
for shape in large pitch; do
    p=$LARGE; [ $shape = pitch ] && p=$PITCH
    for d in inter seq; do
        step dual_check.log 180 "check + trace $d $shape $p (every element)" \
            $PG dual run --design $d --problem $p --check --trace "$RUNS/dual_${d}_$shape.h5" --json "$RUNS/dual_run_${d}_$shape.json"
    done
done
# 4. the model's fit of each trace with its design's schedule
for shape in large pitch; do
    for d in inter seq; do
        if [ -f "$RUNS/dual_${d}_$shape.h5" ]; then
            step dual_fit.log 120 "model fit $d $shape (h100-dual-$d)" $PG model fit "$RUNS/dual_${d}_$shape.h5" --schedule h100-dual-$d
        else
            note "model fit $d $shape" "no run file (its traced run failed)"; fails=$((fails + 1))
        fi
    done
done
# 5. benchmarks: ours (designs + cuBLASLt baselines, energy) and PyTorch's
for shape in large pitch; do
    p=$LARGE; [ $shape = pitch ] && p=$PITCH
    step dual_bench.log 120 "dual bench --energy $shape $p" $PG dual bench --problem $p --energy --json "$RUNS/dual_bench_$shape.json"
done
if [ $hung = 0 ]; then
    t=$(date +%s)
    # pegemm's fused kernel in the same process, on torch's tensors (the
    # library gpu_build.sh built; exit 2 if it is missing)
    # shellcheck disable=SC2086 # DUAL_TORCH_ARGS is a word list on purpose
    PYTHONUNBUFFERED=1 timeout 240 python3 scripts/dual_torch_bench.py --shape $LARGE --shape $PITCH \
        --pegemm-lib build-gpu/kernel/libpegemm_dual.so ${DUAL_TORCH_ARGS:-} \
        >"$OUT/dual_torch.jsonl" 2>"$OUT/dual_torch.log"
    rc=$?
    tail -5 "$OUT/dual_torch.log"
    cat "$OUT/dual_torch.jsonl"
    if [ $rc = 0 ]; then note "dual_torch_bench.py (both shapes)" "ok ($(( $(date +%s) - t )) s)"
    else note "dual_torch_bench.py (both shapes)" "FAILED ($rc)"; fails=$((fails + 1)); fi
fi
# 6. sanitizers, both designs, a reduced shape: 162 tiles (more than the
# SMs, so some CTAs run two and reuse the staging buffer), 6 k-blocks a tile
# (the ring wraps in both designs), two groups
SAN=2,1152,1152,768
for d in inter seq; do
    for tool in memcheck racecheck synccheck initcheck; do
        step dual_sanitize.log 150 "compute-sanitizer $tool $d $SAN" \
            compute-sanitizer --tool $tool --error-exitcode 9 $PG dual run --design $d --problem $SAN --check -q
    done
done

tar -czf "$OUT/dual_runs.tar.gz" -C "$RUNS" . || { note "dual_runs.tar.gz" "FAILED"; fails=$((fails + 1)); }
{
    echo "scripts/gpu_dual.sh $OUT: $(( $(date +%s) - T0 )) s, commit $(git rev-parse --short HEAD 2>/dev/null)"
    for l in "${summary[@]}"; do echo "  $l"; done
    echo "checks (each step's command, then its counts):"
    grep -E "^== |^check:|^trace:" "$OUT/dual_check.log"
    echo "failures: $fails   (logs and dual_runs.tar.gz in $OUT)"
} | tee "$OUT/dual_summary.txt"
exit $fails
