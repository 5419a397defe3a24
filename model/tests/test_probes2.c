/* The out-of-sample reckoning of M22 (docs/experiments.md): probe set 2,
 * taken by the lead with scripts/gpu_probes2.sh at dcf5ac8, after M22's
 * predictions were committed.  The calibrations are the new sessions'
 * zero-delay runs kept in traces/probes/h100_s2 and h200_s2; the probe runs
 * themselves are not kept (size budget), so their measured tile periods and
 * waits are written here from the tables in traces/probes/reckoning/m22.
 *
 * Issue 12's target: period within 3%, every mean wait within 15% or 150
 * cycles.  M22 (`dramq=1`) meets it on some of these and misses others by
 * far; what is pinned is what it reaches, with its sign (the measured miss
 * plus ~1 point of room for the Monte Carlo seed), so a model change that
 * moves any of them shows up.  20,000 tiles (the tables: 40,000), seeds 1, 2.
 * argv: the three calibration runs in the order of k_cal below. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model.h"
#include "model_ext.h"
#include "pg_error.h"
#include "runfile.h"
#include "sched.h"

enum { H100_PP0, H100_BRES0, H200_BRES0, N_CAL };
static const char *g_path[N_CAL];

/* the new sessions' copy floors (probes.log, D2D copy of the compulsory bytes) */
#define H100_BPS 3.0091e12
#define H200_BPS 4.2179e12

/* measured by the probe runs (trace summaries, reckoning/m22) */
#define H100_BRES_M401408 3547.0
#define H100_BRES_ML1200 4332.0
#define H100_PP_ML2400 6105.0
#define H100_PP_M401408 5513.0
#define H200_BRES_M401408 3358.0
#define H200_BRES_M401408_LOAD 473.0

typedef struct {
    double period, load_wait;
} outcome;

/* Fit CAL, move it to another machine when ratio != 1 (M20's transform: the
 * bandwidth line's bytes per tile and calibrated period over ratio; the
 * calibration machine's own bytes_per_s when it is not the schedule's
 * built-in H100 one), turn dramq on with the target / calibration floors,
 * apply the what-ifs and predict. */
static outcome predict_m22(int cal, double ratio, double bps, double cal_bps, const char *const *sets, int nsets,
                           uint64_t seed)
{
    pg_run c;
    pg_schedule *s = NULL;
    pg_prediction p;
    char a[5][96];
    if (pg_run_read(g_path[cal], &c, PG_READ_TRACE) || pg_schedule_fit(&c, &s))
        fail_msg("fit %s: %s", g_path[cal], pg_last_error());
    int n = 0;
    if (ratio != 1) {
        if (cal_bps != H100_BPS)
            snprintf(a[n++], sizeof a[0], "bandwidth.bytes_per_s=%.9g", cal_bps);
        /* (M22 also divided calibrated_period, to keep the calibration's
         * share; since M40 that is cal_bytes_per_tile's) */
        snprintf(a[n++], sizeof a[0], "bandwidth.bytes_per_tile=%.9g", s->bw_bytes_per_tile / ratio);
    }
    snprintf(a[n++], sizeof a[0], "dramq.bytes_per_s=%.9g", bps);
    snprintf(a[n++], sizeof a[0], "dramq.cal_bytes_per_s=%.9g", cal_bps);
    for (int i = 0; i < n; i++)
        if (pg_schedule_set(s, a[i], 0))
            fail_msg("%s: %s", a[i], pg_last_error());
    if (pg_schedule_set(s, "dramq=1", 0))
        fail_msg("dramq=1: %s", pg_last_error());
    for (int i = 0; i < nsets; i++)
        if (pg_schedule_set(s, sets[i], 0))
            fail_msg("%s: %s", sets[i], pg_last_error());
    pg_model_opts o = {20000, seed, 0};
    if (pg_model_predict(s, &o, &p))
        fail_msg("%s", pg_last_error());
    const pg_stat *lw = pg_prediction_find(&p, "load_wait");
    outcome r = {p.tile_period, lw ? lw->mean : NAN};
    pg_schedule_free(s);
    pg_run_free(&c);
    return r;
}

