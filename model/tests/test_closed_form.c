/* The recurrence against answers known in closed form:
 *  - a producer/consumer pipeline with B buffers: cycle time max(p, e, (p+e)/B);
 *  - a barrier over W warps staggered by d: K + P + (W-1) d;
 *  - a barrier over W iid normal warps: K + E[max of W normals], known exactly
 *    (W = 2: mu + sigma/sqrt(pi)); Monte Carlo within its confidence interval;
 *  - Clark's formula for two iid normals (exact) and its error beyond. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "clark.h"
#include "maxplus.h"
#include "model_ext.h"
#include "pg_error.h"
#include "sched.h"

static pg_schedule *load_text(const char *text)
{
    pg_schedule *s = NULL;
    if (pg_schedule_load_text(text, "test", &s) != 0)
        fail_msg("schedule did not load: %s", pg_last_error());
    return s;
}

static const char k_two_stage[] = "schedule two-stage\n"
                                  "option B 2\n"
                                  "option p 100\n"
                                  "option e 100\n"
                                  "machine units=1 tiles=1000 clock_hz=1e9 flops=1e12\n"
                                  "period consumer.mainloop\n"
                                  "phase producer_issue family=const mean=$p\n"
                                  "phase mainloop family=const mean=$e\n"
                                  "role producer instances=1\n"
                                  "  wait producer_wait\n"
                                  "  work producer_issue\n"
                                  "role consumer instances=1\n"
                                  "  wait load_wait until producer.producer_issue\n"
                                  "  work mainloop\n"
                                  "buffer stages count=$B acquire=producer.producer_wait release=consumer.mainloop\n";

static void set(pg_schedule *s, const char *a)
{
    if (pg_schedule_set(s, a, 0) != 0)
        fail_msg("set %s: %s", a, pg_last_error());
}

static void test_pipeline_buffers(void **state)
{
    (void)state;
    const double ps[] = {100, 300, 250, 70};
    const double es[] = {300, 100, 250, 410};
    for (int B = 1; B <= 4; B++)
        for (int i = 0; i < 4; i++) {
            pg_schedule *s = load_text(k_two_stage);
            char a[64];
            snprintf(a, sizeof a, "B=%d", B);
            set(s, a);
            snprintf(a, sizeof a, "p=%g", ps[i]);
            set(s, a);
            snprintf(a, sizeof a, "e=%g", es[i]);
            set(s, a);
            double want = fmax(fmax(ps[i], es[i]), (ps[i] + es[i]) / B), lambda;
            char cycle[256], bn[64];
            assert_int_equal(sch_deterministic(s, &lambda, cycle, sizeof cycle, bn, sizeof bn), 0);
            assert_true(fabs(lambda - want) < 1e-9 * want);
            /* the recurrence itself (all phases at their means) settles to the same period */
            pg_model_opts o = {2000, 1, 1};
            pg_prediction p;
            assert_int_equal(pg_model_predict(s, &o, &p), 0);
            assert_true(fabs(p.tile_period - want) < 1e-6 * want);
            if ((ps[i] + es[i]) / B > fmax(ps[i], es[i]) + 1e-9)
                assert_string_equal(bn, "buffer stages");
            pg_schedule_free(s);
        }
}

static const char k_barrier[] = "schedule barrier\n"
                                "option warps 4\n"
                                "option d 10\n"
                                "machine units=1 tiles=1000 clock_hz=1e9 flops=1e12\n"
                                "period mma.kloop\n"
                                "phase kloop family=const mean=1000\n"
                                "phase phase1 family=const mean=500\n"
                                "role mma instances=1\n"
                                "  wait epi_wait\n"
                                "  work kloop\n"
                                "role epilogue instances=$warps\n"
                                "  wait ml_wait until mma.kloop\n"
                                "  delay $d*warp\n"
                                "  work phase1\n"
                                "buffer acc count=1 acquire=mma.epi_wait release=epilogue.phase1\n";

