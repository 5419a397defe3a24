#include "outputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm.h"
#include "pg_error.h"

#define MAP_MAX_ROWS 32
#define MAP_MAX_COLS 48

int pg_bf16_is_foreign_nan(uint16_t h)
{
    int nan = (h & 0x7F80) == 0x7F80 && (h & 0x007F) != 0;
    return nan && h != PG_BF16_QNAN;
}

void pg_verify_result_free(pg_verify_result *r)
{
    free(r->map);
    free(r->map_row_first_m);
    r->map = NULL;
    r->map_row_first_m = NULL;
}

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* Stored rows must be valid row indices in increasing order: anything else
 * means the file does not say which output is which. */
static int check_rows(const pg_run *run, int64_t **rows_out)
{
    const int64_t M = run->problem.shape.M;
    if (run->nrows <= 0)
        return pg_fail("the run stores no outputs (/output/D is absent or empty)");
    if (!run->rows) {
        if (run->nrows != M)
            return pg_fail("the run stores %lld output rows without /output/rows, but M = %lld",
                           (long long)run->nrows, (long long)M);
        *rows_out = NULL;
        return 0;
    }
    for (int64_t i = 0; i < run->nrows; i++) {
        int64_t m = run->rows[i];
        if (m < 0 || m >= M)
            return pg_fail("/output/rows[%lld] = %lld is outside [0, M = %lld)", (long long)i, (long long)m,
                           (long long)M);
        if (i > 0 && m <= run->rows[i - 1])
            return pg_fail("/output/rows is not strictly increasing at index %lld (%lld after %lld): a row is "
                           "repeated or out of order",
                           (long long)i, (long long)m, (long long)run->rows[i - 1]);
    }
    *rows_out = run->rows;
    return 0;
}

static void setup_map(pg_verify_result *r, int64_t nrows, int64_t N)
{
    r->tile_rows = ceil_div(nrows, MAP_MAX_ROWS);
    /* column cells a multiple of 16 wide (a wgmma n-slice), at most 48 cells */
    r->tile_cols = ceil_div(ceil_div(N, MAP_MAX_COLS), 16) * 16;
    if (r->tile_cols > N)
        r->tile_cols = N;
    r->map_rows = ceil_div(nrows, r->tile_rows);
    r->map_cols = ceil_div(N, r->tile_cols);
}

int pg_verify_outputs(const pg_run *run, pg_accum_mode mode, pg_epilogue epi, int max_first,
                      pg_verify_result *out)
{
    int rc = -1;
    const pg_problem *p = &run->problem;
    const int64_t N = p->shape.N;
    int64_t *rows = NULL;
    uint16_t *want = NULL, *exact = NULL;
    float *acc = NULL;

    memset(out, 0, sizeof *out);
    out->first_missing_row = -1;
    out->mode = mode;
    out->epilogue = epi;
    if (max_first < 0 || max_first > PG_VERIFY_MAX_FIRST)
        max_first = PG_VERIFY_MAX_FIRST;
    if (!p->A || !p->B || !p->combined) {
        pg_fail("the run's inputs were not loaded (internal: read with PG_READ_PROBLEM)");
        goto done;
    }
    if (check_rows(run, &rows) != 0)
        goto done;
    const int64_t nrows = run->nrows;
    const int64_t cells = nrows * N;
    want = malloc((size_t)cells * sizeof *want);
    exact = malloc((size_t)cells * sizeof *exact);
    acc = malloc((size_t)cells * sizeof *acc);
    setup_map(out, nrows, N);
    out->map = calloc((size_t)(out->map_rows * out->map_cols), sizeof *out->map);
    out->map_row_first_m = calloc((size_t)out->map_rows, sizeof *out->map_row_first_m);
    if (!want || !exact || !acc || !out->map || !out->map_row_first_m) {
        pg_fail("out of memory for %lld x %lld reference outputs", (long long)nrows, (long long)N);
        goto done;
    }
    char label[64];
    snprintf(label, sizeof label, "reference %s", pg_accum_name(mode));
    if (pg_gemm_ref(p, mode, epi, rows, nrows, want, acc, label) != 0) {
        pg_fail_context("reference in mode %s", pg_accum_name(mode));
        goto done;
    }
    /* correctly rounded: the exact dot product and one rounding in the epilogue */
    if (pg_gemm_ref(p, PG_ACC_EXACT, PG_EPI_SINGLE, rows, nrows, exact, NULL, "correctly rounded") != 0) {
        pg_fail_context("exact reference");
        goto done;
    }

    out->rows = nrows;
    out->N = N;
    for (int64_t i = 0; i < nrows; i++) {
        int64_t m = rows ? rows[i] : i;
        int64_t row_poison = 0;
        if (i % out->tile_rows == 0)
            out->map_row_first_m[i / out->tile_rows] = m;
        /* a row with no written value is reported once, as a missing row,
         * rather than filling the first-mismatch list */
        int missing = 1;
        for (int64_t n = 0; n < N && missing; n++)
            missing = pg_bf16_is_foreign_nan(run->D[i * N + n]);
        for (int64_t n = 0; n < N; n++) {
            int64_t k = i * N + n;
            uint16_t g = run->D[k], w = want[k], e = exact[k];
            int32_t ug = pg_bf16_ulp_distance(g, e), uw = pg_bf16_ulp_distance(w, e);
            pg_ulp_hist_add(&out->ulp_got, ug);
            pg_ulp_hist_add(&out->ulp_want, uw);
            out->compared++;
            if (g == w)
                continue;
            int poison = pg_bf16_is_foreign_nan(g);
            out->mismatched++;
            out->poison += poison;
            row_poison += poison;
            out->map[(i / out->tile_rows) * out->map_cols + n / out->tile_cols]++;
            if (!missing && out->nfirst < max_first) {
                pg_mismatch *x = &out->first[out->nfirst++];
                *x = (pg_mismatch){.m = m, .n = n, .stored_row = i, .combined_row = m % p->shape.P,
                                   .got = g, .want = w, .exact = e, .ulp_got = ug, .ulp_want = uw, .poison = poison};
            }
        }
        if (row_poison == N) {
            if (out->missing_rows == 0)
                out->first_missing_row = m;
            out->missing_rows++;
        }
    }
    if (run->acc) {
        /* accumulators compare as bits too; all NaNs are the one defined NaN */
        for (int64_t k = 0; k < cells; k++) {
            out->acc_compared++;
            out->acc_mismatched += pg_f32_bits(run->acc[k]) != pg_f32_bits(acc[k]);
        }
    }
    rc = 0;
done:
    free(want);
    free(exact);
    free(acc);
    if (rc != 0)
        pg_verify_result_free(out);
    return rc;
}