static void expect_in(double pred, double meas, double lo, double hi, const char *what, uint64_t seed)
{
    const double d = pred / meas - 1;
    if (!(d >= lo && d <= hi))
        fail_msg("%s, seed %d: period %+.1f%% (%.0f vs %.0f), pinned to [%+.1f%%, %+.1f%%] (M22 result)", what,
                 (int)seed, 100 * d, pred, meas, 100 * lo, 100 * hi);
}

/* same machine, the H100 session's own calibrations */
static void test_h100_same_machine(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 2; seed++) {
        const char *m401408[] = {"tiles=25088", "flops=473520144384"};
        /* within target: +0.1% (M21 +0.1%) */
        expect_in(predict_m22(H100_BRES0, 1, H100_BPS, H100_BPS, m401408, 2, seed).period, H100_BRES_M401408, -0.01,
                  0.01, "H100 bres M = 401,408", seed);
        const char *pm401408[] = {"tiles=18816", "flops=473520144384"};
        /* within target: +0.2% */
        expect_in(predict_m22(H100_PP0, 1, H100_BPS, H100_BPS, pm401408, 2, seed).period, H100_PP_M401408, -0.01,
                  0.015, "H100 pingpong M = 401,408", seed);
        const char *ml1200[] = {"mainloop_delay=1200"};
        /* M22: -4.1% (the bres mainloop sweep under-predicted, as in M21);
         * with M26's two contend lines -1.7%; with M67's `storenear` line
         * (dramq on here) -0.5% */
        expect_in(predict_m22(H100_BRES0, 1, H100_BPS, H100_BPS, ml1200, 1, seed).period, H100_BRES_ML1200, -0.025,
                  0.01, "H100 bres mainloop 1,200", seed);
        const char *ml2400[] = {"mainloop_delay=2400"};
        /* missed: +7.6% (pingpong's order_wait stays low during the spin, M21 why 5); M33: +3.5%;
         * M35 lists pingpong's k-block loads on its dramq line (which then
         * also stops the bandwidth shift of the loop): +5.8%; M90 (the
         * loop's fixed cycles): +8.1%; M109 (the in-loop loads issued at
         * the kernel's handover, queue=0.6, the epilogue's contention on
         * the loop's compute): +6.3% */
        expect_in(predict_m22(H100_PP0, 1, H100_BPS, H100_BPS, ml2400, 1, seed).period, H100_PP_ML2400, 0.05, 0.075,
                  "H100 pingpong mainloop 2,400", seed);
    }
}

/* across machines, bres at M = 401,408 (zero delay): the H200's first load */
static void test_cross(void **state)
{
    (void)state;
    const char *m401408[] = {"tiles=25088", "flops=473520144384"};
    for (uint64_t seed = 1; seed <= 2; seed++) {
        /* H200 from H100: the queue brings load_wait within target (405 vs
         * 473; M21 822) but the period overshoots: -5.1% (M21 +3.4%; with
         * M26's contend lines -3.9..-5%; with M67's `storenear` line -2.1%) */
        outcome o = predict_m22(H100_BRES0, H200_BPS / H100_BPS, H200_BPS, H100_BPS, m401408, 2, seed);
        expect_in(o.period, H200_BRES_M401408, -0.035, -0.005, "H200 bres from H100 (M = 401,408)", seed);
        if (!(fabs(o.load_wait - H200_BRES_M401408_LOAD) <= 150))
            fail_msg("H200 bres from H100, seed %d: load_wait %.0f vs measured %.0f, not within 150 cycles", (int)seed,
                     o.load_wait, H200_BRES_M401408_LOAD);
        /* H100 from H200: +18.4% (M21 +1.2%): the DRAM share counted twice,
         * once by the bandwidth transform and once by dramq's floors; with
         * M67's `storenear` line +15.9% */
        o = predict_m22(H200_BRES0, H100_BPS / H200_BPS, H100_BPS, H200_BPS, m401408, 2, seed);
        expect_in(o.period, H100_BRES_M401408, 0.14, 0.21, "H100 bres from H200 (M = 401,408)", seed);
    }
}

int main(int argc, char **argv)
{
    if (argc - 1 != N_CAL) {
        fprintf(stderr, "test_probes2: give the %d calibration runs\n", N_CAL);
        return 2;
    }
    for (int i = 0; i < N_CAL; i++)
        g_path[i] = argv[1 + i];
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_h100_same_machine), cmocka_unit_test(test_cross)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
