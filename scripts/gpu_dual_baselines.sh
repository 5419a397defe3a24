#!/usr/bin/env bash
# The unfused SwiGLU dual-GEMM baselines on a GPU machine: build pegemm with
# CUDA (scripts/gpu_build.sh), run test_dual_baselines (the cuBLASLt
# block-scaled GEMMs and the silu * mul kernel against the CPU), then the
# PyTorch baselines (scripts/dual_torch_bench.py, one JSON line per shape).
#
#   scripts/gpu_dual_baselines.sh OUTDIR
#
# Writes OUTDIR/dual_env.log, dual_test.log, dual_torch.jsonl,
# dual_torch.log; refuses to replace any of them.  DUAL_TORCH_ARGS adds
# arguments to the torch script (e.g. "--out-dtype fp16 --no-compile").
# Needs an sm_90 GPU, nvcc, meson, ninja, HDF5 headers, python3 with torch;
# cmocka as gpu_build.sh finds it (else the test step is skipped and counts
# as a failure).  Exit status: the number of failed steps (0 = all ok);
# 2 for usage errors.
set -uo pipefail
# shellcheck source=scripts/lib_outdir.sh
. "$(dirname "$0")/lib_outdir.sh" || exit 2
outdir_args "$@"
outdir_claim "$OUT" dual_env.log dual_test.log dual_torch.jsonl dual_torch.log
fails=0
summary=()
note() { summary+=("$(printf '%-44s %s' "$1" "$2")"); }

{
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader || true
    nvcc --version | tail -2 || true
    python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' || true
} >"$OUT/dual_env.log" 2>&1

source scripts/gpu_build.sh # exits 1 if the build fails

if [ "$tests" != disabled ] && [ -x build-gpu/kernel/tests/test_dual_baselines ]; then
    ./build-gpu/kernel/tests/test_dual_baselines 2>&1 | tee "$OUT/dual_test.log"
    rc=${PIPESTATUS[0]}
    case $rc in
        0) note "test_dual_baselines" ok ;;
        77) note "test_dual_baselines" "SKIPPED (no sm_90 GPU seen)"; fails=$((fails + 1)) ;;
        *) note "test_dual_baselines" "FAILED ($rc)"; fails=$((fails + 1)) ;;
    esac
else
    echo "cmocka missing: test_dual_baselines not built" | tee "$OUT/dual_test.log"
    note "test_dual_baselines" "not built (no cmocka)"
    fails=$((fails + 1))
fi

# shellcheck disable=SC2086 # DUAL_TORCH_ARGS is a word list on purpose
PYTHONUNBUFFERED=1 python3 scripts/dual_torch_bench.py ${DUAL_TORCH_ARGS:-} >"$OUT/dual_torch.jsonl" 2>"$OUT/dual_torch.log"
rc=$?
cat "$OUT/dual_torch.jsonl" "$OUT/dual_torch.log"
if [ $rc = 0 ]; then note "dual_torch_bench.py" ok; else note "dual_torch_bench.py" "FAILED ($rc)"; fails=$((fails + 1)); fi

echo
for l in "${summary[@]}"; do echo "  $l"; done
echo "failures: $fails   (logs: $OUT)"
exit $fails
