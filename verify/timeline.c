#include "timeline.h"

#include <stdlib.h>
#include <string.h>

#include "pg_error.h"
#include "pg_svg.h"

#define MAX_LANES 64

typedef struct {
    char label[MAX_LANES][64];
    const char *labels[MAX_LANES];
    int nlanes;
    pg_svg_span *spans;
    int64_t nspans, cap;
    int class_of_phase[PG_PH_COUNT]; /* -1 until a phase is first drawn */
    const char *class_labels[PG_PH_COUNT];
    int class_is_wait[PG_PH_COUNT];
    int nclasses;
} drawing;

/* Classes in phase order, so a phase has the same colour in every picture
 * of one schedule (measured and model alike). */
static void assign_classes(drawing *d, const pg_trace *a, const pg_trace *b)
{
    int present[PG_PH_COUNT] = {0};
    for (int k = 0; k < 2; k++) {
        const pg_trace *t = k == 0 ? a : b;
        for (int64_t i = 0; t && i < t->n; i++)
            if (t->phase[i] < PG_PH_COUNT)
                present[t->phase[i]] = 1;
    }
    for (int ph = 0; ph < PG_PH_COUNT; ph++) {
        d->class_of_phase[ph] = -1;
        if (!present[ph])
            continue;
        d->class_of_phase[ph] = d->nclasses;
        d->class_labels[d->nclasses] = pg_phase_name((pg_phase)ph);
        d->class_is_wait[d->nclasses] = pg_phase_is_wait((pg_phase)ph);
        d->nclasses++;
    }
}

static int add_span(drawing *d, double t0, double t1, int lane, pg_phase ph)
{
    if (d->nspans == d->cap) {
        int64_t cap = d->cap ? d->cap * 2 : 256;
        pg_svg_span *s = realloc(d->spans, (size_t)cap * sizeof *s);
        if (!s)
            return pg_fail("out of memory drawing the timeline");
        d->spans = s;
        d->cap = cap;
    }
    d->spans[d->nspans++] = (pg_svg_span){t0, t1, lane, d->class_of_phase[ph]};
    return 0;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* The window on one SM: from the start of a tile a third of the way into
 * the SM's work, `ntiles` tile starts long (tile starts: mainloop or kloop
 * begins). */
static int window(const pg_trace *t, int sm, int ntiles, int64_t *w0, int64_t *w1)
{
    int64_t n = 0;
    int64_t *starts = malloc((size_t)(t->n > 0 ? t->n : 1) * sizeof *starts);
    if (!starts)
        return pg_fail("out of memory drawing the timeline");
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int64_t i = 0; i < t->n; i++) {
        if (t->sm[i] != sm)
            continue;
        if (t->begin[i] < lo)
            lo = t->begin[i];
        if (t->end[i] > hi)
            hi = t->end[i];
        if (t->phase[i] == PG_PH_MAINLOOP || t->phase[i] == PG_PH_KLOOP)
            starts[n++] = t->begin[i];
    }
    if (n >= 2) {
        qsort(starts, (size_t)n, sizeof *starts, cmp_i64);
        int64_t a = n / 3;
        if (a + ntiles >= n)
            a = n - 1 - ntiles > 0 ? n - 1 - ntiles : 0;
        int64_t b = a + ntiles < n ? a + ntiles : n - 1;
        *w0 = starts[a];
        *w1 = starts[b];
    } else {
        *w0 = lo;
        *w1 = hi;
    }
    free(starts);
    return 0;
}

static int cmp_lane(const void *a, const void *b)
{
    const int *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] - y[0];
    return x[1] - y[1];
}

