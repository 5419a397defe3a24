/* Inner kernels of the reference GEMM (internal to reference/).
 *
 * Each kernel computes a tile of PG_KR rows x PG_KW columns of fp32
 * accumulators.  Layouts (k padded with zeros to a multiple of 32):
 *   av, ap   [PG_KR][Kp]  A values and A exponent proxies of the tile's rows
 *   bv, bp   [Kp][PG_KW]  B values and exponent proxies of the column tile
 *   bvd      [Kp][PG_KW]  B values as double (exact mode)
 *   out      [PG_KR][PG_KW]
 * An exponent proxy is the power of two 2^e of an operand's exponent e in
 * the tensor-core rule (accum.c); a zero operand gets PG_ZERO_PROXY, a
 * stand-in for 2^-126 that keeps products of proxies normal floats (see
 * gemm_kernels.c for why that gives the same bits).  NaN codes decode to
 * value 0 and the zero proxy; the driver overrides their outputs. */
#ifndef PG_GEMM_KERNELS_H
#define PG_GEMM_KERNELS_H

#include <stdint.h>

#define PG_KR 4
#define PG_KW 32
#define PG_ZERO_PROXY 0x1p-60f

void pg_kern_fp32(const float *av, const float *bv, int64_t Kp, float *out);
void pg_kern_exact(const float *av, const double *bvd, int64_t Kp, float *out);
/* sm90 chain; promote_blocks > 0: restart from C = 0 every promote_blocks
 * blocks and add each group into an fp32 accumulator (sm90-promote). */
void pg_kern_sm90(const float *av, const float *ap, const float *bv, const float *bp, int64_t Kp,
                  int promote_blocks, float *out);
void pg_kern_sm100(const float *av, const float *ap, const float *bv, const float *bp, int64_t Kp, float *out);

#endif
