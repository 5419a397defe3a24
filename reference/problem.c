/* Problem shapes and row selections. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pg_alloc.h"
#include "pg_error.h"
#include "pg_limits.h"
#include "problem.h"
#include "rng.h"

/* Limits (common/pg_limits.h): each dimension below a physical bound, and
 * each matrix (A, B, combined, D and the fp32 accumulators) at most
 * PG_LIMIT_MATRIX_BYTES, so sizes never overflow and no shape asks for
 * more memory than a GPU has. */
static const struct {
    const char *name;
    int64_t max;
} k_dims[4] = {{"M", PG_LIMIT_M}, {"N", PG_LIMIT_N}, {"K", PG_LIMIT_K}, {"P", PG_LIMIT_P}};

/* What is wrong with the shape ("M = 0 (must be >= 1)") into buf; 0 if nothing. */
static int shape_problem(const pg_shape *s, char *buf, size_t n)
{
    int64_t v[4] = {s->M, s->N, s->K, s->P};
    for (int i = 0; i < 4; i++) {
        if (v[i] < (i == 3 ? 0 : 1)) { /* P = 0: no combined term */
            snprintf(buf, n, "%s = %lld (must be >= %d)", k_dims[i].name, (long long)v[i], i == 3 ? 0 : 1);
            return -1;
        }
        if (v[i] > k_dims[i].max) {
            snprintf(buf, n, "%s = %lld (must be <= %lld)", k_dims[i].name, (long long)v[i],
                     (long long)k_dims[i].max);
            return -1;
        }
    }
    /* dimensions are below 2^26, so every product fits an int64 */
    const struct {
        const char *name;
        int64_t bytes;
    } mats[3] = {{"A (M x K bytes)", s->M * s->K}, {"D's fp32 accumulators (M x N x 4 bytes)", s->M * s->N * 4},
                 {"combined (P x N x 2 bytes)", s->P * s->N * 2}};
    for (int i = 0; i < 3; i++) {
        if (mats[i].bytes > PG_LIMIT_MATRIX_BYTES) {
            snprintf(buf, n, "%lld x %lld x %lld (P = %lld) is too large: %s is %lld bytes, over the limit of %lld",
                     (long long)s->M, (long long)s->N, (long long)s->K, (long long)s->P, mats[i].name,
                     (long long)mats[i].bytes, (long long)PG_LIMIT_MATRIX_BYTES);
            return -1;
        }
    }
    return 0;
}

int pg_shape_check(const pg_shape *s)
{
    char why[160];
    if (shape_problem(s, why, sizeof why) != 0)
        return pg_fail("bad shape: %s", why);
    return 0;
}

int pg_shape_check_inputs_fit(const pg_shape *s)
{
    if (pg_shape_check(s) < 0)
        return -1;
    /* each term is at most PG_LIMIT_MATRIX_BYTES, so the sum fits */
    uint64_t bytes = (uint64_t)(s->M * s->K + s->N * s->K + 2 * s->P * s->N);
    char what[160];
    snprintf(what, sizeof what, "the inputs of a %lld x %lld x %lld problem (A, B and combined)", (long long)s->M,
             (long long)s->N, (long long)s->K);
    return pg_mem_fits(what, bytes);
}

/* A decimal integer filling the whole of [s, end); -1 on anything else. */
static int parse_i64(const char *s, const char *end, int64_t *out)
{
    if (s == end)
        return -1;
    char buf[32];
    size_t len = (size_t)(end - s);
    if (len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    for (size_t i = 0; i < len; i++)
        if (!(buf[i] >= '0' && buf[i] <= '9') && !(i == 0 && buf[i] == '-'))
            return -1;
    errno = 0;
    char *e = NULL;
    long long v = strtoll(buf, &e, 10);
    if (errno != 0 || e == buf || *e != '\0')
        return -1;
    *out = v;
    return 0;
}

int pg_shape_parse(const char *s, pg_shape *out)
{
    if (s == NULL)
        return pg_fail("missing shape (expected M,N,K[,P])");
    int64_t v[4] = {0, 0, 0, PG_DEFAULT_P};
    int n = 0;
    const char *p = s;
    for (;;) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        if (n >= 4)
            return pg_fail("bad shape '%s': expected M,N,K[,P] (at most 4 numbers)", s);
        if (parse_i64(p, end, &v[n]) != 0)
            return pg_fail("bad shape '%s': '%.*s' is not an integer", s, (int)(end - p), p);
        n++;
        if (!comma)
            break;
        p = comma + 1;
    }
    if (n < 3)
        return pg_fail("bad shape '%s': expected M,N,K[,P] (got %d numbers)", s, n);
    pg_shape sh = {.M = v[0], .N = v[1], .K = v[2], .P = v[3]};
    char why[160];
    if (shape_problem(&sh, why, sizeof why) != 0)
        return pg_fail("bad shape '%s': %s", s, why);
    *out = sh;
    return 0;
}

