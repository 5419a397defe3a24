/* pg_model_predict: deterministic equilibrium (max-plus), the stochastic
 * equilibrium (Monte Carlo over the recurrence: waits, phases, tile period
 * with batch-means confidence intervals), wall clock over all units, TFLOPS,
 * and the Clark closed form.  A fitted run (`whole_run`) takes its waits,
 * phases and period from every unit's run from an empty pipeline
 * (predict_run.c for the period), the chain's period kept beside it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clark.h"
#include "engine.h"
#include "maxplus.h"
#include "model.h"
#include "model_ext.h"
#include "predict_run.h"
#include "sched.h"
#include "pg_error.h"

#define NBATCH 20
#define T_19 2.093 /* Student t, 19 degrees of freedom, 97.5% */

typedef struct {
    char name[32];
    int is_wait;
    float *v;
    int64_t n, cap;
    double sum;
    double bsum[NBATCH];
    int64_t bcnt[NBATCH];
} series;

static int series_init(series *q, const char *name, int is_wait, int64_t cap)
{
    memset(q, 0, sizeof *q);
    snprintf(q->name, sizeof q->name, "%.31s", name);
    q->is_wait = is_wait;
    q->cap = cap;
    q->v = malloc(sizeof(float) * (size_t)cap);
    return q->v ? 0 : pg_fail("out of memory for %lld samples", (long long)cap);
}

static inline void series_add(series *q, double x, int batch)
{
    if (q->n < q->cap)
        q->v[q->n++] = (float)x;
    q->sum += x;
    q->bsum[batch] += x;
    q->bcnt[batch]++;
}