static void test_barrier_identical_warps(void **state)
{
    (void)state;
    for (int W = 1; W <= 8; W *= 2) {
        pg_schedule *s = load_text(k_barrier);
        char a[32];
        snprintf(a, sizeof a, "warps=%d", W);
        set(s, a);
        double lambda, want = 1000 + 500 + 10.0 * (W - 1);
        char cycle[256], bn[64];
        assert_int_equal(sch_deterministic(s, &lambda, cycle, sizeof cycle, bn, sizeof bn), 0);
        assert_true(fabs(lambda - want) < 1e-9 * want);
        assert_string_equal(bn, "buffer acc");
        assert_non_null(strstr(cycle, "epilogue.phase1"));
        pg_model_opts o = {2000, 1, 1};
        pg_prediction p;
        assert_int_equal(pg_model_predict(s, &o, &p), 0);
        assert_true(fabs(p.tile_period - want) < 1e-6 * want);
        /* the MMA waits exactly the epilogue's path each tile */
        assert_true(fabs(pg_prediction_find(&p, "epi_wait")->mean - (500 + 10.0 * (W - 1))) < 1e-6);
        pg_schedule_free(s);
    }
}

/* E[max of W iid standard normals] (exact values). */
static double emax_std_normal(int W)
{
    switch (W) {
    case 2:
        return 1 / sqrt(M_PI);
    case 3:
        return 3 / (2 * sqrt(M_PI));
    case 4:
        return 1.0293753730039641;
    default:
        return NAN;
    }
}

static void test_barrier_random_warps(void **state)
{
    (void)state;
    const double mu = 500, sigma = 40;
    for (int W = 2; W <= 4; W++) {
        pg_schedule *s = load_text(k_barrier);
        char a[64];
        snprintf(a, sizeof a, "warps=%d", W);
        set(s, a);
        set(s, "d=0");
        set(s, "phase1.sd=40"); /* const -> normal(500, 40); truncation at 0 is 12 sigma away */
        pg_model_opts o = {200000, 7, 0};
        pg_prediction p;
        assert_int_equal(pg_model_predict(s, &o, &p), 0);
        double want = 1000 + mu + sigma * emax_std_normal(W);
        /* within the Monte Carlo's own 95% interval (x2 for safety at a fixed seed) */
        assert_true(p.tile_period_ci95 > 0 && p.tile_period_ci95 < 1.0);
        if (fabs(p.tile_period - want) > 2 * p.tile_period_ci95)
            fail_msg("W=%d: Monte Carlo %.3f, exact %.3f, ci %.3f", W, p.tile_period, want, p.tile_period_ci95);
        /* Clark: exact for two, close beyond */
        if (W == 2)
            assert_true(fabs(p.clark_tile_period - want) < 1e-9 * want);
        else
            assert_true(fabs(p.clark_tile_period - want) < 0.02 * sigma);
        pg_schedule_free(s);
    }
}

static void test_clark_two_normals(void **state)
{
    (void)state;
    double m, v;
    clark_max2(3, 4, 3, 4, 0, &m, &v);
    assert_true(fabs(m - (3 + 2 / sqrt(M_PI))) < 1e-12);
    assert_true(fabs(v - 4 * (1 - 1 / M_PI)) < 1e-12);
    /* correlated: max(X, X + c) = X + c */
    clark_max2(0, 1, 5, 1, 1, &m, &v);
    assert_true(fabs(m - 5) < 1e-12);
}

static void test_quantiles(void **state)
{
    (void)state;
    assert_true(fabs(norm_quantile(0.95) - 1.6448536269514722) < 1e-9);
    assert_true(fabs(norm_quantile(0.025) + 1.959963984540054) < 1e-9);
    assert_true(fabs(norm_cdf(norm_quantile(0.3)) - 0.3) < 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pipeline_buffers),   cmocka_unit_test(test_barrier_identical_warps),
        cmocka_unit_test(test_barrier_random_warps), cmocka_unit_test(test_clark_two_normals),
        cmocka_unit_test(test_quantiles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
