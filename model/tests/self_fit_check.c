#include "self_fit_check.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "model_ext.h"
#include "pg_error.h"
#include "runfile.h"

static int outside(double model, double measured)
{
    return fabs(model - measured) > fmax(0.15 * fabs(measured), 150);
}

/* The one known self-fit miss, pinned instead of exempted: with contention
 * per tile (window=1, docs/experiments.md M33) the order_wait and load_wait
 * tails of a pingpong run whose epilogue is 3,000+ cycles longer thin, their
 * p95 20-35% low (order 1,978 vs 2,557, load 909 vs 1,299 at 3,200).
 * Pinned to [-40%, -15%]: a model that fixes it, or makes it worse, fails
 * here and is looked at.  The load wait's tail starts to thin at 2,400
 * (the committed sweep's run: -14.1% before the producer's floor, M113,
 * -15.8%, 1,217 vs 1,446, with it; rep_b's -9.8%): there it may be up to
 * 40% low but not past the target's +15%. */
static int pinned_tail(const pg_run *run, const char *wait, int q, double model, double measured, int *ok)
{
    const int load = strcmp(wait, "load_wait") == 0;
    if (q != 2 || (strcmp(wait, "order_wait") != 0 && !load) || run->kernel.epi_delay < (load ? 2400 : 3000) ||
        strstr(run->kernel.name, "bres") != NULL)
        return 0;
    const double d = model / measured - 1;
    *ok = d >= -0.40 && d <= (run->kernel.epi_delay < 3000 ? 0.15 : -0.15);
    return 1;
}

void pg_check_self_fits(const char *const *paths, int n, int min_waits)
{
    static const char *const k_stat[3] = {"mean", "p50", "p95"};
    for (int i = 0; i < n; i++) {
        pg_run run;
        pg_schedule *s = NULL;
        pg_prediction m, p;
        pg_model_opts o = {20000, 1, 0};
        if (pg_run_read(paths[i], &run, PG_READ_TRACE) || pg_trace_summarize(&run.trace, run.kernel.sm_clock_hz, &m) ||
            pg_schedule_fit(&run, &s) || pg_model_predict(s, &o, &p))
            fail_msg("%s: %s", paths[i], pg_last_error());
        assert_true(m.nwaits >= min_waits);
        for (int w = 0; w < m.nwaits; w++) {
            const pg_stat *ms = &m.waits[w], *ps = pg_prediction_find(&p, ms->name);
            if (!ps)
                fail_msg("%s: the model has no %s", paths[i], ms->name);
            const double mv[3] = {ms->mean, ms->p50, ms->p95}, pv[3] = {ps->mean, ps->p50, ps->p95};
            for (int q = 0; q < 3; q++) {
                int ok = 0;
                if (pinned_tail(&run, ms->name, q, pv[q], mv[q], &ok) ? !ok : outside(pv[q], mv[q]))
                    fail_msg("%s: %s %s measured %.1f, model %.1f", paths[i], ms->name, k_stat[q], mv[q], pv[q]);
            }
        }
        if (outside(p.tile_period, m.tile_period))
            fail_msg("%s: tile period measured %.1f, model %.1f", paths[i], m.tile_period, p.tile_period);
        pg_schedule_free(s);
        pg_run_free(&run);
    }
}
