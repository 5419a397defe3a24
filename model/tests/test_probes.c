/* The out-of-sample probes of issue 12 (docs/experiments.md M21), from the
 * committed probe runs (traces/probes/, H100 and H200 at 4c7cc60): each
 * prediction is a fit on a zero-delay run and M20's what-if, compared with
 * another run's measured tile period, at Monte Carlo seeds 1 and 2.
 *
 * Issue 12's target is 3% on the period (and 15% or 150 cycles on every
 * mean wait); M21 shows the model does NOT meet it on these runs.  What is
 * pinned here is what it reaches now, with its sign, so that a model change
 * that moves any of them shows up: a pin is the measured miss plus ~1 point
 * of room for the Monte Carlo seed, not the target.
 * argv: the run files in the order of k_runs below. */
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

enum { H100_PP0, H100_BRES0, H100_BRES_EPI800_S7, H100_PP_ML3200, H100_PP_S3, H100_BRES64, H200_PP0, H200_BRES0,
       H200_BRES_ML1600, N_RUNS };
static const char *g_path[N_RUNS];

/* the relative period error of fitting CAL, applying the what-ifs and
 * predicting RUN's measured tile period */
static double period_error(int cal, int run, const char *const *sets, int nsets, uint64_t seed)
{
    pg_run c, r;
    pg_schedule *s = NULL;
    pg_prediction p, m;
    if (pg_run_read(g_path[cal], &c, PG_READ_TRACE) || pg_run_read(g_path[run], &r, PG_READ_TRACE))
        fail_msg("%s", pg_last_error());
    if (pg_schedule_fit(&c, &s))
        fail_msg("fit %s: %s", g_path[cal], pg_last_error());
    for (int i = 0; i < nsets; i++)
        if (pg_schedule_set(s, sets[i], 0))
            fail_msg("%s: %s", sets[i], pg_last_error());
    pg_model_opts o = {20000, seed, 0};
    if (pg_model_predict(s, &o, &p) || pg_trace_summarize(&r.trace, r.kernel.sm_clock_hz, &m))
        fail_msg("%s", pg_last_error());
    pg_schedule_free(s);
    pg_run_free(&c);
    pg_run_free(&r);
    return p.tile_period / m.tile_period - 1;
}

static void expect_in(double d, double lo, double hi, const char *what, uint64_t seed)
{
    if (!(d >= lo && d <= hi))
        fail_msg("%s, seed %d: period %+.1f%%, pinned to [%+.1f%%, %+.1f%%] (M21)", what, (int)seed, 100 * d,
                 100 * lo, 100 * hi);
}

/* the mainloop-delay sweeps through validate-delays (delay from /kernel) */
static void test_mainloop_sweeps(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 2; seed++) {
        pg_model_opts o = {20000, seed, 0};
        pg_delay_check c;
        const char *pp[] = {g_path[H100_PP0], g_path[H100_PP_ML3200]};
        if (pg_model_validate_delays(pp, 2, &o, &c))
            fail_msg("%s", pg_last_error());
        assert_int_equal(c.mainloop, 1);
        assert_true(c.delay[1] == 3200);
        /* M21: +5.8% (the K13 effect: order_wait stays low while the other
         * warpgroup's epilogue runs alone); M33 (loads queue in the ring,
         * contention per tile): +1.9%; M90 (the loop's fixed cycles, which
         * the model's spin loop adds to a stall it already over-predicted):
         * +3.9%; M179 (the clock line: the clock the spin moves, ~1.705
         * GHz predicted against 1.693 measured, holds the drain in ns):
         * +2.7% */
        expect_in(c.pred_period[1] / c.meas_period[1] - 1, 0.017, 0.037, "H100 pingpong mainloop 3,200", seed);
        const char *br[] = {g_path[H200_BRES0], g_path[H200_BRES_ML1600]};
        if (pg_model_validate_delays(br, 2, &o, &c))
            fail_msg("%s", pg_last_error());
        /* M21: -5.1% (the clock rises with the spin; DRAM time in ns); M34
         * (bres's contention slowdowns kept, not refitted on the H200's
         * narrow overlaps): -3.2%; M36 (the loop's fixed cycles, which a
         * full ring does not hide): -1.8% */
        expect_in(c.pred_period[1] / c.meas_period[1] - 1, -0.03, -0.005, "H200 bres mainloop 1,600", seed);
    }
}

