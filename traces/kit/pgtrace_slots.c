/* pgtrace: compact fixed slots expanded into event records (pgtrace_slots.h). */
#include "pgtrace_slots.h"

#include <stdlib.h>

/* The record of written slot `s`, or -1 with a message. */
static int expand_one(const pgtrace_trace *t, const pgtrace_span *span, int64_t s, const pgtrace_slot_layout *L,
                      pgtrace_event *out)
{
    const int32_t cta = (int32_t)(s / L->slots_per_cta);
    const int64_t local = s % L->slots_per_cta;
    const int32_t sm = t->anchors[cta].sm_begin;
    if (sm < 0)
        return pgtrace_fail("pgtrace: slot %lld (CTA %d, slot %lld) was written but CTA %d has no start anchor",
                            (long long)s, cta, (long long)local, cta);
    pgtrace_slot_info info = {0, 0, 0, 0};
    const int r = L->describe(L->ctx, cta, local, &info);
    if (r < 0)
        return -1;
    if (r == 0)
        return pgtrace_fail("pgtrace: slot %lld (CTA %d, slot %lld) was written but the layout records nothing there",
                            (long long)s, cta, (long long)local);
    if (info.role >= PGTRACE_MAX_NAMES || info.phase >= PGTRACE_MAX_NAMES)
        return pgtrace_fail("pgtrace: the layout gives slot %lld (CTA %d, slot %lld) role %u and phase %u (at most %d)",
                            (long long)s, cta, (long long)local, info.role, info.phase, PGTRACE_MAX_NAMES - 1);
    *out = pgtrace_event_make(sm, info.role, info.warp, info.tile, info.phase, span->begin, span->end);
    return 0;
}

int pgtrace_expand_slots(pgtrace_trace *t, const pgtrace_span *spans, const pgtrace_slot_layout *L)
{
    int rc = -1;
    pgtrace_event *events = NULL;
    if (!L || !L->describe || L->slots_per_cta < 1 || t->n_anchors < 1 || !t->anchors)
        return pgtrace_fail("pgtrace: a slot layout needs slots_per_cta >= 1, a describe callback and the anchors");
    const int64_t n_slots = (int64_t)t->n_anchors * L->slots_per_cta;
    int64_t written = 0;
    for (int64_t s = 0; s < n_slots; s++)
        written += pgtrace_span_written(&spans[s]);
    events = malloc((size_t)(written ? written : 1) * sizeof *events);
    if (!events) {
        rc = pgtrace_fail("pgtrace: out of host memory for %lld events", (long long)written);
        goto done;
    }
    int64_t k = 0;
    for (int64_t s = 0; s < n_slots; s++)
        if (pgtrace_span_written(&spans[s]) && expand_one(t, &spans[s], s, L, &events[k++]) != 0)
            goto done;
    t->events = events;
    events = NULL;
    t->n_events = written;
    t->capacity = n_slots;
    t->count = (unsigned long long)written + (unsigned long long)t->dropped;
    rc = 0;
done:
    free(events);
    return rc;
}
