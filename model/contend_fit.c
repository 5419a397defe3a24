/* Fitting the `contend` lines to a trace (docs/experiments.md M17), each
 * on its own.
 *
 * Each traced tile's contended step (w cycles of work once the probe's
 * spin is taken off) overlapped the `by` step's work of the next tile
 * (tile=next: the other warpgroup's mainloop beside this epilogue) or of
 * the previous tile (tile=previous: the other warpgroup's epilogue that
 * began before this mainloop), on the same SM, for `ov` cycles.  g is the
 * exogenous timing of the two: the cycles from the contended step's start
 * to the next tile's `by` start (next), or from the previous tile's `by`
 * start to the contended step's start (previous); the more g, the less
 * overlap.  With C cycles of work per cycle of overlap the work without
 * contention is u = w - C x ov.  C is the value at which u no longer
 * depends on g: the work a warpgroup has to do cannot depend on when the
 * other warpgroup started, so any correlation left between them is
 * contention.  The estimator uses the trace's own spread of g and nothing
 * from runs at other delays.  overlap = the trace's mean ov, the point at
 * which the traced samples replay unchanged (contend.c).  With compute=K
 * each tile's ov is weighted by K / its `by` step's work, as the engine
 * weights it (contend_weight; docs/experiments.md M30).  solve=tile: each
 * row's own overlap goes into the table beside its phases
 * (contend_table_fit.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"
#include "pg_error.h"
#include "fit.h"
#include "sched.h"

typedef struct {
    int32_t sm;
    double mb, me; /* the tile's `by` step's work */
    int64_t tile;
} by_iv;

static int cmp_by(const void *a, const void *b)
{
    const by_iv *x = a, *y = b;
    if (x->sm != y->sm)
        return x->sm < y->sm ? -1 : 1;
    return x->mb < y->mb ? -1 : x->mb > y->mb;
}

/* Pearson correlation of w - C ov and g over the n tiles */
static double corr_at(double C, const double *w, const double *ov, const double *g, int64_t n)
{
    double su = 0, sg = 0, suu = 0, sgg = 0, sug = 0;
    for (int64_t i = 0; i < n; i++) {
        const double u = w[i] - C * ov[i];
        su += u;
        sg += g[i];
        suu += u * u;
        sgg += g[i] * g[i];
        sug += u * g[i];
    }
    const double cov = sug - su * sg / (double)n, vu = suu - su * su / (double)n, vg = sgg - sg * sg / (double)n;
    return vu > 0 && vg > 0 ? cov / sqrt(vu * vg) : 0;
}

static double variance(const double *x, int64_t n)
{
    double sx = 0, sxx = 0;
    for (int64_t i = 0; i < n; i++) {
        sx += x[i];
        sxx += x[i] * x[i];
    }
    return n > 1 ? (sxx - sx * sx / (double)n) / (double)(n - 1) : 0;
}

