/* h100-pingpong's option rowfirst_prefetch (docs/experiments.md M146): the
 * fit reads the kernel's prefetch off the calibration's trace (the rowfirst
 * line's extra gap, over 250 cycles: 1) and fits again with it where the
 * written value differs; a caller's --variant wins.
 * argv: traces/probes/h200/pingpong_ml_00000.h5 (the kernel before M142's
 * fix, extra ~500 cycles), traces/probes/h200_s65/pingpong_ml_00000.h5 (the
 * fixed kernel, extra ~7), traces/probes/h200_s65/pingpong_epi_02600.h5 (the
 * fixed kernel at --epi-delay 2,600: -0.9% with the option read, -5.5% with
 * the old kernel's lines, M145). */
#define _GNU_SOURCE
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
#include "sched.h"
#include "validate.h"

enum { OLD_CAL, FIXED_CAL, FIXED_EPI_2600, N_RUNS };
static const char *g_path[N_RUNS];

static int g_by_caller, g_extra_fitted; /* the last fit's: the option set by the caller, the extra measured */

/* the option as the fit leaves it on `path`, with the caller's sets */
static int fitted_option(const char *path, const char *const *sets, int nsets, double *extra)
{
    pg_run run;
    pg_schedule *s = NULL;
    char v[32];
    if (pg_run_read(path, &run, PG_READ_TRACE))
        fail_msg("%s: %s", path, pg_last_error());
    if (pg_schedule_fit_variant(&run, NULL, sets, nsets, &s) || pg_schedule_option(s, "rowfirst_prefetch", v, sizeof v))
        fail_msg("%s: %s", path, pg_last_error());
    *extra = s->rf_extra;
    g_by_caller = s->rf_option_by_caller;
    g_extra_fitted = s->rf_extra_fitted;
    pg_schedule_free(s);
    pg_run_free(&run);
    return atoi(v);
}

static void test_read_off_the_trace(void **state)
{
    (void)state;
    double extra;
    assert_int_equal(fitted_option(g_path[OLD_CAL], NULL, 0, &extra), 1);
    assert_true(extra > 250);
    assert_int_equal(fitted_option(g_path[FIXED_CAL], NULL, 0, &extra), 0);
    assert_true(extra < 250);
    /* what the fit report prints: read off the trace, the extra measured */
    assert_int_equal(g_by_caller, 0);
    assert_int_equal(g_extra_fitted, 1);
    /* the caller's variant is kept, whatever the trace says */
    const char *old_lines = "rowfirst_prefetch=1";
    assert_int_equal(fitted_option(g_path[FIXED_CAL], &old_lines, 1, &extra), 1);
    assert_int_equal(g_by_caller, 1);
}

/* a what-if's --set of an option recompiles the fitted schedule; what the
 * fit did with the option (its report's source line) stays */
static void test_report_survives_a_set(void **state)
{
    (void)state;
    pg_run run;
    pg_schedule *s = NULL;
    if (pg_run_read(g_path[FIXED_CAL], &run, PG_READ_TRACE) || pg_schedule_fit(&run, &s))
        fail_msg("%s", pg_last_error());
    assert_int_equal(s->rf_extra_fitted, 1);
    assert_int_equal(s->rf_option_by_caller, 0);
    if (pg_schedule_set(s, "epi_delay=8500", 0))
        fail_msg("%s", pg_last_error());
    assert_int_equal(s->rf_extra_fitted, 1);
    assert_int_equal(s->rf_option_by_caller, 0);
    pg_schedule_free(s);
    pg_run_free(&run);
}

/* the period error at --epi-delay 2,600 on the fixed kernel, fitted on its
 * zero-delay run, with the given variant (NULL: none) */
static double period_error(const char *variant)
{
    const pg_model_opts o = {20000, 1, 0};
    const pg_validate_opts v = {NULL, {0, 0}, variant ? &variant : NULL, variant ? 1 : 0, NULL, 0, NULL, 0, 0};
    pg_validate_report r;
    if (pg_model_validate_runs(g_path[FIXED_CAL], &g_path[FIXED_EPI_2600], 1, &v, &o, &r))
        fail_msg("%s", pg_last_error());
    assert_int_equal(r.n, 2);
    const double e = r.rows[1].period_predicted / r.rows[1].period_measured - 1;
    pg_validate_report_free(&r);
    return e;
}

static void test_fixed_kernel_delay(void **state)
{
    (void)state;
    const double read = period_error(NULL), old = period_error("rowfirst_prefetch=1"),
                 fixed = period_error("rowfirst_prefetch=0");
    print_message("epi 2,600 on the fixed kernel: %+.2f%% with the option read, %+.2f%% with the old lines\n",
                  100 * read, 100 * old);
    /* the option read is the whole fit made with it, not a set after one */
    assert_true(read == fixed);
    assert_true(fabs(read) < PG_VALIDATE_PERIOD_REL);
    assert_true(old < -PG_VALIDATE_PERIOD_REL);
}

int main(int argc, char **argv)
{
    if (argc != 1 + N_RUNS) {
        fprintf(stderr, "usage: %s OLD_KERNEL_CAL.h5 FIXED_KERNEL_CAL.h5 FIXED_KERNEL_EPI_2600.h5\n", argv[0]);
        return 2;
    }
    for (int i = 0; i < N_RUNS; i++)
        g_path[i] = argv[1 + i];
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_read_off_the_trace), cmocka_unit_test(test_report_survives_a_set),
                                       cmocka_unit_test(test_fixed_kernel_delay)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
