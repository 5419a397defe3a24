/* Calibration from traces: pg_schedule_fit (per-tile phase samples kept
 * together; the latencies from the waits: fit_latencies.c), and the
 * trace-side helpers verify/ uses (pg_trace_summarize,
 * pg_model_simulate_trace). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "fit.h"
#include "model.h"
#include "model_ext.h"
#include "pg_error.h"
#include "sched.h"

static const int64_t *g_key_sm, *g_key_t;
static int cmp_tile_key(const void *a, const void *b)
{
    int64_t i = *(const int64_t *)a, j = *(const int64_t *)b;
    if (g_key_sm[i] != g_key_sm[j])
        return g_key_sm[i] < g_key_sm[j] ? -1 : 1;
    if (g_key_t[i] != g_key_t[j])
        return g_key_t[i] < g_key_t[j] ? -1 : 1;
    return i < j ? -1 : i > j;
}


/* The fallback for traces in pegemm's kernels' vocabulary that name no
 * schedule (v1 files): the built-in one for the kernel's name. */
static const char *schedule_for_kernel(const char *kname)
{
    if (strstr(kname, "bres")) /* the resident-B variants (bres, bres64, bresmc*) */
        return "h100-bres";
    if (strstr(kname, "pingpong") || strstr(kname, "h100") || strstr(kname, "sm90"))
        return "h100-pingpong";
    if (strstr(kname, "b200") || strstr(kname, "seed"))
        return "b200-seed";
    return NULL;
}

/* Latency column c of a table of ntiles rows of `cols` (impute_censored):
 * wlen what each tile's step waited, thr the wait above which the
 * dependency bound, ord and key_sm the tiles in SM order and their SMs. */
typedef struct {
    double *buf;
    int c, cols;
    int64_t ntiles;
    const double *wlen;
    double thr;
    const int64_t *ord, *key_sm;
} censored_column;

/* How many of the n ascending values v are <= x. */
static int64_t count_at_most(const double *v, int64_t n, double x)
{
    int64_t a = 0, b = n;
    while (a < b) {
        int64_t m = (a + b) / 2;
        if (v[m] <= x)
            a = m + 1;
        else
            b = m;
    }
    return a;
}

/* The wait above which the dependency bound: thr_fixed, else (NAN) the p5
 * of the waits of the tiles with a value + 50 cycles.  all: scratch. */
static double bound_threshold(const censored_column *C, double thr_fixed, double *all)
{
    int64_t n = 0;
    for (int64_t k = 0; k < C->ntiles; k++)
        if (isfinite(C->wlen[k]) && isfinite(C->buf[k * C->cols + C->c]))
            all[n++] = C->wlen[k];
    qsort(all, (size_t)n, sizeof(double), fit_cmp_double);
    return isfinite(thr_fixed) ? thr_fixed : (n ? fit_quantile_sorted(all, n, 0.05) : 0) + 50;
}

/* The Kaplan-Meier estimate on -y as cumulative masses: cum[j] the
 * probability at or below ex[j] (the ne ascending exact values), with all
 * the n ascending observations, exact and bounds. */
static void km_cumulative(const double *all, int64_t n, const double *ex, int64_t ne, double *cum)
{
    /* from the largest exact value down: at risk = observations <= it */
    double F = 1;
    for (int64_t j = ne - 1; j >= 0; j--) {
        int64_t a = count_at_most(all, n, ex[j]);
        double at_risk = (double)(a - (ne - 1 - j)); /* ties among exacts counted once each */
        if (at_risk < 1)
            at_risk = 1;
        double p = F / at_risk;
        cum[j] = p; /* mass of this point */
        F -= p;
    }
    cum[0] += F > 0 ? F : 0; /* what is left sits at the smallest exact value */
    for (int64_t j = 1; j < ne; j++)
        cum[j] += cum[j - 1];
}

/* Hot deck, since the latency is serially correlated: the latency of the
 * nearest binding tile to ord[q] on its SM (within 16 places, the earlier
 * first) that fits under its bound y; NAN if none does. */
static double nearest_binding(const censored_column *C, int64_t q, double y)
{
    const int64_t k = C->ord[q];
    for (int64_t d = 1; d <= 16; d++)
        for (int sgn = -1; sgn <= 1; sgn += 2) {
            int64_t qq = q + sgn * d;
            if (qq < 0 || qq >= C->ntiles)
                continue;
            int64_t kk = C->ord[qq];
            double yy = C->buf[kk * C->cols + C->c];
            if (C->key_sm[kk] != C->key_sm[k] || !isfinite(C->wlen[kk]) || C->wlen[kk] <= C->thr || !(yy <= y))
                continue;
            return yy;
        }
    return NAN;
}

/* A draw from the estimate below the bound y: one of the exact values <= y,
 * by its mass; y itself where it is below every one. */
static double km_draw_below(const double *ex, int64_t ne, const double *cum, double y, rng *r)
{
    int64_t a = count_at_most(ex, ne, y); /* exacts <= y: [0, a) */
    if (a == 0)
        return y; /* below every binding latency: keep the bound */
    double u = rng_uniform(r) * cum[a - 1];
    int64_t lo = 0, hi = a - 1;
    while (lo < hi) {
        int64_t m = (lo + hi) / 2;
        if (cum[m] >= u)
            hi = m;
        else
            lo = m + 1;
    }
    return ex[lo];
}

/* Each bounded tile of the column, in SM order, gets a latency under its
 * bound (so a replay does not wait on a bound): a neighbour's, else a draw
 * from the estimate (a fixed seed: the same trace gives the same fit). */
static void impute_bounds(const censored_column *C, const double *ex, int64_t ne, const double *cum)
{
    rng r;
    rng_seed(&r, 0x5eedu);
    for (int64_t q = 0; q < C->ntiles; q++) {
        const int64_t k = C->ord[q];
        double *y = &C->buf[k * C->cols + C->c];
        if (!isfinite(*y) || !isfinite(C->wlen[k]) || C->wlen[k] > C->thr)
            continue;
        const double yy = nearest_binding(C, q, *y);
        *y = isfinite(yy) ? yy : km_draw_below(ex, ne, cum, *y, &r);
    }
}

/* impute_censored with its scratch: all, ex and cum of ntiles + 1 each. */
static void impute_column(censored_column *C, double thr_fixed, double *all, double *ex, double *cum)
{
    C->thr = bound_threshold(C, thr_fixed, all);
    int64_t n = 0, ne = 0;
    for (int64_t k = 0; k < C->ntiles; k++) {
        double y = C->buf[k * C->cols + C->c];
        if (!isfinite(y) || !isfinite(C->wlen[k]))
            continue;
        all[n++] = y;
        if (C->wlen[k] > C->thr)
            ex[ne++] = y;
    }
    if (ne < 20) /* too few binding tiles to estimate from: keep the bounds */
        return;
    qsort(all, (size_t)n, sizeof(double), fit_cmp_double);
    qsort(ex, (size_t)ne, sizeof(double), fit_cmp_double);
    km_cumulative(all, n, ex, ne, cum);
    impute_bounds(C, ex, ne, cum);
}

