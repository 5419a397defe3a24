/* A build that prefetches A predicted from a calibration without one, and
 * the reverse (docs/experiments.md M148): validate reads the kernel name's
 * "-pfD", refits the calibration with the rowfirst line's option for that
 * build and adds the line's prefetch= on each row-first tile and its
 * prefetch_all= on every tile (M156); a schedule whose line has no
 * prefetch= cannot tell the builds apart (another kernel).
 * argv: traces/probes/h200_s66/pingpong_ml_00000.h5 (the fixed pingpong,
 * zero delay), traces/probes/h200_s66/pingpong_pf1_epi_03000.h5 (the same
 * kernel with --a-prefetch 1 at --epi-delay 3,000). */
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
#include "sched.h"
#include "validate.h"

enum { PLAIN_CAL, PF1_EPI_3000, N_RUNS };
static const char *g_path[N_RUNS];

/* validate `target` from `cal` with the given sets after the fit; the row */
static pg_validate_row check(const char *cal, const char *target, const char *set)
{
    const pg_model_opts o = {20000, 1, 0};
    const pg_validate_opts v = {NULL, {0, 0}, NULL, 0, set ? &set : NULL, set ? 1 : 0, NULL, 0, 0};
    pg_validate_report r;
    if (pg_model_validate_runs(cal, &target, 1, &v, &o, &r))
        fail_msg("%s", pg_last_error());
    assert_int_equal(r.n, 2);
    const pg_validate_row row = r.rows[1];
    pg_validate_report_free(&r);
    return row;
}

static int has_set(const pg_whatif *w, const char *want)
{
    for (int i = 0; i < w->n; i++)
        if (strcmp(w->set[i], want) == 0)
            return 1;
    return 0;
}

static void test_prefetch_build_predicted(void **state)
{
    (void)state;
    const pg_validate_row row = check(g_path[PLAIN_CAL], g_path[PF1_EPI_3000], NULL);
    assert_string_equal(row.whatif.why_not, "");
    assert_string_equal(row.whatif.refit, "rowfirst_prefetch=1");
    assert_string_equal(row.whatif.kind, "delay+structure");
    assert_true(has_set(&row.whatif, "rowfirst.added=490"));
    assert_true(has_set(&row.whatif, "rowfirst.added_all=339"));
    const double e = row.period_predicted / row.period_measured - 1;
    print_message("--a-prefetch 1 at epi 3,000 from the plain calibration: %+.2f%%\n", 100 * e);
    assert_true(fabs(e) < PG_VALIDATE_PERIOD_REL);
}

static void test_the_reverse(void **state)
{
    (void)state;
    const pg_validate_row row = check(g_path[PF1_EPI_3000], g_path[PLAIN_CAL], NULL);
    assert_string_equal(row.whatif.why_not, "");
    assert_string_equal(row.whatif.refit, "rowfirst_prefetch=0");
    assert_true(has_set(&row.whatif, "rowfirst.added=-490"));
    assert_true(has_set(&row.whatif, "rowfirst.added_all=-339"));
}

/* M156: the per-tile cost is what moves the prediction up, and a line
 * without prefetch_all= adds nothing on every tile */
static void test_prefetch_all_lengthens_the_prediction(void **state)
{
    (void)state;
    const pg_validate_row with = check(g_path[PLAIN_CAL], g_path[PF1_EPI_3000], NULL);
    const pg_validate_row without = check(g_path[PLAIN_CAL], g_path[PF1_EPI_3000], "rowfirst.prefetch_all=0");
    assert_true(has_set(&without.whatif, "rowfirst.added=490"));
    for (int i = 0; i < without.whatif.n; i++)
        assert_null(strstr(without.whatif.set[i], "added_all"));
    print_message("predicted period with prefetch_all %.1f, without %.1f\n", with.period_predicted,
                  without.period_predicted);
    assert_true(with.period_predicted > without.period_predicted);
}

static void test_no_prefetch_key_is_another_kernel(void **state)
{
    (void)state;
    const pg_validate_row row = check(g_path[PLAIN_CAL], g_path[PF1_EPI_3000], "rowfirst.prefetch=0");
    assert_non_null(strstr(row.whatif.why_not, "option= prefetch="));
}

static void test_rowfirst_off_is_another_kernel(void **state)
{
    (void)state;
    const pg_validate_row row = check(g_path[PLAIN_CAL], g_path[PF1_EPI_3000], "rowfirst=0");
    assert_non_null(strstr(row.whatif.why_not, "option= prefetch="));
}

static void test_prefetch_key_range(void **state)
{
    (void)state;
    pg_schedule *s = NULL;
    if (pg_schedule_load("h100-pingpong", &s))
        fail_msg("%s", pg_last_error());
    assert_int_not_equal(pg_schedule_set(s, "rowfirst.prefetch=-1", 0), 0);
    assert_int_equal(pg_schedule_set(s, "rowfirst.added=-490", 0), 0);
    assert_true(s->rf_added == -490);
    assert_true(s->rf_prefetch_all == 339);
    assert_int_not_equal(pg_schedule_set(s, "rowfirst.prefetch_all=-1", 0), 0);
    assert_int_equal(pg_schedule_set(s, "rowfirst.added_all=-339", 0), 0);
    assert_true(s->rf_added_all == -339);
    pg_schedule_free(s);
}

int main(int argc, char **argv)
{
    if (argc != 1 + N_RUNS) {
        fprintf(stderr, "usage: %s PLAIN_CAL.h5 PF1_EPI_3000.h5\n", argv[0]);
        return 2;
    }
    for (int i = 0; i < N_RUNS; i++)
        g_path[i] = argv[1 + i];
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_prefetch_build_predicted), cmocka_unit_test(test_the_reverse),
                                       cmocka_unit_test(test_prefetch_all_lengthens_the_prediction),
                                       cmocka_unit_test(test_no_prefetch_key_is_another_kernel),
                                       cmocka_unit_test(test_rowfirst_off_is_another_kernel),
                                       cmocka_unit_test(test_prefetch_key_range)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
