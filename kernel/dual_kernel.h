/* The dual-GEMM kernel's launch interface (C-callable), shared by the host
 * side (dual_gpu.c), the launch glue (dual_launch.cu) and the device code
 * (dual.cuh): the kernel's parameters, its compile-time shape, the trace
 * slots and the launch entry points. */
#ifndef PG_DUAL_KERNEL_H
#define PG_DUAL_KERNEL_H

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <stdint.h>

#include "pgtrace_common.h"

#define PG_DUAL_BLOCK 128       /* BLOCK_M = BLOCK_N = k-block = 128 */
#define PG_DUAL_THREADS 384     /* producer warpgroup + two consumer warpgroups */
#define PG_DUAL_MAX_SMEM 232448 /* the H100's opt-in dynamic shared memory per block */

/* Per (CTA, local tile) the trace build fills PG_DTR_PHASES consecutive
 * compact slots in this order (the vocabulary's phase indices): the
 * producer's two, then the consumer's four. */
enum { PG_DTR_PRODUCER = 0, PG_DTR_CONSUMER = 1, PG_DTR_ROLES };
enum {
    PG_DTR_PRODUCER_WAIT = 0,
    PG_DTR_PRODUCER_ISSUE,
    PG_DTR_LOAD_WAIT,
    PG_DTR_MAINLOOP,
    PG_DTR_EPILOGUE_MATH,
    PG_DTR_EPILOGUE_STORE,
    PG_DTR_PHASES
};

typedef struct {
    CUtensorMap map_a;  /* A [G*M][K] u8, box 128 x 128, 128B swizzle */
    CUtensorMap map_b1; /* B1 [G*N][K] u8, box 128 x 128, 128B swizzle */
    CUtensorMap map_b2; /* B2 the same */
    CUtensorMap map_c;  /* C [G*M][N] u16, box 128 rows x 64 columns, 128B swizzle */
    const float *scale_a;  /* [G][M][KB] */
    const float *scale_b1; /* [G][NB][KB] */
    const float *scale_b2;
    int32_t G, M, N, K;
    int64_t epi_delay;      /* cycles spun after the epilogue math (0 = off) */
    int64_t mainloop_delay; /* cycles spun after the mainloop (0 = off) */
    /* trace build only: the kit's compact buffer of grid * trace_tiles_per_cta
     * * PG_DTR_PHASES slots, one anchor per CTA */
    pgtrace_dev trace;
    int32_t trace_tiles_per_cta;
} pg_dual_params;

#ifdef __cplusplus
extern "C" {
#endif

/* Dynamic shared memory of design `design` (0 inter, 1 seq), bytes. */
size_t pg_dual_kernel_smem_bytes(int design);
/* Ring stages and bytes per stage of a design, as the device code has them. */
void pg_dual_kernel_ring(int design, int *stages, int *stage_bytes);
/* CTAs of the design that fit on one SM at once (1 expected). */
cudaError_t pg_dual_kernel_occupancy(int design, int *ctas_per_sm);
/* Launch design `design`, output fp16 (1) or bf16 (0), trace build or not,
 * on `grid` persistent CTAs. */
cudaError_t pg_dual_kernel_launch(int design, int fp16, int trace, const pg_dual_params *p, int grid,
                                  cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
