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
