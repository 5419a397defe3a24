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

/* The fixed point C += the excess runs at most TQ_STEPS steps and is taken
 * where the excess fell to TQ_SETTLED of the first step's (or a cycle), or
 * to a penalty of 0 with the window's tiles faster (the bound is the
 * answer).  Where it did not fall (M120: bres's one-sided state, whose
 * window tiles have their loads issued long before they are needed, so the
 * replay's solved latency there is slack that no penalty removes), the
 * written penalty stays and the schedule says so (tq_fit_state). */
#define TQ_STEPS 6
#define TQ_SETTLED 0.05

static int settled(double gap, double first, double c)
{
    return fabs(gap) <= fmax(1, TQ_SETTLED * first) || (c == 0 && gap < 0);
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
    const double written = s->tq_penalty;
    double c = 0, gap = 0, first = 0;
    int64_t nhit = 0;
    for (int it = 0;; it++) { /* ends at the last step, below */
        snprintf(opt, sizeof opt, "tmaqueue.penalty=%.9g", c);
        memset(hit, 2, (size_t)s->table->rows);
        if (pg_schedule_set(s, opt, 0) || kblocks_fit_hits(s, traced_mean, hit) || hit_gap(s, hit, &gap, &nhit))
            goto done;
        if (it == 0)
            first = fabs(gap);
        if (nhit == 0 || fabs(gap) < 1 || it == TQ_STEPS - 1)
            break;
        c = c + gap > 0 ? c + gap : 0;
    }
    s->tq_fit_state = nhit == 0 || settled(gap, first, c) ? SCH_TQ_SETTLED : SCH_TQ_UNSETTLED;
    s->tq_fit_excess = gap;
    s->tq_fit_reached = c;
    if (s->tq_fit_state == SCH_TQ_UNSETTLED) {
        /* the written penalty, and the loop's per-tile latencies solved again at it */
        snprintf(opt, sizeof opt, "tmaqueue.penalty=%.9g", written);
        memset(hit, 2, (size_t)s->table->rows);
        if (pg_schedule_set(s, opt, 0) || kblocks_fit_hits(s, traced_mean, hit))
            goto done;
    }
    rc = 0;
done:
    free(hit);
    return rc;
}
