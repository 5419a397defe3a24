#include "outputs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm.h"
#include "out_values.h"
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
    if (run->nrows <= 0 || (!run->D && !run->D32))
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

int pg_verify_result_pass(const pg_verify_result *r)
{
    return r->outside_tol == 0 && (r->tol.kind != PG_TOL_EXACT || r->acc_mismatched == 0);
}

/* |g - w| and |g - w| / |w| for finite values; 0 when both are the same
 * NaN or infinity; NaN (not recorded) when they cannot be compared. */
static void errors(pg_out_dtype t, uint32_t g, uint32_t w, double *abs_err, double *rel_err)
{
    double x = pg_out_value(t, g), y = pg_out_value(t, w);
    if (g == w || (isnan(x) && isnan(y))) {
        *abs_err = *rel_err = 0.0;
        return;
    }
    if (!isfinite(x) || !isfinite(y)) {
        *abs_err = *rel_err = NAN;
        return;
    }
    *abs_err = fabs(x - y);
    *rel_err = y != 0.0 ? *abs_err / fabs(y) : INFINITY;
}

typedef struct {
    const int64_t *rows;
    const void *got, *want, *exact; /* [nrows, N] of out */
    const float *acc;
} cmp_arrays;

static void compare_row(const pg_run *run, pg_verify_result *out, const cmp_arrays *a, int64_t i, int max_first)
{
    const int64_t N = out->N, P = run->problem.shape.P;
    const pg_out_dtype t = out->out;
    int64_t m = a->rows ? a->rows[i] : i, row_poison = 0;
    if (i % out->tile_rows == 0)
        out->map_row_first_m[i / out->tile_rows] = m;
    /* a row with no written value is reported once, as a missing row,
     * rather than filling the first-mismatch list */
    int missing = 1;
    for (int64_t n = 0; n < N && missing; n++)
        missing = pg_out_is_foreign_nan(t, pg_out_get(t, a->got, i * N + n));
    for (int64_t n = 0; n < N; n++) {
        int64_t k = i * N + n;
        uint32_t g = pg_out_get(t, a->got, k), w = pg_out_get(t, a->want, k), e = pg_out_get(t, a->exact, k);
        double ea, er;
        int32_t ug = pg_out_ulp_distance(t, g, e), uw = pg_out_ulp_distance(t, w, e);
        errors(t, g, e, &ea, &er);
        pg_ulp_hist_add_err(&out->ulp_got, ug, ea, er);
        errors(t, w, e, &ea, &er);
        pg_ulp_hist_add_err(&out->ulp_want, uw, ea, er);
        out->compared++;
        if (g == w)
            continue;
        int32_t ur = pg_out_ulp_distance(t, g, w);
        errors(t, g, w, &ea, &er);
        if (ur != INT32_MAX && ur > out->max_ulp_ref)
            out->max_ulp_ref = ur;
        if (ea > out->max_abs_err)
            out->max_abs_err = ea;
        if (er > out->max_rel_err)
            out->max_rel_err = er;
        int poison = pg_out_is_foreign_nan(t, g), outside = !pg_out_tolerance_pass(&out->tol, t, g, w);
        out->mismatched++;
        out->outside_tol += outside;
        out->poison += poison;
        row_poison += poison;
        out->map[(i / out->tile_rows) * out->map_cols + n / out->tile_cols]++;
        /* with a tolerance, the list shows the elements outside it */
        if (!missing && out->nfirst < max_first && (outside || out->tol.kind == PG_TOL_EXACT)) {
            pg_mismatch *x = &out->first[out->nfirst++];
            *x = (pg_mismatch){.m = m, .n = n, .stored_row = i, .combined_row = P > 0 ? m % P : -1, .got = g,
                               .want = w, .exact = e, .ulp_got = ug, .ulp_want = uw, .ulp_ref = ur,
                               .poison = poison, .outside = outside};
        }
    }
    if (row_poison == N) {
        if (out->missing_rows == 0)
            out->first_missing_row = m;
        out->missing_rows++;
    }
}

/* MX scales act inside tensor-core blocks, so its baseline is a block
 * model too, with alignment wide enough to be exact for these inputs:
 * F = 40 fraction bits and an RNE result (docs/numerics.md). */
static const pg_accum_params k_mx_baseline = {"wide-block", PG_SUM_BLOCK, 32, 40, PG_RND_RNE, 23, PG_RND_RNE, 0,
                                              PG_C_AFTER, PG_FMT_BOTH, 0, "verify's MX baseline"};

static const pg_accum_params *baseline_accum(const pg_problem *p)
{
    return p->scale == PG_SCALE_MX ? &k_mx_baseline : pg_accum_preset(PG_ACC_EXACT);
}

