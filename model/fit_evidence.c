/* What a latency `pegemm model fit` read off the waits rests on
 * (fit.c set_censored_latencies keeps the counts; docs/model.md "Censored
 * waits"): one that held under FIT_FEW_BOUND_SHARE of the waits that saw it
 * is known from its longest values only, the ones that could bind. */
#include <stdio.h>
#include <string.h>

#include "fit.h"

int fit_latency_is_thin(const sch_dist *d)
{
    return d->fit_bound > 0 && d->fit_seen > 0 && (double)d->fit_bound < FIT_FEW_BOUND_SHARE * (double)d->fit_seen;
}

int fit_thin_latencies(const pg_schedule *s, char *buf, size_t cap)
{
    int n = 0;
    if (cap)
        buf[0] = '\0';
    for (int d = 0; d < s->ndists; d++) {
        const sch_dist *x = &s->dists[d];
        if (!fit_latency_is_thin(x))
            continue;
        const size_t len = strlen(buf);
        if (len < cap)
            snprintf(buf + len, cap - len, "%s%s (%lld of %lld tiles)", n ? ", " : "", x->name, (long long)x->fit_bound,
                     (long long)x->fit_seen);
        n++;
    }
    return n;
}

int fit_loop_unmeasured(const pg_schedule *s, char *buf, size_t cap)
{
    if (cap)
        buf[0] = '\0';
    if (s->kb_node < 0 || s->kb_count > s->kb_stages)
        return 0;
    snprintf(buf, cap,
             "the calibration's k-block loop has %d k-blocks on a %d-stage ring: every stage was issued before the "
             "loop began, so its load latency is bounded by the slack, not measured; runs with more k-blocks than "
             "stages rest on it",
             s->kb_count, s->kb_stages);
    return 1;
}
