#include "run_select.h"

#include <stdlib.h>
#include <string.h>

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
            memmove(run->D + i * N, run->D + s * N, (size_t)N * sizeof *run->D);
            if (run->acc)
                memmove(run->acc + i * N, run->acc + s * N, (size_t)N * sizeof *run->acc);
        }
    }
    free(run->rows);
    run->rows = rows;
    run->nrows = keep;
    return 0;
}
