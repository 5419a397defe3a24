/* The dual-GEMM kernel's instantiations: {inter, seq} x {bf16, fp16} x
 * {production, trace build}, and what the launch glue needs to know of
 * them (dual_launch.cu). */
#include "dual.cuh"
#include "dual_kernel_fns.h"

pg_dual_kernel_fn pg_dual_kernel_of(int design, int fp16, int trace)
{
    static const pg_dual_kernel_fn fns[2][2][2] = {
        {{pg_dual_kernel<DUAL_INTER, false, false>, pg_dual_kernel<DUAL_INTER, false, true>},
         {pg_dual_kernel<DUAL_INTER, true, false>, pg_dual_kernel<DUAL_INTER, true, true>}},
        {{pg_dual_kernel<DUAL_SEQ, false, false>, pg_dual_kernel<DUAL_SEQ, false, true>},
         {pg_dual_kernel<DUAL_SEQ, true, false>, pg_dual_kernel<DUAL_SEQ, true, true>}},
    };
    if (design < 0 || design > 1)
        return nullptr;
    return fns[design][fp16 != 0][trace != 0];
}

size_t pg_dual_kernel_smem_bytes(int design)
{
    return design == DUAL_INTER ? dual_cfg<DUAL_INTER>::SMEM_BYTES : dual_cfg<DUAL_SEQ>::SMEM_BYTES;
}

void pg_dual_kernel_ring(int design, int *stages, int *stage_bytes)
{
    *stages = design == DUAL_INTER ? dual_cfg<DUAL_INTER>::STAGES : dual_cfg<DUAL_SEQ>::STAGES;
    *stage_bytes = design == DUAL_INTER ? dual_cfg<DUAL_INTER>::STAGE_BYTES : dual_cfg<DUAL_SEQ>::STAGE_BYTES;
}
