/* The `clock` line (model/predict_clock.c, docs/experiments.md M179) on a
 * schedule whose period is known in closed form: one warp computes 1,000
 * cycles plus its delay D, then waits 1,000 cycles of drain after it, so
 * T = 2,000 + D in cycles.  With the line on, a delay moves the clock to
 *     f(T) = min(fmax, f_cal ((1000 + 0.4 x 1000) / T + 0.35) / 1.05)^-E)
 * (x_cal = 1,400 / 2,000 + 0.35 at the calibration), and the drain is held
 * in ns for that move: 1,000 f(T) / f(2,000), iterated twice from T = 2,000
 * + D.  Invalid lines are rejected with "file:line: problem". */
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
#include "sched.h"
#include "sched_text.h"

#define SCHED(CLOCK)                                                                                                  \
    "schedule ck\n"                                                                                                   \
    "option epi_delay 0\n"                                                                                            \
    "option clock 1 0|1\n"                                                                                            \
    "machine units=1 tiles=4000 clock_hz=1e9 flops=1e12\n"                                                            \
    "period consumer.mainloop\n"                                                                                      \
    "phase mainloop family=const mean=1000\n"                                                                         \
    "latency drain family=const mean=1000\n"                                                                          \
    "role consumer instances=1\n"                                                                                     \
    "  wait load_wait until consumer.mainloop[1] + drain\n"                                                          \
    "  work mainloop + $epi_delay\n" CLOCK

#define LAW "exponent=0.3333 rest=0.35 rate=0.4 compute=1000 cal_period=2000 cal_compute=1000 cal_clock=1e9 "
static const char k_ok[] = SCHED("clock drain " LAW "fmax=2e9 by=epi_delay on=$clock\n");

/* the prediction of k_ok with sets, through the clocked path from the
 * schedule as loaded (the calibration) */
static pg_prediction predicted(const char *const *sets, int n)
{
    pg_schedule *base = NULL, *s = NULL;
    assert_int_equal(pg_schedule_load_text(k_ok, "ck.sched", &base), 0);
    assert_int_equal(pg_schedule_clone(base, &s), 0);
    for (int i = 0; i < n; i++)
        assert_int_equal(pg_schedule_set(s, sets[i], 0), 0);
    pg_model_opts o = {.tiles = 4000, .seed = 1};
    pg_prediction p;
    assert_int_equal(pg_model_predict_clocked(base, s, &o, &p), 0);
    pg_schedule_free(s);
    pg_schedule_free(base);
    return p;
}

static double law(double T, double fmax)
{
    return fmin(fmax, 1e9 * pow((1400 / T + 0.35) / 1.05, -0.3333));
}

static void the_calibration_keeps_its_clock(void **st)
{
    (void)st;
    const pg_prediction p = predicted(NULL, 0);
    assert_float_equal(p.tile_period, 2000, 2);
    assert_float_equal(p.clock_hz, 1e9, 1e6);
}

static void a_delay_holds_the_drain_in_ns(void **st)
{
    (void)st;
    const char *sets[] = {"epi_delay=3000"};
    const pg_prediction p = predicted(sets, 1);
    double T = 5000, f = 0;
    for (int i = 0; i < 2; i++) {
        f = law(T, 2e9);
        T = 4000 + 1000 * f / law(2000, 2e9);
    }
    assert_true(T > 5100); /* the case moves the period: a faster clock, a longer drain in cycles */
    assert_float_equal(p.tile_period, T, 0.002 * T);
    assert_float_equal(p.clock_hz, f, 1e-6 * f);
}

static void the_ceiling_caps_it_and_off_is_cycles(void **st)
{
    (void)st;
    const char *capped[] = {"epi_delay=3000", "clock.fmax=1.05e9"};
    const pg_prediction p = predicted(capped, 2);
    assert_float_equal(p.clock_hz, 1.05e9, 1e3);
    assert_float_equal(p.tile_period, 4000 + 1000 * 1.05, 0.002 * 5050);
    const char *off[] = {"epi_delay=3000", "clock=0"};
    const pg_prediction q = predicted(off, 2);
    assert_float_equal(q.tile_period, 5000, 5);
    assert_true(q.clock_hz == 0);
}

static void the_written_schedule_keeps_the_line(void **st)
{
    (void)st;
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(k_ok, "ck.sched", &s), 0);
    assert_int_equal(pg_schedule_set(s, "clock.cal_period=2500", 0), 0);
    char *text = pg_test_schedule_text(s, NULL);
    assert_non_null(strstr(text, "cal_period=2500"));
    assert_non_null(strstr(text, "by=epi_delay"));
    pg_schedule *back = NULL;
    assert_int_equal(pg_schedule_load_text(text, "back.sched", &back), 0);
    free(text);
    pg_schedule_free(back);
    pg_schedule_free(s);
}

static void bad_lines_are_rejected(void **st)
{
    (void)st;
    static const char *const bad[][2] = {
        {SCHED("clock drain " LAW "fmax=2e9\n"), "by= is missing"},
        {SCHED("clock drain " LAW "by=epi_delay\n"), "fmax= is missing"},
        {SCHED("clock drain " LAW "fmax=2e9 by=spin\n"), "by=spin is not an option"},
        {SCHED("clock mainloop " LAW "fmax=2e9 by=epi_delay\n"), "not a `latency`"},
        {SCHED("clock drain " LAW "fmax=2e9 by=epi_delay exponent=0\n"), "out of range"},
        {SCHED("clock drain " LAW "fmax=2e9 by=epi_delay speed=1\n"), "expected exponent"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pg_schedule *s = NULL;
        assert_int_not_equal(pg_schedule_load_text(bad[i][0], "bad.sched", &s), 0);
        assert_non_null(strstr(pg_last_error(), bad[i][1]));
        assert_non_null(strstr(pg_last_error(), "bad.sched:11"));
    }
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(k_ok, "ck.sched", &s), 0);
    assert_int_not_equal(pg_schedule_set(s, "clock.fmax=0", 0), 0);
    assert_int_not_equal(pg_schedule_set(s, "clock.speed=1", 0), 0);
    assert_int_equal(pg_schedule_set(s, "clock.rest=0.5", 0), 0);
    pg_schedule_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_calibration_keeps_its_clock),
        cmocka_unit_test(a_delay_holds_the_drain_in_ns),
        cmocka_unit_test(the_ceiling_caps_it_and_off_is_cycles),
        cmocka_unit_test(the_written_schedule_keeps_the_line),
        cmocka_unit_test(bad_lines_are_rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
