/* Inner kernels of the reference GEMM (internal to reference/).
 *
 * Each kernel computes a tile of PG_KR rows x PG_KW columns of fp32
 * accumulators.  Layouts (k padded with zeros to a multiple of 32):
 *   av, ae   [Kp][PG_KR]  A values and A exponents (int8) of the tile's rows
 *   bv, be   [Kp][PG_KW]  B values and exponents (int8) of the column tile
 *   bvd      [Kp][PG_KW]  B values as double (exact mode)
 *   out      [PG_KR][PG_KW]
 * Values and exponents come from per-format tables (E4M3 or E5M2, either
 * operand).  An exponent is the operand's exponent e in the tensor-core
 * rule (accum_params.c); a zero operand gets PG_ZERO_EXP, a stand-in for
 * -126 that keeps sums of exponents in int8 (gemm_kernels.c says why that
 * gives the same bits).  NaN and inf codes decode to value 0 and
 * PG_ZERO_EXP; the driver overrides their outputs. */
#ifndef PG_GEMM_KERNELS_H
#define PG_GEMM_KERNELS_H

#include <stdint.h>

#define PG_KR 8
#define PG_KW 64
#define PG_ZERO_EXP (-60)

/* Scaling inside the accumulation, for one tile.
 *  promote_blocks: 0, one chain over Kp; else the chain restarts from 0
 *    every promote_blocks blocks of 32 k and each group is promoted into
 *    an fp32 accumulator: `p = p + group` (sm90-promote), or with gsa/gsb
 *    `p = fma(group, fl(sa * sb), p)` (DeepGEMM block scaling).
 *  gsa [ngroups][PG_KR], gsb [ngroups][PG_KW]: the group's scales of the
 *    tile rows and columns (NULL: plain promotion).
 *  xa [Kp/32][PG_KR], xb [Kp/32][PG_KW]: MX E8M0 exponents (code - 127);
 *    block kb's products are scaled by 2^(xa + xb) before alignment.  The
 *    kernels need |xa + xb| <= PG_MX_FAST_RANGE (the driver checks). */
typedef struct {
    int promote_blocks;
    const float *gsa, *gsb;
    const int32_t *xa, *xb;
} pg_kern_scaling;
#define PG_MX_FAST_RANGE 64

void pg_kern_fp32(const float *av, const float *bv, int64_t Kp, const pg_kern_scaling *sc, float *out);
/* E4M3 x E4M3, one group: int64 fixed point. */
void pg_kern_exact(const float *av, const double *bvd, int64_t Kp, float *out);
/* Any formats and groups: products are multiples of 2^unit; `chunk` of
 * them sum exactly in double (the driver derives both from the operands'
 * ranges); longer groups sum chunks in int128. */
void pg_kern_exact_wide(const float *av, const double *bvd, int64_t Kp, const pg_kern_scaling *sc, int64_t chunk,
                        int unit, float *out);
void pg_kern_sm90(const float *av, const int8_t *ae, const float *bv, const int8_t *be, int64_t Kp,
                  const pg_kern_scaling *sc, float *out);
void pg_kern_sm100(const float *av, const int8_t *ae, const float *bv, const int8_t *be, int64_t Kp,
                   const pg_kern_scaling *sc, float *out);
/* The vector instruction set the kernels run with: "avx512", "avx2", "baseline". */
const char *pg_kernel_isa_name(void);

#endif