/* Column c of buf (ntiles rows of `cols`) holds, per tile, wait end - event
 * of a dependency; wlen what the step waited.  Where that is above thr_fixed
 * (NAN: the floor of such waits, their p5, + 50 cycles) the dependency
 * bound and that is the latency;
 * elsewhere only an upper bound (the data was there before the wait ended).
 * The latency's distribution is estimated with the bounds as left-censored
 * observations (Kaplan-Meier on -L), and each bounded tile gets a draw from
 * it below its bound, so a replay does not wait on a bound.  The latency
 * is serially correlated (slow stretches), so the draw is hot-deck: the
 * latency of the nearest binding tile on the same SM (within 16 tiles) that
 * fits under the bound, else a draw from the estimate (fixed seed). */
static int impute_censored(double *buf, int c, int cols, int64_t ntiles, const double *wlen, double thr_fixed,
                           const int64_t *ord, const int64_t *key_sm)
{
    censored_column C = {buf, c, cols, ntiles, wlen, NAN, ord, key_sm};
    double *all = malloc(sizeof(double) * (size_t)(ntiles + 1)), *ex = malloc(sizeof(double) * (size_t)(ntiles + 1));
    double *cum = malloc(sizeof(double) * (size_t)(ntiles + 1));
    int rc = all && ex && cum ? 0 : pg_fail("out of memory");
    if (rc == 0)
        impute_column(&C, thr_fixed, all, ex, cum);
    free(all);
    free(ex);
    free(cum);
    return rc;
}

int pg_schedule_fit(const pg_run *run, pg_schedule **out) { return pg_schedule_fit_as(run, NULL, out); }

const char *pg_run_schedule_name(const pg_run *run)
{
    const pg_trace *t = &run->trace;
    if (t->schedule[0])
        return t->schedule;
    const char *kname = run->kernel.present ? run->kernel.name : t->kernel;
    const char *sname = pg_trace_in_pegemm_vocab(t) ? schedule_for_kernel(kname) : NULL;
    if (!sname)
        pg_fail("the run names no schedule for kernel '%s' (give --schedule NAME|FILE.sched; built-in: %s)", kname,
                sch_builtin_names());
    return sname;
}

/* ------------------------------------------------------------ the fit, step by step */

/* What the steps of pg_schedule_fit_as share: the schedule being fitted and
 * the per-tile table being built for it (freed by fit_state_free). */
typedef struct {
    const pg_run *run;
    const pg_trace *t;
    const char *sname, *kname;
    pg_schedule *s;
    sch_table *tab;
    int64_t ntiles;     /* largest traced tile index + 1 */
    double *buf;        /* [ntiles][tab->cols], by tile; then [rows][cols], by row */
    int64_t *row_of;    /* tile -> table row, -1 (NULL: means are used) */
    int roleid[SCH_MAX_ROLES];
    /* work-phase columns: their role, chain (warp), constant, trace phase */
    int colrole[SCH_MAX_NODES], colchain[SCH_MAX_NODES], colphase[SCH_MAX_NODES];
    double colconst[SCH_MAX_NODES];
    /* latency columns: the edge, the step's own work, the bound threshold,
     * and per tile the event step's begin/end and the wait's end (then its
     * length) and begin */
    int memcol_edge[SCH_MAX_NODES];
    double memcol_own[SCH_MAX_NODES], memcol_thr[SCH_MAX_NODES];
    double *memwl[SCH_MAX_NODES], *msb[SCH_MAX_NODES], *mse[SCH_MAX_NODES], *mdb[SCH_MAX_NODES];
    /* delay-gap columns: the delay step's edge */
    int gapcol_edge[SCH_MAX_NODES];
    int kbcol; /* the k-block loop's load latency column, -1 */
    /* tiles in the order they ran on each SM */
    int64_t *key_sm, *key_t, *ord, *posof;
    double *sorted;
    double work_ratio; /* the run's flops per tile over the schedule's */
} fit_state;

static void fit_state_free(fit_state *F)
{
    for (int c = 0; c < SCH_MAX_NODES; c++) {
        free(F->memwl[c]);
        free(F->msb[c]);
        free(F->mse[c]);
        free(F->mdb[c]);
    }
    free(F->key_sm);
    free(F->key_t);
    free(F->ord);
    free(F->posof);
    free(F->sorted);
    free(F->row_of);
    free(F->buf);
    if (F->tab) {
        free(F->tab->v);
        free(F->tab);
    }
    pg_schedule_free(F->s);
}

/* The schedule: --schedule, else the run's, with the variant's
 * assignments (before the fit, so that what the fit calibrates, such as a
 * queue's in-flight count, is calibrated with them); its roles and phases
 * must be the trace's. */
static int fit_pick_schedule(fit_state *F, const char *schedule, const char *const *sets, int nsets)
{
    F->sname = schedule ? schedule : pg_run_schedule_name(F->run);
    if (!F->sname)
        return -1;
    if (pg_schedule_load(F->sname, &F->s) || pg_schedule_set_all(F->s, sets, nsets, NULL, 0))
        return -1;
    if (pg_schedule_match_trace(F->s, F->t))
        return pg_fail_context("the trace does not match schedule %s", F->sname);
    return 0;
}

/* The run's probes (delays), its k-blocks per tile and stage ring. */
static int fit_set_probes(fit_state *F)
{
    pg_schedule *s = F->s;
    const pg_run *run = F->run;
    char opt[96];
    snprintf(opt, sizeof opt, "epi_delay=%lld", (long long)run->kernel.epi_delay);
    if (pg_schedule_option(s, "epi_delay", NULL, 0) == 0 && pg_schedule_set(s, opt, 0))
        return -1;
    snprintf(opt, sizeof opt, "mainloop_delay=%lld", (long long)run->kernel.mainloop_delay);
    if (pg_schedule_option(s, "mainloop_delay", NULL, 0) == 0 && pg_schedule_set(s, opt, 0))
        return -1;
    /* the k-blocks per tile (bres64: 12 of 64); schedules without the option ignore it.
     * Set before the stage count: the schedule checks stages against kblocks.
     * The loop's tile compute is held at the written count first, so the
     * run's count splits the tile and only fit_set_machine's work ratio
     * scales it: a line written per k-block (h100-pingpong's) was scaled by
     * the count and the ratio both, x (K / K0)^2 (M121) */
    if (run->kernel.tile_k > 0 && run->problem.shape.K > 0 && pg_schedule_option(s, "kblocks", NULL, 0) == 0) {
        if (s->kb_node >= 0) {
            snprintf(opt, sizeof opt, "kblocks.tile_compute=%.17g", s->kb_compute * s->kb_count);
            if (pg_schedule_set(s, opt, 0))
                return -1;
        }
        snprintf(opt, sizeof opt, "kblocks=%lld", (long long)(run->problem.shape.K / run->kernel.tile_k));
        if (pg_schedule_set(s, opt, 0))
            return -1;
    }
    /* a ring depth the schedule does not model (e.g. bres7's 7 stages) is
     * refused with the schedule's own range, not fitted as if it had 4 */
    if (run->kernel.stages > 0) {
        snprintf(opt, sizeof opt, "stages=%d", run->kernel.stages);
        if (pg_schedule_option(s, "stages", NULL, 0) == 0 && pg_schedule_set(s, opt, 0))
            return pg_fail_context("kernel '%s' has %d A stages, which schedule %s does not model", F->kname,
                                   run->kernel.stages, F->sname);
    }
    return 0;
}

