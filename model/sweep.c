/* Sweeps: vary one parameter and find where the equilibrium changes -- where
 * the deterministic bottleneck (the critical cycle) moves from one role or
 * resource to another, and where each wait turns on or off in the
 * stochastic equilibrium. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maxplus.h"
#include "model_ext.h"
#include "pg_error.h"
#include "sched.h"

static int set_value(pg_schedule *s, const char *param, double x)
{
    char a[128];
    snprintf(a, sizeof a, "%s=%.17g", param, x);
    return pg_schedule_set(s, a, 0);
}

static int wait_on(const pg_stat *w, double period)
{
    return w->mean > PG_WAIT_ON_CYCLES && w->mean > PG_WAIT_ON_SHARE * period;
}

/* The deterministic bottleneck at x. */
static int bottleneck_at(const pg_schedule *base, const char *param, double x, char *b, int bn)
{
    pg_schedule *c;
    double lambda;
    char cycle[512];
    if (pg_schedule_clone(base, &c))
        return -1;
    int rc = set_value(c, param, x) || sch_deterministic(c, &lambda, cycle, sizeof cycle, b, bn) ? -1 : 0;
    pg_schedule_free(c);
    return rc;
}

static void add_event(pg_sweep *sw, double x, const char *fmt, const char *a, const char *b)
{
    if (sw->nevents == PG_SWEEP_MAX_EVENTS)
        return;
    pg_sweep_event *e = &sw->events[sw->nevents++];
    e->x = x;
    snprintf(e->what, sizeof e->what, fmt, a, b);
}

int pg_model_sweep(const pg_schedule *s, const char *param, double from, double to, int npoints,
                   const pg_model_opts *o, pg_sweep *out)
{
    memset(out, 0, sizeof *out);
    if (npoints < 2 || npoints > PG_SWEEP_MAX_POINTS)
        return pg_fail("--points must be 2..%d (got %d)", PG_SWEEP_MAX_POINTS, npoints);
    if (!isfinite(from) || !isfinite(to) || from == to)
        return pg_fail("--from and --to must be two different numbers");
    snprintf(out->param, sizeof out->param, "%s", param);
    out->x = calloc((size_t)npoints, sizeof(double));
    out->pred = calloc((size_t)npoints, sizeof(pg_prediction));
    if (!out->x || !out->pred) {
        pg_sweep_free(out);
        return pg_fail("out of memory");
    }
    out->npoints = npoints;
    for (int i = 0; i < npoints; i++) {
        pg_schedule *c;
        out->x[i] = from + (to - from) * i / (npoints - 1);
        if (pg_schedule_clone(s, &c))
            goto fail;
        int rc = set_value(c, param, out->x[i]) || pg_model_predict_clocked(s, c, o, &out->pred[i]);
        pg_schedule_free(c);
        if (rc) {
            pg_fail_context("sweep %s at %g", param, out->x[i]);
            goto fail;
        }
    }
    /* bottleneck changes: refine by bisection on the (cheap, exact) max-plus answer */
    for (int i = 1; i < npoints; i++) {
        if (strcmp(out->pred[i - 1].bottleneck, out->pred[i].bottleneck) == 0)
            continue;
        double lo = out->x[i - 1], hi = out->x[i];
        char blo[64], bmid[64];
        snprintf(blo, sizeof blo, "%s", out->pred[i - 1].bottleneck);
        for (int it = 0; it < 40; it++) {
            double mid = 0.5 * (lo + hi);
            if (bottleneck_at(s, param, mid, bmid, sizeof bmid))
                goto fail;
            if (strcmp(bmid, blo) == 0)
                lo = mid;
            else
                hi = mid;
        }
        add_event(out, 0.5 * (lo + hi), "bottleneck: %s -> %s", out->pred[i - 1].bottleneck, out->pred[i].bottleneck);
    }
    /* waits turning on/off: interpolate where the mean crosses the threshold */
    for (int w = 0; w < out->pred[0].nwaits; w++) {
        const char *name = out->pred[0].waits[w].name;
        for (int i = 1; i < npoints; i++) {
            const pg_stat *a = pg_prediction_find(&out->pred[i - 1], name), *b = pg_prediction_find(&out->pred[i], name);
            if (!a || !b)
                continue;
            int on_a = wait_on(a, out->pred[i - 1].tile_period), on_b = wait_on(b, out->pred[i].tile_period);
            if (on_a == on_b)
                continue;
            double thr = fmax(PG_WAIT_ON_CYCLES, PG_WAIT_ON_SHARE * 0.5 *
                                                     (out->pred[i - 1].tile_period + out->pred[i].tile_period));
            double f = (b->mean != a->mean) ? (thr - a->mean) / (b->mean - a->mean) : 0.5;
            f = f < 0 ? 0 : f > 1 ? 1 : f;
            add_event(out, out->x[i - 1] + f * (out->x[i] - out->x[i - 1]), "%s turns %s", name, on_b ? "on" : "off");
        }
    }
    return 0;
fail:
    pg_sweep_free(out);
    return -1;
}

void pg_sweep_free(pg_sweep *sw)
{
    free(sw->x);
    free(sw->pred);
    sw->x = NULL;
    sw->pred = NULL;
    sw->npoints = 0;
}
