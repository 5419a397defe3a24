/* The calibration points of the `stretch`, `storenear` and `inflight` lines
 * (stretch.c, storenear.c, inflight.c say what they do): the calibration's
 * mean overlap of the stretched latency with its `by` step, its mean store
 * position and its mean count of loads in flight, read off the fitted
 * schedule's own replay of the trace with the lines only recording, so
 * that at the calibration none moves anything and the traced latencies
 * replay as measured. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"
#include "fit.h"
#include "pg_error.h"
#include "sched.h"

#define CAL_TILES 20000
#define MIN_TILES 30 /* of each kind, for fit=slowdown */

/* the median of the samples (pairs' first) whose overlap (second) is none
 * (want_full 0) or the whole sample (1); NAN with fewer than MIN_TILES */
static double median_of(const double *rec, int64_t n, int want_full, double *buf)
{
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++) {
        const double g = rec[2 * i], ov = rec[2 * i + 1];
        if (g > 0 && (want_full ? ov >= g - 1 : ov <= 0)) /* a tile with no gap says nothing */
            buf[m++] = g;
    }
    if (m < MIN_TILES)
        return NAN;
    qsort(buf, (size_t)m, sizeof *buf, fit_cmp_double);
    return buf[m / 2];
}

/* fit=slowdown (M92): a delay w0 long where nothing overlaps it, slowed by
 * C while the `by` work runs beside it, lasts w0 / (1 - C) where that work
 * overlaps all of it: C = 1 - w0 / that, from line l's pairs in the replay
 * (the traced gaps against the replayed work), NAN if either kind is too
 * rare or there is no memory for the medians */
static double slowdown_of(const engine *E, int l)
{
    const int64_t n = E->st_rec_n[l];
    double *buf = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    if (!buf)
        return NAN;
    const double w0 = median_of(E->st_rec[l], n, 0, buf), full = median_of(E->st_rec[l], n, 1, buf);
    free(buf);
    return w0 > 0 && full > w0 ? 1 - w0 / full : NAN;
}

/* the replay's pair buffers of the tile=next fit=slowdown lines */
static int want_pairs(const pg_schedule *s, engine *E)
{
    E->st_rec_cap = CAL_TILES;
    for (int l = 0; l < s->nst; l++)
        if (s->st[l].next && s->st[l].fit_slowdown && !(E->st_rec[l] = malloc(sizeof(double) * 2 * CAL_TILES)))
            return pg_fail("out of memory for the stretch fit");
    return 0;
}

/* what the replay says of line l: its mean overlap (with base=, the line's
 * zero point instead) and (fit=slowdown, where the replay measured it) its
 * slowdown; else the line's C stays */
static int fit_stretch(pg_schedule *s, const engine *E, int l)
{
    char set[SCH_NAME + 48];
    int rc = 0;
    if (isfinite(s->st[l].base)) { /* the line's own zero point, not the replay's overlap */
        snprintf(set, sizeof set, "stretch.%s.base=%.9g", s->st[l].spec[0], s->st[l].base);
        rc = pg_schedule_set(s, set, 0);
    } else if (E->st_n[l] > 0) {
        snprintf(set, sizeof set, "stretch.%s.overlap=%.9g", s->st[l].spec[0], E->st_sum[l] / (double)E->st_n[l]);
        rc = pg_schedule_set(s, set, 0);
    }
    const double c = E->st_rec[l] ? slowdown_of(E, l) : NAN;
    if (rc == 0 && isfinite(c)) {
        snprintf(set, sizeof set, "stretch.%s.slowdown=%.9g", s->st[l].spec[0], c);
        rc = pg_schedule_set(s, set, 0);
    }
    return rc;
}

/* KEY=sum / n where the replay recorded any (else the line keeps its own) */
static int set_mean(pg_schedule *s, const char *key, double sum, int64_t n)
{
    char set[64];
    if (n <= 0)
        return 0;
    snprintf(set, sizeof set, "%s=%.9g", key, sum / (double)n);
    return pg_schedule_set(s, set, 0);
}

int store_lines_fit(pg_schedule *s)
{
    if (!s->nst && !s->sn_line && !s->if_line)
        return 0;
    engine E;
    if (engine_init(&E, s, 1, 0))
        return -1;
    E.lines_record_only = 1;
    int rc = want_pairs(s, &E);
    for (int64_t k = 0; rc == 0 && k < CAL_TILES; k++)
        engine_step(&E);
    for (int l = 0; l < s->nst && rc == 0; l++)
        rc = fit_stretch(s, &E, l);
    if (rc == 0 && s->sn_line)
        rc = set_mean(s, "storenear.cal", E.sn_sum, E.sn_n);
    if (rc == 0 && s->if_line)
        rc = set_mean(s, "inflight.cal", E.if_sum, E.if_n);
    for (int l = 0; l < s->nst; l++)
        free(E.st_rec[l]);
    engine_free(&E);
    return rc;
}
