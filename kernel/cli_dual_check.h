/* `pegemm dual run --check`: the GPU's C against the CPU reference
 * (pg_dual_gemm_ref), element by element, on a selection of C's rows.
 * C17, no CUDA: tested without a GPU. */
#ifndef PG_KERNEL_CLI_DUAL_CHECK_H
#define PG_KERNEL_CLI_DUAL_CHECK_H

#include <stdint.h>
#include <stdio.h>

#include "accum_params.h"
#include "dual.h"

typedef struct {
    int64_t compared;   /* elements compared */
    int64_t mismatched; /* of them, bits differ */
    int64_t rows;       /* rows of C compared */
} pg_dual_check_result;

/* Compare the GPU's output C ([G][M][N] bits, the whole of it) with
 * pg_dual_gemm_ref(dp, p) on the rows of C viewed as [G*M][N] that `rows`
 * lists (any order, repeats compared again; NULL: every row, nrows ignored).
 * The reference is computed only for the selected rows: per group, a
 * contiguous run of rows by pointer, any other selection copied together.
 * The first `show` mismatches are named on `log` (group, row, column, both
 * bit patterns).  dp must use block scales (the dual kernel's).  0 (the
 * counts in *r), or -1 with a pg_fail() message. */
int pg_dual_check_rows(const pg_dual_problem *dp, const pg_accum_params *p, const int64_t *rows, int64_t nrows,
                       const uint16_t *C, int show, FILE *log, pg_dual_check_result *r);

#endif
