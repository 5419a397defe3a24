/* Fitting a `kblocks` loop (model/kblocks.c) on one trace: the traced phase
 * mean becomes calibrated_mean (a tile's k-blocks then take `compute` each on
 * average, plus the tile's traced spread), and the load latency is the one
 * that makes the model's own loop reproduce the traced mean: what the loop
 * spends above its compute is its stall for stages not yet landed. */
#include <math.h>
#include <stdio.h>

#include "model_ext.h"
#include "pg_error.h"
#include "sched.h"

/* the model's mean of the loop's phase with load latency `lat` */
static int loop_mean(pg_schedule *s, const char *load, const char *phase, double lat, double *mean)
{
    char opt[SCH_NAME + 48];
    snprintf(opt, sizeof opt, "%s.mean=%.9g", load, lat);
    if (pg_schedule_set(s, opt, 0))
        return -1;
    /* the seed and tile count the fit's other calibrations use: f(lat) is
     * then a smooth, repeatable function */
    pg_model_opts o = {.tiles = 20000, .seed = 1, .deterministic = 0};
    pg_prediction p;
    if (pg_model_predict(s, &o, &p))
        return -1;
    const pg_stat *st = pg_prediction_find(&p, phase);
    if (!st || !isfinite(st->mean))
        return pg_fail("kblocks: the model reports no '%s' phase", phase);
    *mean = st->mean;
    return 0;
}

int kblocks_fit(pg_schedule *s, double traced_mean)
{
    if (s->kb_node < 0)
        return 0;
    const sch_node *nd = &s->nodes[s->kb_node];
    const char *phase = s->roles[nd->role].steps[nd->step].name;
    const sch_dist *pd = &s->dists[s->roles[nd->role].steps[nd->step].dist];
    const char *load = s->dists[s->slots[s->kb_load_slot].dist].name;
    if (!(traced_mean > 0))
        return pg_fail("kblocks: the trace has no mean for '%s'", phase);
    char opt[SCH_NAME + 48];
    snprintf(opt, sizeof opt, "kblocks.calibrated_mean=%.9g", dist_mean(pd));
    if (pg_schedule_set(s, opt, 0))
        return -1;
    /* the loop's mean grows with the load latency (every k-block that waits
     * waits longer): bisection on [0, 4 x the traced mean] */
    double lo = 0, hi = 4 * traced_mean, m;
    if (loop_mean(s, load, phase, lo, &m))
        return -1;
    if (m > traced_mean)
        return pg_fail("kblocks: with no load latency the model's %s (%.0f cycles) is already longer than traced "
                       "(%.0f): compute= is too large for this trace",
                       phase, m, traced_mean);
    if (loop_mean(s, load, phase, hi, &m))
        return -1;
    if (m < traced_mean)
        return pg_fail("kblocks: even a load latency of %.0f cycles leaves the model's %s (%.0f) below the trace's "
                       "(%.0f)",
                       hi, phase, m, traced_mean);
    for (int it = 0; it < 24 && hi - lo > 0.5; it++) {
        double mid = 0.5 * (lo + hi);
        if (loop_mean(s, load, phase, mid, &m))
            return -1;
        if (m < traced_mean)
            lo = mid;
        else
            hi = mid;
    }
    return loop_mean(s, load, phase, 0.5 * (lo + hi), &m);
}
