/* The `rowfirst` line (model/rowfirst.c, docs/experiments.md M96).  On a
 * schedule whose period is known in closed form (one warp computes 1,000
 * cycles, then waits for a 1,000-cycle load issued when its compute ended:
 * T = 2,000 + the load's move), a parametric draw moves the listed latency
 * by E (1/B - 1/B0): E = 600 at one column block against three, +400; at
 * six, -100; at B = B0 or off, nothing.  Bad lines are refused with
 * "file:line: problem"; the line is written back with its blocks and
 * extra.  On the committed H100 pingpong zero-delay run (N = 768, three
 * column blocks) the fit measures the producer's extra gap before a row
 * block's first column tile (~500 cycles, M96) and keeps each row's next
 * tile, so that at one column block (N = 256) every replayed gap carries it
 * and the producer's first issue, hence the load wait, comes later.
 * added_all= (M156, what a prefetch build spends before every tile) moves
 * every tile, row-first or not, and a parametric draw undivided. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "fit.h"
#include "model_ext.h"
#include "pg_error.h"
#include "runfile.h"
#include "sched.h"
#include "sched_text.h"

#define SCHED(RF) PG_TEST_LOAD_SCHED("20000", RF)
#define LINE(B, B0) "rowfirst first_load blocks=" B " cal_blocks=" B0 " extra=600\n"

static const char *g_pingpong; /* the committed H100 pingpong zero-delay run */

static double period_of(const char *text, const char *set)
{
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(text, "rf.sched", &s), 0);
    if (set)
        assert_int_equal(pg_schedule_set(s, set, 0), 0);
    pg_model_opts o = {.tiles = 4000, .seed = 1, .deterministic = 1};
    pg_prediction p;
    assert_int_equal(pg_model_predict(s, &o, &p), 0);
    pg_schedule_free(s);
    return p.tile_period;
}

static void the_share_moves_the_latency(void **st)
{
    (void)st;
    assert_float_equal(period_of(SCHED(LINE("1", "3")), NULL), 2400, 1e-6);
    assert_float_equal(period_of(SCHED(LINE("6", "3")), NULL), 1900, 1e-6);
    assert_float_equal(period_of(SCHED(LINE("3", "3")), NULL), 2000, 1e-6);
    assert_float_equal(period_of(SCHED(LINE("1", "3")), "rowfirst.on=0"), 2000, 1e-6);
    assert_float_equal(period_of(SCHED(LINE("3", "3")), "rowfirst.blocks=1"), 2400, 1e-6);
    assert_float_equal(period_of(SCHED(LINE("1", "3")), "rowfirst.extra=0"), 2000, 1e-6);
}

static void the_line_is_written_back(void **st)
{
    (void)st;
    pg_schedule *s = NULL, *t = NULL;
    assert_int_equal(pg_schedule_load_text(SCHED("rowfirst first_load blocks=3 cal_blocks=3 extra=500 next=1 fit=1 "
                                                 "on=$dramq\n"),
                                           "rf.sched", &s),
                     0);
    assert_int_equal(pg_schedule_set(s, "rowfirst.blocks=2", 0), 0);
    assert_int_equal(pg_schedule_set(s, "rowfirst.extra=450.5", 0), 0);
    char *buf = pg_test_schedule_text(s, NULL);
    assert_non_null(strstr(buf, "rowfirst first_load blocks=2 cal_blocks=3 extra=450.5 next=1 fit=1 on=$dramq\n"));
    assert_int_equal(pg_schedule_load_text(buf, "again.sched", &t), 0);
    assert_true(t->rf_blocks == 2 && t->rf_cal_blocks == 3 && t->rf_extra == 450.5 && t->rf_next == 1 &&
                t->rf_fit == 1 && t->rf_on == 1);
    free(buf);
    pg_schedule_free(t);
    pg_schedule_free(s);
}

static void bad_lines_are_refused(void **st)
{
    (void)st;
    pg_test_refused(SCHED("rowfirst blocks=1 cal_blocks=3 extra=600\n"), "usage: rowfirst LATENCY...");
    pg_test_refused(SCHED("rowfirst first_load cal_blocks=3 extra=600\n"), "usage: rowfirst LATENCY...");
    pg_test_refused(SCHED("rowfirst first_load blocks=1 cal_blocks=3\n"), "usage: rowfirst LATENCY...");
    pg_test_refused(SCHED("rowfirst first_load blocks=0 cal_blocks=3 extra=600\n"), "blocks=0 is out of range");
    pg_test_refused(SCHED("rowfirst first_load blocks=1 cal_blocks=3 extra=2e6\n"), "extra=2e6 is out of range");
    pg_test_refused(SCHED("rowfirst first_load blocks=1 cal_blocks=3 extra=600 next=2\n"), "next=2 is out of range");
    pg_test_refused(SCHED("rowfirst first_load blocks=1 cal_blocks=3 extra=600 speed=1\n"),
                    "'speed=1': expected blocks=, cal_blocks=, extra=, next=, fit= or on=");
    pg_test_refused(SCHED("rowfirst mainloop blocks=1 cal_blocks=3 extra=600\n"),
                    "'mainloop' is not a `latency` or `memory` line");
    pg_test_refused(SCHED(LINE("1", "3") LINE("1", "3")), "only one `rowfirst` line");
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(SCHED(LINE("1", "3")), "rf.sched", &s), 0);
    assert_int_not_equal(pg_schedule_set(s, "rowfirst.blocks=0.5", 0), 0);
    assert_int_not_equal(pg_schedule_set(s, "rowfirst.fit=3", 0), 0);
    assert_int_not_equal(pg_schedule_set(s, "rowfirst.speed=1", 0), 0);
    assert_true(s->rf_blocks == 1 && s->rf_fit == 0); /* refused: unchanged */
    pg_schedule_free(s);
}