/* The run's machine: SMs, clock, tiles and work (F->work_ratio: the run's
 * flops per tile over the schedule's), as overrides so a recompile keeps them. */
static int fit_set_machine(fit_state *F)
{
    pg_schedule *s = F->s;
    const pg_run *run = F->run;
    char opt[96];
    const int units = fit_run_units(run);
    if (units > 0)
        s->machine.units = units;
    if (run->kernel.sm_clock_hz > 0)
        s->machine.clock_hz = run->kernel.sm_clock_hz;
    else if (F->t->clock_hz > 0) /* a run of another kernel: the clock measured with its trace */
        s->machine.clock_hz = F->t->clock_hz;
    const pg_shape *sh = &run->problem.shape;
    F->work_ratio = 1;
    if (sh->M > 0 && run->kernel.tile_m > 0 && run->kernel.tile_n > 0) {
        const double per_tile0 = s->machine.flops / s->machine.tiles;
        s->machine.tiles = fit_run_tiles(sh, &run->kernel);
        s->machine.flops = fit_run_flops(sh);
        if (per_tile0 > 0)
            F->work_ratio = s->machine.flops / s->machine.tiles / per_tile0;
    }
    if (fit_lines_scale_work(s, F->work_ratio))
        return -1;
    /* (mem_clock_hz stays unset: on the committed --epi-delay sweep, memory
     * terms held in ns and rescaled to each run's clock predicted worse than
     * cycles; docs/experiments.md M6) */
    /* whole_run: the trace holds every tile of the run, each SM's first and
     * last ones included; the fitted model reports its waits the same way */
    const char *mk[] = {"units", "tiles", "clock_hz", "flops", "whole_run"};
    const double mv[] = {s->machine.units, s->machine.tiles, s->machine.clock_hz, s->machine.flops, 1};
    for (int i = 0; i < 5; i++) {
        snprintf(opt, sizeof opt, "%s=%.17g", mk[i], mv[i]);
        if (pg_schedule_set(s, opt, 0))
            return -1;
    }
    return 0;
}

/* F->ntiles from the trace's tile indices, which must be dense. */
static int fit_count_tiles(fit_state *F)
{
    const pg_trace *t = F->t;
    int64_t maxtile = -1;
    for (int64_t i = 0; i < t->n; i++)
        if (t->tile[i] > maxtile)
            maxtile = t->tile[i];
    if (maxtile < 0)
        return pg_fail("the trace has no tile indices");
    /* Per-tile tables below are sized by the largest index: a traced tile
     * has at least one interval, so an index beyond the interval count is
     * a sparse or corrupt numbering that would cost memory for nothing. */
    if (maxtile >= t->n)
        return pg_fail("the trace's tile indices reach %lld but it has only %lld intervals (tiles must be numbered "
                       "densely from 0)",
                       (long long)maxtile, (long long)t->n);
    F->ntiles = maxtile + 1;
    return 0;
}

/* Columns: one per work phase (per warp for roles whose every warp works each tile). */
static void fit_work_columns(fit_state *F)
{
    const pg_schedule *s = F->s;
    sch_table *tab = F->tab;
    for (int r = 0; r < s->nroles; r++)
        for (int st = 0; st < s->roles[r].nsteps; st++) {
            const sch_step *S = &s->roles[r].steps[st];
            if (S->kind != STEP_WORK)
                continue;
            for (int c = 0; c < s->roles[r].nchains && tab->cols < SCH_MAX_NODES; c++) {
                int v = sch_node_of(s, r, c, st);
                if (fit_step_has_deps(s, v))
                    continue; /* fitted below as a constant: its trace time includes waits */
                snprintf(tab->colname[tab->cols], sizeof tab->colname[0], "%s#%d", S->name, c);
                F->colrole[tab->cols] = r;
                F->colchain[tab->cols] = c;
                F->colconst[tab->cols] = fit_work_step_const(s, v);
                F->colphase[tab->cols] = sch_trace_phase(F->t, S->name);
                tab->cols++;
            }
        }
}

/* May latency d have a column, as the one dependency of edge ei's wait?
 * Then sets the column's own work and threshold (fit_latency_columns). */
static int latency_column_edge(fit_state *F, int d, int ei)
{
    const pg_schedule *s = F->s;
    const sch_edge *e = &s->edges[ei];
    if (e->kind == EDGE_SEQ || fit_edge_latency(s, e) != d || s->nodes[e->to].chain != 0 ||
        s->nodes[e->from].chain != 0 || (e->at_node >= 0 && s->nodes[e->at_node].chain != 0))
        return 0;
    const sch_node *tn = &s->nodes[e->to];
    if (s->roles[tn->role].steps[tn->step].kind == STEP_DELAY)
        return 0;
    for (int q = 0; q < e->nterms; q++) {
        const int dq = s->slots[e->slot[q]].dist;
        if (dq == d && (e->coef[q] != 1 || e->toff[q] != 0))
            return 0;
        if (dq != d && s->dists[dq].kind != DKIND_PHASE)
            return 0;
    }
    /* the wait's other dependencies: only its own previous step (a floor) */
    for (int ej = 0; ej < s->nedges; ej++) {
        const sch_edge *o = &s->edges[ej];
        if (ej == ei || o->to != e->to || o->kind == EDGE_SEQ)
            continue;
        if (!sch_edge_is_floor(s, o))
            return 0;
    }
    /* where the dependency bound: a wait with a floor (another dependency
     * on its own previous step) longer than the floor (its p5) + 50
     * cycles; any other wait longer than 50 cycles; a work step longer
     * than its own work + 50 */
    int has_floor = 0;
    for (int ej = 0; ej < s->nedges; ej++)
        has_floor |= ej != ei && s->edges[ej].to == e->to && s->edges[ej].kind != EDGE_SEQ;
    const sch_step *st = &s->roles[tn->role].steps[tn->step];
    const int c = F->tab->cols;
    F->memcol_own[c] = st->kind == STEP_WORK ? dist_mean(&s->dists[st->dist]) + fit_work_step_const(s, e->to) : 0;
    F->memcol_thr[c] = has_floor ? NAN : 50;
    return 1;
}

