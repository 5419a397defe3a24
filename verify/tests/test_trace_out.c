/* `pegemm model fit --trace-out` (model/cli_model_trace.c): the fitted
 * model's simulated timeline as a run file.  On bres's committed H100
 * calibration (argv[1], traces/held_out/bres_epi_00000.h5) with an
 * --epi-delay 1,600 what-if: the file reads back as a trace of every SM of
 * the run through its share of the tiles; it is a possible trace by
 * `verify trace`'s own check (each warp's phases one after another: a
 * tile is written once the next one settled it, M111); it names the
 * what-if's delay; its statistics are the prediction's (the same
 * simulation, another seed); and the schedule fits it as it fits a
 * measured trace.  Writing it over the run it was fitted from, or onto a
 * directory, is refused and leaves the run as it was.  Here beside
 * verify/'s tests because it uses verify/'s trace check. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli_model_trace.h"
#include "model.h"
#include "model_ext.h"
#include "pg_error.h"
#include "runfile.h"
#include "trace_check.h"

static const char *g_cal;

/* The calibration run, fitted, with --epi-delay 1,600. */
static void fit_with_delay(pg_run *run, pg_schedule **s)
{
    if (pg_run_read(g_cal, run, PG_READ_TRACE))
        fail_msg("%s: %s", g_cal, pg_last_error());
    if (pg_schedule_fit(run, s))
        fail_msg("fit: %s", pg_last_error());
    if (pg_schedule_set(*s, "epi_delay=1600", 0))
        fail_msg("what-if: %s", pg_last_error());
}

/* rows per SM all equal and a whole multiple of the tiles per SM */
static void check_layout(const pg_run *sim, int units, int64_t tiles_per_sm)
{
    assert_int_equal(sim->trace.n_sm, units);
    assert_int_equal(sim->trace.n % units, 0);
    const int64_t rows_per_sm = sim->trace.n / units;
    assert_int_equal(rows_per_sm % tiles_per_sm, 0);
    int64_t *count = calloc((size_t)units, sizeof *count);
    assert_non_null(count);
    for (int64_t i = 0; i < sim->trace.n; i++) {
        assert_true(sim->trace.sm[i] >= 0 && sim->trace.sm[i] < units);
        assert_true(sim->trace.end[i] >= sim->trace.begin[i]);
        count[sim->trace.sm[i]]++;
    }
    for (int u = 0; u < units; u++)
        assert_int_equal(count[u], rows_per_sm);
    free(count);
}

/* The written trace is possible: `verify trace`'s check finds no warp
 * doing two things at once and no phase out of its step order. */
static void check_possible(const pg_run *sim, const pg_schedule *s)
{
    pg_trace_issues issues;
    if (pg_trace_check(sim, s, &issues))
        fail_msg("trace check: %s", pg_last_error());
    if (issues.impossible)
        fail_msg("%lld impossible records, e.g. %s", (long long)issues.impossible, issues.nnotes ? issues.notes[0] : "");
}

static void check_stat(const char *name, const pg_prediction *pred, const pg_prediction *meas)
{
    const pg_stat *p = pg_prediction_find(pred, name), *m = pg_prediction_find(meas, name);
    assert_non_null(p);
    assert_non_null(m);
    if (fabs(p->mean - m->mean) > fmax(50, 0.1 * p->mean))
        fail_msg("%s: %.1f in the written trace, %.1f predicted", name, m->mean, p->mean);
}

static void test_trace_out_reads_back(void **state)
{
    (void)state;
    pg_run run, sim;
    pg_schedule *s = NULL;
    fit_with_delay(&run, &s);
    const pg_model_opts o = {20000, 1, 0};
    if (model_trace_write("pred.h5", s, &o, &run))
        fail_msg("%s", pg_last_error());
    if (pg_run_read("pred.h5", &sim, PG_READ_TRACE))
        fail_msg("pred.h5: %s", pg_last_error());
    assert_int_equal(sim.kernel.epi_delay, 1600);
    assert_string_equal(sim.kernel.name, run.kernel.name);
    assert_string_equal(sim.trace.schedule, "h100-bres");
    /* what fits a measured trace fits the written one */
    pg_schedule *refit = NULL;
    if (pg_schedule_fit(&sim, &refit))
        fail_msg("refit of pred.h5: %s", pg_last_error());
    pg_schedule_free(refit);
    check_layout(&sim, run.kernel.sm_count, 12544 / run.kernel.sm_count);
    check_possible(&sim, s);
    pg_prediction pred, meas;
    if (pg_model_predict(s, &o, &pred) ||
        pg_trace_summarize_period(&sim.trace, sim.kernel.sm_clock_hz, pg_schedule_period_phase(s), &meas))
        fail_msg("%s", pg_last_error());
    if (fabs(meas.tile_period / pred.tile_period - 1) > 0.03)
        fail_msg("period %.1f in the written trace, %.1f predicted", meas.tile_period, pred.tile_period);
    check_stat("order_wait", &pred, &meas);
    check_stat("load_wait", &pred, &meas);
    check_stat("epilogue_regs", &pred, &meas);
    pg_run_free(&sim);
    pg_schedule_free(s);
    pg_run_free(&run);
}

static void test_trace_out_refuses_its_input(void **state)
{
    (void)state;
    pg_run run;
    pg_schedule *s = NULL;
    struct stat before, after;
    assert_int_equal(stat(g_cal, &before), 0);
    fit_with_delay(&run, &s);
    const pg_model_opts o = {20000, 1, 0};
    assert_int_equal(model_trace_write(g_cal, s, &o, &run), -1);
    assert_non_null(strstr(pg_last_error(), "--trace-out"));
    assert_int_equal(stat(g_cal, &after), 0);
    assert_true(before.st_size == after.st_size && before.st_mtime == after.st_mtime);
    assert_int_equal(mkdir("a_dir", 0755) == 0 || access("a_dir", F_OK) == 0, 1);
    assert_int_equal(model_trace_write("a_dir", s, &o, &run), -1);
    pg_schedule_free(s);
    pg_run_free(&run);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s bres_epi_00000.h5\n", argv[0]);
        return 2;
    }
    g_cal = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trace_out_reads_back),
        cmocka_unit_test(test_trace_out_refuses_its_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
