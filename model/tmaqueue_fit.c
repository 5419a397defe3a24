/* The `tmaqueue` line's fit (tmaqueue.c says what the line does): the
 * penalty at which the replayed per-tile load latency no longer differs
 * between tiles whose loads fell in the window and those that did not. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_ext.h"
#include "pg_error.h"
#include "fit.h"
#include "sched.h"

/* mean of the replayed latency column over the tiles in (hit) and out of the window */
static int hit_gap(const pg_schedule *s, const unsigned char *hit, double *gap, int64_t *nhit)
{
    const sch_table *T = s->table;
    const int col = sch_table_column(s, s->slots[s->kb_load_slot].dist, 0);
    if (col < 0)
        return pg_fail("tmaqueue: the fit has no per-tile load latency to calibrate on");
    double sum[2] = {0, 0};
    int64_t n[2] = {0, 0};
    for (int64_t r = 0; r < T->rows; r++) {
        const double v = T->v[r * T->cols + col];
        if (hit[r] <= 1 && isfinite(v)) {
            sum[hit[r]] += v;
            n[hit[r]]++;
        }
    }
    *nhit = n[1];
    *gap = n[0] > 0 && n[1] > 0 ? sum[1] / (double)n[1] - sum[0] / (double)n[0] : 0;
    return 0;
}

int tmaqueue_fit(pg_schedule *s, double traced_mean)
{
    if (!s->tq_on || !s->table)
        return 0;
    unsigned char *hit = malloc((size_t)s->table->rows);
    if (!hit)
        return pg_fail("out of memory");
    int rc = -1;
    char opt[64];
    /* fixed point: C += the latency's excess on the tiles in the window */
    double c = 0;
    for (int it = 0;; it++) {
        snprintf(opt, sizeof opt, "tmaqueue.penalty=%.9g", c);
        memset(hit, 2, (size_t)s->table->rows);
        if (pg_schedule_set(s, opt, 0) || kblocks_fit_hits(s, traced_mean, hit))
            goto done;
        double gap;
        int64_t nhit;
        if (hit_gap(s, hit, &gap, &nhit))
            goto done;
        if (nhit == 0 || fabs(gap) < 1 || it == 5)
            break;
        c = c + gap > 0 ? c + gap : 0;
    }
    rc = 0;
done:
    free(hit);
    return rc;
}
