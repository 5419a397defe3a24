/* The latencies' fit from a trace (docs/model.md "Fitting a trace"): each
 * wait's dependencies ordered by predicted arrival, the binding one sampled
 * and the rest read as censored bounds, refitted over four rounds; and the
 * roles' start-up and gap options.  pg_schedule_fit_as (fit.c) calls it
 * once the per-phase table is attached. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "fit_censored.h"
#include "model.h"
#include "model_ext.h"
#include "pg_error.h"
#include "sched.h"

/* The constant part of a work step's own edge (e.g. "+ $epi_delay"): the trace
 * includes it, so it comes off the samples. */
double fit_work_step_const(const pg_schedule *s, int node)
{
    for (int j = s->in_begin[node]; j < s->in_begin[node + 1]; j++) {
        const sch_edge *e = &s->edges[s->in_edge[j]];
        if (e->kind == EDGE_SEQ)
            return e->w;
    }
    return 0;
}

/* Does the step wait on something beside its own sequence edge? */
int fit_step_has_deps(const pg_schedule *s, int node)
{
    for (int j = s->in_begin[node]; j < s->in_begin[node + 1]; j++)
        if (s->edges[s->in_edge[j]].kind != EDGE_SEQ)
            return 1;
    return 0;
}

/* ------------------------------------------------ latencies from the trace */

/* Per-tile begin/end of every (role, phase) of the schedule, warp 0 for
 * roles whose every warp runs every tile; and each tile's place in its SM's
 * sequence (ordered by when its first consumer/mma step began), so that
 * "tile k - off on the same unit" can be found. */
typedef struct {
    int64_t ntiles;
    int64_t *b[SCH_MAX_NODES], *e[SCH_MAX_NODES]; /* per node of chain 0, by tile; -1 = absent */
    int64_t *order;                               /* tile ids sorted by (sm, start) */
    int64_t *pos;                                 /* tile -> index in order, -1 = absent */
    int32_t *sm;                                  /* tile -> sm */
    const int64_t *ref_begin;                     /* begin of the reference step, by tile (sort key) */
} trace_index;

static trace_index *g_sort_ctx;
static int cmp_tile_start(const void *a, const void *b)
{
    const trace_index *x = g_sort_ctx;
    int64_t i = *(const int64_t *)a, j = *(const int64_t *)b;
    if (x->sm[i] != x->sm[j])
        return x->sm[i] < x->sm[j] ? -1 : 1;
    int64_t bi = x->ref_begin[i], bj = x->ref_begin[j];
    return bi < bj ? -1 : bi > bj;
}

static void index_free(trace_index *x, int nnodes)
{
    for (int v = 0; v < nnodes; v++) {
        free(x->b[v]);
        free(x->e[v]);
    }
    free(x->order);
    free(x->pos);
    free(x->sm);
}

