/* Fitting a `kblocks` loop (model/kblocks.c) on one trace: the traced phase
 * mean becomes calibrated_mean (a tile's k-blocks then take `compute` each on
 * average, plus the tile's traced spread), and the load latency is the one
 * that makes the model's own loop reproduce the traced mean: what the loop
 * spends above its compute is its stall for stages not yet landed. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "model_ext.h"
#include "pg_error.h"
#include "fit.h"
#include "sched.h"

/* the model's mean of the loop's phase with load latency `lat` */
static int loop_mean(pg_schedule *s, const char *load, const char *phase, double lat, double *mean)
{
    char opt[SCH_NAME + 48];
    snprintf(opt, sizeof opt, "%s.mean=%.9g", load, lat);
    if (pg_schedule_set(s, opt, 0))
        return -1;
    /* the seed and tile count the fit's other calibrations use: f(lat) is
     * then a smooth, repeatable function */
    pg_model_opts o = {.tiles = 20000, .seed = 1, .deterministic = 0};
    pg_prediction p;
    if (pg_model_predict(s, &o, &p))
        return -1;
    const pg_stat *st = pg_prediction_find(&p, phase);
    if (!st || !isfinite(st->mean))
        return pg_fail("kblocks: the model reports no '%s' phase", phase);
    *mean = st->mean;
    return 0;
}

/* The load latency replayed per tile (docs/experiments.md M14): each traced
 * SM's tiles run through the fitted model in the order they ran, from an
 * empty pipeline (as the model's per-unit replays run them), and each tile's
 * loop takes the latency that makes it last the tile's traced phase; the
 * values become the latency's table column.  At the fitted point the loop
 * then reproduces each traced tile's phase (exactly where the model's
 * timeline is the trace's); elsewhere the ring's timing moves it. */
static int replay_fit(pg_schedule *s, int col, int ld, unsigned char *hit, double *inflight, double *shift)
{
    sch_table *T = s->table;
    double *L = malloc(sizeof(double) * (size_t)T->rows);
    if (!L)
        return pg_fail("out of memory");
    for (int64_t r = 0; r < T->rows; r++)
        L[r] = NAN;
    engine E;
    if (engine_init(&E, s, 1, 0)) {
        free(L);
        return -1;
    }
    E.kb_fit_load = L;
    if (hit)
        memset(hit, 2, (size_t)T->rows);
    E.kb_fit_hit = hit;
    for (int u = 0; u < T->nunits; u++) {
        const int64_t first = T->unit_first[u], last = u + 1 < T->nunits ? T->unit_first[u + 1] : T->rows;
        engine_reset(&E, 1000003u * (uint64_t)u + 7);
        E.row = first - 1 < 0 ? T->rows - 1 : first - 1;
        E.block_left = INT32_MAX;
        E.kb_fit_first = first;
        E.kb_fit_end = last;
        for (int64_t r = first; r < last; r++)
            engine_step(&E);
    }
    *inflight = E.kb_n_count ? E.kb_n_sum / (double)E.kb_n_count : 0;
    for (int d = 0; d < SCH_KB_SHIFTS; d++)
        shift[d] = E.kb_shift_tiles ? E.kb_shift_sum[d] / (double)E.kb_shift_tiles : NAN;
    engine_free(&E);
    double sum = 0;
    int64_t n = 0;
    for (int64_t r = 0; r < T->rows; r++) {
        if (isfinite(L[r]))
            T->v[r * T->cols + col] = L[r];
        sum += T->v[r * T->cols + col];
        n++;
    }
    free(L);
    s->dists[ld].emp_mean = n ? sum / (double)n : 0;
    return 0;
}

/* boundaries=1 (M46): each event on the loop that falls on a k-block start
 * gets its mean offset from the last replay (whose events were fractions
 * of the traced loop, as the fit measured them), with the loop's shape */
