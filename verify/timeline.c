#include "timeline.h"

#include <stdlib.h>
#include <string.h>

#include "pg_error.h"
#include "pg_svg.h"

#define MAX_LANES 64

#define MAX_CLASSES 64

typedef struct {
    char label[MAX_LANES][64];
    const char *labels[MAX_LANES];
    int nlanes;
    pg_svg_span *spans;
    int64_t nspans, cap;
    /* classes by phase NAME, so a phase has the same colour in both traces
     * (measured and model carry their own vocabularies) */
    int class_of_phase[2][PG_VOCAB_MAX_PHASES]; /* per trace: -1 if not drawn */
    const char *class_labels[MAX_CLASSES];
    int class_is_wait[MAX_CLASSES];
    int nclasses;
    char where[3][200]; /* where each drawn block's window sits in its run */
    int nwhere;
} drawing;

/* Classes in the first trace's phase order, then the second's new names. */
static void assign_classes(drawing *d, const pg_trace *a, const pg_trace *b)
{
    for (int k = 0; k < 2; k++) {
        const pg_trace *t = k == 0 ? a : b;
        int present[PG_VOCAB_MAX_PHASES] = {0};
        for (int ph = 0; ph < PG_VOCAB_MAX_PHASES; ph++)
            d->class_of_phase[k][ph] = -1;
        for (int64_t i = 0; t && i < t->n; i++)
            if (t->phase[i] < t->vocab.n_phases)
                present[t->phase[i]] = 1;
        for (int ph = 0; t && ph < t->vocab.n_phases; ph++) {
            if (!present[ph])
                continue;
            int c = -1;
            for (int q = 0; q < d->nclasses && c < 0; q++)
                if (strcmp(d->class_labels[q], t->vocab.phase[ph]) == 0)
                    c = q;
            if (c < 0 && d->nclasses < MAX_CLASSES) {
                c = d->nclasses++;
                d->class_labels[c] = t->vocab.phase[ph];
                d->class_is_wait[c] = t->vocab.phase_is_wait[ph];
            }
            d->class_of_phase[k][ph] = c;
        }
    }
}