static int index_build(const pg_schedule *s, const pg_trace *t, const int *roleid, int64_t ntiles, trace_index *x,
                       int *ref_node)
{
    memset(x, 0, sizeof *x);
    x->ntiles = ntiles;
    x->order = malloc(sizeof(int64_t) * (size_t)ntiles);
    x->pos = malloc(sizeof(int64_t) * (size_t)ntiles);
    x->sm = calloc((size_t)ntiles, sizeof(int32_t));
    if (!x->order || !x->pos || !x->sm)
        return pg_fail("out of memory");
    for (int v = 0; v < s->nnodes; v++) {
        if (s->nodes[v].chain != 0)
            continue;
        x->b[v] = malloc(sizeof(int64_t) * (size_t)ntiles);
        x->e[v] = malloc(sizeof(int64_t) * (size_t)ntiles);
        if (!x->b[v] || !x->e[v])
            return pg_fail("out of memory");
        for (int64_t k = 0; k < ntiles; k++)
            x->b[v][k] = x->e[v][k] = -1;
    }
    for (int64_t i = 0; i < t->n; i++) {
        for (int v = 0; v < s->nnodes; v++) {
            const sch_node *nd = &s->nodes[v];
            const sch_role *R = &s->roles[nd->role];
            int ph;
            if (nd->chain != 0 || t->role[i] != roleid[nd->role] || (!R->rotate && t->warp[i] != 0) ||
                (ph = sch_trace_phase(t, R->steps[nd->step].name)) < 0 || t->phase[i] != ph)
                continue;
            x->b[v][t->tile[i]] = t->begin[i];
            x->e[v][t->tile[i]] = t->end[i];
            x->sm[t->tile[i]] = t->sm[i];
        }
    }
    /* reference: the period step (the serialized resource, e.g. the tensor
     * cores' mainloop), whose begin orders an SM's tiles as they ran */
    int ref = sch_node_of(s, s->period_role, 0, s->period_step);
    int64_t n = 0;
    for (int64_t k = 0; k < ntiles; k++) {
        x->pos[k] = -1;
        if (x->b[ref][k] >= 0)
            x->order[n++] = k;
    }
    /* sort by (sm, begin of the reference step) */
    x->ref_begin = x->b[ref];
    g_sort_ctx = x;
    qsort(x->order, (size_t)n, sizeof(int64_t), cmp_tile_start);
    for (int64_t i = 0; i < n; i++)
        x->pos[x->order[i]] = i;
    x->ntiles = n; /* number of ordered tiles */
    *ref_node = ref;
    return 0;
}

/* The tile `off` places before tile k on the same SM, -1 if none. */
static int64_t tile_before(const trace_index *x, int64_t k, int off)
{
    int64_t p = x->pos[k];
    if (p < 0 || p - off < 0)
        return -1;
    int64_t q = x->order[p - off];
    return x->sm[q] == x->sm[k] ? q : -1;
}

/* The time edge e's event happened for tile k (its source, before the
 * edge's own constant and latency terms), NAN where the trace lacks it. */
static double edge_source(const pg_schedule *s, const trace_index *x, const sch_edge *e, int64_t k)
{
    if (e->at_node >= 0) {
        int64_t kk = tile_before(x, k, e->at_off);
        if (kk < 0 || !x->b[e->at_node] || x->b[e->at_node][kk] < 0)
            return NAN;
        return (double)x->b[e->at_node][kk] + e->at_frac * (double)(x->e[e->at_node][kk] - x->b[e->at_node][kk]);
    }
    const sch_node *fn = &s->nodes[e->from];
    if (sch_edge_is_floor(s, e) && s->roles[fn->role].steps[fn->step].kind == STEP_DELAY)
        /* a floor on a step whose step before is untraced (a role's first
         * step after its `delay`): that step's end is this one's begin */
        return x->b[e->to] && x->b[e->to][k] >= 0 ? (double)x->b[e->to][k] : NAN;
    int64_t kk = tile_before(x, k, e->off);
    if (kk < 0 || !x->e[e->from] || x->e[e->from][kk] < 0)
        return NAN;
    return (double)x->e[e->from][kk];
}

/* The one latency/memory term of an edge (the thing to fit), -1 if none or several. */
int fit_edge_latency(const pg_schedule *s, const sch_edge *e)
{
    int lat = -1, n = 0;
    for (int q = 0; q < e->nterms; q++) {
        int d = s->slots[e->slot[q]].dist;
        if (s->dists[d].kind != DKIND_PHASE) {
            lat = d;
            n++;
        }
    }
    return n == 1 ? lat : -1;
}

static double iqr_sd(double *v, int64_t n) /* sorts v */
{
    qsort(v, (size_t)n, sizeof(double), fit_cmp_double);
    return (fit_quantile_sorted(v, n, 0.75) - fit_quantile_sorted(v, n, 0.25)) / 1.349;
}

