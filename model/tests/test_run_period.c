/* A fitted run's period is the run's own (model/predict_run.c,
 * docs/experiments.md M128): every unit from an empty pipeline, not the
 * steady chain's 100,000-tile average, where the two differ.
 *  - bres at K = 512 (the whole tile in the A ring) with a 2,600-cycle
 *    --epi-delay: the kernel's second warpgroup runs right behind the
 *    first's loop for the whole run; the chain drifts off that phase and
 *    predicts 5.2% fast, the run keeps it: -2.6%.  Pinned with room for the
 *    Monte Carlo seed, and the chain's miss with it, so either moving shows.
 *  - the calibration itself: run and chain agree (within 0.5%).
 *  - a run of fewer than 10 tiles per SM falls back to the chain (the
 *    engine's pipeline fill would be most of it); a built-in schedule, which
 *    was not fitted to a run, has no run period at all.
 * argv: traces/probes/h200_s54/bres_ml_00000.h5, its bres_k512_epi_02600.h5 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "model.h"
#include "pg_error.h"
#include "runfile.h"
#include "validate.h"

static const char *g_cal, *g_k512;

static void test_lock_held_through_the_run(void **state)
{
    (void)state;
    const char *runs[] = {g_k512};
    /* measured at seeds 1 / 2 (20,000 tiles): run -2.6 / -2.7%, chain -5.2 / -5.3% */
    for (uint64_t seed = 1; seed <= 2; seed++) {
        const pg_validate_opts v = {0};
        const pg_model_opts o = {20000, seed, 0};
        pg_validate_report r;
        if (pg_model_validate_runs(g_cal, runs, 1, &v, &o, &r))
            fail_msg("%s", pg_last_error());
        assert_int_equal(r.n, 2);
        const pg_validate_row *cal = &r.rows[0], *k512 = &r.rows[1];
        assert_true(cal->self_fit);
        assert_true(isfinite(cal->period_chain));
        if (!(fabs(cal->period_predicted / cal->period_chain - 1) < 0.005))
            fail_msg("seed %d: the calibration's run %.1f and chain %.1f differ", (int)seed, cal->period_predicted,
                     cal->period_chain);
        const double run = k512->period_predicted / k512->period_measured - 1;
        const double chain = k512->period_chain / k512->period_measured - 1;
        if (!(run > -0.035 && run < -0.015) || !(chain > -0.062 && chain < -0.040))
            fail_msg("seed %d: K = 512 run %+.1f%% (pinned -3.5..-1.5%%), chain %+.1f%% (pinned -6.2..-4.0%%)", (int)seed,
                     100 * run, 100 * chain);
        pg_validate_report_free(&r);
    }
}

static void test_short_runs_and_builtins_use_the_chain(void **state)
{
    (void)state;
    pg_run run;
    pg_schedule *s = NULL, *b = NULL;
    pg_prediction p;
    const pg_model_opts o = {20000, 1, 0};
    if (pg_run_read(g_cal, &run, PG_READ_TRACE) || pg_schedule_fit(&run, &s))
        fail_msg("%s", pg_last_error());
    /* 1,188 tiles over 132 SMs: 9 per SM, under 2 x 4 + 2 */
    if (pg_schedule_set(s, "tiles=1188", 0) || pg_model_predict(s, &o, &p))
        fail_msg("%s", pg_last_error());
    assert_true(isnan(p.tile_period_chain));
    if (pg_schedule_set(s, "tiles=1320", 0) || pg_model_predict(s, &o, &p)) /* 10 per SM */
        fail_msg("%s", pg_last_error());
    assert_true(isfinite(p.tile_period_chain));
    if (pg_schedule_load("h100-bres", &b) || pg_model_predict(b, &o, &p))
        fail_msg("%s", pg_last_error());
    assert_true(isnan(p.tile_period_chain));
    pg_schedule_free(b);
    pg_schedule_free(s);
    pg_run_free(&run);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "test_run_period: give the calibration and the K = 512 run\n");
        return 2;
    }
    g_cal = argv[1];
    g_k512 = argv[2];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lock_held_through_the_run),
        cmocka_unit_test(test_short_runs_and_builtins_use_the_chain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