/* A memory or latency term that is the one dependency of a wait (beside
 * the wait's own previous step, e.g. a floor) gets a column too:
 * first_load (the producer's issue of the tile's first k-block to the
 * consumer's load_wait) and stage_handover (the stage's release in the
 * previous tile's mainloop to the producer's wake-up).  Wait end - event
 * for every tile, drawn with the tile's phases.  Where the dependency
 * bound, that is its latency; where it did not, an upper bound on it.
 * Drawn with the row (and its neighbours, block bootstrap), the latency
 * keeps its correlation with the tile's own phases and with slow
 * stretches, which an independent draw from a distribution fitted to the
 * binding tiles lost (too wide a load_wait: docs/experiments.md M7); and
 * an event at a fraction of a phase (`@F`) measured per tile keeps where
 * the phase really was at that point. */
static void fit_latency_columns(fit_state *F)
{
    const pg_schedule *s = F->s;
    sch_table *tab = F->tab;
    for (int d = 0; d < s->ndists && tab->cols < SCH_MAX_NODES; d++) {
        if (s->dists[d].kind == DKIND_PHASE)
            continue;
        int found = -1, uses = 0;
        for (int ei = 0; ei < s->nedges; ei++) {
            const sch_edge *e = &s->edges[ei];
            int has = 0;
            for (int q = 0; q < e->nterms; q++)
                has |= s->slots[e->slot[q]].dist == d;
            if (!has)
                continue;
            uses++;
            if (latency_column_edge(F, d, ei))
                found = ei;
        }
        if (found < 0 || uses != 1)
            continue; /* stays a fitted distribution */
        snprintf(tab->colname[tab->cols], sizeof tab->colname[0], "%s#0", s->dists[d].name);
        F->colrole[tab->cols] = -1;
        F->memcol_edge[tab->cols] = found;
        tab->cols++;
    }
}

/* A latency on a `delay` step (an untraced gap between a role's tiles,
 * e.g. the producer's own trace stores) gets a column too: per tile, the
 * begin of the step that follows the delay (in the role's next tile)
 * minus the end of the step before it, less the delay's constant.  The
 * gap is measured directly (both ends are traced), so it needs no
 * imputation; replayed per tile, a wait that follows it begins where the
 * trace had it instead of a constant after the previous step
 * (docs/experiments.md M9). */
static void fit_gap_columns(fit_state *F)
{
    const pg_schedule *s = F->s;
    sch_table *tab = F->tab;
    for (int d = 0; d < s->ndists && tab->cols < SCH_MAX_NODES; d++) {
        if (s->dists[d].kind == DKIND_PHASE)
            continue;
        int found = -1, uses = 0;
        for (int ei = 0; ei < s->nedges; ei++) {
            const sch_edge *e = &s->edges[ei];
            for (int q = 0; q < e->nterms; q++)
                if (s->slots[e->slot[q]].dist == d) {
                    uses++;
                    const sch_node *tn = &s->nodes[e->to];
                    if (e->kind == EDGE_SEQ && e->nterms == 1 && e->coef[q] == 1 && e->toff[q] == 0 &&
                        tn->chain == 0 && s->roles[tn->role].steps[tn->step].kind == STEP_DELAY)
                        found = ei;
                }
        }
        if (found < 0 || uses != 1)
            continue;
        int colexists = 0;
        for (int c = 0; c < tab->cols; c++)
            colexists |= F->memcol_edge[c] >= 0 && fit_edge_latency(s, &s->edges[F->memcol_edge[c]]) == d;
        if (colexists)
            continue;
        snprintf(tab->colname[tab->cols], sizeof tab->colname[0], "%s#0", s->dists[d].name);
        F->colrole[tab->cols] = -1;
        F->gapcol_edge[tab->cols] = found;
        tab->cols++;
    }
}

/* A `kblocks` loop's load latency gets a column too, filled by kblocks_fit
 * once the table is attached: per tile, the latency with which the loop,
 * replayed at the fitted point, gives that tile's traced phase
 * (docs/experiments.md M14).  Until then the schedule's mean. */
static void fit_kblocks_column(fit_state *F)
{
    const pg_schedule *s = F->s;
    sch_table *tab = F->tab;
    F->kbcol = -1;
    if (s->kb_node >= 0 && tab->cols < SCH_MAX_NODES) {
        const int d = s->slots[s->kb_load_slot].dist;
        snprintf(tab->colname[tab->cols], sizeof tab->colname[0], "%s#0", s->dists[d].name);
        F->colrole[tab->cols] = -1;
        F->kbcol = tab->cols++;
    }
}

/* Index the trace: the table's columns and F->buf by tile, all NAN but the
 * k-block loop's latency (its mean). */
static int fit_index_trace(fit_state *F)
{
    if (fit_count_tiles(F))
        return -1;
    F->tab = calloc(1, sizeof *F->tab);
    if (!F->tab)
        return pg_fail("out of memory");
    for (int c = 0; c < SCH_MAX_NODES; c++)
        F->memcol_edge[c] = F->gapcol_edge[c] = -1;
    fit_work_columns(F);
    fit_latency_columns(F);
    fit_gap_columns(F);
    fit_kblocks_column(F);
    const pg_schedule *s = F->s;
    const int cols = F->tab->cols;
    F->buf = malloc(sizeof(double) * (size_t)F->ntiles * (size_t)(cols ? cols : 1));
    if (!F->buf)
        return pg_fail("out of memory for %lld tiles", (long long)F->ntiles);
    for (int64_t i = 0; i < F->ntiles * cols; i++)
        F->buf[i] = NAN;
    for (int64_t k = 0; F->kbcol >= 0 && k < F->ntiles; k++)
        F->buf[k * cols + F->kbcol] = dist_mean(&s->dists[s->slots[s->kb_load_slot].dist]);
    for (int r = 0; r < s->nroles; r++)
        F->roleid[r] = sch_trace_role(s, F->t, r);
    return 0;
}

/* Latency column c's raw times per tile: its event step's begin and end,
 * its wait's begin and end (the values need each tile's predecessors on
 * its SM: fit_latency_values, once the tiles are in SM order). */