/* v: latency samples; fd: for a dependency on a fraction of a phase (@F),
 * F x that phase's duration in the same tile (else 0).  The model draws the
 * phase and the latency independently, so the latency's own spread is what
 * is left of the event's spread once the phase's share is taken out. */
static int set_latency(pg_schedule *s, int lat, double *v, double *fd, int64_t n)
{
    int has_frac = 0;
    for (int64_t i = 0; i < n; i++) {
        has_frac |= fd[i] != 0;
        fd[i] += v[i]; /* fd now holds the event's time after the phase's start */
    }
    double sd_event = has_frac ? iqr_sd(fd, n) : 0;
    if (has_frac) {
        for (int64_t i = 0; i < n; i++)
            fd[i] -= v[i]; /* back to F x duration (order no longer matters) */
    }
    double sd_frac = has_frac ? iqr_sd(fd, n) : 0;
    qsort(v, (size_t)n, sizeof(double), fit_cmp_double);
    double sum = 0;
    for (int64_t i = 0; i < n; i++)
        sum += v[i];
    double mean = sum / (double)n, med = fit_quantile_sorted(v, n, 0.5), mn = fit_quantile_sorted(v, n, 0.01),
           p95 = fit_quantile_sorted(v, n, 0.95);
    /* the interquartile spread, robust to tiles a wrong attribution adds; for
     * a memory latency (cleanly attributed, long-tailed) the upper tail's */
    double sd = s->dists[lat].kind == DKIND_MEMORY ? fmax(0, p95 - med) / 1.6448536269514722
                                                   : (fit_quantile_sorted(v, n, 0.75) - fit_quantile_sorted(v, n, 0.25)) / 1.349;
    if (has_frac)
        sd = sqrt(fmax(0, sd_event * sd_event - sd_frac * sd_frac));
    if (mean < 0)
        mean = 0;
    sch_dist d = s->dists[lat];
    d.sd = sd;
    if (d.kind == DKIND_MEMORY) {
        /* keep the transfer term while it fits under the measured mean */
        if (mean < d.bytes / d.bytes_per_cycle)
            d.bytes = 0;
        d.dram_latency = mean - d.bytes / d.bytes_per_cycle;
        return sch_set_dist(s, &d);
    }
    /* skewed (a few long handovers): a log-normal through p1, mean, p95 when
     * one fits; else a normal at the median (robust to tiles attributed to the
     * wrong dependency) */
    d.family = DIST_LOGNORMAL;
    d.mean = mean;
    d.min = mn;
    d.p95 = p95;
    d.max = NAN;
    if (has_frac || !(mn >= 0) || dist_fit(&d) != 0) {
        d.family = DIST_NORMAL;
        d.mean = med > 0 ? med : 0;
        d.min = mn >= 0 ? mn : 0;
        d.p95 = NAN;
    }
    return sch_set_dist(s, &d);
}

/* One latency's observations for the censored estimate: wait end - event
 * per tile and edge, exact or an upper bound (fit_censored.h); old: the
 * latency is also read where the rule does not apply (a wait's floor on its
 * own previous step, an event at a fraction of a phase), so it keeps the
 * binding-sample estimate. */
typedef struct {
    double *y;
    unsigned char *exact;
    int64_t n, cap;
    int old;
} cens_obs;

static int cens_push(cens_obs *o, double y, int exact)
{
    if (o->n == o->cap) {
        int64_t cap = o->cap ? 2 * o->cap : 1024;
        double *ny = realloc(o->y, sizeof(double) * (size_t)cap);
        if (ny)
            o->y = ny;
        unsigned char *nx = realloc(o->exact, (size_t)cap);
        if (nx)
            o->exact = nx;
        if (!ny || !nx)
            return pg_fail("out of memory");
        o->cap = cap;
    }
    o->y[o->n] = y;
    o->exact[o->n++] = (unsigned char)exact;
    return 0;
}

