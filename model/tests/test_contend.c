/* The `contend` line (model/contend.c, docs/experiments.md M17):
 *  - two ping-pong warpgroups with constant phases, where the contended
 *    epilogue's steady state is known in closed form (overlap with the other
 *    mainloop, the probe's spin that does not contend);
 *  - the fit's estimator recovers a known slowdown from per-tile data, and
 *    finds none where there is none;
 *  - invalid lines are rejected with "file:line: problem". */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model_ext.h"
#include "pg_error.h"
#include "fit.h"
#include "sched.h"

static const char k_pingpong[] = "schedule pp\n"
                                 "option E 400\n"
                                 "option C 0.5\n"
                                 "option W 1\n"
                                 "option d 0\n"
                                 "machine units=1 tiles=20000 clock_hz=1e9 flops=1e12\n"
                                 "period consumer.mainloop\n"
                                 "phase mainloop family=const mean=1000\n"
                                 "phase epilogue_regs family=const mean=$E\n"
                                 "role consumer instances=2 mode=rotate\n"
                                 "  wait order_wait until consumer.mainloop[1]\n"
                                 "  work mainloop\n"
                                 "  work epilogue_regs + $d\n"
                                 "contend epilogue_regs by=mainloop slowdown=$C window=$W\n";

static void predict_with(const char *const *sets, int n, double *period, double *epilogue)
{
    pg_schedule *s = NULL;
    if (pg_schedule_load_text(k_pingpong, "pp.sched", &s) != 0)
        fail_msg("load: %s", pg_last_error());
    for (int i = 0; i < n; i++)
        if (pg_schedule_set(s, sets[i], 0) != 0)
            fail_msg("set %s: %s", sets[i], pg_last_error());
    pg_model_opts o = {20000, 1, 1}; /* deterministic */
    pg_prediction p;
    if (pg_model_predict(s, &o, &p) != 0)
        fail_msg("predict: %s", pg_last_error());
    *period = p.tile_period;
    *epilogue = pg_prediction_find(&p, "epilogue_regs")->mean;
    pg_schedule_free(s);
}

static void test_closed_form(void **state)
{
    (void)state;
    double T, e;
    /* The other mainloop (1,000) starts as the epilogue starts and covers
     * all of it: w = 400 + 0.5 w, w = 800; the tensor cores stay busy. */
    predict_with(NULL, 0, &T, &e);
    assert_true(fabs(e - 800) < 1.0);
    assert_true(fabs(T - 1000) < 1e-6);
    /* ... the same with the overlap averaged over 16 tiles */
    const char *w16[] = {"W=16"};
    predict_with(w16, 1, &T, &e);
    assert_true(fabs(e - 800) < 1.0);
    /* No slowdown: the sampled 400. */
    const char *c0[] = {"C=0"};
    predict_with(c0, 1, &T, &e);
    assert_true(fabs(e - 400) < 1e-6);
    /* Work 700: 700 + 0.5 x 1,000 = 1,200 > the mainloop, so a warpgroup's
     * own loop binds: period (1,000 + 1,200) / 2 = 1,100, and the other
     * mainloop still overlaps 1,000 cycles of the work. */
    const char *e700[] = {"E=700"};
    predict_with(e700, 1, &T, &e);
    assert_true(fabs(e - 1200) < 1.0);
    assert_true(fabs(T - 1100) < 1.0);
    /* A 1,000-cycle spin after the work (the probe) does not contend but
     * delays the other mainloop: period T = (2,000 + w) / 2, the other
     * mainloop starts T - 1,000 after the work and overlaps w / 2 of it:
     * w = 400 + 0.25 w = 533.3; the step reports w + 1,000. */
    const char *spin[] = {"d=1000"};
    predict_with(spin, 1, &T, &e);
    assert_true(fabs(e - (1000 + 400 / 0.75)) < 1.0);
    assert_true(fabs(T - (2000 + 400 / 0.75) / 2) < 1.0);
}

static double uniform(uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*x >> 11) / 9007199254740992.0;
}

