/* The `dramq` line (model/dramq.c, docs/experiments.md M22) on a schedule
 * whose period is known in closed form: one warp computes 1,000 cycles,
 * then waits for a load issued when its compute ended, so
 *     T = 1000 + L x clock / clock_cal x (1 + q g(rho)) / (1 + q g(rho_cal)),
 *     rho = bytes x clock / (B x T), g(r) = r / (1 - r);
 * at the calibration (rho_cal = 0.5 here) the factor is 1.  Invalid lines
 * are rejected with "file:line: problem". */
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

#define SCHED(DQ) PG_TEST_LOAD_SCHED("20000", DQ)

static const char k_ok[] = SCHED("dramq first_load qscale=0.15 bytes_per_s=1e12 cal_bytes_per_s=1e12 clock_cal=1e9 "
                                 "on=$dramq\n");

static double period_with(const char *const *sets, int n)
{
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(k_ok, "dq.sched", &s), 0);
    for (int i = 0; i < n; i++)
        assert_int_equal(pg_schedule_set(s, sets[i], 0), 0);
    pg_model_opts o = {.tiles = 4000, .seed = 1};
    pg_prediction p;
    assert_int_equal(pg_model_predict(s, &o, &p), 0);
    pg_schedule_free(s);
    return p.tile_period;
}

/* the closed form's fixed point */
static double expected(double clock, double bw)
{
    const double q = 0.15, qcal = 1 + q * 0.5 / 0.5;
    double T = 2000;
    for (int i = 0; i < 200; i++) {
        double rho = fmin(0.95, 1e6 * clock / (bw * T));
        T = 1000 + 1000 * clock / 1e9 * (1 + q * rho / (1 - rho)) / qcal;
    }
    return T;
}

static void calibration_point_is_unchanged(void **st)
{
    (void)st;
    assert_float_equal(period_with(NULL, 0), 2000, 2);
    const char *off[] = {"dramq=0"};
    assert_float_equal(period_with(off, 1), 2000, 2);
}

static void more_bandwidth_shortens_the_load(void **st)
{
    (void)st;
    const char *sets[] = {"dramq.bytes_per_s=2e12"};
    const double T = period_with(sets, 1), want = expected(1e9, 2e12);
    assert_true(want < 1950); /* the case moves the period */
    assert_float_equal(T, want, 0.003 * want);
    /* off: the memory term stays a constant */
    const char *off[] = {"dramq.bytes_per_s=2e12", "dramq=0"};
    assert_float_equal(period_with(off, 2), 2000, 2);
}

static void a_faster_clock_costs_cycles(void **st)
{
    (void)st;
    const char *sets[] = {"clock_hz=1.2e9"};
    const double T = period_with(sets, 1), want = expected(1.2e9, 1e12);
    assert_true(want > 2150); /* 1.2 x the latency in cycles, less the lower queue */
    assert_float_equal(T, want, 0.003 * want);
}

/* The calibration ran on one SM, the prediction on two (M104): the
 * calibration's share stays its own SMs' (bandwidth cal_units=), so the
 * load queues at twice the share.  Before M104 the calibration's share
 * followed the what-if's units and the period stayed at 2,000. */
static void more_sms_share_the_dram(void **st)
{
    (void)st;
    const char *sets[] = {"bandwidth.bytes_per_tile=5e5", "bandwidth.cal_bytes_per_tile=5e5", "bandwidth.cal_units=1",
                          "units=2"};
    const double q = 0.15, qcal = 1 + q * 0.25 / 0.75; /* rho_cal = 5e5 x 1e9 / (1e12 x 2,000) */
    double want = 2000;
    for (int i = 0; i < 200; i++) {
        const double rho = fmin(0.95, 5e5 * 2 * 1e9 / (1e12 * want));
        want = 1000 + 1000 * (1 + q * rho / (1 - rho)) / qcal;
    }
    assert_true(want > 2040); /* the case moves the period */
    assert_float_equal(period_with(sets, 4), want, 0.003 * want);
}

static void bad_lines_are_rejected(void **st)
{
    (void)st;
    static const char *const bad[][2] = {
        {SCHED("dramq mainloop qscale=0.1 bytes_per_s=1 cal_bytes_per_s=1 clock_cal=1\n"), "not a `latency`"},
        {SCHED("dramq first_load qscale=0.1 bytes_per_s=1 cal_bytes_per_s=1\n"), "usage: dramq"},
        {SCHED("dramq first_load qscale=-1 bytes_per_s=1 cal_bytes_per_s=1 clock_cal=1\n"), "out of range"},
        {SCHED("dramq first_load speed=1 qscale=0.1 bytes_per_s=1 cal_bytes_per_s=1 clock_cal=1\n"), "expected qscale"},
        {SCHED("dramq first_load qscale=0.1 bytes_per_s=1 cal_bytes_per_s=1 clock_cal=1 on=2\n"), "out of range"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pg_schedule *s = NULL;
        assert_int_not_equal(pg_schedule_load_text(bad[i][0], "bad.sched", &s), 0);
        assert_non_null(strstr(pg_last_error(), bad[i][1]));
        assert_non_null(strstr(pg_last_error(), "bad.sched:11"));
    }
    /* without a bandwidth line there is no DRAM share */
    static const char nobw[] = "schedule dq\n"
                               "machine units=1 tiles=100 clock_hz=1e9 flops=1e12\n"
                               "period consumer.mainloop\n"
                               "phase mainloop family=const mean=1000\n"
                               "memory first_load dram_latency=1000 bytes=0 bytes_per_cycle=64\n"
                               "role consumer instances=1\n"
                               "  wait load_wait until consumer.mainloop[1] + first_load\n"
                               "  work mainloop\n"
                               "dramq first_load qscale=0.1 bytes_per_s=1 cal_bytes_per_s=1 clock_cal=1\n";
    pg_schedule *s = NULL;
    assert_int_not_equal(pg_schedule_load_text(nobw, "nobw.sched", &s), 0);
    assert_non_null(strstr(pg_last_error(), "needs a `bandwidth` line"));
    /* overrides are checked */
    assert_int_equal(pg_schedule_load_text(k_ok, "dq.sched", &s), 0);
    assert_int_not_equal(pg_schedule_set(s, "dramq.bytes_per_s=0", 0), 0);
    assert_int_not_equal(pg_schedule_set(s, "dramq.speed=1", 0), 0);
    assert_int_equal(pg_schedule_set(s, "dramq.qscale=0.3", 0), 0);
    pg_schedule_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(calibration_point_is_unchanged),
        cmocka_unit_test(more_bandwidth_shortens_the_load),
        cmocka_unit_test(a_faster_clock_costs_cycles),
        cmocka_unit_test(more_sms_share_the_dram),
        cmocka_unit_test(bad_lines_are_rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