/* How long a step must have waited beyond its own work to count as blocked
 * by its latest dependency: a wait its shortest (p1 over the traced tiles)
 * + 50 cycles, the poll and clock reads of a wait that did not wait; a work
 * step that also waits 50 cycles beyond its own work. */
static double blocked_threshold(const int64_t *b, const int64_t *e, int64_t ntiles, int is_wait, double *scratch)
{
    if (!is_wait)
        return 50;
    int64_t n = 0;
    for (int64_t k = 0; k < ntiles; k++)
        if (e[k] >= 0 && b[k] >= 0)
            scratch[n++] = (double)(e[k] - b[k]);
    if (n == 0)
        return 50;
    qsort(scratch, (size_t)n, sizeof(double), fit_cmp_double);
    return fit_quantile_sorted(scratch, n, 0.01) + 50;
}

/* Tile k's observations of the latencies on the dependencies of node v
 * (docs/model.md "Fitting a trace"): wait end - event for each traced
 * dependency with one latency term, exact where the step clearly waited
 * (blocked) and the dependency is bind_e, the one predicted last; else an
 * upper bound.  A floor or an `@F` event marks its latency `old`. */
static int censored_observations(const pg_schedule *s, const trace_index *x, const sch_edge *edges, int nedges, int v,
                                 int64_t k, int bind_e, int blocked, cens_obs *co)
{
    for (int ei = 0; ei < nedges; ei++) {
        const sch_edge *e = &edges[ei];
        int lat;
        if (e->to != v || e->kind == EDGE_SEQ || (lat = fit_edge_latency(s, e)) < 0)
            continue;
        /* a floor (sch_edge_is_floor) binds exactly when the wait is at its
         * floor, so a short wait does not censor it */
        if (sch_edge_is_floor(s, e) || (e->at_node >= 0 && e->at_frac != 0)) {
            co[lat].old = 1;
            continue;
        }
        double src = edge_source(s, x, e, k);
        if (isfinite(src) && cens_push(&co[lat], (double)x->e[v][k] - src - e->w, blocked && ei == bind_e))
            return -1;
    }
    return 0;
}

/* The latencies read through the censored rule: each one's Kaplan-Meier
 * estimate as n quantiles, refitted like binding samples (set_latency);
 * with fewer than 20 exact observations the binding samples are kept. */
static int set_censored_latencies(pg_schedule *s, cens_obs *co, double *const *samples, double *const *fracs,
                                  const int64_t *nsamp)
{
    for (int d = 0; d < s->ndists; d++) {
        if (s->dists[d].family == DIST_EMPIRICAL || s->dists[d].kind == DKIND_PHASE)
            continue;
        const cens_obs *o = &co[d];
        sch_dist *x = &s->dists[d];
        int km = o->old || o->n == 0 ? 1 : -2;
        double *q = NULL, *zero = NULL;
        /* what the estimate rests on (fit_evidence.c: a latency that held few
         * waits is known from its longest values only), set before
         * set_latency so that its fitted distribution keeps it */
        if (km == -2) {
            q = malloc(sizeof(double) * (size_t)o->n);
            zero = calloc((size_t)o->n, sizeof(double));
            km = q && zero ? fit_censored_quantiles(o->y, o->exact, o->n, 20, q, o->n) : pg_fail("out of memory");
            if (km == 0) {
                x->fit_seen = o->n;
                x->fit_bound = 0;
                for (int64_t i = 0; i < o->n; i++)
                    x->fit_bound += o->exact[i];
                km = set_latency(s, d, q, zero, o->n) ? -1 : 0;
            }
        }
        free(q);
        free(zero);
        if (km < 0)
            return -1;
        if (km == 1 && nsamp[d] >= 20) {
            x->fit_seen = o->n;
            x->fit_bound = nsamp[d];
            if (set_latency(s, d, samples[d], fracs[d], nsamp[d]))
                return -1;
        }
    }
    return 0;
}

