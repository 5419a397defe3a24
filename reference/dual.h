/* The fused SwiGLU dual GEMM, C = silu(A B1^T) * (A B2^T), per group g:
 *
 *   d1 = the fp32 value of group g's A B1^T at (m, n) exactly as the
 *        scaled GEMM gives it: pg_scaled_acc under p, then
 *        pg_scaled_epilogue with fp32 output and no bias under the scale
 *        kind's default preset (pg_lib_epilogue_default): block / MX: the
 *        accumulator with the scales inside it; tensor (torch-cublaslt):
 *        fl(fl(sa * sb) * acc); rowcol (torch-cutlass-rowwise):
 *        fl(fl(acc * sa) * sb); none: the accumulator.  A NaN is 0x7FFFFFFF.
 *   d2 = the same with B2 (and its scales);
 *   h  = fl(pg_silu_f32(d1) * d2) in fp32 (silu_fp32.h, the kernel's silu);
 *   C[g][m][n] = h converted to bf16 or fp16 with RNE (pg_bf16_from_f32 /
 *        pg_fp16_from_f32: their one NaN 0x7FFF, overflow to inf).
 *
 * docs/numerics.md ("Dual GEMM (SwiGLU)") states it with its evidence. */
#ifndef PG_DUAL_H
#define PG_DUAL_H

#include <stdint.h>

#include "accum_params.h"
#include "scaled.h"

typedef struct {
    int64_t G, M, N, K;          /* groups and each group's shape */
    pg_fp8_format fmt_a, fmt_b;  /* B1 and B2 share fmt_b */
    const uint8_t *A;            /* [G][M][K] codes */
    const uint8_t *B1, *B2;      /* [G][N][K] codes */
    pg_scale_kind scale;
    /* Per group, laid out as pg_scaled_problem's arrays and stored group
     * after group: scale_a [G][na], scale_b1 / scale_b2 [G][nb] with
     * na / nb from pg_dual_scale_counts (tensor 1/1, rowcol M/N, block
     * M*KB / NB*KB with KB = ceil(K/128), NB = ceil(N/128)); MX: mx_a
     * [G][M][K/32], mx_b1 / mx_b2 [G][N][K/32] E8M0 codes. */
    const float *scale_a, *scale_b1, *scale_b2;
    const uint8_t *mx_a, *mx_b1, *mx_b2;
    pg_out_dtype out;            /* PG_OUT_BF16 or PG_OUT_FP16 */
} pg_dual_problem;

/* Elements per group of scale_a (or mx_a) and of each scale_b (or mx_b). */
void pg_dual_scale_counts(pg_scale_kind s, int64_t M, int64_t N, int64_t K, int64_t *na, int64_t *nb);

/* 0, or -1 with a pg_fail() message naming what is wrong (shape, formats,
 * scale kind and its arrays, output type, p). */
int pg_dual_check(const pg_dual_problem *dp, const pg_accum_params *p);

/* Group g's GEMM with B1 (which = 1) or B2 (which = 2) as a scaled problem
 * with fp32 output and no bias: what d1 / d2 are computed from. */
void pg_dual_view(const pg_dual_problem *dp, int64_t g, int which, pg_scaled_problem *sp);

/* h -> the output bits: convert(fl(silu(d1) * d2)). */
uint16_t pg_dual_combine(float d1, float d2, pg_out_dtype out);

/* The scalar definition of one element C[g][m][n] (bits); the problem must
 * have passed pg_dual_check. */
uint16_t pg_dual_element(const pg_dual_problem *dp, const pg_accum_params *p, int64_t g, int64_t m, int64_t n);

/* C[G][M][N] (uint16_t bits) for the whole problem: the scaled GEMM's fast
 * path for d1 and d2 of each group, then the combination (OpenMP; the same
 * bits for any thread count).  0, or -1 with a pg_fail() message. */
int pg_dual_gemm_ref(const pg_dual_problem *dp, const pg_accum_params *p, void *C);

#endif
