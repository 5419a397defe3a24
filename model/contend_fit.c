/* Fitting a `contend` line to a trace (docs/experiments.md M17).
 *
 * Each traced tile's contended step (the epilogue's register work, w cycles
 * once the probe's spin is taken off) overlapped the next tile's `by` step
 * (the other warpgroup's mainloop, on the same SM) for `ov` cycles; that
 * step began `g` cycles after the contended one.  With C cycles of work per
 * cycle of overlap the work without contention is u = w - C x ov.  C is the
 * value at which u no longer depends on g: the work a warpgroup has to do
 * cannot depend on when the other warpgroup started, so any correlation left
 * between them is contention.  The estimator uses the trace's own spread of g
 * (tiles where the other mainloop started late ran their epilogue faster)
 * and nothing from runs at other delays.  overlap = the trace's mean ov, the
 * point at which the traced samples replay unchanged. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"
#include "pg_error.h"
#include "fit.h"
#include "sched.h"

typedef struct {
    int32_t sm;
    double mb, me; /* the tile's `by` step */
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

double contend_estimate(const double *w, const double *ov, const double *g, int64_t n)
{
    /* corr(w - C ov, g) rises with C (w - C ov falls most where g is small) */
    double lo = 0, hi = 0.999;
    if (corr_at(lo, w, ov, g, n) >= 0)
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

int contend_fit(pg_schedule *s, const pg_trace *t, const int64_t *row_of, int64_t ntiles)
{
    if (s->ct_node < 0)
        return 0;
    const sch_node *cn = &s->nodes[s->ct_node], *bn = &s->nodes[s->ct_by_node];
    const sch_role *R = &s->roles[cn->role];
    const int col = s->table ? sch_table_column(s, R->steps[cn->step].dist, 0) : -1;
    if (col < 0 || !row_of)
        return 0; /* the phase is not replayed per tile: the line's figures stay */
    const int role = sch_trace_role(s, t, cn->role), pc = sch_trace_phase(t, R->steps[cn->step].name),
              pb = sch_trace_phase(t, R->steps[bn->step].name);
    if (role < 0 || pc < 0 || pb < 0)
        return pg_fail("contend: %s.%s or %s is not a traced role and phase", R->name, R->steps[cn->step].name,
                       R->steps[bn->step].name);
    int rc = -1;
    double *ebt = malloc(sizeof(double) * (size_t)ntiles), *w = malloc(sizeof(double) * (size_t)ntiles),
           *ov = malloc(sizeof(double) * (size_t)ntiles), *g = malloc(sizeof(double) * (size_t)ntiles);
    by_iv *iv = malloc(sizeof(by_iv) * (size_t)ntiles);
    if (!ebt || !w || !ov || !g || !iv) {
        pg_fail("out of memory for %lld tiles", (long long)ntiles);
        goto done;
    }
    for (int64_t k = 0; k < ntiles; k++) {
        ebt[k] = NAN;
        iv[k] = (by_iv){.sm = INT32_MAX, .mb = NAN, .me = NAN, .tile = k};
    }
    for (int64_t i = 0; i < t->n; i++) {
        if (t->role[i] != role || t->tile[i] < 0 || t->tile[i] >= ntiles)
            continue;
        if (t->phase[i] == pc)
            ebt[t->tile[i]] = (double)t->begin[i];
        else if (t->phase[i] == pb)
            iv[t->tile[i]] = (by_iv){.sm = t->sm[i], .mb = (double)t->begin[i], .me = (double)t->end[i], .tile = t->tile[i]};
    }
    qsort(iv, (size_t)ntiles, sizeof *iv, cmp_by);
    /* the tiles whose next tile on their SM ran its `by` step */
    int64_t n = 0;
    double ovsum = 0;
    const sch_table *T = s->table;
    for (int64_t q = 0; q + 1 < ntiles; q++) {
        const int64_t k = iv[q].tile;
        if (iv[q].sm == INT32_MAX || iv[q + 1].sm != iv[q].sm || !isfinite(ebt[k]) || row_of[k] < 0)
            continue;
        const double wk = T->v[row_of[k] * T->cols + col]; /* the work, the probe's constant taken off */
        if (!isfinite(wk) || !(iv[q + 1].me > iv[q + 1].mb))
            continue;
        w[n] = wk;
        ov[n] = contend_overlap(ebt[k], ebt[k] + wk, iv[q + 1].mb, iv[q + 1].me);
        g[n] = fmin(fmax(iv[q + 1].mb - ebt[k], 0), wk);
        ovsum += ov[n];
        n++;
    }
    if (n < 10) {
        rc = 0; /* too few tiles to measure it: the line's figures stay */
        goto done;
    }
    const double C = contend_estimate(w, ov, g, n);
    char opt[64];
    snprintf(opt, sizeof opt, "contend.slowdown=%.9g", C);
    if (pg_schedule_set(s, opt, 0))
        goto done;
    snprintf(opt, sizeof opt, "contend.overlap=%.9g", ovsum / (double)n);
    rc = pg_schedule_set(s, opt, 0);
done:
    free(ebt);
    free(w);
    free(ov);
    free(g);
    free(iv);
    return rc;
}