/* What the rounds of the latency fit share: the schedule, the trace's
 * index, the edges as they were when the rounds began (set_latency's
 * overrides may recompile s's), and per latency its binding samples (with
 * their `@F` shares) and its censored observations; v: scratch of ntiles + 1. */
typedef struct {
    pg_schedule *s;
    trace_index x;
    int64_t ntiles;
    const int64_t *row_of;
    int nedges, ndist;
    sch_edge edges[SCH_MAX_EDGES];
    double **samples, **fracs;
    int64_t *nsamp;
    cens_obs *co;
    double *v;
} latency_fit;

static void latency_fit_free(latency_fit *L)
{
    index_free(&L->x, SCH_MAX_NODES);
    for (int d = 0; d < L->ndist; d++) {
        if (L->samples)
            free(L->samples[d]);
        if (L->fracs)
            free(L->fracs[d]);
    }
    for (int d = 0; L->co && d < L->ndist; d++) {
        free(L->co[d].y);
        free(L->co[d].exact);
    }
    free(L->co);
    free(L->samples);
    free(L->fracs);
    free(L->nsamp);
    free(L->v);
}

/* The buffers, each sized for one sample per tile (freed by latency_fit_free). */
static int latency_fit_alloc(latency_fit *L)
{
    const int64_t ntiles = L->ntiles;
    L->samples = calloc((size_t)L->ndist, sizeof(double *));
    L->fracs = calloc((size_t)L->ndist, sizeof(double *));
    L->nsamp = calloc((size_t)L->ndist, sizeof(int64_t));
    L->co = calloc((size_t)L->ndist, sizeof(cens_obs));
    L->v = malloc(sizeof(double) * (size_t)(ntiles + 1));
    if (!L->samples || !L->fracs || !L->nsamp || !L->co || !L->v)
        return pg_fail("out of memory");
    for (int d = 0; d < L->ndist; d++)
        if (!(L->samples[d] = malloc(sizeof(double) * (size_t)(ntiles + 1))) ||
            !(L->fracs[d] = malloc(sizeof(double) * (size_t)(ntiles + 1))))
            return pg_fail("out of memory");
    return 0;
}

/* When edge e's dependency is predicted to arrive for tile k, its event at
 * src: the edge's constant and each latency term, a latency replayed per
 * tile at this tile's value, any other at its current mean. */
static double edge_arrival(const latency_fit *L, const sch_edge *e, int64_t k, double src)
{
    const pg_schedule *s = L->s;
    double arr = src + e->w;
    for (int q = 0; q < e->nterms; q++) {
        int d = s->slots[e->slot[q]].dist;
        if (s->dists[d].kind != DKIND_PHASE) {
            int col = s->dists[d].family == DIST_EMPIRICAL ? sch_table_column(s, d, 0) : -1;
            if (col >= 0 && e->toff[q] == 0 && L->row_of && L->row_of[k] >= 0)
                arr += e->coef[q] * s->table->v[L->row_of[k] * s->table->cols + col];
            else
                arr += e->coef[q] * dist_mean(&s->dists[d]);
        }
    }
    return arr;
}

/* Node v's dependencies in tile k, by predicted arrival: best (best_e, its
 * event at best_src) the latest with the step's own start (+ work) competing,
 * bind_e the latest without it; complete: every one of them traced. */
typedef struct {
    double best, best_src;
    int best_e, bind_e, complete;
} latest_dep;