/* Add the lanes (one per role/warp) and spans of SM `sm` of trace t. */
static int draw_sm(drawing *d, const pg_trace *t, int sm, int ntiles, const char *prefix)
{
    int64_t w0 = 0, w1 = 0;
    if (window(t, sm, ntiles, &w0, &w1) != 0)
        return -1;
    int lanes[MAX_LANES][2];
    int nl = 0;
    for (int64_t i = 0; i < t->n; i++) {
        if (t->sm[i] != sm || t->role[i] >= PG_ROLE_COUNT || t->phase[i] >= PG_PH_COUNT)
            continue;
        int found = 0;
        for (int l = 0; l < nl && !found; l++)
            found = lanes[l][0] == t->role[i] && lanes[l][1] == t->warp[i];
        if (!found && nl < MAX_LANES) {
            lanes[nl][0] = t->role[i];
            lanes[nl][1] = t->warp[i];
            nl++;
        }
    }
    qsort(lanes, (size_t)nl, sizeof lanes[0], cmp_lane);
    if (d->nlanes + nl + 1 > MAX_LANES)
        nl = MAX_LANES - d->nlanes - 1;
    int base = d->nlanes;
    for (int l = 0; l < nl; l++) {
        snprintf(d->label[base + l], sizeof d->label[0], "%s SM%d %s %d", prefix, sm, pg_role_name((pg_role)lanes[l][0]),
                 lanes[l][1]);
        d->labels[base + l] = d->label[base + l];
    }
    d->nlanes += nl;
    for (int64_t i = 0; i < t->n; i++) {
        if (t->sm[i] != sm || t->end[i] <= w0 || t->begin[i] >= w1 || t->role[i] >= PG_ROLE_COUNT ||
            t->phase[i] >= PG_PH_COUNT || t->end[i] < t->begin[i])
            continue;
        for (int l = 0; l < nl; l++)
            if (lanes[l][0] == t->role[i] && lanes[l][1] == t->warp[i]) {
                double a = (double)((t->begin[i] > w0 ? t->begin[i] : w0) - w0);
                double b = (double)((t->end[i] < w1 ? t->end[i] : w1) - w0);
                if (add_span(d, a, b, base + l, (pg_phase)t->phase[i]) != 0)
                    return -1;
                break;
            }
    }
    /* a separator lane after each SM block */
    d->label[d->nlanes][0] = '\0';
    d->labels[d->nlanes] = d->label[d->nlanes];
    d->nlanes++;
    return 0;
}

/* The `max` lowest SM ids present (stable across runs of one kernel). */
static int lowest_sms(const pg_trace *t, int *out, int max)
{
    int n = 0;
    int last = -1;
    while (n < max) {
        int next = -1;
        for (int64_t i = 0; i < t->n; i++)
            if (t->sm[i] > last && (next < 0 || t->sm[i] < next))
                next = t->sm[i];
        if (next < 0)
            break;
        out[n++] = next;
        last = next;
    }
    return n;
}

int pg_timeline_svg(const char *path, const char *title, const pg_trace *measured, const pg_trace *model, int nsm,
                    int ntiles)
{
    return pg_timeline_svg_pair(path, title, measured, "measured", nsm, model, "model", ntiles);
}

int pg_timeline_svg_pair(const char *path, const char *title, const pg_trace *measured, const char *a_label, int nsm,
                         const pg_trace *model, const char *b_label, int ntiles)
{
    int rc = -1;
    drawing d;
    int sms[8];
    memset(&d, 0, sizeof d);
    assign_classes(&d, measured, model);
    if (nsm < 1)
        nsm = 1;
    if (nsm > 8)
        nsm = 8;
    if (ntiles < 1)
        ntiles = 1;
    int n = lowest_sms(measured, sms, nsm);
    if (n == 0) {
        pg_fail("timeline: the trace has no records");
        goto done;
    }
    for (int k = 0; k < n; k++)
        if (draw_sm(&d, measured, sms[k], ntiles, a_label) != 0)
            goto done;
    if (model && model->n > 0) {
        int msm;
        if (lowest_sms(model, &msm, 1) == 1 && draw_sm(&d, model, msm, ntiles, b_label) != 0)
            goto done;
    }
    char xlabel[96];
    snprintf(xlabel, sizeof xlabel, "cycles from the window start (%d tiles per SM)", ntiles);
    pg_svg_timeline tl = {
        .title = title,
        .xlabel = xlabel,
        .nlanes = d.nlanes - 1, /* drop the trailing separator */
        .lane_labels = d.labels,
        .nclasses = d.nclasses,
        .class_labels = d.class_labels,
        .class_is_wait = d.class_is_wait,
        .nspans = d.nspans,
        .spans = d.spans,
    };
    if (pg_svg_timeline_save(path, &tl) != 0)
        goto done;
    rc = 0;
done:
    free(d.spans);
    return rc;
}