static int fit_latency_times(fit_state *F, int c)
{
    const pg_schedule *s = F->s;
    const pg_trace *t = F->t;
    const int64_t ntiles = F->ntiles;
    const sch_edge *e = &s->edges[F->memcol_edge[c]];
    const int src = e->at_node >= 0 ? e->at_node : e->from, dst = e->to;
    double *sb = F->msb[c] = malloc(sizeof(double) * (size_t)ntiles);
    double *se = F->mse[c] = malloc(sizeof(double) * (size_t)ntiles);
    double *de = F->memwl[c] = malloc(sizeof(double) * (size_t)ntiles);
    double *db = F->mdb[c] = malloc(sizeof(double) * (size_t)ntiles);
    if (!sb || !se || !de || !db)
        return pg_fail("out of memory for %lld tiles", (long long)ntiles);
    for (int64_t k = 0; k < ntiles; k++)
        sb[k] = se[k] = de[k] = db[k] = NAN;
    for (int64_t i = 0; i < t->n; i++)
        for (int q = 0; q < 2; q++) {
            const int v = q ? dst : src;
            const sch_node *nd = &s->nodes[v];
            const sch_role *R = &s->roles[nd->role];
            int ph;
            if (t->role[i] != F->roleid[nd->role] || (!R->rotate && t->warp[i] != 0) ||
                (ph = sch_trace_phase(t, R->steps[nd->step].name)) < 0 || t->phase[i] != ph)
                continue;
            if (q) {
                de[t->tile[i]] = (double)t->end[i];
                db[t->tile[i]] = (double)t->begin[i];
            } else {
                sb[t->tile[i]] = (double)t->begin[i];
                se[t->tile[i]] = (double)t->end[i];
            }
        }
    return 0;
}

/* Per-phase samples: every work-phase column's traced duration per tile
 * (less its constant), and the latency columns' raw times. */
static int fit_phase_samples(fit_state *F)
{
    const pg_trace *t = F->t;
    const int cols = F->tab->cols;
    for (int c = 0; c < cols; c++)
        if (F->memcol_edge[c] >= 0 && fit_latency_times(F, c))
            return -1;
    for (int64_t i = 0; i < t->n; i++)
        for (int c = 0; c < cols; c++) {
            if (F->colrole[c] < 0)
                continue;
            const sch_role *R = &F->s->roles[F->colrole[c]];
            if (t->role[i] != F->roleid[F->colrole[c]] || t->phase[i] != F->colphase[c])
                continue;
            if (!R->rotate && t->warp[i] % R->nchains != F->colchain[c])
                continue;
            F->buf[t->tile[i] * cols + c] = (double)(t->end[i] - t->begin[i]) - F->colconst[c];
        }
    return 0;
}

/* The tiles in the order they ran on each SM (by SM, then by when the
 * period step began), so the Monte Carlo can draw runs of consecutive
 * tiles and keep the trace's serial correlation (slow stretches). */
static int fit_order_tiles(fit_state *F)
{
    const pg_schedule *s = F->s;
    const pg_trace *t = F->t;
    const int64_t ntiles = F->ntiles;
    const int cols = F->tab->cols;
    F->key_sm = malloc(sizeof(int64_t) * (size_t)ntiles);
    F->key_t = malloc(sizeof(int64_t) * (size_t)ntiles);
    F->ord = malloc(sizeof(int64_t) * (size_t)ntiles);
    F->sorted = malloc(sizeof(double) * (size_t)ntiles * (size_t)(cols ? cols : 1));
    if (!F->key_sm || !F->key_t || !F->ord || !F->sorted)
        return pg_fail("out of memory for %lld tiles", (long long)ntiles);
    const int period_phase = sch_trace_phase(t, s->roles[s->period_role].steps[s->period_step].name);
    for (int64_t k = 0; k < ntiles; k++) {
        F->key_sm[k] = INT64_MAX;
        F->key_t[k] = INT64_MAX;
        F->ord[k] = k;
    }
    for (int64_t i = 0; i < t->n; i++)
        if (t->role[i] == F->roleid[s->period_role] && t->phase[i] == period_phase) {
            F->key_sm[t->tile[i]] = t->sm[i];
            F->key_t[t->tile[i]] = t->begin[i];
        }
    g_key_sm = F->key_sm;
    g_key_t = F->key_t;
    qsort(F->ord, (size_t)ntiles, sizeof(int64_t), cmp_tile_key);
    F->posof = malloc(sizeof(int64_t) * (size_t)ntiles);
    for (int64_t q = 0; F->posof && q < ntiles; q++)
        F->posof[F->ord[q]] = q;
    return 0;
}

/* Latency column c per tile: the wait's end less its event (tile k - off's
 * on the same SM), censored values imputed where the dependency did not bind. */
static int fit_latency_values(fit_state *F, int c)
{
    const pg_schedule *s = F->s;
    const int64_t ntiles = F->ntiles, *posof = F->posof, *ord = F->ord, *key_sm = F->key_sm;
    const int cols = F->tab->cols;
    const sch_edge *e = &s->edges[F->memcol_edge[c]];
    const int off = e->at_node >= 0 ? e->at_off : e->off;
    double *de = F->memwl[c], *db = F->mdb[c], *sb = F->msb[c], *se = F->mse[c];
    for (int64_t k = 0; k < ntiles && posof; k++) {
        int64_t kk = k;
        if (off > 0) {
            int64_t q = posof[k] - off;
            kk = q >= 0 && key_sm[ord[q]] == key_sm[k] && key_sm[k] != INT64_MAX ? ord[q] : -1;
        }
        double ev = kk < 0 ? NAN : e->at_node >= 0 ? sb[kk] + e->at_frac * (se[kk] - sb[kk]) : se[kk];
        double y = de[k] - ev - e->w;
        F->buf[k * cols + c] = isfinite(y) ? (y > 0 ? y : 0) : NAN;
    }
    for (int64_t k = 0; k < ntiles; k++)
        de[k] = de[k] - db[k] - F->memcol_own[c]; /* what the step waited beyond its own work */
    int bad = !posof || impute_censored(F->buf, c, cols, ntiles, de, F->memcol_thr[c], ord, key_sm);
    if (!posof)
        pg_fail("out of memory");
    return bad ? -1 : 0;
}

/* Delay-gap column c per tile: the next tile's step after the delay begins
 * less this tile's step before it ends, less the delay's constant (0 where
 * the steps around the delay are not traced). */
