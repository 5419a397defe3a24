/* The `clock` line's law (docs/experiments.md M178, M179).  At the power cap
 * dynamic power goes as f V^2 and V follows f over the boost range, so f^3 x
 * holds, x the SM's activity per cycle: the tensor duty (the tile's wgmma
 * cycles over the period), a share G of the calibration tile's duty for the
 * loads, stores and epilogue every tile brings, and a rest R.  Relative to
 * the calibration (its clock, period and tile), capped at the highest clock
 * the GEMM ever runs at (the measured 1.78 GHz on the H200, not the 1.98 GHz
 * boost an idle SM reaches):
 *
 *     f(P) = min(fmax, f_cal ((C + G C0) / P + R) / x_cal)^-E)
 *
 * The schedule's memory times were read in cycles at their own runs' clocks,
 * so only the move its delays make is held in ns: the run is predicted with
 * the listed options at the calibration's values (P0), then at its own (P),
 * and the machine clock (the `dramq` line's latencies) and the listed
 * latencies' means are scaled by f(P) / f(P0), iterated with P.  The wall
 * clock and throughput are at the law's clock. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dist.h"
#include "model_ext.h"
#include "pg_error.h"
#include "sched.h"

static double law(const pg_schedule *s, double period)
{
    const double x = (s->ck_compute + s->ck_rate * s->ck_cal_compute) / period + s->ck_rest;
    const double x_cal = (1 + s->ck_rate) * s->ck_cal_compute / s->ck_cal_period + s->ck_rest;
    return fmin(s->ck_fmax, s->ck_cal_clock * pow(x / x_cal, -s->ck_exponent));
}

/* does a listed option of s differ from base's? */
static int delays_moved(const pg_schedule *base, const pg_schedule *s)
{
    for (int i = 0; i < s->ck_nby; i++) {
        char a[SCH_NAME + 16], b[SCH_NAME + 16];
        if (pg_schedule_option(base, s->ck_by[i], a, sizeof a) || pg_schedule_option(s, s->ck_by[i], b, sizeof b) ||
            strcmp(a, b) != 0)
            return 1;
    }
    return 0;
}

/* s with the listed options at base's values */
static int undelayed(const pg_schedule *base, const pg_schedule *s, pg_schedule **out)
{
    if (pg_schedule_clone(s, out))
        return -1;
    for (int i = 0; i < s->ck_nby; i++) {
        char v[SCH_NAME + 16], set[2 * SCH_NAME + 40];
        if (pg_schedule_option(base, s->ck_by[i], v, sizeof v)) {
            pg_fail("clock: the calibration's schedule has no option '%s'", s->ck_by[i]);
            return -1;
        }
        snprintf(set, sizeof set, "%s=%s", s->ck_by[i], v);
        if (pg_schedule_set(*out, set, 0))
            return -1;
    }
    return 0;
}

/* s with its machine clock and listed latencies' means scaled by ratio */
static int held_in_ns(const pg_schedule *s, double ratio, pg_schedule **out)
{
    char set[SCH_NAME + 48];
    if (pg_schedule_clone(s, out))
        return -1;
    snprintf(set, sizeof set, "clock_hz=%.17g", s->machine.clock_hz * ratio);
    if (pg_schedule_set(*out, set, 0))
        return -1;
    for (int i = 0; i < s->ck_n; i++) {
        snprintf(set, sizeof set, "%s.mean=%.17g", s->ck_spec[i], dist_mean(&s->dists[s->ck_dist[i]]) * (ratio - 1));
        if (pg_schedule_set(*out, set, 1))
            return -1;
    }
    return 0;
}

/* the wall clock and throughput at the law's clock f, where the cycles
 * were counted at the prediction's machine clock */
static void at_law_clock(const pg_schedule *counted, double f, pg_prediction *out)
{
    out->clock_hz = f;
    if (isfinite(out->wall_ms) && f > 0) {
        out->wall_ms *= counted->machine.clock_hz / f;
        out->tflops *= f / counted->machine.clock_hz;
    }
}

int pg_model_predict_clocked(const pg_schedule *base, const pg_schedule *s, const pg_model_opts *o,
                             pg_prediction *out)
{
    const int on = s->ck_line && s->ck_on;
    if (!on || !delays_moved(base, s)) {
        if (pg_model_predict(s, o, out))
            return -1;
        if (on)
            at_law_clock(s, law(s, out->tile_period), out);
        return 0;
    }
    pg_schedule *s0 = NULL, *held = NULL;
    pg_prediction p0;
    int rc = -1;
    if (undelayed(base, s, &s0) || pg_model_predict(s0, o, &p0) || pg_model_predict(s, o, out))
        goto done;
    const double f0 = law(s, p0.tile_period);
    double f = f0;
    for (int i = 0; i < (int)s->ck_iter; i++) {
        f = law(s, out->tile_period);
        pg_schedule_free(held);
        held = NULL;
        if (held_in_ns(s, f / f0, &held) || pg_model_predict(held, o, out))
            goto done;
    }
    at_law_clock(held, f, out);
    rc = 0;
done:
    pg_schedule_free(held);
    pg_schedule_free(s0);
    return rc;
}
