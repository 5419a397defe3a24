/* Inner kernels of the reference GEMM (internal to reference/).
 *
 * Each kernel computes a tile of PG_KR rows x PG_KW columns of fp32
 * accumulators.  Layouts (k padded with zeros to a multiple of 32):
 *   av, ae   [Kp][PG_KR]  A values and A exponents (int8) of the tile's rows
 *   bv, be   [Kp][PG_KW]  B values and exponents (int8) of the column tile
 *   bvd      [Kp][PG_KW]  B values as double (exact mode)
 *   out      [PG_KR][PG_KW]
 * An exponent is the operand's exponent e in the tensor-core rule
 * (accum.c); a zero operand gets PG_ZERO_EXP, a stand-in for -126 that
 * keeps sums of exponents in int8 (gemm_kernels.c says why that gives the
 * same bits).  NaN codes decode to value 0 and PG_ZERO_EXP; the driver
 * overrides their outputs. */
#ifndef PG_GEMM_KERNELS_H
#define PG_GEMM_KERNELS_H

#include <stdint.h>

#define PG_KR 8
#define PG_KW 64
#define PG_ZERO_EXP (-60)

void pg_kern_fp32(const float *av, const float *bv, int64_t Kp, float *out);
void pg_kern_exact(const float *av, const double *bvd, int64_t Kp, float *out);
/* sm90 chain; promote_blocks > 0: restart from C = 0 every promote_blocks
 * blocks and add each group into an fp32 accumulator (sm90-promote). */
void pg_kern_sm90(const float *av, const int8_t *ae, const float *bv, const int8_t *be, int64_t Kp,
                  int promote_blocks, float *out);
void pg_kern_sm100(const float *av, const int8_t *ae, const float *bv, const int8_t *be, int64_t Kp, float *out);
/* The vector instruction set the kernels run with: "avx512", "avx2", "baseline". */
const char *pg_kernel_isa_name(void);

#endif