static int set_shifts(pg_schedule *s, const double *shift)
{
    int used[SCH_KB_SHIFTS] = {0};
    for (int i = 0; i < s->nedges; i++)
        if (s->edges[i].kb_event >= 0 && kblocks_boundary(s, s->edges[i].at_frac) > 0)
            used[s->edges[i].kb_event] = 1;
    char opt[64];
    for (int n = 1; n <= SCH_KB_SHIFTS; n++) {
        snprintf(opt, sizeof opt, "kblocks.shift%d=%.6g", n, shift[n - 1]);
        if (used[n - 1] && isfinite(shift[n - 1]) && pg_schedule_set(s, opt, 0))
            return -1;
    }
    snprintf(opt, sizeof opt, "kblocks.shift_count=%d", s->kb_count);
    if (pg_schedule_set(s, opt, 0))
        return -1;
    snprintf(opt, sizeof opt, "kblocks.shift_stages=%d", s->kb_stages);
    return pg_schedule_set(s, opt, 0);
}

/* The replay, and the loads in flight at a k-block load's issue averaged
 * over it, recorded as `kblocks.inflight` (the point at which `queue=`
 * scales a latency by 1).  With queue > 0 the replayed latencies depend on
 * that mean and the mean on them: a fixed point, a few rounds. */
static int replay_inflight(pg_schedule *s, int col, int ld, unsigned char *hit)
{
    double prev = -1, now = 0, shift[SCH_KB_SHIFTS];
    for (int round = 0; round < 6; round++) {
        /* the table column is overwritten each round from the traced phases,
         * so each round starts from the same data */
        if (replay_fit(s, col, ld, hit, &now, shift))
            return -1;
        char opt[64];
        snprintf(opt, sizeof opt, "kblocks.inflight=%.6g", now);
        if (now > 0 && pg_schedule_set(s, opt, 0))
            return -1;
        if (!(s->kb_queue > 0) || fabs(now - prev) < 0.005)
            break;
        prev = now;
    }
    return s->kb_boundaries > 0 ? set_shifts(s, shift) : 0;
}

/* fixed_mode=1 (M95): the commonest value among the sorted d[0..n) at or
 * below their 25th percentile: the 10-cycle window from the 0.1th
 * percentile on that holds the most tiles (a sliding window: no bin edge
 * splits a pile), its median.  bres's traced loops less their chain pile
 * up at 160-175 cycles on an H100 and an H200, with a smaller pile at 135:
 * the loops that waited for nothing run the big pile's cycles, and so do
 * its short-K loops under a delay (166-225), which nothing else stalls.  A
 * pile holds a fifth of the tail or more; without one (a loop that stalls
 * on most tiles: pingpong's on an H100 spreads its low tail over 200-1,100
 * cycles) the 0.1th percentile. */
static double low_tail_mode(const double *d, int64_t n)
{
    const int64_t lo = (int64_t)(0.001 * (double)(n - 1)), hi = (int64_t)(0.25 * (double)(n - 1));
    int64_t best_at = lo, best_n = 0;
    for (int64_t i = lo, j = lo; i <= hi; i++) {
        while (j <= hi && d[j] < d[i] + 10.0)
            j++;
        if (j - i > best_n) {
            best_n = j - i;
            best_at = i;
        }
    }
    return (double)best_n >= 0.2 * (double)(hi - lo + 1) ? d[best_at + best_n / 2] : d[lo];
}

/* The loop's fixed cycles (fixed=, on a line that names it): the 0.1th
 * percentile over the traced tiles of the loop less its stall-free chain.
 * Every tile's loop is at least that chain plus its fixed part; the stalls
 * and the contention only add, so the low tail is the fixed part alone (not
 * the minimum: one odd tile does not set it).  The 1st percentile until
 * M90: a loop that stalls on most tiles (pingpong's on the H100: 386-428
 * cycles at the 1st percentile, 205 at the 0.1th, 250 under a spin that
 * fills its ring) books stall there; bres's tail is flat at 135.  Needs the
 * phase's per-tile column; without one the line's value stays. */
