/* The GPU's dual-GEMM output against the CPU reference (cli_dual_check.h). */
#include "cli_dual_check.h"

#include <stdlib.h>
#include <string.h>

#include "pg_alloc.h"
#include "pg_error.h"

/* Group g's rows m_list[0..n) (NULL: 0..n-1) as a one-group problem: by
 * pointer when they are a contiguous ascending run, else copied into *A_copy
 * and *sa_copy (the caller frees them). */
static int sub_problem(const pg_dual_problem *dp, int64_t g, const int64_t *m_list, int64_t n, pg_dual_problem *sub,
                       uint8_t **A_copy, float **sa_copy)
{
    const int64_t K = dp->K, KB = (K + 127) / 128;
    int64_t na, nb;
    pg_dual_scale_counts(dp->scale, dp->M, dp->N, K, &na, &nb);
    *sub = *dp;
    sub->G = 1;
    sub->M = n;
    sub->B1 = dp->B1 + g * dp->N * K;
    sub->B2 = dp->B2 + g * dp->N * K;
    sub->scale_b1 = dp->scale_b1 + g * nb;
    sub->scale_b2 = dp->scale_b2 + g * nb;
    int contiguous = 1;
    for (int64_t i = 1; m_list && i < n && contiguous; i++)
        contiguous = m_list[i] == m_list[0] + i;
    const int64_t row0 = g * dp->M + (m_list ? m_list[0] : 0);
    if (contiguous) {
        sub->A = dp->A + row0 * K;
        sub->scale_a = dp->scale_a + row0 * KB;
        return 0;
    }
    *A_copy = pg_alloc("the checked rows of A", n * K, 1);
    *sa_copy = pg_alloc("the checked rows' scales", n * KB, sizeof **sa_copy);
    if (!*A_copy || !*sa_copy)
        return -1;
    for (int64_t i = 0; i < n; i++) {
        const int64_t row = g * dp->M + m_list[i];
        memcpy(*A_copy + i * K, dp->A + row * K, (size_t)K);
        memcpy(*sa_copy + i * KB, dp->scale_a + row * KB, (size_t)KB * sizeof **sa_copy);
    }
    sub->A = *A_copy;
    sub->scale_a = *sa_copy;
    return 0;
}

static int compare_group(const pg_dual_problem *dp, const pg_accum_params *p, int64_t g, const int64_t *m_list,
                         int64_t n, const uint16_t *C, int show, FILE *log, pg_dual_check_result *r)
{
    int rc = -1;
    const int64_t N = dp->N;
    uint8_t *A_copy = NULL;
    float *sa_copy = NULL;
    uint16_t *ref = NULL;
    pg_dual_problem sub;
    if (sub_problem(dp, g, m_list, n, &sub, &A_copy, &sa_copy) != 0)
        goto done;
    ref = pg_alloc("the reference's rows of C", n * N, sizeof *ref);
    if (!ref || pg_dual_gemm_ref(&sub, p, ref) != 0)
        goto done;
    for (int64_t i = 0; i < n; i++) {
        const int64_t m = m_list ? m_list[i] : i;
        const uint16_t *gpu = C + (g * dp->M + m) * N, *want = ref + i * N;
        for (int64_t c = 0; c < N; c++) {
            if (gpu[c] == want[c])
                continue;
            if (r->mismatched < show && log)
                fprintf(log, "  mismatch at group %lld row %lld col %lld: gpu 0x%04x ref 0x%04x\n", (long long)g,
                        (long long)m, (long long)c, gpu[c], want[c]);
            r->mismatched++;
        }
    }
    r->compared += n * N;
    r->rows += n;
    rc = 0;
done:
    free(A_copy);
    free(sa_copy);
    free(ref);
    return rc;
}

int pg_dual_check_rows(const pg_dual_problem *dp, const pg_accum_params *p, const int64_t *rows, int64_t nrows,
                       const uint16_t *C, int show, FILE *log, pg_dual_check_result *r)
{
    int rc = -1;
    int64_t *count = NULL, *local = NULL;
    memset(r, 0, sizeof *r);
    if (pg_dual_check(dp, p) != 0)
        return -1;
    if (dp->scale != PG_SCALE_BLOCK)
        return pg_fail("the dual-GEMM check takes block scales (the kernel's) only");
    const int64_t G = dp->G, M = dp->M;
    if (!rows) {
        for (int64_t g = 0; g < G; g++)
            if (compare_group(dp, p, g, NULL, M, C, show, log, r) != 0)
                return -1;
        return 0;
    }
    /* bucket the selected rows by group, keeping their order within one */
    count = pg_alloc("rows per group", G + 1, sizeof *count);
    local = pg_alloc("the selected rows", nrows > 0 ? nrows : 1, sizeof *local);
    if (!count || !local)
        goto done;
    memset(count, 0, (size_t)(G + 1) * sizeof *count);
    for (int64_t i = 0; i < nrows; i++) {
        if (rows[i] < 0 || rows[i] >= G * M) {
            pg_fail("row %lld is outside C's %lld rows (G*M)", (long long)rows[i], (long long)(G * M));
            goto done;
        }
        count[rows[i] / M + 1]++;
    }
    for (int64_t g = 0; g < G; g++)
        count[g + 1] += count[g]; /* count[g]: where group g's rows start */
    for (int64_t i = 0; i < nrows; i++)
        local[count[rows[i] / M]++] = rows[i] % M;
    /* count[g] is now group g's end; group g starts at count[g - 1] (0 for g = 0) */
    for (int64_t g = 0; g < G; g++) {
        const int64_t begin = g ? count[g - 1] : 0, n = count[g] - begin;
        if (n > 0 && compare_group(dp, p, g, local + begin, n, C, show, log, r) != 0)
            goto done;
    }
    rc = 0;
done:
    free(count);
    free(local);
    return rc;
}
