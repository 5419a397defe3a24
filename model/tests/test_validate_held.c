/* `pegemm model validate --held` (docs/experiments.md M152): per latency a
 * wait can end on, the share of the waits it could hold that it held, in
 * the run's trace and in the model's simulated run of the run's
 * prediction, read by the same fit.
 * argv: traces/probes/h200_s65/pingpong_ml_00000.h5 (the fixed pingpong,
 * zero delay, the calibration), traces/probes/h200_s65/pingpong_epi_02600.h5
 * (the same kernel at --epi-delay 2,600). */
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

#include "cli_model_out.h"
#include "model.h"
#include "model_ext.h"
#include "pg_error.h"
#include "runfile.h"
#include "sched.h"
#include "validate.h"

enum { CAL, EPI_2600, N_RUNS };
static const char *g_path[N_RUNS];
static pg_validate_report g_held; /* the check with --held, made once */

static int check(int held, pg_validate_report *r)
{
    const pg_model_opts o = {20000, 1, 0};
    const pg_validate_opts v = {NULL, {0, 0}, NULL, 0, NULL, 0, NULL, 0, held};
    return pg_model_validate_runs(g_path[CAL], &g_path[EPI_2600], 1, &v, &o, r);
}

static int setup(void **state)
{
    (void)state;
    if (check(1, &g_held)) {
        fprintf(stderr, "%s\n", pg_last_error());
        return -1;
    }
    return g_held.n == 2 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    pg_validate_report_free(&g_held);
    return 0;
}

/* row's share of latency `name`, measured or predicted; fails when absent */
static double share(const pg_validate_row *row, const char *name, int predicted)
{
    for (int i = 0; i < row->nheld; i++)
        if (strcmp(row->held_name[i], name) == 0)
            return predicted ? row->held_predicted[i] : row->held_measured[i];
    fail_msg("%s: no held share for %s", row->path, name);
    return NAN;
}

static void test_off_by_default(void **state)
{
    (void)state;
    pg_validate_report r;
    if (check(0, &r))
        fail_msg("%s", pg_last_error());
    for (int i = 0; i < r.n; i++)
        assert_int_equal(r.rows[i].nheld, 0);
    pg_validate_report_free(&r);
}

/* the measured share is what a fit of the run's own trace reads */
static void test_measured_is_the_runs_own_fit(void **state)
{
    (void)state;
    for (int i = 0; i < N_RUNS; i++) {
        pg_run run;
        pg_schedule *fit = NULL;
        if (pg_run_read(g_path[i], &run, PG_READ_TRACE) || pg_schedule_fit(&run, &fit))
            fail_msg("%s", pg_last_error());
        const pg_validate_row *row = &g_held.rows[i];
        int seen = 0;
        for (int d = 0; d < fit->ndists; d++) {
            const sch_dist *x = &fit->dists[d];
            if (x->kind == DKIND_PHASE || x->fit_seen <= 0)
                continue;
            assert_true(share(row, x->name, 0) == (double)x->fit_bound / (double)x->fit_seen);
            seen++;
        }
        assert_int_equal(seen, row->nheld);
        assert_int_equal(row->held_more, 0); /* the same two latencies in the model's fit */
        assert_string_equal(row->held_why_not, "");
        pg_schedule_free(fit);
        pg_run_free(&run);
    }
}

/* the model reproduces its calibration's mix of turn and drain */
static void test_self_fit_agrees(void **state)
{
    (void)state;
    const pg_validate_row *row = &g_held.rows[0];
    assert_true(row->self_fit);
    for (const char *const *n = (const char *const[]){"order_handover", "store_drain", NULL}; *n; n++) {
        print_message("self-fit %s held %.3f measured, %.3f predicted\n", *n, share(row, *n, 0), share(row, *n, 1));
        assert_true(fabs(share(row, *n, 1) - share(row, *n, 0)) < 0.05);
    }
}

/* the prediction's own simulated run: a 2,600-cycle epilogue frees the
 * turn, so the drain holds more of the waits in the model as in the run */
static void test_delay_moves_the_predicted_share(void **state)
{
    (void)state;
    const pg_validate_row *cal = &g_held.rows[0], *run = &g_held.rows[1];
    assert_false(run->self_fit);
    print_message("store_drain held: calibration %.3f / %.3f, epi 2,600 %.3f / %.3f (measured / predicted)\n",
                  share(cal, "store_drain", 0), share(cal, "store_drain", 1), share(run, "store_drain", 0),
                  share(run, "store_drain", 1));
    assert_true(share(run, "store_drain", 1) > share(cal, "store_drain", 1) + 0.05);
    assert_true(share(run, "store_drain", 0) > share(cal, "store_drain", 0) + 0.05);
}

/* a fit that cannot be made (here: a schedule whose roles are not the
 * trace's) is said in the row, and nothing is counted */
static void test_a_failed_fit_is_said(void **state)
{
    (void)state;
    pg_run run;
    pg_schedule *fit = NULL;
    if (pg_run_read(g_path[CAL], &run, PG_READ_TRACE) || pg_schedule_fit(&run, &fit))
        fail_msg("%s", pg_last_error());
    const pg_model_opts o = {20000, 1, 0};
    const pg_validate_opts other = {"b200-seed", {0, 0}, NULL, 0, NULL, 0, NULL, 0, 1};
    pg_validate_row row;
    memset(&row, 0, sizeof row);
    row.path = g_path[CAL];
    validate_held(&run, NULL, fit, &other, "", &o, &row);
    print_message("not read: %s\n", row.held_why_not);
    assert_int_equal(row.nheld, 0);
    assert_int_equal(row.held_more, 0);
    assert_true(row.held_why_not[0] != '\0');
    pg_schedule_free(fit);
    pg_run_free(&run);
}

static void test_report_prints_it(void **state)
{
    (void)state;
    char *text = NULL, *json = NULL;
    size_t nt = 0, nj = 0;
    FILE *f = open_memstream(&text, &nt), *g = open_memstream(&json, &nj);
    assert_non_null(f);
    assert_non_null(g);
    assert_int_equal(validate_print(f, &g_held, 0), 0);
    assert_int_equal(validate_print(g, &g_held, 1), 0);
    fclose(f);
    fclose(g);
    assert_non_null(strstr(text, "held (of the waits each could hold): order_handover measured "));
    assert_non_null(strstr(json, "\"held\""));
    assert_non_null(strstr(json, "\"store_drain\""));
    free(text);
    free(json);
}

int main(int argc, char **argv)
{
    if (argc != 1 + N_RUNS) {
        fprintf(stderr, "usage: %s CAL.h5 EPI_2600.h5\n", argv[0]);
        return 2;
    }
    for (int i = 0; i < N_RUNS; i++)
        g_path[i] = argv[1 + i];
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_off_by_default),
                                       cmocka_unit_test(test_measured_is_the_runs_own_fit),
                                       cmocka_unit_test(test_self_fit_agrees),
                                       cmocka_unit_test(test_delay_moves_the_predicted_share),
                                       cmocka_unit_test(test_a_failed_fit_is_said),
                                       cmocka_unit_test(test_report_prints_it)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