static float select_kth(float *a, int64_t n, int64_t k)
{
    int64_t lo = 0, hi = n - 1;
    while (lo < hi) {
        float piv = a[lo + (hi - lo) / 2];
        int64_t i = lo, j = hi;
        while (i <= j) {
            while (a[i] < piv)
                i++;
            while (a[j] > piv)
                j--;
            if (i <= j) {
                float t = a[i];
                a[i++] = a[j];
                a[j--] = t;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            break;
    }
    return a[k];
}

static void series_stat(series *q, pg_stat *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", q->name);
    if (q->n == 0) {
        out->mean = out->p50 = out->p95 = NAN;
        return;
    }
    out->mean = q->sum / (double)q->n;
    out->p50 = select_kth(q->v, q->n, (q->n - 1) / 2);
    out->p95 = select_kth(q->v, q->n, (int64_t)floor(0.95 * (double)(q->n - 1)));
    double bm[NBATCH], mm = 0;
    int nb = 0;
    for (int b = 0; b < NBATCH; b++)
        if (q->bcnt[b] > 0) {
            bm[nb] = q->bsum[b] / (double)q->bcnt[b];
            mm += bm[nb++];
        }
    if (nb < 2) {
        out->ci95 = NAN;
        return;
    }
    mm /= nb;
    double ss = 0;
    for (int b = 0; b < nb; b++)
        ss += (bm[b] - mm) * (bm[b] - mm);
    out->ci95 = T_19 * sqrt(ss / (nb - 1) / nb);
}

/* Wall clock of the whole problem: every unit runs its share of tiles from an
 * empty pipeline (prologue and tail included); the slowest unit finishes last. */
static int wall_clock(const pg_schedule *s, const pg_model_opts *o, double *mean_cycles, double *ci_cycles)
{
    const int64_t units = (int64_t)s->machine.units, tiles = (int64_t)s->machine.tiles;
    const int64_t base = tiles / units, extra = tiles % units;
    const int reps = o->deterministic ? 1 : (o->tiles >= 50000 ? 3 : 1);
    double w[8];
    engine E;
    if (engine_init(&E, s, o->seed ^ 0xA5A5u, o->deterministic))
        return -1;
    for (int r = 0; r < reps; r++) {
        double slowest = 0;
        for (int64_t u = 0; u < (o->deterministic ? 2 : units); u++) {
            int64_t n = base + (u < extra ? 1 : 0);
            if (o->deterministic)
                n = base + (u == 0 && extra ? 1 : 0);
            engine_reset(&E, o->seed * 1000003u + (uint64_t)r * 7919u + (uint64_t)u + 17);
            for (int64_t k = 0; k < n; k++)
                engine_step(&E);
            double f = engine_latest(&E);
            if (f > slowest)
                slowest = f;
        }
        w[r] = slowest + s->machine.prologue;
    }
    engine_free(&E);
    double m = 0, ss = 0;
    for (int r = 0; r < reps; r++)
        m += w[r];
    m /= reps;
    for (int r = 0; r < reps; r++)
        ss += (w[r] - m) * (w[r] - m);
    *mean_cycles = m;
    *ci_cycles = reps > 1 ? 4.303 * sqrt(ss / (reps - 1) / reps) : NAN; /* t(2 dof) */
    return 0;
}

/* Tile k's step durations into their series (ser_of: the series of each
 * (role, step), -1 for none) and, where the run has a tile before it, the
 * idle gaps into the series from idle0 on; batch b. */
static void record_tile(const pg_schedule *s, const engine *E, int64_t k, int with_idle,
                        const int ser_of[SCH_MAX_ROLES][SCH_MAX_STEPS], series *ser, int idle0, int b)
{
    for (int v = 0; v < s->nnodes; v++) {
        const sch_node *nd = &s->nodes[v];
        const int q = ser_of[nd->role][nd->step];
        if (q >= 0)
            series_add(&ser[q], engine_x(E, v, k) - engine_start(E, v, k), b);
    }
    for (int i = 0; with_idle && i < s->nidle; i++) {
        const int v = sch_node_of(s, s->idle[i].role, 0, s->idle[i].step);
        series_add(&ser[idle0 + i], engine_start(E, v, k) - engine_x(E, v, k - 1), b);
    }
}

/* The series' statistics as the prediction's waits and phases. */
static void publish_stats(series *ser, int nser, pg_prediction *out)
{
    out->nwaits = out->nphases = 0;
    for (int q = 0; q < nser; q++) {
        pg_stat st;
        series_stat(&ser[q], &st);
        if (ser[q].is_wait && out->nwaits < PG_MODEL_MAX_STATS)
            out->waits[out->nwaits++] = st;
        else if (!ser[q].is_wait && out->nphases < PG_MODEL_MAX_STATS)
            out->phases[out->nphases++] = st;
    }
}

/* The series one prediction fills: one per (role, step) that is a wait or
 * work (ser_of: each one's series, -1 for none), the idle gaps from idle0
 * on, and the tile period.  One struct, so that one free covers them all. */
typedef struct {
    series ser[PG_MODEL_MAX_STATS * 2];
    int nser, idle0;
    int ser_of[SCH_MAX_ROLES][SCH_MAX_STEPS];
    series period;
} tile_series;

static void tile_series_free(tile_series *T)
{
    for (int q = 0; q < T->nser; q++)
        free(T->ser[q].v);
    free(T->period.v);
}

/* Room for M tiles in every series (a role's chains each add a sample per
 * tile).  On failure what was allocated stays counted in nser, for the free. */
static int tile_series_init(tile_series *T, const pg_schedule *s, int64_t M)
{
    for (int r = 0; r < s->nroles; r++)
        for (int st = 0; st < s->roles[r].nsteps; st++) {
            const sch_step *S = &s->roles[r].steps[st];
            T->ser_of[r][st] = -1;
            if (S->kind == STEP_DELAY || T->nser == PG_MODEL_MAX_STATS * 2 - SCH_MAX_IDLE)
                continue;
            if (series_init(&T->ser[T->nser], S->name, S->kind == STEP_WAIT, M * s->roles[r].nchains))
                return -1;
            T->ser_of[r][st] = T->nser++;
        }
    T->idle0 = T->nser;
    for (int i = 0; i < s->nidle; i++) {
        char nm[64];
        snprintf(nm, sizeof nm, "%.24s_idle", s->idle[i].name);
        if (series_init(&T->ser[T->nser++], nm, 1, M))
            return -1;
    }
    return series_init(&T->period, "tile_period", 0, M);
}

/* The equilibrium: N tiles, the first W dropped as warm-up, the other M
 * recorded in NBATCH batches.  The period is the reference step's advance
 * over those M tiles; the batch means only give its interval. */
static void run_steady(const pg_schedule *s, engine *E, tile_series *T, int64_t N, int64_t W, int64_t M,
                       pg_prediction *out)
{
    const int vref = sch_node_of(s, s->period_role, 0, s->period_step);
    double xref_w = 0, xref_last = 0;
    for (int64_t k = 0; k <= N; k++) {
        engine_step(E); /* tile k, which settles tile k - 1 (engine.h) */
        if (k == W - 1)
            xref_w = engine_x(E, vref, k);
        if (k == N - 1)
            xref_last = engine_x(E, vref, k);
        const int64_t j = k - 1;
        if (j < W)
            continue;
        const int b = (int)((j - W) * NBATCH / M);
        record_tile(s, E, j, 1, T->ser_of, T->ser, T->idle0, b);
        series_add(&T->period, engine_x(E, vref, j) - engine_x(E, vref, j - 1), b);
    }
    pg_stat ps;
    series_stat(&T->period, &ps);
    out->tile_period = (xref_last - xref_w) / (double)M;
    out->tile_period_ci95 = ps.ci95;
    publish_stats(T->ser, T->nser, out);
}

/* Empty every series, with room for the whole problem: base + 1 tiles of
 * each of the units, a series' samples per tile as in the M-tile run. */
static int series_regrow(tile_series *T, int64_t base, int64_t units, int64_t M)
{
    for (int q = 0; q < T->nser; q++) {
        series *sq = &T->ser[q];
        int64_t cap = (base + 1) * units * (sq->cap / (M > 0 ? M : 1));
        float *nv = realloc(sq->v, sizeof(float) * (size_t)(cap > 0 ? cap : 1));
        if (!nv)
            return pg_fail("out of memory for %lld samples", (long long)cap);
        sq->v = nv;
        sq->cap = cap;
        sq->n = 0;
        sq->sum = 0;
        memset(sq->bsum, 0, sizeof sq->bsum);
        memset(sq->bcnt, 0, sizeof sq->bcnt);
    }
    return 0;
}

/* The same statistics over the whole problem: every unit's share of the
 * tiles from an empty pipeline (as a trace of the run holds them); they
 * replace the equilibrium's waits and phases. */
static int run_whole(const pg_schedule *s, const pg_model_opts *o, engine *E, tile_series *T, int64_t M,
                     pg_prediction *out)
{
    const int64_t units = (int64_t)s->machine.units, tiles = (int64_t)s->machine.tiles;
    const int64_t base = tiles / units, extra = tiles % units;
    if (series_regrow(T, base, units, M))
        return -1;
    for (int64_t u = 0; u < units; u++) {
        const int64_t n = base + (u < extra ? 1 : 0);
        const int b = (int)(u * NBATCH / units);
        engine_reset(E, o->seed * 2654435761u + (uint64_t)u + 101);
        for (int64_t k = 0; k < n; k++) {
            engine_step(E); /* settles tile k - 1 (engine.h); the unit's last has no next */
            /* the trace's idle gaps are between a unit's consecutive tiles */
            if (k >= 1)
                record_tile(s, E, k - 1, k > 1, T->ser_of, T->ser, T->idle0, b);
        }
        if (n >= 1)
            record_tile(s, E, n - 1, n > 1, T->ser_of, T->ser, T->idle0, b);
    }
    publish_stats(T->ser, T->nser, out);
    return 0;
}

/* The numbers besides the statistics: NAN where this run computes none (the
 * DRAM ones are pg_model_predict's), the L2 report, and with_wall the wall
 * clock, TFLOPS and the Clark closed form. */
static int finish_prediction(const pg_schedule *s, const pg_model_opts *o, int with_wall, pg_prediction *out)
{
    out->dram_utilization = out->bandwidth_phase_mean = NAN;
    out->wall_ms = out->tflops = out->clark_tile_period = NAN;
    out->startup_shift = 0;
    if (!l2reuse_report(s, &out->l2_working_set, &out->l2_kept, &out->l2_kept_cal))
        out->l2_working_set = out->l2_kept = out->l2_kept_cal = NAN;
    if (with_wall) {
        double wc, wci;
        if (wall_clock(s, o, &wc, &wci))
            return -1;
        out->wall_ms = wc / s->machine.clock_hz * 1e3;
        out->tflops = s->machine.flops / (out->wall_ms * 1e-3) / 1e12;
        out->clark_tile_period = sch_clark_period(s);
    }
    return 0;
}

static int predict_core(const pg_schedule *s, const pg_model_opts *o, pg_prediction *out, int with_wall)
{
    memset(out, 0, sizeof *out);
    out->tile_period_chain = NAN;
    const int64_t N = o->tiles > 0 ? o->tiles : 100000;
    if (N < 100)
        return pg_fail("--tiles must be at least 100 (got %lld)", (long long)N);
    if (N > 100000000)
        return pg_fail("--tiles at most 1e8 (got %lld)", (long long)N);
    const int64_t W = N / 10, M = N - W; /* warm-up tiles dropped from the statistics */
    int rc = -1, eng = 0;
    tile_series T;
    engine E;
    memset(&T, 0, sizeof T);
    if (sch_deterministic(s, &out->cycle_time_deterministic, out->critical_cycle, sizeof out->critical_cycle,
                          out->bottleneck, sizeof out->bottleneck))
        goto done;
    if (tile_series_init(&T, s, M) || engine_init(&E, s, o->seed, o->deterministic))
        goto done;
    eng = 1;
    run_steady(s, &E, &T, N, W, M, out);
    if (with_wall && s->machine.whole_run && !o->deterministic) {
        if (run_whole(s, o, &E, &T, M, out))
            goto done;
        const double run = predict_run_period(s, o, &E);
        if (isfinite(run)) { /* the run's own period replaces the chain's (predict_run.c) */
            out->tile_period_chain = out->tile_period;
            out->tile_period = run;
        }
    }
    if (finish_prediction(s, o, with_wall, out))
        goto done;
    rc = 0;
done:
    if (eng)
        engine_free(&E);
    tile_series_free(&T);
    return rc;
}

/* The clone c at period T (DRAM share rho against the copy floor): the
 * `bandwidth` phase's mean there, and the `dramq` line's share; returns the
 * mean, NAN on error (message set). */
static double at_period(pg_schedule *c, const pg_schedule *s, double T, double rho_raw, double stall_cal,
                        double rho_cal)
{
    const double rho = fmin(0.98, rho_raw);
    double mean = s->bw_compute + s->bw_work + stall_cal * (1 - rho_cal) / (1 - rho);
    if (s->dq_on) { /* the loads `dramq` lists move through it (dramq.c) */
        if (dramq_moves_loop(s))
            mean = dist_mean(&s->dists[s->bw_dist]) + s->bw_work; /* not the k-block loads twice */
        c->dq_rho = dramq_rho(s->bw_bytes_per_tile, s->machine.units, T, s->dq_bytes_per_s, s->machine.clock_hz);
        c->dq_rho_set = 1;
    }
    sch_override ov;
    memset(&ov, 0, sizeof ov);
    snprintf(ov.param, sizeof ov.param, "%s.mean", s->dists[s->bw_dist].name);
    ov.value = mean;
    c->dists[c->bw_dist] = s->dists[s->bw_dist];
    return sch_apply_override(c, &ov) ? NAN : mean;
}

/* The `streamwall` line (streamwall.c): the period c produces is below the
 * wall, so its listed loads wait longer, by the smallest common factor
 * that brings the period up to the wall.  The period does not fall as the
 * factor grows but may not move at first (a load the schedule hides), so
 * bisection, to 1e-3 of the factor (the period to about 0.1%).
 * c->sw_scale is left at that factor, *p at its prediction. */
static int wall_scale(pg_schedule *c, const pg_model_opts *quick, double wall, pg_prediction *p)
{
    double lo = 1, hi = 2;
    for (;;) { /* bracket: a factor whose period reaches the wall */
        c->sw_scale = hi;
        if (predict_core(c, quick, p, 0))
            return -1;
        if (p->tile_period >= wall || hi >= 64)
            break;
        lo = hi, hi *= 2;
    }
    if (p->tile_period < wall)
        return 0; /* the listed loads cannot carry the period there: left at 64x */
    while (hi - lo > 1e-3 * lo) {
        c->sw_scale = 0.5 * (lo + hi);
        if (predict_core(c, quick, p, 0))
            return -1;
        if (p->tile_period < wall)
            lo = c->sw_scale;
        else
            hi = c->sw_scale;
    }
    c->sw_scale = hi;
    return predict_core(c, quick, p, 0);
}

/* A schedule with a `bandwidth` line: the phase's memory stall depends on the
 * period it produces (rho = full-bandwidth cycles per tile / period).  Solve
 * period = f(period) by damped iteration; *out is a clone whose phase mean is
 * the one at that equilibrium (the caller frees it). */
int sch_bandwidth_equilibrium(const pg_schedule *s, const pg_model_opts *o, pg_schedule **out, double *rho_out,
                              double *mean_out)
{
    pg_schedule *c = NULL;
    pg_prediction p;
    *out = NULL;
    if (pg_schedule_clone(s, &c))
        return -1;
    if (s->bw_dist < 0) {
        *out = c;
        *rho_out = *mean_out = NAN;
        return 0;
    }
    /* cycles of DRAM time at the current clock; the stall and the calibrated
     * period's traffic were measured at mem_clock_hz (memory time is fixed in
     * ns, so its cycles scale with the clock) */
    const double r = sch_mem_clock_ratio(s);
    const double full = s->bw_bytes_per_tile * s->machine.units * s->machine.clock_hz / s->bw_bytes_per_s;
    const double full_cal =
        s->bw_cal_bytes_per_tile * sch_bandwidth_cal_units(s) * s->machine.clock_hz / s->bw_bytes_per_s;
    const double mean_cal = dist_mean(&s->dists[s->bw_dist]);
    const double stall_cal = (mean_cal > s->bw_compute ? mean_cal - s->bw_compute : 0) * r;
    const double rho_cal = fmin(0.98, full_cal / r / s->bw_calibrated_period);
    double mean = mean_cal;
    pg_model_opts quick = *o;
    if (quick.tiles <= 0 || quick.tiles > 8000)
        quick.tiles = 8000; /* same seed every time: f(T) is smooth in T, not noisy */
    /* f(T): the period the schedule produces when its phase mean is the one
     * at period T; g(T) = f(T) - T falls as T grows (a longer period, a
     * smaller share, less stall), so its one root is bracketed and closed
     * by false position (Illinois).  Secant steps alone oscillated near
     * saturation, where the stall climbs steeply, and stopped unconverged
     * (docs/experiments.md M43). */
    double a = NAN, ga = NAN, b = NAN, gb = NAN, T = s->bw_calibrated_period;
    int side = 0;
    for (int it = 0; it < 60; it++) {
        mean = at_period(c, s, T, full / T, stall_cal, rho_cal);
        if (!isfinite(mean) || predict_core(c, &quick, &p, 0)) {
            pg_schedule_free(c);
            return -1;
        }
        const double g = p.tile_period - T;
        if (fabs(g) < 1e-3 * T)
            break;
        if (g > 0) {
            if (side == 1 && isfinite(gb))
                gb *= 0.5; /* Illinois: the stale end's weight halved */
            a = T, ga = g, side = 1;
        } else {
            if (side == -1 && isfinite(ga))
                ga *= 0.5;
            b = T, gb = g, side = -1;
        }
        if (isfinite(a) && isfinite(b))
            T = a - ga * (b - a) / (gb - ga); /* false position inside [a, b] */
        else
            T = g > 0 ? T + fmax(g, 0.05 * T) : fmax(T + g, 0.5 * T); /* widen toward the root */
    }
    const double wall = streamwall_period(c);
    if (wall > 0 && p.tile_period < wall) {
        mean = at_period(c, s, wall, full / wall, stall_cal, rho_cal);
        if (!isfinite(mean) || wall_scale(c, &quick, wall, &p)) {
            pg_schedule_free(c);
            return -1;
        }
    }
    *out = c;
    *rho_out = fmin(0.98, full / p.tile_period);
    *mean_out = mean;
    return 0;
}

int pg_model_predict(const pg_schedule *s, const pg_model_opts *o, pg_prediction *out)
{
    if (s->bw_dist < 0) {
        const int rc = predict_core(s, o, out, 1);
        if (rc == 0)
            warmup_apply(s, out);
        return rc;
    }
    pg_schedule *c = NULL;
    double rho, mean;
    if (sch_bandwidth_equilibrium(s, o, &c, &rho, &mean))
        return -1;
    int rc = predict_core(c, o, out, 1);
    if (rc == 0) {
        out->dram_utilization = s->bw_bytes_per_tile * s->machine.units * s->machine.clock_hz / s->bw_bytes_per_s /
                                out->tile_period;
        out->bandwidth_phase_mean = mean;
        warmup_apply(c, out); /* c: the DRAM share the prediction ran at */
    }
    pg_schedule_free(c);
    return rc;
}

const pg_stat *pg_prediction_find(const pg_prediction *p, const char *name)
{
    for (int i = 0; i < p->nwaits; i++)
        if (strcmp(p->waits[i].name, name) == 0)
            return &p->waits[i];
    for (int i = 0; i < p->nphases; i++)
        if (strcmp(p->phases[i].name, name) == 0)
            return &p->phases[i];
    return NULL;
}