static int fixed_fit(pg_schedule *s, int phase_dist)
{
    const int col = sch_table_column(s, phase_dist, 0);
    const sch_table *T = s->table;
    if (!s->kb_fixed_named || col < 0 || !T || T->rows < 1)
        return 0;
    double *d = malloc(sizeof(double) * (size_t)T->rows);
    if (!d)
        return pg_fail("out of memory");
    const double chain = kblocks_chain(s);
    int64_t n = 0;
    for (int64_t r = 0; r < T->rows; r++) {
        const double v = T->v[r * T->cols + col];
        if (isfinite(v))
            d[n++] = v - chain;
    }
    int rc = 0;
    if (n > 0) {
        qsort(d, (size_t)n, sizeof *d, fit_cmp_double);
        const double f = s->kb_fixed_mode > 0 ? low_tail_mode(d, n) : d[(int64_t)(0.001 * (double)(n - 1))];
        char opt[64];
        snprintf(opt, sizeof opt, "kblocks.fixed=%.6g", f > 0 ? f : 0);
        rc = pg_schedule_set(s, opt, 0);
    }
    free(d);
    return rc;
}

int kblocks_fit(pg_schedule *s, double traced_mean) { return kblocks_fit_hits(s, traced_mean, NULL); }

int kblocks_fit_hits(pg_schedule *s, double traced_mean, unsigned char *hit)
{
    if (s->kb_node < 0)
        return 0;
    const sch_node *nd = &s->nodes[s->kb_node];
    const char *phase = s->roles[nd->role].steps[nd->step].name;
    const sch_dist *pd = &s->dists[s->roles[nd->role].steps[nd->step].dist];
    const char *load = s->dists[s->slots[s->kb_load_slot].dist].name;
    if (!(traced_mean > 0))
        return pg_fail("kblocks: the trace has no mean for '%s'", phase);
    char opt[SCH_NAME + 48];
    snprintf(opt, sizeof opt, "kblocks.calibrated_mean=%.9g", dist_mean(pd));
    if (pg_schedule_set(s, opt, 0) || fixed_fit(s, s->roles[nd->role].steps[nd->step].dist))
        return -1;
    /* ring= and wake= (M163-M166): the depth these latencies are measured at */
    snprintf(opt, sizeof opt, "kblocks.ring_stages=%d", s->kb_stages);
    if ((s->kb_ring > 0 || s->kb_wake > 0) && pg_schedule_set(s, opt, 0))
        return -1;
    const int ld = s->slots[s->kb_load_slot].dist;
    const int col = sch_table_column(s, ld, 0);
    if (col >= 0 && s->dists[ld].family == DIST_EMPIRICAL)
        return replay_inflight(s, col, ld, hit);
    /* the loop's mean grows with the load latency (every k-block that waits
     * waits longer): bisection on [0, 4 x the traced mean] */
    double lo = 0, hi = 4 * traced_mean, m;
    if (loop_mean(s, load, phase, lo, &m))
        return -1;
    if (m > traced_mean)
        return pg_fail("kblocks: with no load latency the model's %s (%.0f cycles) is already longer than traced "
                       "(%.0f): compute= is too large for this trace",
                       phase, m, traced_mean);
    if (loop_mean(s, load, phase, hi, &m))
        return -1;
    if (m < traced_mean)
        return pg_fail("kblocks: even a load latency of %.0f cycles leaves the model's %s (%.0f) below the trace's "
                       "(%.0f)",
                       hi, phase, m, traced_mean);
    for (int it = 0; it < 24 && hi - lo > 0.5; it++) {
        double mid = 0.5 * (lo + hi);
        if (loop_mean(s, load, phase, mid, &m))
            return -1;
        if (m < traced_mean)
            lo = mid;
        else
            hi = mid;
    }
    return loop_mean(s, load, phase, 0.5 * (lo + hi), &m);
}
