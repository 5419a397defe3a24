/* Calibration paths: the seed's rows predicted within the tolerances,
 * and fitting a trace: a trace simulated from h100-pingpong, fitted back,
 * predicts the same tile period and waits; what-ifs move it as the closed
 * form says.  argv[1]: model/data/b200-calibration.csv. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli_model_out.h"
#include "model_ext.h"
#include "pg_error.h"
#include "runfile.h"

static const char *g_csv;

static void test_seed_rows(void **state)
{
    (void)state;
    static pg_seed_row rows[PG_SEED_MAX_ROWS];
    int n = 0;
    if (pg_seed_read_csv(g_csv, rows, PG_SEED_MAX_ROWS, &n) != 0)
        fail_msg("%s", pg_last_error());
    assert_int_equal(n, 7);
    FILE *devnull = fopen("/dev/null", "w");
    assert_non_null(devnull);
    pg_model_opts o = {40000, 1, 0};
    int ok = 0;
    assert_int_equal(seed_validate(devnull, rows, n, &o, 0, &ok), 0);
    fclose(devnull);
    assert_true(ok);
}

static void test_csv_errors(void **state)
{
    (void)state;
    static pg_seed_row rows[4];
    int n;
    const char *path = "test_model_bad.csv";
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("experiment,state\nF1,x\n", f);
    fclose(f);
    assert_int_not_equal(pg_seed_read_csv(path, rows, 4, &n), 0);
    assert_non_null(strstr(pg_last_error(), "no column"));
    remove(path);
    assert_int_not_equal(pg_seed_read_csv("no/such.csv", rows, 4, &n), 0);
}

/* A trace simulated from h100-pingpong (600 tiles on 4 SMs) in *run, the
 * schedule in *truth and its fit to the trace in *fitted. */
static void fit_simulated_pingpong(pg_schedule **truth, pg_schedule **fitted, pg_run *run)
{
    *truth = *fitted = NULL;
    assert_int_equal(pg_schedule_load("h100-pingpong", truth), 0);
    pg_model_opts o = {600, 5, 0};
    memset(run, 0, sizeof *run);
    assert_int_equal(pg_model_simulate_trace(*truth, &o, 4, &run->trace), 0);
    run->kernel.present = 1;
    snprintf(run->kernel.name, sizeof run->kernel.name, "h100-pingpong");
    run->kernel.sm_count = 132;
    run->kernel.sm_clock_hz = 1.755e9;
    run->kernel.stages = 4;
    if (pg_schedule_fit(run, fitted) != 0)
        fail_msg("fit: %s", pg_last_error());
}

/* simulate -> fit -> predict */
static void test_fit_roundtrip(void **state)
{
    (void)state;
    pg_schedule *truth, *fitted;
    pg_run run;
    fit_simulated_pingpong(&truth, &fitted, &run);
    pg_model_opts po = {40000, 9, 0};
    pg_prediction a, b, m;
    assert_int_equal(pg_model_predict(truth, &po, &a), 0);
    assert_int_equal(pg_model_predict(fitted, &po, &b), 0);
    assert_int_equal(pg_trace_summarize(&run.trace, run.kernel.sm_clock_hz, &m), 0);
    if (fabs(b.tile_period / a.tile_period - 1) > 0.02)
        fail_msg("fitted period %.1f vs truth %.1f", b.tile_period, a.tile_period);
    if (fabs(m.tile_period / a.tile_period - 1) > 0.03)
        fail_msg("trace period %.1f vs model %.1f", m.tile_period, a.tile_period);
    /* a what-if on the fit: a long epilogue makes the tensor cores idle */
    /* ping-pong: idle = (epilogue - mainloop) / 2 per tile once the epilogue is the longer */
    assert_int_equal(pg_schedule_set(fitted, "epi_delay=6000", 0), 0);
    assert_int_equal(pg_model_predict(fitted, &po, &b), 0);
    assert_true(pg_prediction_find(&b, "tensor_idle")->mean > 1000);
    assert_true(b.tile_period > a.tile_period + 1000);
    pg_schedule_free(truth);
    pg_schedule_free(fitted);
    pg_run_free(&run);
}

/* A what-if on a memory term the fit replays from the trace (first_load:
 * one latency per traced tile) shifts the replayed latencies and keeps
 * them replayed: `--delta first_load.mean=0` changes nothing, and +300
 * lengthens the load wait by about that much.  (Re-deriving the term's
 * family from its memory fields once dropped the replay for the schedule
 * file's unfitted figure: bres's load wait fell from 777 to 347 cycles.) */
static void test_fit_whatif_replayed_memory(void **state)
{
    (void)state;
    pg_schedule *truth, *fitted;
    pg_run run;
    fit_simulated_pingpong(&truth, &fitted, &run);
    pg_model_opts po = {20000, 3, 0};
    pg_prediction base, zero, more;
    assert_int_equal(pg_model_predict(fitted, &po, &base), 0);
    assert_int_equal(pg_schedule_set(fitted, "first_load.mean=0", 1), 0);
    assert_int_equal(pg_model_predict(fitted, &po, &zero), 0);
    if (fabs(zero.tile_period - base.tile_period) > 1e-6)
        fail_msg("+0 on the replayed first_load moved the period %.3f -> %.3f", base.tile_period, zero.tile_period);
    const double lw0 = pg_prediction_find(&base, "load_wait")->mean;
    assert_int_equal(pg_schedule_set(fitted, "first_load.mean=300", 1), 0);
    assert_int_equal(pg_model_predict(fitted, &po, &more), 0);
    const double lw = pg_prediction_find(&more, "load_wait")->mean;
    if (!(lw > lw0 + 150 && lw < lw0 + 450))
        fail_msg("load_wait %.1f -> %.1f with first_load +300", lw0, lw);
    assert_true(more.tile_period > base.tile_period);
    pg_schedule_free(truth);
    pg_schedule_free(fitted);
    pg_run_free(&run);
}

static void test_fit_needs_trace(void **state)
{
    (void)state;
    pg_run run;
    pg_schedule *s = NULL;
    memset(&run, 0, sizeof run);
    assert_int_not_equal(pg_schedule_fit(&run, &s), 0);
    assert_non_null(strstr(pg_last_error(), "no trace"));
}

int main(int argc, char **argv)
{
    g_csv = argc > 1 ? argv[1] : "b200-calibration.csv";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_rows),
        cmocka_unit_test(test_csv_errors),
        cmocka_unit_test(test_fit_roundtrip),
        cmocka_unit_test(test_fit_whatif_replayed_memory),
        cmocka_unit_test(test_fit_needs_trace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
