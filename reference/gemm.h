/* The reference GEMM.  The GPU runner (kernel/runner.h) has the same
 * signature, so verify/ and the tests can call either one. */
#ifndef PG_GEMM_H
#define PG_GEMM_H

#include "accum.h"
#include "formats.h"
#include "problem.h"

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

#endif
