/* pgtrace host side without CUDA: anchors, vocabulary checks, emit. */
#include "pgtrace_trace.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local char g_error[512];

int pgtrace_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_error, sizeof g_error, fmt, ap);
    va_end(ap);
    return -1;
}

const char *pgtrace_last_error(void) { return g_error; }

void pgtrace_trace_free(pgtrace_trace *t)
{
    free(t->events);
    free(t->anchors);
    memset(t, 0, sizeof *t);
}

double pgtrace_clock_from_anchors(const pgtrace_anchor *anchors, int32_t n_anchors)
{
    double sum = 0;
    int used = 0;
    for (int32_t c = 0; c < n_anchors; c++) {
        const pgtrace_anchor *a = &anchors[c];
        if (a->sm_begin < 0 || a->sm_end < 0)
            continue;
        const int64_t cycles = a->clock_end - a->clock_begin, ns = a->globaltimer_end_ns - a->globaltimer_begin_ns;
        if (cycles > 0 && ns > 0) {
            sum += (double)cycles / ((double)ns * 1e-9);
            used++;
        }
    }
    return used ? sum / used : 0.0;
}

int64_t pgtrace_compact_fixed(pgtrace_event *events, int64_t n)
{
    int64_t kept = 0;
    for (int64_t i = 0; i < n; i++)
        if (events[i].role != PGTRACE_SLOT_EMPTY)
            events[kept++] = events[i];
    return kept;
}

int pgtrace_sm_anchors(const pgtrace_anchor *anchors, int32_t n_anchors, int32_t n_sm, int64_t *clock,
                       int64_t *globaltimer_ns)
{
    for (int32_t s = 0; s < n_sm; s++)
        clock[s] = globaltimer_ns[s] = -1;
    for (int32_t c = 0; c < n_anchors; c++) {
        const pgtrace_anchor *a = &anchors[c];
        if (a->sm_begin < 0)
            continue; /* this CTA did not run (or did not call pgtrace_cta_begin) */
        if (a->sm_begin >= n_sm)
            return pgtrace_fail("CTA %d reports SM %d, outside 0..%d", c, a->sm_begin, n_sm - 1);
        if (a->sm_end >= 0 && a->sm_end != a->sm_begin)
            return pgtrace_fail("CTA %d began on SM %d and ended on SM %d", c, a->sm_begin, a->sm_end);
        const int32_t s = a->sm_begin;
        /* clock64 is the SM's counter, shared by its CTAs: the earliest start anchors them all */
        if (clock[s] < 0 || a->globaltimer_begin_ns < globaltimer_ns[s]) {
            clock[s] = a->clock_begin;
            globaltimer_ns[s] = a->globaltimer_begin_ns;
        }
    }
    return 0;
}

static int name_ok(const char *s)
{
    if (!s || !*s)
        return 0;
    for (; *s; s++) {
        const char c = *s;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
              c == '-'))
            return 0;
    }
    return 1;
}

static int names_check(const char *what, int n, const char *const *names)
{
    if (n < 1 || n > PGTRACE_MAX_NAMES)
        return pgtrace_fail("vocabulary: %d %s names (must be 1..%d)", n, what, PGTRACE_MAX_NAMES);
    if (!names)
        return pgtrace_fail("vocabulary: no %s names", what);
    for (int i = 0; i < n; i++) {
        if (!name_ok(names[i]))
            return pgtrace_fail("vocabulary: %s name %d '%s' is not an identifier ([A-Za-z0-9_.-]+)", what, i,
                                names[i] ? names[i] : "(null)");
        for (int j = 0; j < i; j++)
            if (!strcmp(names[i], names[j]))
                return pgtrace_fail("vocabulary: %s name '%s' appears twice (%d and %d)", what, names[i], j, i);
    }
    return 0;
}

int pgtrace_vocab_check(const pgtrace_vocab *v)
{
    if (!v)
        return pgtrace_fail("vocabulary: none given");
    if (names_check("role", v->n_roles, v->role_names) || names_check("phase", v->n_phases, v->phase_names))
        return -1;
    if (!v->phase_is_wait)
        return pgtrace_fail("vocabulary: no wait flags (phase_is_wait)");
    return 0;
}

static int events_check(const pgtrace_view *w)
{
    const pgtrace_vocab *v = w->vocab;
    for (int64_t i = 0; i < w->n_events; i++) {
        const pgtrace_event *e = &w->events[i];
        if (e->role >= v->n_roles)
            return pgtrace_fail("event %lld: role code %d, but the vocabulary has %d roles", (long long)i, e->role,
                                v->n_roles);
        if (e->phase >= v->n_phases)
            return pgtrace_fail("event %lld: phase code %d, but the vocabulary has %d phases", (long long)i,
                                e->phase, v->n_phases);
        if (e->sm < 0 || e->sm >= w->n_sm || w->anchor_clock[e->sm] < 0)
            return pgtrace_fail("event %lld: SM %d has no anchor (did every CTA call pgtrace_cta_begin?)",
                                (long long)i, e->sm);
        if (e->end < e->begin)
            return pgtrace_fail("event %lld (%s.%s, tile %d): ends at %lld before it begins at %lld", (long long)i,
                                v->role_names[e->role], v->phase_names[e->phase], e->tile, (long long)e->end,
                                (long long)e->begin);
    }
    return 0;
}

int pgtrace_emit(const pgtrace_trace *t, const pgtrace_vocab *v, const char *kernel, pgtrace_write_fn write,
                 void *ctx)
{
    int rc = -1;
    int64_t *clock = NULL, *gtimer = NULL;
    if (pgtrace_vocab_check(v) != 0)
        goto done;
    if (t->sm_count < 1) {
        rc = pgtrace_fail("trace: sm_count %d (must be >= 1)", t->sm_count);
        goto done;
    }
    clock = malloc((size_t)t->sm_count * sizeof *clock);
    gtimer = malloc((size_t)t->sm_count * sizeof *gtimer);
    if (!clock || !gtimer) {
        rc = pgtrace_fail("out of host memory for %d SM anchors", t->sm_count);
        goto done;
    }
    if (pgtrace_sm_anchors(t->anchors, t->n_anchors, t->sm_count, clock, gtimer) != 0)
        goto done;
    const pgtrace_view view = {
        .vocab = v,
        .kernel = kernel ? kernel : "",
        .n_events = t->n_events,
        .events = t->events,
        .n_sm = t->sm_count,
        .anchor_clock = clock,
        .anchor_globaltimer_ns = gtimer,
        .clock_hz = t->clock_hz,
        .clock_hz_nominal = t->clock_hz_nominal,
        .count = t->count,
        .dropped = t->dropped,
    };
    if (events_check(&view) != 0)
        goto done;
    rc = write(ctx, &view);
done:
    free(clock);
    free(gtimer);
    return rc;
}
