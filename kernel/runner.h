/* The GPU GEMM with the reference's signature (reference/gemm.h), so verify/
 * and the tests can call either.  The kernel computes one accumulation mode,
 * PG_ACC_SM90 (wgmma chained over all of K), with the double-rounding
 * epilogue, and no fp32 accumulators: other requests fail with a message. */
#ifndef PG_RUNNER_H
#define PG_RUNNER_H

#include "gemm.h"

#define PG_KERNEL_MODE PG_ACC_SM90
#define PG_KERNEL_EPILOGUE PG_EPI_DOUBLE

int pg_gemm_gpu(const pg_problem *p, pg_accum_mode mode, pg_epilogue epi, const int64_t *rows, int64_t nrows,
                uint16_t *D, float *acc, const char *progress_label);

#endif