static void fit_gap_values(fit_state *F, int c)
{
    const pg_schedule *s = F->s;
    const pg_trace *t = F->t;
    const int64_t ntiles = F->ntiles;
    const int cols = F->tab->cols;
    const sch_edge *e = &s->edges[F->gapcol_edge[c]];
    const int dly = e->to, before = e->from;
    int after = -1;
    for (int v = 0; v < s->nnodes; v++)
        if (s->nodes[v].prev == dly && s->nodes[v].chain == 0)
            after = v;
    double *eb = malloc(sizeof(double) * (size_t)ntiles), *ab = malloc(sizeof(double) * (size_t)ntiles);
    if (!eb || !ab || after < 0 || s->roles[s->nodes[before].role].steps[s->nodes[before].step].kind == STEP_DELAY ||
        s->roles[s->nodes[after].role].steps[s->nodes[after].step].kind == STEP_DELAY) {
        free(eb);
        free(ab);
        for (int64_t k = 0; k < ntiles; k++)
            F->buf[k * cols + c] = 0;
        return;
    }
    for (int64_t k = 0; k < ntiles; k++)
        eb[k] = ab[k] = NAN;
    for (int64_t i = 0; i < t->n; i++)
        for (int q = 0; q < 2; q++) {
            const sch_node *nd = &s->nodes[q ? after : before];
            const sch_role *R = &s->roles[nd->role];
            int ph;
            if (t->role[i] != F->roleid[nd->role] || (!R->rotate && t->warp[i] != 0) ||
                (ph = sch_trace_phase(t, R->steps[nd->step].name)) < 0 || t->phase[i] != ph)
                continue;
            if (q)
                ab[t->tile[i]] = (double)t->begin[i];
            else
                eb[t->tile[i]] = (double)t->end[i];
        }
    const int step = s->nodes[after].prev_off; /* the role's next tile: 1, or its instances (rotate) */
    for (int64_t k = 0; k < ntiles; k++) {
        double y = NAN;
        int64_t q = F->posof[k] + step;
        if (q < ntiles && F->key_sm[k] != INT64_MAX && F->key_sm[F->ord[q]] == F->key_sm[k])
            y = ab[F->ord[q]] - eb[k] - e->w;
        F->buf[k * cols + c] = isfinite(y) ? y : 0; /* the SM's last tiles: nothing follows */
    }
    free(eb);
    free(ab);
}

/* The table: the tiles with every column known, in SM order (F->row_of:
 * tile -> row), attached to the schedule, which makes those phases empirical. */
static int fit_attach_rows(fit_state *F)
{
    sch_table *tab = F->tab;
    const int64_t ntiles = F->ntiles;
    int64_t rows = 0, last_sm = -1;
    F->row_of = malloc(sizeof(int64_t) * (size_t)ntiles); /* NULL: means are used */
    for (int64_t k = 0; F->row_of && k < ntiles; k++)
        F->row_of[k] = -1;
    for (int64_t q = 0; q < ntiles; q++) {
        int64_t k = F->ord[q];
        int full = 1;
        for (int c = 0; c < tab->cols; c++)
            if (!isfinite(F->buf[k * tab->cols + c]))
                full = 0;
        if (full && tab->cols) {
            if ((rows == 0 || F->key_sm[k] != last_sm) &&
                tab->nunits < (int)(sizeof tab->unit_first / sizeof tab->unit_first[0]))
                tab->unit_first[tab->nunits++] = rows;
            last_sm = F->key_sm[k];
            memcpy(F->sorted + rows * tab->cols, F->buf + k * tab->cols, sizeof(double) * (size_t)tab->cols);
            if (F->row_of)
                F->row_of[k] = rows;
            rows++;
        }
    }
    free(F->buf);
    F->buf = F->sorted;
    F->sorted = NULL;
    tab->block = 16;
    if (rows < 10)
        return pg_fail("the trace has only %lld tiles with every work phase of schedule %s recorded", (long long)rows,
                       F->s->name);
    tab->rows = rows;
    tab->v = F->buf;
    F->buf = NULL;
    F->s->table = tab;
    F->tab = NULL;
    return sch_compile(F->s); /* makes the tabled phases empirical */
}

/* Per-phase distributions: the per-tile table, the tiles in SM order, the
 * latency and gap columns' values, attached to the schedule. */
static int fit_phase_table(fit_state *F)
{
    if (fit_phase_samples(F) || fit_order_tiles(F))
        return -1;
    for (int c = 0; c < F->tab->cols; c++)
        if (F->memwl[c]) {
            int bad = fit_latency_values(F, c);
            free(F->memwl[c]);
            free(F->mdb[c]);
            free(F->msb[c]);
            free(F->mse[c]);
            F->memwl[c] = F->mdb[c] = F->msb[c] = F->mse[c] = NULL;
            if (bad)
                return -1;
        }
    for (int c = 0; c < F->tab->cols && F->posof; c++)
        if (F->gapcol_edge[c] >= 0)
            fit_gap_values(F, c);
    free(F->posof);
    F->posof = NULL;
    return fit_attach_rows(F);
}

int pg_schedule_fit_as(const pg_run *run, const char *schedule, pg_schedule **out)
{
    return pg_schedule_fit_variant(run, schedule, NULL, 0, out);
}

/* M146: an option the calibration decides.  A `rowfirst` line's
 * option=NAME is set to 1 where the fitted extra is over its above=C
 * cycles, else 0 (h100-pingpong's rowfirst_prefetch: whether the kernel
 * prefetches a row block's first tile's own A just before loading it, the
 * extra's gap).  Where the fit cannot measure the extra (one column block,
 * or no tile width recorded) it stays as written, and the option with it. */
static int set_by_caller(const char *const *sets, int nsets, const char *name)
{
    const size_t n = strlen(name);
    for (int i = 0; i < nsets; i++)
        if (strncmp(sets[i], name, n) == 0 && sets[i][n] == '=')
            return 1;
    return 0;
}

/* the value the fitted rowfirst extra calls for in the line's option, where
 * it is not the one the fit ran with; -1 where it is, or the line names no
 * option, or the caller set it */
static int option_to_refit(const pg_schedule *s, const char *const *sets, int nsets)
{
    char v[32];
    if (!s->rf_line || !s->rf_option[0] || pg_schedule_option(s, s->rf_option, v, sizeof v) != 0 ||
        set_by_caller(sets, nsets, s->rf_option))
        return -1;
    const int seen = s->rf_extra > s->rf_above;
    return seen == (atof(v) != 0) ? -1 : seen;
}

static int fit_once(const pg_run *run, const char *schedule, const char *const *sets, int nsets, pg_schedule **out);

int pg_schedule_fit_variant(const pg_run *run, const char *schedule, const char *const *sets, int nsets,
                            pg_schedule **out)
{
    if (fit_once(run, schedule, sets, nsets, out))
        return -1;
    if ((*out)->rf_option[0])
        (*out)->rf_option_by_caller = set_by_caller(sets, nsets, (*out)->rf_option);
    const int seen = option_to_refit(*out, sets, nsets);
    if (seen < 0)
        return 0;
    /* fit again with the option the trace calls for (it moves the
     * calibration: the loop's load latency is solved under it) */
    char set[SCH_NAME + 3];
    snprintf(set, sizeof set, "%s=%d", (*out)->rf_option, seen);
    const double extra = (*out)->rf_extra;
    pg_schedule_free(*out);
    *out = NULL;
    const char **with = malloc(sizeof *with * (size_t)(nsets + 1));
    if (!with)
        return pg_fail("out of memory");
    for (int i = 0; i < nsets; i++)
        with[i] = sets[i];
    with[nsets] = set;
    const int rc = fit_once(run, schedule, with, nsets + 1, out);
    if (rc)
        pg_fail_context("fitting again with %s (the trace's rowfirst extra: %.0f cycles)", set, extra);
    else
        (*out)->rf_option_by_caller = 0;
    free(with);
    return rc;
}

