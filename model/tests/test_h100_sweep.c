/* The committed H100 --epi-delay sweep (traces/runs/epi_sweep): the model
 * fitted on the zero-delay trace only predicts every delay's tile period
 * (docs/model.md: within 5% at nine of ten delays, +6.1% at 2,400, the
 * zero-delay point itself +0.4%) and the idle onset within 10% (-0.5%).  This pins those results: a change to the fit or
 * the engine that loses them fails here.  argv: the sweep's run files. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "model_ext.h"
#include "pg_error.h"
#include "runfile.h"

static const char *const *g_paths;
static int g_n;

static void test_sweep(void **state)
{
    (void)state;
    pg_delay_check c;
    pg_model_opts o = {20000, 1, 0};
    if (pg_model_validate_delays(g_paths, g_n, &o, &c) != 0)
        fail_msg("%s", pg_last_error());
    assert_int_equal(c.n, g_n);
    assert_true(c.delay[0] == 0);
    int within5 = 0;
    for (int i = 0; i < c.n; i++) {
        double d = fabs(c.pred_period[i] / c.meas_period[i] - 1);
        if (d > 0.07)
            fail_msg("delay %.0f: predicted %.1f vs measured %.1f", c.delay[i], c.pred_period[i], c.meas_period[i]);
        within5 += d <= 0.05;
    }
    assert_true(fabs(c.pred_period[0] / c.meas_period[0] - 1) < 0.02); /* the fitted point itself */
    assert_true(within5 >= c.n - 1);
    assert_true(isfinite(c.onset_measured) && isfinite(c.onset_predicted));
    if (fabs(c.onset_predicted - c.onset_measured) > 0.10 * c.onset_measured)
        fail_msg("idle onset predicted %.0f vs measured %.0f", c.onset_predicted, c.onset_measured);
}

/* Each run fitted on its own trace (what `pegemm verify trace` does)
 * reproduces its measured waits: mean, p50 and p95 of every wait and the
 * tile period within 15% or 150 cycles (docs/model.md, M7). */
static void test_self_fits(void **state)
{
    (void)state;
    for (int i = 0; i < g_n; i++) {
        pg_run run;
        pg_schedule *s = NULL;
        pg_prediction m, p;
        pg_model_opts o = {20000, 1, 0};
        if (pg_run_read(g_paths[i], &run, PG_READ_TRACE) || pg_trace_summarize(&run.trace, run.kernel.sm_clock_hz, &m) ||
            pg_schedule_fit(&run, &s) || pg_model_predict(s, &o, &p))
            fail_msg("%s: %s", g_paths[i], pg_last_error());
        for (int w = 0; w < m.nwaits; w++) {
            const pg_stat *ms = &m.waits[w], *ps = pg_prediction_find(&p, ms->name);
            if (!ps)
                fail_msg("%s: the model has no %s", g_paths[i], ms->name);
            const double mv[3] = {ms->mean, ms->p50, ms->p95}, pv[3] = {ps->mean, ps->p50, ps->p95};
            for (int q = 0; q < 3; q++)
                if (fabs(pv[q] - mv[q]) > fmax(0.15 * fabs(mv[q]), 150))
                    fail_msg("%s: %s %s measured %.1f, model %.1f", g_paths[i], ms->name,
                             q == 0 ? "mean" : q == 1 ? "p50" : "p95", mv[q], pv[q]);
        }
        if (fabs(p.tile_period - m.tile_period) > fmax(0.15 * m.tile_period, 150))
            fail_msg("%s: tile period measured %.1f, model %.1f", g_paths[i], m.tile_period, p.tile_period);
        pg_schedule_free(s);
        pg_run_free(&run);
    }
}

int main(int argc, char **argv)
{
    g_paths = (const char *const *)(argv + 1);
    g_n = argc - 1;
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_sweep), cmocka_unit_test(test_self_fits)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