static void added_all_moves_every_tile(void **st)
{
    (void)st;
    /* the closed form: every tile's load +250; added= alone a third of 300 */
    assert_float_equal(period_of(SCHED(LINE("3", "3")), "rowfirst.added_all=250"), 2250, 1e-6);
    assert_float_equal(period_of(SCHED(LINE("3", "3")), "rowfirst.added=300"), 2100, 1e-6);
    assert_float_equal(period_of(SCHED(LINE("3", "3")), "rowfirst.added_all=-250"), 1750, 1e-6);
    /* a replayed row: its traced tile says whether it opens a row block */
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(SCHED("rowfirst first_load blocks=3 cal_blocks=3 extra=600 added=490 "
                                                 "added_all=339 prefetch_all=339\n"),
                                           "rf.sched", &s),
                     0);
    const int d = s->rf_dist[0];
    assert_float_equal(rowfirst_shift(s, d, 1), 339, 1e-9);
    assert_float_equal(rowfirst_shift(s, d, 0), 339 + 490, 1e-9);
    assert_float_equal(rowfirst_shift(s, d, NAN), 339 + 490.0 / 3, 1e-9);
    char *buf = pg_test_schedule_text(s, NULL);
    assert_non_null(strstr(buf, " added=490 added_all=339 prefetch_all=339\n"));
    free(buf);
    pg_schedule_free(s);
    pg_test_refused(SCHED("rowfirst first_load blocks=1 cal_blocks=3 extra=600 prefetch_all=-1\n"),
                    "prefetch_all=-1 is out of range");
    pg_test_refused(SCHED("rowfirst first_load blocks=1 cal_blocks=3 extra=600 added_all=2e6\n"),
                    "added_all=2e6 is out of range");
}

static void predict_at(const pg_schedule *fit, const char *blocks, pg_prediction *p)
{
    pg_schedule *s = NULL;
    if (pg_schedule_clone(fit, &s) || pg_schedule_set(s, blocks, 0))
        fail_msg("%s", pg_last_error());
    pg_model_opts o = {.tiles = 20000, .seed = 1};
    if (pg_model_predict(s, &o, p))
        fail_msg("%s", pg_last_error());
    pg_schedule_free(s);
}

static double wait_of(const pg_prediction *p, const char *name)
{
    for (int i = 0; i < p->nwaits; i++)
        if (strcmp(p->waits[i].name, name) == 0)
            return p->waits[i].mean;
    fail_msg("no wait %s", name);
    return NAN;
}

static void the_fit_measures_the_extra(void **st)
{
    (void)st;
    pg_run run;
    pg_schedule *s = NULL;
    const char *on[] = {"rowfirst=1"};
    if (pg_run_read(g_pingpong, &run, PG_READ_TRACE) || pg_schedule_fit_variant(&run, "h100-pingpong", on, 1, &s))
        fail_msg("%s", pg_last_error());
    assert_true(s->rf_blocks == 3 && s->rf_cal_blocks == 3);
    assert_true(s->rf_extra > 400 && s->rf_extra < 600); /* 503 */
    assert_true(sch_table_rowfirst_column(s) >= 0);
    pg_prediction at3, at1;
    predict_at(s, "rowfirst.blocks=3", &at3);
    predict_at(s, "rowfirst.blocks=1", &at1);
    assert_true(wait_of(&at1, "load_wait") > wait_of(&at3, "load_wait") + 50);
    assert_true(at1.tile_period > at3.tile_period);
    pg_schedule_free(s);
    pg_run_free(&run);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s PINGPONG_ML_00000.h5\n", argv[0]);
        return 2;
    }
    g_pingpong = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_share_moves_the_latency),
        cmocka_unit_test(the_line_is_written_back),
        cmocka_unit_test(bad_lines_are_refused),
        cmocka_unit_test(added_all_moves_every_tile),
        cmocka_unit_test(the_fit_measures_the_extra),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
