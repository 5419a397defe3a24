#include "run_select.h"

#include <stdlib.h>
#include <string.h>

#include "inputs.h"
#include "pg_error.h"

int pg_run_sample_rows(pg_run *run, int64_t keep)
{
    const int64_t n = run->nrows, N = run->problem.shape.N;
    if (keep < 1)
        return pg_fail("row sample of %lld rows: need at least 1", (long long)keep);
    if (keep >= n)
        return 0;
    int64_t *rows = malloc((size_t)keep * sizeof *rows);
    if (!rows)
        return pg_fail("out of memory sampling rows");
    for (int64_t i = 0; i < keep; i++) {
        /* stored index i*(n-1)/(keep-1): first and last always kept, strictly increasing */
        int64_t s = keep == 1 ? 0 : (int64_t)((__int128)i * (n - 1) / (keep - 1));
        rows[i] = run->rows ? run->rows[s] : s;
        if (s != i) {
            if (run->D)
                memmove(run->D + i * N, run->D + s * N, (size_t)N * sizeof *run->D);
            if (run->D32)
                memmove(run->D32 + i * N, run->D32 + s * N, (size_t)N * sizeof *run->D32);
            if (run->acc)
                memmove(run->acc + i * N, run->acc + s * N, (size_t)N * sizeof *run->acc);
        }
    }
    free(run->rows);
    run->rows = rows;
    run->nrows = keep;
    return 0;
}

int pg_run_load_inputs_for_rows(pg_run *run, const char *path)
{
    pg_problem *p = &run->problem;
    const pg_shape s = p->shape;
    int rc = -1;
    pg_problem small;
    memset(&small, 0, sizeof small);
    if (p->A || p->B || p->combined)
        return 0; /* already loaded */
    if (run->problem_stored || !pg_problem_is_classic(p)) {
        /* user-made inputs: only the file has them; a general problem's
         * scales depend on M, so it is read (regenerated) whole */
        pg_run full;
        memset(&full, 0, sizeof full);
        if (pg_run_read(path, &full, PG_READ_PROBLEM) != 0)
            return -1;
        pg_problem whole = full.problem;
        memset(&full.problem, 0, sizeof full.problem);
        pg_run_free(&full);
        pg_problem_free(p);
        *p = whole;
        return 0;
    }
    pg_family fam;
    if (pg_family_parse(p->family, &fam) != 0)
        return pg_fail_context("%s: regenerating inputs", path);
    /* B and combined do not depend on M: generate them with a one-row A */
    pg_shape one = s;
    one.M = 1;
    if (pg_problem_generate(&small, one, fam, p->seed) != 0)
        return pg_fail_context("%s: regenerating inputs", path);
    p->A = malloc((size_t)(s.M * s.K));
    if (!p->A) {
        pg_fail("out of memory for A (%lld x %lld)", (long long)s.M, (long long)s.K);
        goto done;
    }
    if (!run->rows) {
        pg_generate_A_rows(fam, p->seed, s, 0, s.M, p->A);
    } else {
        for (int64_t i = 0; i < run->nrows; i++) {
            /* consecutive stored rows in one call */
            int64_t j = i;
            while (j + 1 < run->nrows && run->rows[j + 1] == run->rows[j] + 1)
                j++;
            pg_generate_A_rows(fam, p->seed, s, run->rows[i], run->rows[j] + 1, p->A + run->rows[i] * s.K);
            i = j;
        }
    }
    p->B = small.B;
    p->combined = small.combined;
    small.B = NULL;
    small.combined = NULL;
    rc = 0;
done:
    if (rc != 0) {
        free(p->A);
        p->A = NULL;
    }
    pg_problem_free(&small);
    return rc;
}