static int fit_once(const pg_run *run, const char *schedule, const char *const *sets, int nsets, pg_schedule **out)
{
    *out = NULL;
    fit_state F;
    memset(&F, 0, sizeof F);
    F.run = run;
    F.t = &run->trace;
    F.kname = run->kernel.present ? run->kernel.name : F.t->kernel;
    int rc = -1;
    if (F.t->n == 0)
        return pg_fail("the run has no trace (record one with the kernel's trace build)");
    if (fit_pick_schedule(&F, schedule, sets, nsets) || fit_set_probes(&F) || fit_set_machine(&F))
        goto done;
    if (fit_index_trace(&F) || fit_phase_table(&F))
        goto done;
    /* A work step that also waits (producer_issue waits for stages 1..5) is
     * not fitted: its trace time is mostly that wait, and its own issue time
     * cannot be separated from it; the schedule's prior stays. */
    if (fit_latencies(F.s, F.t, F.roleid, F.ntiles, F.row_of))
        goto done;
    if (fit_lines(F.s, run, F.row_of, F.ntiles))
        goto done;
    snprintf(F.s->origin, sizeof F.s->origin, "fit:%s", F.s->name);
    *out = F.s;
    F.s = NULL;
    rc = 0;
done:
    fit_state_free(&F);
    return rc;
}

/* ------------------------------------------------------ measured-trace summary */

typedef fit_interval interval;

static int cmp_tile_interval(const void *a, const void *b)
{
    const interval *x = a, *y = b;
    if (x->sm != y->sm)
        return x->sm < y->sm ? -1 : 1;
    if (x->tile != y->tile)
        return x->tile < y->tile ? -1 : 1;
    return x->begin < y->begin ? -1 : x->begin > y->begin;
}

static int cmp_interval(const void *a, const void *b)
{
    const interval *x = a, *y = b;
    if (x->sm != y->sm)
        return x->sm < y->sm ? -1 : 1;
    return x->begin < y->begin ? -1 : x->begin > y->begin;
}

int64_t fit_tile_starts(const pg_trace *t, int phase, interval *iv)
{
    int64_t n = 0;
    for (int64_t i = 0; i < t->n; i++)
        if (t->phase[i] == phase)
            iv[n++] = (interval){t->sm[i], t->begin[i], t->end[i], t->tile[i]};
    /* one start per tile: the earliest warp's (in a schedule whose
     * warps all run every tile, mode=each, each warp records it) */
    qsort(iv, (size_t)n, sizeof(interval), cmp_tile_interval);
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++)
        if (m == 0 || iv[i].sm != iv[m - 1].sm || iv[i].tile != iv[m - 1].tile)
            iv[m++] = iv[i];
    qsort(iv, (size_t)m, sizeof(interval), cmp_interval);
    return m;
}

int pg_trace_summarize(const pg_trace *t, double sm_clock_hz, pg_prediction *out)
{
    /* pegemm's kernels' serialized phase: the tensor cores' */
    int pref = pg_vocab_phase(&t->vocab, "mainloop");
    if (pref < 0)
        pref = pg_vocab_phase(&t->vocab, "kloop");
    return pg_trace_summarize_period(t, sm_clock_hz, pref >= 0 ? t->vocab.phase[pref] : NULL, out);
}

/* Phase ph's durations in t as a stat (mean, p50, p95, ci95; its name);
 * 0 where the phase has none.  v: scratch of t->n. */
static int phase_stat(const pg_trace *t, int ph, double *v, pg_stat *st)
{
    int64_t n = 0;
    double sum = 0;
    for (int64_t i = 0; i < t->n; i++)
        if (t->phase[i] == ph) {
            v[n] = (double)(t->end[i] - t->begin[i]);
            sum += v[n++];
        }
    if (n == 0)
        return 0;
    qsort(v, (size_t)n, sizeof(double), fit_cmp_double);
    snprintf(st->name, sizeof st->name, "%s", t->vocab.phase[ph]);
    st->mean = sum / (double)n;
    st->p50 = fit_quantile_sorted(v, n, 0.5);
    st->p95 = fit_quantile_sorted(v, n, 0.95);
    double ss = 0;
    for (int64_t i = 0; i < n; i++)
        ss += (v[i] - st->mean) * (v[i] - st->mean);
    st->ci95 = n > 1 ? 1.96 * sqrt(ss / (double)(n - 1) / (double)n) : NAN;
    return 1;
}

/* Every traced phase's stat: a wait's among out's waits, any other's among
 * its phases (as many as fit). */
static void summarize_phases(const pg_trace *t, double *v, pg_prediction *out)
{
    for (int ph = 0; ph < t->vocab.n_phases; ph++) {
        pg_stat st = {0};
        if (!phase_stat(t, ph, v, &st))
            continue;
        if (t->vocab.phase_is_wait[ph] && out->nwaits < PG_MODEL_MAX_STATS)
            out->waits[out->nwaits++] = st;
        else if (out->nphases < PG_MODEL_MAX_STATS)
            out->phases[out->nphases++] = st;
    }
}

/* The period phase pn's idle gaps (the ng values of v, summing to gsum) as
 * a wait's stat: pegemm's kernels' tensor_idle, another kernel's PHASE_idle
 * (a schedule's `idle PHASE ROLE.PHASE`).  Sorts v. */
static pg_stat idle_stat(const char *pn, double *v, int64_t ng, double gsum)
{
    qsort(v, (size_t)ng, sizeof(double), fit_cmp_double);
    pg_stat st = {0};
    if (!strcmp(pn, "mainloop") || !strcmp(pn, "kloop"))
        snprintf(st.name, sizeof st.name, "tensor_idle");
    else
        snprintf(st.name, sizeof st.name, "%.24s_idle", pn);
    st.mean = gsum / (double)ng;
    st.p50 = fit_quantile_sorted(v, ng, 0.5);
    st.p95 = fit_quantile_sorted(v, ng, 0.95);
    st.ci95 = NAN;
    return st;
}

/* The period phase pref (the serialized resource, e.g. the tensor cores'
 * mainloop): the tile period (each SM's first to last tile start over the
 * tiles between) and the idle gaps from a tile's end to the next one's
 * start, per SM.  v, iv: scratch of t->n. */
