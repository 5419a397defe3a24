/* What a fitted latency rests on (model/fit.c set_censored_latencies,
 * cli_model_out.c evidence_print; docs/experiments.md M55): the fit keeps,
 * per latency read off the waits, how many traced tiles saw it and on how
 * many it held the wait, and `pegemm model fit` flags a latency that held
 * under 10% of them (known from its longest values only).
 * argv: traces/probes/h100/bres_ml_00000.h5 (bres's store drain holds ~2%
 * of its turns at zero delay), traces/runs/epi_sweep/h100_epi_00000.h5
 * (pingpong's a third). */
#define _GNU_SOURCE
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
#include "sched_text.h"
#include "validate.h"

enum { BRES0, PINGPONG0, N_RUNS };
static const char *g_path[N_RUNS];

typedef struct {
    pg_run run;
    pg_schedule *s;
} fitted;

static void fit_one(int which, fitted *f)
{
    memset(f, 0, sizeof *f);
    if (pg_run_read(g_path[which], &f->run, PG_READ_TRACE) || pg_schedule_fit(&f->run, &f->s))
        fail_msg("%s: %s", g_path[which], pg_last_error());
}

static void fitted_free(fitted *f)
{
    pg_schedule_free(f->s);
    pg_run_free(&f->run);
}

static const sch_dist *dist_named(const pg_schedule *s, const char *name)
{
    const int d = sch_find_dist(s, name);
    if (d < 0)
        fail_msg("no distribution %s", name);
    return &s->dists[d];
}

static double bound_share(const sch_dist *d)
{
    assert_true(d->fit_seen > 0);
    return (double)d->fit_bound / (double)d->fit_seen;
}

/* fit_print_text's output for a fitted schedule (predictions zeroed: only
 * the lines after the table are looked at) */
static char *fit_text(const fitted *f)
{
    static pg_prediction p, m;
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    assert_int_equal(fit_print_text(out, f->s, &p, &m, &f->run), 0);
    assert_int_equal(fclose(out), 0);
    return buf;
}

/* bres at zero delay: the turn's handover binds nearly always, the store
 * drain rarely, and the report says the drain is known from its tail */
static void test_bres_drain_flagged(void **state)
{
    (void)state;
    fitted f;
    fit_one(BRES0, &f);
    const sch_dist *drain = dist_named(f.s, "store_drain"), *hand = dist_named(f.s, "order_handover");
    assert_true(drain->fit_seen >= 10000);
    assert_true(bound_share(drain) < 0.05);
    assert_true(bound_share(hand) > 0.90);
    assert_int_equal(drain->fit_seen, hand->fit_seen); /* one order_wait per tile observes both */
    char *text = fit_text(&f);
    assert_non_null(strstr(text, "latencies read off the waits they held"));
    assert_non_null(strstr(text, "store_drain held under 10% of its waits"));
    assert_null(strstr(text, "order_handover held under"));
    free(text);
    fitted_free(&f);
}

/* pingpong: its drain holds a third of the turns, and nothing is flagged */
static void test_pingpong_drain_measured(void **state)
{
    (void)state;
    fitted f;
    fit_one(PINGPONG0, &f);
    const double share = bound_share(dist_named(f.s, "store_drain"));
    assert_true(share > 0.20 && share < 0.60);
    char *text = fit_text(&f);
    assert_non_null(strstr(text, "store_drain "));
    assert_null(strstr(text, "held under"));
    free(text);
    fitted_free(&f);
}

/* the counts describe one fit: a schedule written and read back claims none */
static void test_not_written(void **state)
{
    (void)state;
    fitted f;
    fit_one(BRES0, &f);
    char *buf = pg_test_schedule_text(f.s, "test");
    assert_null(strstr(buf, "fit_seen"));
    pg_schedule *back = NULL;
    if (pg_schedule_load_text(buf, "written", &back))
        fail_msg("%s", pg_last_error());
    for (int d = 0; d < back->ndists; d++)
        assert_true(back->dists[d].fit_seen == 0 && back->dists[d].fit_bound == 0);
    pg_schedule_free(back);
    free(buf);
    fitted_free(&f);
}

/* `pegemm model validate` names the calibration's thin latencies (bres's
 * store drain), and a pingpong calibration has none */
static void test_validate_names_thin(void **state)
{
    (void)state;
    const pg_model_opts o = {2000, 1, 0};
    const pg_validate_opts v = {0};
    pg_validate_report r;
    if (pg_model_validate_runs(g_path[BRES0], &g_path[BRES0], 1, &v, &o, &r))
        fail_msg("%s", pg_last_error());
    assert_non_null(strstr(r.thin_latencies, "store_drain ("));
    assert_null(strstr(r.thin_latencies, "order_handover"));
    pg_validate_report_free(&r);
    if (pg_model_validate_runs(g_path[PINGPONG0], &g_path[PINGPONG0], 1, &v, &o, &r))
        fail_msg("%s", pg_last_error());
    assert_string_equal(r.thin_latencies, "");
    pg_validate_report_free(&r);
}

int main(int argc, char **argv)
{
    if (argc != 1 + N_RUNS) {
        fprintf(stderr, "usage: %s BRES0.h5 PINGPONG0.h5\n", argv[0]);
        return 2;
    }
    for (int i = 0; i < N_RUNS; i++)
        g_path[i] = argv[1 + i];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bres_drain_flagged),
        cmocka_unit_test(test_pingpong_drain_measured),
        cmocka_unit_test(test_not_written),
        cmocka_unit_test(test_validate_names_thin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
