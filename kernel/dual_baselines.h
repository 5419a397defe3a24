/* What a user runs instead of a fused SwiGLU dual GEMM
 *
 *     C[g] = cvt( silu(A[g] · B1[g]ᵀ) ⊙ (A[g] · B2[g]ᵀ) )
 *
 * with FP8 E4M3 operands and DeepGEMM block scales: two cuBLASLt FP8 GEMMs
 * writing bf16 D1 and D2, then one elementwise kernel (dual_elementwise.cu).
 * A speed baseline for the fused kernel, timed in the same process: its silu
 * is the plain x / (1 + __expf(-x)) a user writes, not a numerics reference.
 *
 * Layouts (all row-major, groups stacked):
 *   A  [G][M][K] e4m3, B1, B2 [G][N][K] e4m3, C [G][M][N] bf16 or fp16;
 *   scale_a  [G][M][KB]  fp32, one per row per 128 k      (KB = ceil(K/128));
 *   scale_b1, scale_b2 [G][NB][KB] fp32, one per 128x128 block (NB = ceil(N/128)).
 *
 * Scaling in cuBLASLt (cuBLAS docs 3.1.4.5, "128-element 1D and 128x128 2D
 * block scaling", sm_90 only, cuBLAS >= 12.9).  cuBLASLt runs FP8 as "TN":
 * its A is our B (K x N column-major), its B is our A (K x M column-major),
 * D^T[N, M] = op_T(B) * op_N(A).  So B1/B2 get BLK128x128_32F (K-major,
 * column stride a multiple of 4: scale_b is copied to [NB][KB4], KB4 =
 * KB rounded up to 4) and A gets VEC128_32F (M-major: scale_a is transposed
 * to [KB][M]).  Both copies are made once in prepare and not timed: a
 * user's quantizer would emit these layouts directly.  Block-scaled output
 * must be bf16/fp16/fp32 (bf16 here), and fast accumulation is off (torch
 * refuses it with block scales; the scales are applied per 128 k anyway).
 * PG_DUAL_SCALE_TENSOR is the per-tensor fallback (scale_a[g][0][0] and
 * scale_b[g][0][0] as the tensor scales, fast accumulation on): the speed of
 * a cuBLASLt without block scaling, with those numerics.
 *
 * Groups: PG_DUAL_GROUPS_LOOP runs two matmuls per group (per-group scales);
 * PG_DUAL_GROUPS_BATCHED runs two strided-batched matmuls over all groups.
 * cuBLASLt has no batch stride for block-scale tensors, so batched mode
 * hands it group 0's scales: exact only when every group's scales equal
 * group 0's (the test checks it so); it is the equal-shape speed baseline. */
#ifndef PG_DUAL_BASELINES_H
#define PG_DUAL_BASELINES_H

#include <stdint.h>

#include <cuda_runtime_api.h>

typedef enum { PG_DUAL_OUT_BF16 = 0, PG_DUAL_OUT_FP16 = 1 } pg_dual_out;
typedef enum { PG_DUAL_SCALE_BLOCK = 0, PG_DUAL_SCALE_TENSOR = 1 } pg_dual_scale;
typedef enum { PG_DUAL_GROUPS_LOOP = 0, PG_DUAL_GROUPS_BATCHED = 1 } pg_dual_groups;

typedef struct {
    int64_t G, M, N, K;
    pg_dual_out out;
    pg_dual_scale scale;
    pg_dual_groups groups;
} pg_dual_dims;

/* The caller's device buffers (see the layouts above); the baseline reads
 * them at launch and never frees them. */
typedef struct {
    const uint8_t *A, *B1, *B2;
    const float *scale_a, *scale_b1, *scale_b2;
    void *C; /* [G][M][N] bf16 or fp16 */
} pg_dual_buffers;

typedef struct pg_dual_plan pg_dual_plan; /* one cuBLASLt matmul (dual_baselines.c) */

typedef struct {
    pg_dual_dims dims;
    pg_dual_buffers buf;
    void *lt;        /* cublasLtHandle_t */
    void *ws;        /* cuBLASLt workspace */
    uint16_t *d1, *d2;   /* [G][M][N] bf16 GEMM outputs */
    float *sa_t;         /* [G][KB][M]: scale_a, M-major (both modes: 16-byte aligned per group) */
    float *sb1_p, *sb2_p; /* [G][NB][KB4]: scale_b padded to KB4 (block mode) */
    pg_dual_plan *plan1, *plan2;
    int matmuls; /* per launch, each of plan1 and plan2: G (loop) or 1 (batched) */
    cudaStream_t stream; /* prepare's stream, for pg_dual_baseline_launch_fn */
    char why[200]; /* prepare's refusal, also in pg_last_error() */
} pg_dual_baseline;

/* The kernel of dual_elementwise.cu: c = cvt(silu(d1) * d2) over n elements. */
#ifdef __cplusplus
extern "C" {
#endif
cudaError_t pg_dual_silu_mul_launch(const uint16_t *d1, const uint16_t *d2, void *c, int64_t n, int fp16_out,
                                    cudaStream_t stream);
/* dst[g][kb][m] = src[g][m][kb] for groups g < G (the VEC128 layout). */
cudaError_t pg_dual_transpose_scales_launch(const float *src, float *dst, int64_t G, int64_t M, int64_t KB,
                                            cudaStream_t stream);
#ifdef __cplusplus
}
#endif

/* Shape checks, no GPU: K % 16 == 0, N % 8 == 0, M % 4 == 0 (cuBLASLt's
 * FP8 alignment and block-scale rules), all >= 1.  0 or -1 with pg_fail. */
int pg_dual_dims_check(const pg_dual_dims *d);
/* Allocate D1, D2, the workspace and the scale copies, build the two plans.
 * 0: ready; 1: cuBLASLt refused the configuration (b->why and
 * pg_last_error() say which call); -1: any other failure.  On 1 and -1, b
 * holds nothing (pg_dual_baseline_free is still safe).  Synchronizes. */
int pg_dual_baseline_prepare(pg_dual_baseline *b, const pg_dual_dims *dims, const pg_dual_buffers *buf,
                             cudaStream_t stream);
/* One baseline run on stream (asynchronous): the matmuls, then the
 * elementwise kernel.  0 or -1 with pg_fail naming the failing call. */
int pg_dual_baseline_launch(pg_dual_baseline *b, cudaStream_t stream);
/* As pg_energy_measure's pg_launch_fn (energy.h; ctx = the baseline;
 * launches on the stream the last prepare was given). */
int pg_dual_baseline_launch_fn(void *ctx);
void pg_dual_baseline_free(pg_dual_baseline *b);

/* 2 GEMMs: 2 * 2*M*N*K flops per group. */
double pg_dual_flops(const pg_dual_dims *d);

#endif