/* Tiles with work u (independent of g) whose other mainloop starts g after
 * the step and covers the rest of it: w = u + C (w - g) where w > g. */
static double estimate_from(double C, int64_t n, uint64_t seed)
{
    double *w = malloc(sizeof(double) * (size_t)n), *ov = malloc(sizeof(double) * (size_t)n),
           *g = malloc(sizeof(double) * (size_t)n);
    assert_non_null(w);
    assert_non_null(ov);
    assert_non_null(g);
    for (int64_t i = 0; i < n; i++) {
        const double u = 2500 + 400 * (uniform(&seed) - 0.5), gi = 3500 * uniform(&seed);
        double wi = (u - C * gi) / (1 - C);
        if (wi <= gi)
            wi = u; /* the other mainloop started after the work ended */
        w[i] = wi;
        ov[i] = wi > gi ? wi - gi : 0;
        g[i] = gi < wi ? gi : wi;
    }
    const double est = contend_estimate(w, ov, g, n);
    free(w);
    free(ov);
    free(g);
    return est;
}

static void test_estimator(void **state)
{
    (void)state;
    const double cs[] = {0.0, 0.14, 0.3, 0.6};
    for (int i = 0; i < 4; i++) {
        const double est = estimate_from(cs[i], 20000, 17 + (uint64_t)i);
        if (fabs(est - cs[i]) > 0.02)
            fail_msg("slowdown %.2f estimated as %.3f", cs[i], est);
    }
}

/* The schedule with its `contend` line replaced (replace) or followed by
 * `line` must be rejected with "bad.sched:LINE: ..." naming `what`. */
static void expect_reject(const char *line, int replace, const char *what)
{
    char text[2048];
    const int keep = replace ? (int)(strstr(k_pingpong, "contend ") - k_pingpong) : (int)strlen(k_pingpong);
    snprintf(text, sizeof text, "%.*s%s\n", keep, k_pingpong, line);
    pg_schedule *s = NULL;
    if (pg_schedule_load_text(text, "bad.sched", &s) == 0) {
        pg_schedule_free(s);
        fail_msg("accepted: %s", line);
    }
    const char *msg = pg_last_error();
    if (!strstr(msg, "bad.sched:") || !strstr(msg, what))
        fail_msg("'%s' rejected as '%s', expected '%s'", line, msg, what);
}

static void test_rejects(void **state)
{
    (void)state;
    expect_reject("contend epilogue_regs by=mainloop tile=previous slowdown=0.1", 0, "already slowed by the line at 14");
    static const struct {
        const char *line, *what;
    } bad[] = {
        {"contend epilogue_regs by=mainlop slowdown=0.1", "by=mainlop is not a work step"},
        {"contend epilogue_regs by=mainloop slowdown=1.5", "slowdown must be in [0, 1)"},
        {"contend epilogue_regs by=mainloop slowdown=0.1 window=0", "window must be >= 1"},
        {"contend epilogue_regs by=mainloop slowdown=0.1 frob=2", "expected KEY=VALUE"},
        {"contend epilogue_regs by=epilogue_regs slowdown=0.1", "must be another work step"},
        {"contend epilogue_regs slowdown=0.1", "usage: contend"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_reject(bad[i].line, 1, bad[i].what);
    /* a role that does not take tiles in turn */
    const char *single = "schedule one\n"
                         "machine units=1 tiles=100 clock_hz=1e9 flops=1e12\n"
                         "period consumer.mainloop\n"
                         "phase mainloop family=const mean=1000\n"
                         "phase epilogue_regs family=const mean=400\n"
                         "role consumer instances=1\n"
                         "  work mainloop\n"
                         "  work epilogue_regs\n"
                         "contend epilogue_regs by=mainloop slowdown=0.1\n";
    pg_schedule *s = NULL;
    assert_int_not_equal(pg_schedule_load_text(single, "bad.sched", &s), 0);
    assert_non_null(strstr(pg_last_error(), "must take tiles in turn"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_closed_form), cmocka_unit_test(test_estimator),
                                       cmocka_unit_test(test_rejects)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
