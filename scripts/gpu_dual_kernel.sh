#!/usr/bin/env bash
# The fused dual-GEMM kernel (kernel/dual.cuh) on a GPU machine: build with
# CUDA (scripts/gpu_build.sh), the dual kernel's test (every element against
# pg_dual_gemm_ref, verbose), the exhaustive device silu check (all 2^32
# inputs, kernel/tests/test_silu_gpu.c) and the SASS counts of the
# epilogue's division (no CALL / FCHK), the kernel test suite, compute-sanitizer
# memcheck / racecheck / synccheck on the small cases (memcheck also on the
# multi-tile case), the dual kernels' register and smem usage.
#
#   scripts/gpu_dual_kernel.sh OUTDIR
#
# Writes OUTDIR/*.log (refuses an OUTDIR that already has gpu_dual_kernel.log)
# and prints a summary.  Each step has a timeout (a hung kernel fails its
# step, not the machine's time).  Exit status: the number of failed steps
# (0 = all ok); 2 for usage errors.
set -uo pipefail
# shellcheck source=scripts/lib_outdir.sh
. "$(dirname "$0")/lib_outdir.sh" || exit 2
outdir_args "$@"
outdir_claim "$OUT" gpu_dual_kernel.log
exec > >(tee -a "$OUT/gpu_dual_kernel.log") 2>&1
fails=0
summary=()
# step NAME LOG TIMEOUT CMD...: run with a timeout, output to OUTDIR/LOG and the main log
step() {
    local name=$1 log=$2 limit=$3
    shift 3
    echo "== $name: $*"
    timeout "$limit" "$@" 2>&1 | tee "$OUT/$log"
    local rc=${PIPESTATUS[0]}
    if [ "$rc" = 0 ]; then
        summary+=("$(printf '%-48s ok' "$name")")
    else
        summary+=("$(printf '%-48s FAILED (%s)%s' "$name" "$rc" "$([ "$rc" = 124 ] && echo ', timed out')")")
        fails=$((fails + 1))
    fi
}

{
    git log --oneline -1 || true
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader || true
    nvcc --version | tail -2 || true
    command -v compute-sanitizer cuobjdump || true
} 2>&1 | tee "$OUT/env.log"

# shellcheck source=scripts/gpu_build.sh disable=SC2154 # sets `tests`
source scripts/gpu_build.sh # exits 1 (with the build log's tail) if the build fails
T=./build-gpu/kernel/tests/test_dual_gpu
if [ "$tests" = disabled ] || [ ! -x "$T" ]; then
    echo "cmocka missing: test_dual_gpu not built"
    exit 1
fi

# the dual kernels as compiled: registers, spills, shared memory, barriers
OBJ=$(find build-gpu/kernel -name 'kernel_dual.cu.o' | head -1)
step "cuobjdump -res-usage (dual kernels)" res_usage.log 120 cuobjdump -res-usage "$OBJ"
step "no local memory (spills) in the dual kernels' SASS" sass_local.log 120 \
    bash -c "cuobjdump -sass '$OBJ' > '$OUT/kernel_dual.sass' && ! grep -nE 'STL|LDL' '$OUT/kernel_dual.sass'"

# the epilogue's silu (docs/experiments.md D3): no slow-path CALL, no FCHK,
# no divergent regions in the dual kernels; the counts per kernel, logged
step "dual kernels' SASS: no CALL / FCHK (epilogue silu)" sass_counts.log 120 \
    scripts/dual_sass_counts.sh "$OUT/kernel_dual.sass"

# the device silu against the host's on all 2^32 fp32 inputs, its division
# against __fdiv_rn, the old two-division formula (~1 min)
S=./build-gpu/kernel/tests/test_silu_gpu
step "test_silu_gpu (all 2^32 inputs)" test_silu_gpu.log 600 "$S"

# the test itself, directly (mismatches printed: count, first few with index/got/want)
step "test_dual_gpu (all cases)" test_dual_gpu.log 600 "$T"
step "meson test --suite kernel (verbose)" meson_test.log 900 \
    meson test -C build-gpu --suite kernel --verbose --print-errorlogs

# sanitizers: the small cases (one tile, three groups, the trace build), and
# memcheck on the multi-tile case (several tiles per CTA)
if command -v compute-sanitizer >/dev/null; then
    for tool in memcheck racecheck synccheck; do
        step "compute-sanitizer $tool (quick cases)" "sanitizer_$tool.log" 900 \
            env PG_DUAL_TEST=quick compute-sanitizer --tool "$tool" --error-exitcode 1 "$T"
    done
    step "compute-sanitizer memcheck (multi-tile)" sanitizer_memcheck_multi.log 900 \
        env PG_DUAL_TEST=multi compute-sanitizer --tool memcheck --error-exitcode 1 "$T"
else
    summary+=("$(printf '%-48s FAILED (no compute-sanitizer)' "compute-sanitizer")")
    fails=$((fails + 1))
fi

echo
echo "== summary ($OUT)"
printf '%s\n' "${summary[@]}"
echo "$fails step(s) failed"
exit "$fails"