static void latest_dependency(const latency_fit *L, int v, int64_t k, double own, latest_dep *p)
{
    const pg_schedule *s = L->s;
    p->best = (double)L->x.b[v][k] + own; /* nothing to wait for: the step's own start (+ work) */
    p->best_e = -1;
    p->best_src = 0;
    p->complete = 1;
    /* the dependency predicted last, the step's own start aside: the one
     * that blocked a step that clearly waited */
    double bind = -INFINITY;
    p->bind_e = -1;
    for (int ei = 0; ei < L->nedges; ei++) {
        const sch_edge *e = &L->edges[ei];
        if (e->to != v || e->kind == EDGE_SEQ)
            continue;
        if (s->nodes[e->from].chain != 0) {
            p->complete = 0; /* a barrier over warps the index does not hold */
            continue;
        }
        double src = edge_source(s, &L->x, e, k);
        if (!isfinite(src)) {
            p->complete = 0;
            continue;
        }
        double arr = edge_arrival(L, e, k, src);
        if (arr >= p->best) {
            p->best = arr;
            p->best_e = ei;
            p->best_src = src;
        }
        if (arr >= bind) {
            bind = arr;
            p->bind_e = ei;
        }
    }
}

/* Tile k's observations at node v (a step that waits, own: its own work,
 * thr: its blocked_threshold): the censored ones, and the binding sample of
 * the dependency predicted last where every dependency was traced. */
static int sample_tile(latency_fit *L, int v, int64_t k, double own, double thr)
{
    const pg_schedule *s = L->s;
    const trace_index *x = &L->x;
    int64_t we = x->e[v][k], wb = x->b[v][k];
    if (we < 0)
        return 0;
    latest_dep p;
    latest_dependency(L, v, k, own, &p);
    if (p.complete && p.bind_e >= 0 &&
        censored_observations(s, x, L->edges, L->nedges, v, k, p.bind_e, (double)(we - wb) - own > thr, L->co))
        return -1;
    if (!p.complete || p.best_e < 0)
        return 0;
    const sch_edge *be = &L->edges[p.best_e];
    int lat = fit_edge_latency(s, be);
    if (lat < 0)
        return 0;
    double fdur = 0;
    if (be->at_node >= 0) {
        int64_t kk = tile_before(x, k, be->at_off);
        fdur = be->at_frac * (double)(x->e[be->at_node][kk] - x->b[be->at_node][kk]);
    }
    L->fracs[lat][L->nsamp[lat]] = fdur;
    L->samples[lat][L->nsamp[lat]++] = (double)we - p.best_src - be->w;
    return 0;
}

/* One round: every traced tile of every step that waits sampled at the
 * current latency estimates, then each latency refitted. */
static int latency_round(latency_fit *L)
{
    const pg_schedule *s = L->s;
    const trace_index *x = &L->x;
    memset(L->nsamp, 0, sizeof(int64_t) * (size_t)L->ndist);
    for (int d = 0; d < L->ndist; d++)
        L->co[d].n = L->co[d].old = 0;
    for (int nvi = 0; nvi < s->nnodes; nvi++) {
        const sch_node *nv = &s->nodes[nvi];
        const sch_step *st = &s->roles[nv->role].steps[nv->step];
        if (nv->chain != 0 || st->kind == STEP_DELAY || !x->e[nvi] || !fit_step_has_deps(s, nvi))
            continue;
        /* a work step that also waits ends at the later of its own work and its dependencies */
        double own = st->kind == STEP_WORK ? dist_mean(&s->dists[st->dist]) + fit_work_step_const(s, nvi) : 0;
        const double thr = blocked_threshold(x->b[nvi], x->e[nvi], L->ntiles, st->kind == STEP_WAIT, L->v);
        for (int64_t k = 0; k < L->ntiles; k++)
            if (sample_tile(L, nvi, k, own, thr))
                return -1;
    }
    return set_censored_latencies(L->s, L->co, L->samples, L->fracs, L->nsamp) ? -1 : 0;
}

/* ROLE_start / ROLE_setup (fit_role_starts): per SM its first traced event
 * (org) and the role's first step in its first tile (fb, fe: its begin and
 * end); sv: scratch for the median over SMs. */
typedef struct {
    int32_t maxsm;
    int64_t *org, *fb, *fe;
    double *sv;
} sm_firsts;

