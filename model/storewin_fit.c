/* Fitting the `storewin` line's gain on a trace (docs/experiments.md M99).
 *
 * Each traced tile's loop (w cycles: the table's sample, a probe's spin
 * taken off) overlapped the window of span cycles from the start of the
 * previous tile's `after` step on the same SM (the other warpgroup's D
 * store) for ov cycles.  g = that store's start less the loop's start: the
 * later the other warpgroup's store, the less of its window the loop
 * meets.  The store's timing is the other warpgroup's, not this loop's, so
 * the loop's work without the window, w - G ov, cannot depend on it: G is
 * the value at which w - G ov no longer correlates with g (the estimator of
 * the `contend` lines, contend_estimate).  It uses the trace's own spread of
 * store positions and nothing from runs at other delays. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"
#include "fit.h"
#include "pg_error.h"
#include "sched.h"

typedef struct {
    int32_t sm;
    double loop_begin, loop_work, store_begin; /* NAN where the trace has none */
} tile_times;

static int cmp_tiles(const void *a, const void *b)
{
    const tile_times *x = a, *y = b;
    if (x->sm != y->sm)
        return x->sm < y->sm ? -1 : 1;
    return x->loop_begin < y->loop_begin ? -1 : x->loop_begin > y->loop_begin;
}

/* the tiles' loop starts and works and their store starts, from the trace
 * (the loop's work from the table where the row is replayed) */
static int collect_tiles(const pg_schedule *s, const pg_trace *t, const int64_t *row_of, int64_t ntiles,
                         tile_times *tt)
{
    const sch_node *ln = &s->nodes[s->kb_node], *an = &s->nodes[s->wn_after_node];
    const sch_role *R = &s->roles[ln->role];
    const int col = sch_table_column(s, R->steps[ln->step].dist, 0);
    const int role = sch_trace_role(s, t, ln->role), pl = sch_trace_phase(t, R->steps[ln->step].name),
              pa = sch_trace_phase(t, R->steps[an->step].name);
    if (role < 0 || pl < 0 || pa < 0)
        return pg_fail("storewin: %s.%s or %s is not a traced role and phase", R->name, R->steps[ln->step].name,
                       R->steps[an->step].name);
    for (int64_t k = 0; k < ntiles; k++)
        tt[k] = (tile_times){.sm = INT32_MAX, .loop_begin = NAN, .loop_work = NAN, .store_begin = NAN};
    for (int64_t i = 0; i < t->n; i++) {
        const int64_t k = t->tile[i];
        if (t->role[i] != role || k < 0 || k >= ntiles)
            continue;
        if (t->phase[i] == pl) {
            tt[k].sm = t->sm[i];
            tt[k].loop_begin = (double)t->begin[i];
            tt[k].loop_work = contend_work_of(s, row_of, k, col, (double)t->begin[i], (double)t->end[i]);
        } else if (t->phase[i] == pa) {
            tt[k].store_begin = (double)t->begin[i];
        }
    }
    qsort(tt, (size_t)ntiles, sizeof *tt, cmp_tiles);
    return 0;
}

int storewin_fit(pg_schedule *s, const pg_trace *t, const int64_t *row_of, int64_t ntiles)
{
    if (!s->wn_line || !s->wn_on || !s->wn_fit || s->kb_node < 0 || s->wn_load_gain > 0)
        return 0; /* per load (M174): the loop-level gain is not used */
    int rc = -1;
    const size_t m = (size_t)(ntiles > 0 ? ntiles : 1);
    tile_times *tt = malloc(sizeof *tt * m);
    double *w = malloc(sizeof *w * m), *ov = malloc(sizeof *ov * m), *g = malloc(sizeof *g * m);
    if (!tt || !w || !ov || !g) {
        pg_fail("out of memory for %lld tiles", (long long)ntiles);
        goto done;
    }
    if (collect_tiles(s, t, row_of, ntiles, tt))
        goto done;
    int64_t n = 0;
    for (int64_t q = 1; q < ntiles; q++) {
        const tile_times *cur = &tt[q], *prev = &tt[q - 1];
        if (cur->sm == INT32_MAX || prev->sm != cur->sm || !isfinite(cur->loop_work) || !isfinite(prev->store_begin))
            continue;
        const double open = prev->store_begin;
        w[n] = cur->loop_work;
        ov[n] = contend_overlap(cur->loop_begin, cur->loop_begin + cur->loop_work, open, open + s->wn_span);
        g[n] = open - cur->loop_begin;
        n++;
    }
    rc = 0;
    if (n >= 10) { /* too few tiles to measure it: the line's gain stays */
        char opt[64];
        snprintf(opt, sizeof opt, "storewin.gain=%.9g", contend_estimate(w, ov, g, n));
        rc = pg_schedule_set(s, opt, 0);
    }
done:
    free(tt);
    free(w);
    free(ov);
    free(g);
    return rc;
}