double contend_estimate(const double *w, const double *ov, const double *g, int64_t n)
{
    /* corr(w - C ov, g) rises with C (w - C ov falls most where g is
     * small); an overlap that never changes explains nothing */
    double lo = 0, hi = 0.999;
    if (!(variance(ov, n) > 1e-9) || corr_at(lo, w, ov, g, n) >= 0)
        return 0;
    if (corr_at(hi, w, ov, g, n) < 0)
        return hi;
    for (int it = 0; it < 40; it++) {
        const double mid = 0.5 * (lo + hi);
        if (corr_at(mid, w, ov, g, n) < 0)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

double contend_work_of(const pg_schedule *s, const int64_t *row_of, int64_t k, int col, double begin, double end)
{
    const sch_table *T = s->table;
    if (col >= 0 && row_of && row_of[k] >= 0)
        return T->v[row_of[k] * T->cols + col];
    return end - begin;
}

typedef struct {
    double *ebt, *w, *ov, *g;
    int64_t *row; /* the table row of each (w, ov, g) */
    by_iv *iv;
} fit_bufs;

/* the line's (w, ov, g) per tile; *n of them, *ovsum their overlaps' sum */
static int collect(const pg_schedule *s, const sch_contend *c, const pg_trace *t, const int64_t *row_of,
                   int64_t ntiles, fit_bufs *B, int64_t *nout, double *ovsum)
{
    const sch_node *cn = &s->nodes[c->node], *bn = &s->nodes[c->by_node];
    const sch_role *R = &s->roles[cn->role];
    const int col = sch_table_column(s, R->steps[cn->step].dist, 0),
              bcol = sch_table_column(s, R->steps[bn->step].dist, 0);
    const int role = sch_trace_role(s, t, cn->role), pc = sch_trace_phase(t, R->steps[cn->step].name),
              pb = sch_trace_phase(t, R->steps[bn->step].name);
    if (role < 0 || pc < 0 || pb < 0)
        return pg_fail("contend: %s.%s or %s is not a traced role and phase", R->name, R->steps[cn->step].name,
                       R->steps[bn->step].name);
    for (int64_t k = 0; k < ntiles; k++) {
        B->ebt[k] = NAN;
        B->iv[k] = (by_iv){.sm = INT32_MAX, .mb = NAN, .me = NAN, .tile = k};
    }
    for (int64_t i = 0; i < t->n; i++) {
        if (t->role[i] != role || t->tile[i] < 0 || t->tile[i] >= ntiles)
            continue;
        const int64_t k = t->tile[i];
        if (t->phase[i] == pc)
            B->ebt[k] = (double)t->begin[i];
        else if (t->phase[i] == pb)
            B->iv[k] = (by_iv){.sm = t->sm[i],
                               .mb = (double)t->begin[i],
                               .me = (double)t->begin[i] +
                                     contend_work_of(s, row_of, k, bcol, (double)t->begin[i], (double)t->end[i]),
                               .tile = k};
    }
    qsort(B->iv, (size_t)ntiles, sizeof *B->iv, cmp_by);
    /* the tiles whose next (previous) tile on their SM ran its `by` step */
    int64_t n = 0;
    *ovsum = 0;
    for (int64_t q = 0; q < ntiles; q++) {
        const int64_t qn = c->previous ? q - 1 : q + 1;
        if (qn < 0 || qn >= ntiles)
            continue;
        const int64_t k = B->iv[q].tile;
        const by_iv *nb = &B->iv[qn];
        if (B->iv[q].sm == INT32_MAX || nb->sm != B->iv[q].sm || !isfinite(B->ebt[k]) || row_of[k] < 0)
            continue;
        const double wk = s->table->v[row_of[k] * s->table->cols + col];
        if (!isfinite(wk) || !(nb->me > nb->mb))
            continue;
        B->w[n] = wk;
        B->row[n] = row_of[k];
        B->ov[n] = contend_overlap(B->ebt[k], B->ebt[k] + wk, nb->mb, nb->me) * contend_weight(c, nb->me - nb->mb);
        B->g[n] = c->previous ? fmin(fmax(B->ebt[k] - nb->mb, -wk), nb->me - nb->mb)
                              : fmin(fmax(nb->mb - B->ebt[k], 0), wk);
        *ovsum += B->ov[n];
        n++;
    }
    *nout = n;
    return 0;
}

static int fit_one(pg_schedule *s, int line, const pg_trace *t, const int64_t *row_of, int64_t ntiles, fit_bufs *B)
{
    const sch_contend *c = &s->ct[line];
    const sch_node *cn = &s->nodes[c->node];
    const int col = s->table ? sch_table_column(s, s->roles[cn->role].steps[cn->step].dist, 0) : -1;
    if (col < 0 || !row_of)
        return 0; /* the phase is not replayed per tile: the line's figures stay */
    int64_t n = 0;
    double ovsum = 0;
    if (collect(s, c, t, row_of, ntiles, B, &n, &ovsum))
        return -1;
    if (n < 10)
        return 0; /* too few tiles to measure it: the line's figures stay */
    /* contend.KEY with one line (as fits reported it before there could be
     * more), contend.PHASE.KEY with several */
    char opt[SCH_NAME + 64], name[SCH_NAME + 1] = "";
    if (s->nct > 1)
        snprintf(name, sizeof name, "%s.", c->spec[0]);
    /* fit=overlap: C is the schedule's (docs/experiments.md M34: a constant
     * of the SM that a trace whose overlaps span a narrow range measures
     * badly); the trace's mean overlap is still its own */
    if (!c->fit_overlap_only) {
        snprintf(opt, sizeof opt, "contend.%sslowdown=%.9g", name, contend_estimate(B->w, B->ov, B->g, n));
        if (pg_schedule_set(s, opt, 0))
            return -1;
    }
    snprintf(opt, sizeof opt, "contend.%soverlap=%.9g", name, ovsum / (double)n);
    if (pg_schedule_set(s, opt, 0))
        return -1;
    return c->solve_tile ? contend_table_set_overlaps(s, line, B->row, B->ov, n) : 0;
}

int contend_fit(pg_schedule *s, const pg_trace *t, const int64_t *row_of, int64_t ntiles)
{
    if (s->nct == 0)
        return 0;
    int rc = -1;
    fit_bufs B = {malloc(sizeof(double) * (size_t)ntiles), malloc(sizeof(double) * (size_t)ntiles),
                  malloc(sizeof(double) * (size_t)ntiles), malloc(sizeof(double) * (size_t)ntiles),
                  malloc(sizeof(int64_t) * (size_t)ntiles), malloc(sizeof(by_iv) * (size_t)ntiles)};
    if (!B.ebt || !B.w || !B.ov || !B.g || !B.row || !B.iv) {
        pg_fail("out of memory for %lld tiles", (long long)ntiles);
        goto done;
    }
    for (int i = 0; i < s->nct; i++)
        if (fit_one(s, i, t, row_of, ntiles, &B))
            goto done;
    rc = 0;
done:
    free(B.ebt);
    free(B.w);
    free(B.ov);
    free(B.g);
    free(B.row);
    free(B.iv);
    return rc;
}