/* Per SM with both, the role's first step's end (which 0) or begin (1)
 * less the SM's first event, into f->sv; their count. */
static int64_t first_step_offsets(const sm_firsts *f, int which)
{
    int64_t n = 0;
    for (int32_t q = 0; q <= f->maxsm; q++)
        if (f->fb[q] >= 0 && f->org[q] != INT64_MAX)
            f->sv[n++] = (double)((which ? f->fb[q] : f->fe[q]) - f->org[q]);
    return n;
}

/* Role r's ROLE_start and ROLE_setup, where the schedule has them. */
static int role_start_options(pg_schedule *s, const pg_trace *t, const int *roleid, int r, sm_firsts *f)
{
    char opt[SCH_NAME + 8], a[96];
    snprintf(opt, sizeof opt, "%s_start", s->roles[r].name);
    int ph;
    if (pg_schedule_option(s, opt, NULL, 0) != 0 || s->roles[r].nsteps < 1 ||
        (ph = sch_trace_phase(t, s->roles[r].steps[0].name)) < 0)
        return 0;
    /* the first tile's: the earliest to end (the other warpgroup's first
     * order_wait begins as early but waits for this one) */
    for (int32_t q = 0; q <= f->maxsm; q++)
        f->fb[q] = -1, f->fe[q] = INT64_MAX;
    for (int64_t i = 0; i < t->n; i++)
        if (t->role[i] == roleid[r] && t->phase[i] == ph && t->end[i] < f->fe[t->sm[i]]) {
            f->fb[t->sm[i]] = t->begin[i];
            f->fe[t->sm[i]] = t->end[i];
        }
    int bad = 0;
    for (int which = 0; which < 2 && !bad; which++) { /* ROLE_start (its end), ROLE_setup (its begin) */
        char o2[SCH_NAME + 8];
        snprintf(o2, sizeof o2, "%s_%s", s->roles[r].name, which ? "setup" : "start");
        if (pg_schedule_option(s, o2, NULL, 0) != 0)
            continue;
        int64_t n = first_step_offsets(f, which);
        if (n < 1)
            break;
        qsort(f->sv, (size_t)n, sizeof(double), fit_cmp_double);
        snprintf(a, sizeof a, "%s=%.6g", o2, fit_quantile_sorted(f->sv, n, 0.5));
        bad = pg_schedule_set(s, a, 0);
    }
    return bad ? -1 : 0;
}

/* ROLE_start / ROLE_setup: per SM, the end / the begin of the role's first
 * step in its first tile (the earliest to end) after the SM's first traced
 * event (the warps' set-up, and a first wait that is only set-up); the
 * median over SMs. */
static int fit_role_starts(pg_schedule *s, const pg_trace *t, const int *roleid)
{
    sm_firsts f = {0};
    for (int64_t i = 0; i < t->n; i++)
        if (t->sm[i] > f.maxsm)
            f.maxsm = t->sm[i];
    const size_t nsm = (size_t)(f.maxsm + 1);
    f.org = malloc(sizeof(int64_t) * nsm);
    f.fb = malloc(sizeof(int64_t) * nsm);
    f.fe = malloc(sizeof(int64_t) * nsm);
    f.sv = malloc(sizeof(double) * nsm);
    int rc = f.org && f.fb && f.fe && f.sv ? 0 : pg_fail("out of memory");
    if (rc == 0) {
        for (int32_t q = 0; q <= f.maxsm; q++)
            f.org[q] = INT64_MAX;
        for (int64_t i = 0; i < t->n; i++)
            if (t->begin[i] < f.org[t->sm[i]])
                f.org[t->sm[i]] = t->begin[i];
    }
    for (int r = 0; r < s->nroles && rc == 0; r++)
        rc = role_start_options(s, t, roleid, r, &f);
    free(f.org);
    free(f.fb);
    free(f.fe);
    free(f.sv);
    return rc;
}

