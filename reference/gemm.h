/* The reference GEMM.  The GPU runner (kernel/runner.h) has the same
 * signature, so verify/ and the tests can call either one. */
#ifndef PG_GEMM_H
#define PG_GEMM_H

#include "accum.h"
#include "formats.h"
#include "problem.h"
#include "scaled.h"

/* The classic problem (pg_problem_is_classic) under a named mode.
 * Compute the rows `rows[0..nrows)` of D (all M rows when rows == NULL;
 * then nrows must equal M).  D is [nrows, N] BF16 bits; acc, if not NULL,
 * receives the fp32 accumulators [nrows, N].  OpenMP over rows: the bits do
 * not depend on the thread count.  P = 0 (no combined): D = bf16_rn(acc)
 * for either epilogue.  Shows progress on a terminal when
 * `progress_label` is not NULL.  0 on success, -1 with a message. */
int pg_gemm_ref(const pg_problem *p, pg_accum_mode mode, pg_epilogue epi,
                const int64_t *rows, int64_t nrows, uint16_t *D, float *acc,
                const char *progress_label);

/* The scaled GEMM's accumulators acc[M][N] (pg_scaled_acc of every
 * element, bit for bit) under the preset of `mode`, by the vector kernels:
 * either operand format; scales none / tensor / rowcol (they act after the
 * accumulator) / block / MX.  0 on success; 1 when this path does not
 * apply and the caller must use the scalar definition (MX with codes
 * further apart than PG_MX_FAST_RANGE, or K not a multiple of 32 or not a
 * tensor-core mode; exact E5M2 x E5M2 whose products span more than 2^52);
 * -1 with a message. */
int pg_gemm_scaled_acc(const pg_scaled_problem *sp, pg_accum_mode mode, float *acc);

#endif