/* The settings of the comparison into out; *ap and *lib the ones to use. */
static void setup_result(const pg_run *run, const pg_verify_opts *o, pg_verify_result *out,
                         const pg_accum_params **ap, const pg_lib_epilogue **lib)
{
    const pg_problem *p = &run->problem;
    *ap = o->accum ? o->accum : run->accum.name ? &run->accum : pg_accum_preset(run->mode);
    *lib = o->lib;
    if (*lib == NULL && run->library[0])
        *lib = pg_lib_epilogue_find(run->library);
    if (*lib == NULL && !pg_problem_is_classic(p))
        *lib = pg_lib_epilogue_default((pg_scale_kind)p->scale);
    int mode = pg_accum_params_mode(*ap);
    out->mode = mode >= 0 ? (pg_accum_mode)mode : PG_ACC_EXACT;
    out->accum = **ap;
    out->epilogue = o->epi;
    out->out = (pg_out_dtype)p->out;
    out->tol = o->tol;
    snprintf(out->library, sizeof out->library, "%s", *lib ? (*lib)->name : "");
    pg_problem_ref_describe(p, *ap, *lib, o->epi, out->description, sizeof out->description);
    snprintf(out->baseline, sizeof out->baseline, "%s",
             p->scale == PG_SCALE_MX ? "32-k blocks aligned to 40 bits, RNE, through the same epilogue"
             : pg_problem_ref_correctly_rounded(p, pg_accum_preset(PG_ACC_EXACT), PG_EPI_SINGLE)
                 ? "the correctly rounded result (exact accumulation, one rounding)"
                 : "exact accumulation through the same epilogue");
}

int pg_verify_outputs_opts(const pg_run *run, const pg_verify_opts *o, pg_verify_result *out)
{
    int rc = -1;
    const pg_problem *p = &run->problem;
    const int64_t N = p->shape.N;
    int64_t *rows = NULL;
    void *want = NULL, *exact = NULL;
    float *acc = NULL;
    const pg_accum_params *ap;
    const pg_lib_epilogue *lib;

    memset(out, 0, sizeof *out);
    out->first_missing_row = -1;
    setup_result(run, o, out, &ap, &lib);
    int max_first = o->max_first < 0 || o->max_first > PG_VERIFY_MAX_FIRST ? PG_VERIFY_MAX_FIRST : o->max_first;
    if (!p->A || !p->B || (!p->combined && p->shape.P > 0)) {
        pg_fail("the run's inputs were not loaded (internal: read with PG_READ_PROBLEM)");
        goto done;
    }
    if (check_rows(run, &rows) != 0)
        goto done;
    const int64_t nrows = run->nrows, cells = nrows * N;
    const size_t es = pg_out_dtype_size(out->out);
    want = malloc((size_t)cells * es);
    exact = malloc((size_t)cells * es);
    acc = malloc((size_t)cells * sizeof *acc);
    setup_map(out, nrows, N);
    out->map = calloc((size_t)(out->map_rows * out->map_cols), sizeof *out->map);
    out->map_row_first_m = calloc((size_t)out->map_rows, sizeof *out->map_row_first_m);
    if (!want || !exact || !acc || !out->map || !out->map_row_first_m) {
        pg_fail("out of memory for %lld x %lld reference outputs", (long long)nrows, (long long)N);
        goto done;
    }
    char label[64];
    snprintf(label, sizeof label, "reference %s", ap->name);
    if (pg_problem_ref(p, ap, lib, o->epi, rows, nrows, want, acc, label) != 0) {
        pg_fail_context("reference in mode %s", ap->name);
        goto done;
    }
    /* the baseline: exact accumulation, one rounding in the epilogue */
    if (pg_problem_ref(p, baseline_accum(p), lib, PG_EPI_SINGLE, rows, nrows, exact, NULL, "exact accumulation") !=
        0) {
        pg_fail_context("exact reference");
        goto done;
    }
    out->rows = nrows;
    out->N = N;
    const cmp_arrays arrays = {rows, out->out == PG_OUT_FP32 ? (const void *)run->D32 : (const void *)run->D, want,
                               exact, acc};
    for (int64_t i = 0; i < nrows; i++)
        compare_row(run, out, &arrays, i, max_first);
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

int pg_verify_outputs(const pg_run *run, pg_accum_mode mode, pg_epilogue epi, int max_first, pg_verify_result *out)
{
    if (mode < 0 || mode >= PG_ACC_COUNT) {
        memset(out, 0, sizeof *out);
        return pg_fail("unknown accumulation mode %d", (int)mode);
    }
    const pg_verify_opts o = {.accum = pg_accum_preset(mode), .epi = epi, .max_first = max_first};
    return pg_verify_outputs_opts(run, &o, out);
}