static void summarize_period(const pg_trace *t, int pref, double *v, interval *iv, pg_prediction *out)
{
    const int64_t n = fit_tile_starts(t, pref, iv);
    double span = 0, gsum = 0;
    int64_t gaps = 0, ng = 0;
    for (int64_t i = 0; i < n;) {
        int64_t j = i;
        while (j < n && iv[j].sm == iv[i].sm)
            j++;
        if (j - i >= 2) {
            span += (double)(iv[j - 1].begin - iv[i].begin);
            gaps += j - i - 1;
            for (int64_t q = i + 1; q < j; q++) {
                double g = (double)(iv[q].begin - iv[q - 1].end);
                v[ng++] = g > 0 ? g : 0;
                gsum += g > 0 ? g : 0;
            }
        }
        i = j;
    }
    out->tile_period = gaps ? span / (double)gaps : NAN;
    if (ng && out->nwaits < PG_MODEL_MAX_STATS)
        out->waits[out->nwaits++] = idle_stat(t->vocab.phase[pref], v, ng, gsum);
    snprintf(out->bottleneck, sizeof out->bottleneck, "measured");
}

/* The longest SM's span in cycles, from its first begin to its last end
 * (the wall clock).  iv: scratch of t->n. */
static double longest_sm_span(const pg_trace *t, interval *iv)
{
    double longest = 0;
    int64_t n = 0;
    for (int64_t i = 0; i < t->n; i++)
        iv[n++] = (interval){t->sm[i], t->begin[i], t->end[i], t->tile[i]};
    qsort(iv, (size_t)n, sizeof(interval), cmp_interval);
    for (int64_t i = 0; i < n;) {
        int64_t j = i, last = iv[i].end;
        while (j < n && iv[j].sm == iv[i].sm) {
            if (iv[j].end > last)
                last = iv[j].end;
            j++;
        }
        if ((double)(last - iv[i].begin) > longest)
            longest = (double)(last - iv[i].begin);
        i = j;
    }
    return longest;
}

int pg_trace_summarize_period(const pg_trace *t, double sm_clock_hz, const char *period_phase, pg_prediction *out)
{
    memset(out, 0, sizeof *out);
    out->clark_tile_period = out->cycle_time_deterministic = NAN;
    out->tflops = out->dram_utilization = out->bandwidth_phase_mean = NAN;
    if (t->n == 0)
        return pg_fail("the trace is empty");
    double *v = malloc(sizeof(double) * (size_t)t->n);
    interval *iv = malloc(sizeof(interval) * (size_t)t->n);
    int rc = v && iv ? 0 : pg_fail("out of memory");
    if (rc == 0) {
        summarize_phases(t, v, out);
        const int pref = period_phase ? pg_vocab_phase(&t->vocab, period_phase) : -1;
        if (pref >= 0)
            summarize_period(t, pref, v, iv, out);
        else
            out->tile_period = NAN;
        const double longest = longest_sm_span(t, iv);
        out->wall_ms = sm_clock_hz > 0 ? longest / sm_clock_hz * 1e3 : NAN;
    }
    free(v);
    free(iv);
    return rc;
}

/* ------------------------------------------------------------ simulated trace */

/* Tile k's traced steps (settled: engine.h) as rows of out from *row on. */
static void emit_tile_rows(const pg_schedule *s, const engine *E, const int *roleid, int sm, int n_sm, int64_t k,
                           pg_trace *out, int64_t *row)
{
    for (int v = 0; v < s->nnodes; v++) {
        const sch_node *nd = &s->nodes[v];
        const sch_role *R = &s->roles[nd->role];
        int ph;
        if (R->steps[nd->step].kind == STEP_DELAY || (ph = pg_vocab_phase(&s->vocab, R->steps[nd->step].name)) < 0)
            continue;
        out->sm[*row] = sm;
        out->role[*row] = (uint8_t)roleid[nd->role];
        out->warp[*row] = R->rotate ? (int32_t)(k % R->instances) : nd->chain;
        out->tile[*row] = (int32_t)(k * n_sm + sm);
        out->phase[*row] = (uint8_t)ph;
        out->begin[*row] = (int64_t)llround(engine_start(E, v, k));
        out->end[*row] = (int64_t)llround(engine_x(E, v, k));
        (*row)++;
    }
}

int pg_model_simulate_trace(const pg_schedule *s, const pg_model_opts *o, int n_sm, pg_trace *out)
{
    memset(out, 0, sizeof *out);
    if (n_sm < 1)
        return pg_fail("n_sm must be at least 1");
    int64_t per_sm = (int64_t)(s->machine.tiles / s->machine.units);
    if (o->tiles > 0 && o->tiles < per_sm)
        per_sm = o->tiles;
    if (per_sm < 1)
        per_sm = 1;
    int rows_per_tile = 0;
    int roleid[SCH_MAX_ROLES];
    for (int r = 0; r < s->nroles; r++) {
        if ((roleid[r] = pg_vocab_role(&s->vocab, s->roles[r].name)) < 0)
            return pg_fail("role '%s' is not in schedule %s's vocabulary", s->roles[r].name, s->name);
        for (int st = 0; st < s->roles[r].nsteps; st++)
            if (s->roles[r].steps[st].kind != STEP_DELAY)
                rows_per_tile += s->roles[r].nchains;
    }
    if (pg_trace_alloc(out, (int64_t)n_sm * per_sm * rows_per_tile, n_sm))
        return -1;
    out->vocab = s->vocab; /* the schedule's names */
    snprintf(out->schedule, sizeof out->schedule, "%s", s->name);
    engine E;
    pg_schedule *eq = NULL;
    double rho, mean;
    /* at the bandwidth equilibrium, as pg_model_predict */
    if (sch_bandwidth_equilibrium(s, o, &eq, &rho, &mean) || engine_init(&E, eq, o->seed, o->deterministic)) {
        pg_schedule_free(eq);
        pg_trace_free(out);
        return -1;
    }
    int64_t row = 0;
    for (int sm = 0; sm < n_sm; sm++) {
        engine_reset(&E, o->seed * 31u + (uint64_t)sm + 1);
        for (int64_t k = 0; k < per_sm; k++) {
            engine_step(&E); /* settles tile k - 1 (engine.h); the SM's last has no next */
            if (k >= 1)
                emit_tile_rows(s, &E, roleid, sm, n_sm, k - 1, out, &row);
        }
        emit_tile_rows(s, &E, roleid, sm, n_sm, per_sm - 1, out, &row);
    }
    engine_free(&E);
    pg_schedule_free(eq);
    if (row != out->n) {
        pg_trace_free(out);
        return pg_fail("simulated trace: %lld rows written, %lld expected", (long long)row, (long long)out->n);
    }
    return 0;
}