void pg_problem_free(pg_problem *p)
{
    if (p == NULL)
        return;
    free(p->A);
    free(p->B);
    free(p->combined);
    free(p->scale_a);
    free(p->scale_b);
    free(p->mx_a);
    free(p->mx_b);
    free(p->bias);
    memset(p, 0, sizeof *p);
}

int pg_problem_is_classic(const pg_problem *p)
{
    return p->fmt_a == 0 && p->fmt_b == 0 && p->scale == 0 && !p->has_bias && p->out == 0;
}

/* sample:N -- one row from each of N equal strata of [0, M), drawn from the
 * seed, with the first stratum pinned to row 0 and the last to row M-1:
 * distinct, sorted, deterministic. */
static int rows_sample(int64_t want, int64_t M, uint64_t seed, int64_t **rows, int64_t *n)
{
    if (want < 1)
        return pg_fail("bad rows 'sample:%lld': the count must be >= 1", (long long)want);
    if (want > M)
        want = M;
    if (M > 1 && want < 2)
        want = 2; /* rows 0 and M-1 are always in */
    int64_t *r = malloc((size_t)want * sizeof *r);
    if (r == NULL)
        return pg_fail("out of memory for %lld sampled rows", (long long)want);
    for (int64_t i = 0; i < want; i++) {
        /* stratum [lo, hi): non-empty since want <= M; 128-bit to avoid overflow */
        int64_t lo = (int64_t)(((__int128)i * M) / want);
        int64_t hi = (int64_t)(((__int128)(i + 1) * M) / want);
        r[i] = lo + (int64_t)(pg_rng_u64(seed, PG_RNG_TENSOR_ROWS, (uint64_t)i) % (uint64_t)(hi - lo));
    }
    r[0] = 0;
    r[want - 1] = M - 1;
    *rows = r;
    *n = want;
    return 0;
}

int pg_rows_parse(const char *spec, int64_t M, uint64_t seed, int64_t **rows, int64_t *n)
{
    *rows = NULL;
    *n = 0;
    if (spec == NULL || strcmp(spec, "all") == 0) {
        *n = M;
        return 0;
    }
    if (strncmp(spec, "sample:", 7) == 0) {
        int64_t want;
        if (parse_i64(spec + 7, spec + strlen(spec), &want) != 0)
            return pg_fail("bad rows '%s': expected sample:N with N an integer", spec);
        return rows_sample(want, M, seed, rows, n);
    }
    const char *colon = strchr(spec, ':');
    if (colon != NULL) {
        int64_t a, b;
        if (parse_i64(spec, colon, &a) != 0 || parse_i64(colon + 1, spec + strlen(spec), &b) != 0)
            return pg_fail("bad rows '%s': expected A:B with integers A < B", spec);
        if (a < 0 || b > M || a >= b)
            return pg_fail("bad rows '%s': need 0 <= A < B <= M = %lld", spec, (long long)M);
        int64_t *r = malloc((size_t)(b - a) * sizeof *r);
        if (r == NULL)
            return pg_fail("out of memory for %lld rows", (long long)(b - a));
        for (int64_t i = 0; i < b - a; i++)
            r[i] = a + i;
        *rows = r;
        *n = b - a;
        return 0;
    }
    /* explicit list i,j,k */
    int64_t count = 1;
    for (const char *p = spec; *p; p++)
        count += *p == ',';
    int64_t *r = malloc((size_t)count * sizeof *r);
    if (r == NULL)
        return pg_fail("out of memory for %lld rows", (long long)count);
    const char *p = spec;
    for (int64_t i = 0; i < count; i++) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        if (parse_i64(p, end, &r[i]) != 0) {
            free(r);
            return pg_fail("bad rows '%s': '%.*s' is not a row index (valid: all, A:B, sample:N, i,j,k)",
                           spec, (int)(end - p), p);
        }
        if (r[i] < 0 || r[i] >= M) {
            long long bad = (long long)r[i];
            free(r);
            return pg_fail("bad rows '%s': row %lld is outside [0, M = %lld)", spec, bad, (long long)M);
        }
        p = comma ? comma + 1 : end;
    }
    *rows = r;
    *n = count;
    return 0;
}