/* Does a delay of role r carry a latency replayed per tile (then that is
 * the whole gap, and ROLE_gap is not fitted)? */
static int role_delay_replayed(const pg_schedule *s, int r)
{
    const sch_role *R = &s->roles[r];
    int replayed = 0;
    for (int ei = 0; ei < s->nedges; ei++) {
        const sch_edge *e = &s->edges[ei];
        const sch_node *tn = &s->nodes[e->to];
        if (e->kind != EDGE_SEQ || tn->role != r || R->steps[tn->step].kind != STEP_DELAY)
            continue;
        for (int q = 0; q < e->nterms; q++)
            replayed |= sch_table_column(s, s->slots[e->slot[q]].dist, 0) >= 0;
    }
    return replayed;
}

/* Role r's ROLE_gap, where the schedule has it: the median untraced time
 * from its last step's end in a tile to its first step's begin in its next
 * tile on the same SM (at least 20 such). */
static int role_gap_option(pg_schedule *s, const trace_index *x, int64_t ntiles, int r, double *v)
{
    char opt[SCH_NAME + 8], a[96];
    snprintf(opt, sizeof opt, "%s_gap", s->roles[r].name);
    if (pg_schedule_option(s, opt, NULL, 0) != 0 || role_delay_replayed(s, r))
        return 0;
    const sch_role *R = &s->roles[r];
    int first = -1, last = -1;
    for (int st = 0; st < R->nsteps; st++)
        if (R->steps[st].kind != STEP_DELAY) {
            if (first < 0)
                first = sch_node_of(s, r, 0, st);
            last = sch_node_of(s, r, 0, st);
        }
    int step = R->rotate ? R->instances : 1;
    int64_t n = 0;
    for (int64_t k = 0; k < ntiles; k++) {
        if (!x->e[last] || x->e[last][k] < 0 || x->pos[k] < 0 || x->pos[k] + step >= x->ntiles)
            continue;
        int64_t nx = x->order[x->pos[k] + step];
        if (x->sm[nx] != x->sm[k] || x->b[first][nx] < 0)
            continue;
        v[n++] = (double)(x->b[first][nx] - x->e[last][k]);
    }
    if (n < 20)
        return 0;
    qsort(v, (size_t)n, sizeof(double), fit_cmp_double);
    double med = fit_quantile_sorted(v, n, 0.5);
    snprintf(a, sizeof a, "%s=%.6g", opt, med > 0 ? med : 0);
    return pg_schedule_set(s, a, 0) ? -1 : 0;
}

/* A wait ends at the latest of its dependencies (each: an event + a
 * latency).  For each traced tile the dependency predicted to arrive last
 * (event + current latency estimate; the wait's own start competing) is
 * taken as the binding one, and its latency is sampled as wait end - event.
 * Each latency's distribution is refitted from its samples; four rounds let
 * the attribution settle.  Roles with an option ROLE_gap get the median
 * untraced time between their tiles. */
int fit_latencies(pg_schedule *s, const pg_trace *t, const int *roleid, int64_t ntiles, const int64_t *row_of)
{
    latency_fit L;
    memset(&L, 0, sizeof L);
    L.s = s;
    L.ntiles = ntiles;
    L.row_of = row_of;
    L.nedges = s->nedges;
    L.ndist = s->ndists;
    int ref;
    int rc = latency_fit_alloc(&L) || index_build(s, t, roleid, ntiles, &L.x, &ref) ? -1 : 0;
    if (rc == 0)
        memcpy(L.edges, s->edges, sizeof(sch_edge) * (size_t)L.nedges);
    for (int round = 0; round < 4 && rc == 0; round++)
        rc = latency_round(&L);
    if (rc == 0)
        rc = fit_role_starts(s, t, roleid);
    for (int r = 0; r < s->nroles && rc == 0; r++)
        rc = role_gap_option(s, &L.x, ntiles, r, L.v);
    latency_fit_free(&L);
    return rc;
}