static int add_span(drawing *d, double t0, double t1, int lane, int cls)
{
    if (cls < 0)
        return 0;
    if (d->nspans == d->cap) {
        int64_t cap = d->cap ? d->cap * 2 : 256;
        pg_svg_span *s = realloc(d->spans, (size_t)cap * sizeof *s);
        if (!s)
            return pg_fail("out of memory drawing the timeline");
        d->spans = s;
        d->cap = cap;
    }
    d->spans[d->nspans++] = (pg_svg_span){t0, t1, lane, cls};
    return 0;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* The period phase of a trace: the one named, else pegemm's kernels'
 * (mainloop, kloop), else the first work phase with intervals. */
static int period_code(const pg_trace *t, const char *period)
{
    int p = period ? pg_vocab_phase(&t->vocab, period) : -1;
    if (p < 0)
        p = pg_vocab_phase(&t->vocab, "mainloop");
    if (p < 0)
        p = pg_vocab_phase(&t->vocab, "kloop");
    for (int64_t i = 0; p < 0 && i < t->n; i++)
        if (t->phase[i] < t->vocab.n_phases && !t->vocab.phase_is_wait[t->phase[i]])
            p = t->phase[i];
    return p;
}

/* The window on one SM, `ntiles` tile starts (period-phase begins) long,
 * starting a third of the way into the SM's work at a tile of the first
 * warp that runs the period phase, so that measured and model windows
 * start in the same phase of the warps' rotation (consumer 0 first).
 * Also describes where it sits in the SM's run and which tiles it shows. */
static int window(const pg_trace *t, int sm, int ntiles, int period, int64_t *w0, int64_t *w1, char *where,
                  size_t wn)
{
    int64_t n = 0, n0 = 0;
    size_t cap = (size_t)(t->n > 0 ? t->n : 1);
    int64_t *starts = malloc(cap * sizeof *starts), *first = malloc(cap * sizeof *first);
    if (!starts || !first) {
        free(starts);
        free(first);
        return pg_fail("out of memory drawing the timeline");
    }
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    int lead_role = 256, lead_warp = INT32_MAX; /* the first (role, warp) to run the period phase */
    for (int64_t i = 0; i < t->n; i++)
        if (t->sm[i] == sm && t->phase[i] == period &&
            (t->role[i] < lead_role || (t->role[i] == lead_role && t->warp[i] < lead_warp))) {
            lead_role = t->role[i];
            lead_warp = t->warp[i];
        }
    for (int64_t i = 0; i < t->n; i++) {
        if (t->sm[i] != sm)
            continue;
        if (t->begin[i] < lo)
            lo = t->begin[i];
        if (t->end[i] > hi)
            hi = t->end[i];
        if (t->phase[i] == period) {
            starts[n++] = t->begin[i];
            if (t->role[i] == lead_role && t->warp[i] == lead_warp)
                first[n0++] = t->begin[i];
        }
    }
    *w0 = lo;
    *w1 = hi;
    if (n >= 2 && n0 >= 1) {
        qsort(starts, (size_t)n, sizeof *starts, cmp_i64);
        qsort(first, (size_t)n0, sizeof *first, cmp_i64);
        int64_t a = n0 / 3;
        while (a > 0 && first[a] > starts[n - 1 - (ntiles < n - 1 ? ntiles : n - 1)])
            a--; /* room for ntiles tile starts after it */
        *w0 = first[a];
        int64_t k = 0;
        while (k < n && starts[k] < *w0)
            k++;
        *w1 = starts[k + ntiles < n ? k + ntiles : n - 1];
        if (*w1 <= *w0)
            *w1 = hi;
    }
    free(starts);
    free(first);
    /* the tiles that begin their period phase inside the window */
    int32_t tmin = INT32_MAX, tmax = -1;
    int64_t ntl = 0;
    for (int64_t i = 0; i < t->n; i++)
        if (t->sm[i] == sm && t->phase[i] == period && t->begin[i] >= *w0 && t->begin[i] < *w1) {
            ntl++;
            tmin = t->tile[i] < tmin ? t->tile[i] : tmin;
            tmax = t->tile[i] > tmax ? t->tile[i] : tmax;
        }
    const double span = hi > lo ? (double)(hi - lo) : 1;
    if (ntl > 0)
        snprintf(where, wn, "SM%d: cycles %lld-%lld of its %lld (%.0f%%-%.0f%%), %lld tiles (%d..%d)", sm,
                 (long long)(*w0 - lo), (long long)(*w1 - lo), (long long)(hi - lo), 100.0 * (double)(*w0 - lo) / span,
                 100.0 * (double)(*w1 - lo) / span, (long long)ntl, tmin, tmax);
    else
        snprintf(where, wn, "SM%d: its whole run (%lld cycles)", sm, (long long)(hi - lo));
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
static int draw_sm(drawing *d, const pg_trace *t, int which, int sm, int ntiles, const char *period,
                   const char *prefix)
{
    int64_t w0 = 0, w1 = 0;
    char where[160];
    if (window(t, sm, ntiles, period_code(t, period), &w0, &w1, where, sizeof where) != 0)
        return -1;
    if (d->nwhere < 3)
        snprintf(d->where[d->nwhere++], sizeof d->where[0], "%s %s", prefix, where);
    int lanes[MAX_LANES][2];
    int nl = 0;
    for (int64_t i = 0; i < t->n; i++) {
        if (t->sm[i] != sm || t->role[i] >= t->vocab.n_roles || t->phase[i] >= t->vocab.n_phases)
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
        snprintf(d->label[base + l], sizeof d->label[0], "%s SM%d %s %d", prefix, sm, t->vocab.role[lanes[l][0]],
                 lanes[l][1]);
        d->labels[base + l] = d->label[base + l];
    }
    d->nlanes += nl;
    for (int64_t i = 0; i < t->n; i++) {
        if (t->sm[i] != sm || t->end[i] <= w0 || t->begin[i] >= w1 || t->role[i] >= t->vocab.n_roles ||
            t->phase[i] >= t->vocab.n_phases || t->end[i] < t->begin[i])
            continue;
        for (int l = 0; l < nl; l++)
            if (lanes[l][0] == t->role[i] && lanes[l][1] == t->warp[i]) {
                double a = (double)((t->begin[i] > w0 ? t->begin[i] : w0) - w0);
                double b = (double)((t->end[i] < w1 ? t->end[i] : w1) - w0);
                if (add_span(d, a, b, base + l, d->class_of_phase[which][t->phase[i]]) != 0)
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

static int timeline(const char *path, const char *title, const pg_trace *measured, const char *a_label, int nsm,
                    const pg_trace *model, const char *b_label, int ntiles, const char *period);

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
    return pg_timeline_svg_period(path, title, measured, model, nsm, ntiles, NULL);
}

int pg_timeline_svg_period(const char *path, const char *title, const pg_trace *measured, const pg_trace *model,
                           int nsm, int ntiles, const char *period)
{
    return timeline(path, title, measured, "measured", nsm, model, "model", ntiles, period);
}

int pg_timeline_svg_pair(const char *path, const char *title, const pg_trace *measured, const char *a_label, int nsm,
                         const pg_trace *model, const char *b_label, int ntiles)
{
    return timeline(path, title, measured, a_label, nsm, model, b_label, ntiles, NULL);
}

static int timeline(const char *path, const char *title, const pg_trace *measured, const char *a_label, int nsm,
                    const pg_trace *model, const char *b_label, int ntiles, const char *period)
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
        if (draw_sm(&d, measured, 0, sms[k], ntiles, period, a_label) != 0)
            goto done;
    if (model && model->n > 0) {
        int msm;
        if (lowest_sms(model, &msm, 1) == 1 && draw_sm(&d, model, 1, msm, ntiles, period, b_label) != 0)
            goto done;
    }
    /* the x axis says where each window sits in its run and which tiles it shows */
    char xlabel[720];
    int at = snprintf(xlabel, sizeof xlabel, "cycles from the window start (%d tile starts); window:", ntiles);
    for (int w = 0; w < d.nwhere && at > 0 && (size_t)at < sizeof xlabel; w++)
        at += snprintf(xlabel + at, sizeof xlabel - (size_t)at, "%s %s", w ? ";" : "", d.where[w]);
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