static void test_epi_and_structure(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 2; seed++) {
        const char *epi[] = {"epi_delay=800"};
        /* M21: the M19 bump repeats at seed 7 on the H100: -5.6% from seed
         * 1's calibration; M67's `storenear` line (the SMs' stores nearer
         * the first load's issue): -2.1% */
        expect_in(period_error(H100_BRES0, H100_BRES_EPI800_S7, epi, 1, seed), -0.035, -0.005,
                  "H100 bres epi 800 (seed-7 run)", seed);
        const char *s3[] = {"stages=3"};
        /* M21: +15.7% (the replayed load latency is the 4-stage ring's
         * queue); M33 (the ring's loads queue, kblocks queue=1): +2.1%;
         * M109 (queue=0.6, the in-loop loads at the kernel's handover):
         * +2.7% */
        expect_in(period_error(H100_PP0, H100_PP_S3, s3, 1, seed), 0.005, 0.035, "H100 pingpong 3 stages", seed);
        const char *b64[] = {"kblocks=12", "stages=8"};
        /* M21 had +29.4%: the fit froze a k-block's compute at the
         * calibration's 384 cycles, so 12 k-blocks ran 4,608 cycles of
         * wgmma.  With the tile's compute split over the count (M24):
         * -11.3% (the replayed latency is an 8 KB stage's, 4 in flight).
         * With the wgmma round trip on bres's loop (M29, R = 320): -4.9%
         * (the loop's fixed part and the epilogue overlap, M29 item 4).
         * With the fixed part measured by the fit and R = 344, the typical
         * round trip (M36): -0.5%.  With the producer's floor (M113; its
         * wait 13 -> 111 cycles against 141 measured, `model validate`),
         * the first stage leaves later and the load wait grows: +1.9% */
        expect_in(period_error(H100_BRES0, H100_BRES64, b64, 2, seed), 0.005, 0.03, "H100 bres64 from bres", seed);
    }
}

/* H200 from the H100 calibration: M20's transform, the bandwidth term's
 * bytes_per_tile over 1.43 (M20 also divided calibrated_period, to keep
 * the calibration's share, which since M40 is its cal_bytes_per_tile's) */
static void test_h200_from_h100(void **state)
{
    (void)state;
    const int cal[2] = {H100_PP0, H100_BRES0}, run[2] = {H200_PP0, H200_BRES0};
    /* M21: pingpong -1.5%, bres +4.7% (the H200's gain is in bres's first
     * load, not in the mainloop's bandwidth stall); M33 moved pingpong to
     * -3.8% (the queue rescales the transform's shifted latency, M28);
     * M109 (the in-loop loads at the kernel's handover, queue=0.6):
     * pingpong -1.9% */
    const double lo[2] = {-0.032, 0.035}, hi[2] = {-0.007, 0.06};
    for (int v = 0; v < 2; v++) {
        pg_run c;
        pg_schedule *s = NULL;
        if (pg_run_read(g_path[cal[v]], &c, PG_READ_TRACE) || pg_schedule_fit(&c, &s))
            fail_msg("%s", pg_last_error());
        const pg_shape *sh = &c.problem.shape;
        const double tiles = (double)((sh->M + c.kernel.tile_m - 1) / c.kernel.tile_m) *
                             (double)((sh->N + c.kernel.tile_n - 1) / c.kernel.tile_n);
        /* the fit's bytes per tile: A in, D out */
        const double bytes = ((double)sh->M * (double)sh->K + 2.0 * (double)sh->M * (double)sh->N) / tiles;
        pg_schedule_free(s);
        pg_run_free(&c);
        char a[1][96];
        snprintf(a[0], sizeof a[0], "bandwidth.bytes_per_tile=%.9g", bytes / 1.43);
        const char *sets[] = {a[0]};
        for (uint64_t seed = 1; seed <= 2; seed++)
            expect_in(period_error(cal[v], run[v], sets, 1, seed), lo[v], hi[v],
                      v ? "H200 bres from H100" : "H200 pingpong from H100", seed);
    }
}

int main(int argc, char **argv)
{
    if (argc - 1 != N_RUNS) {
        fprintf(stderr, "test_probes: give the %d probe runs\n", N_RUNS);
        return 2;
    }
    for (int i = 0; i < N_RUNS; i++)
        g_path[i] = argv[1 + i];
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_mainloop_sweeps), cmocka_unit_test(test_epi_and_structure),
                                       cmocka_unit_test(test_h200_from_h100)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
