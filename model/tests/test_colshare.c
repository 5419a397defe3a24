/* The `colshare` line (model/colshare.c, docs/experiments.md M83, M84) on a
 * schedule whose period is known in closed form: one warp computes 1,000
 * cycles, then waits for a 1,000-cycle load issued when its compute ended,
 * so T = 1000 + 1000 m with m the factor on the load, m = share(B) /
 * share(B0), share(B) = 1/B + (1 - 1/B) R.  R = 0.71: one column block
 * against three, m = 1 / (1/3 + 2/3 0.71) = 1.2397 (T = 2,239.7); six
 * against three, m = 0.75833 / 0.80667 = 0.94008 (T = 1,940.1); B = B0 or
 * off, 2,000.  Bad lines are refused with "file:line: problem"; the line is
 * written back with its blocks; the fit sets both blocks to the run's N
 * over its tile's. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fit.h"
#include "model_ext.h"
#include "pg_error.h"
#include "sched.h"
#include "sched_text.h"

#define SCHED(CS) PG_TEST_LOAD_SCHED("20000", CS)
#define LINE(B, B0) "colshare first_load blocks=" B " cal_blocks=" B0 " ratio=0.71\n"

static double period_of(const char *text, const char *set)
{
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(text, "cs.sched", &s), 0);
    if (set)
        assert_int_equal(pg_schedule_set(s, set, 0), 0);
    pg_model_opts o = {.tiles = 4000, .seed = 1, .deterministic = 1};
    pg_prediction p;
    assert_int_equal(pg_model_predict(s, &o, &p), 0);
    pg_schedule_free(s);
    return p.tile_period;
}

static void the_share_moves_the_load(void **st)
{
    (void)st;
    assert_float_equal(period_of(SCHED(LINE("1", "3")), NULL), 1000 + 1000 / (1.0 / 3 + 2.0 / 3 * 0.71), 1);
    assert_float_equal(period_of(SCHED(LINE("6", "3")), NULL), 1000 + 1000 * (1.0 / 6 + 5.0 / 6 * 0.71) /
                                                                          (1.0 / 3 + 2.0 / 3 * 0.71), 1);
    assert_float_equal(period_of(SCHED(LINE("3", "3")), NULL), 2000, 1e-6);
    assert_float_equal(period_of(SCHED(LINE("1", "3")), "colshare.on=0"), 2000, 1e-6);
    assert_float_equal(period_of(SCHED(LINE("3", "3")), "colshare.blocks=1"), 2239.7, 0.5);
}

static void the_line_is_written_back(void **st)
{
    (void)st;
    pg_schedule *s = NULL, *t = NULL;
    assert_int_equal(pg_schedule_load_text(SCHED("colshare first_load blocks=3 cal_blocks=3 ratio=0.71 on=$dramq\n"),
                                           "cs.sched", &s),
                     0);
    assert_int_equal(pg_schedule_set(s, "colshare.blocks=2", 0), 0);
    char *buf = pg_test_schedule_text(s, NULL);
    assert_non_null(strstr(buf, "colshare first_load blocks=2 cal_blocks=3 ratio=0.71 on=$dramq\n"));
    assert_int_equal(pg_schedule_load_text(buf, "again.sched", &t), 0);
    assert_true(t->cs_blocks == 2 && t->cs_cal_blocks == 3 && t->cs_on == 1);
    free(buf);
    pg_schedule_free(t);
    pg_schedule_free(s);
}

static void bad_lines_are_refused(void **st)
{
    (void)st;
    pg_test_refused(SCHED("colshare blocks=1 cal_blocks=3 ratio=0.71\n"), "usage: colshare LATENCY...");
    pg_test_refused(SCHED("colshare first_load cal_blocks=3 ratio=0.71\n"), "usage: colshare LATENCY...");
    pg_test_refused(SCHED("colshare first_load blocks=0 cal_blocks=3 ratio=0.71\n"), "blocks=0 is out of range");
    pg_test_refused(SCHED("colshare first_load blocks=1 cal_blocks=3 ratio=5\n"), "ratio=5 is out of range");
    pg_test_refused(SCHED("colshare first_load blocks=1 cal_blocks=3 ratio=0.71 on=2\n"), "on=2 is out of range");
    pg_test_refused(SCHED("colshare first_load blocks=1 cal_blocks=3 ratio=0.71 speed=1\n"),
            "'speed=1': expected blocks=, cal_blocks=, ratio= or on=");
    pg_test_refused(SCHED("colshare mainloop blocks=1 cal_blocks=3 ratio=0.71\n"),
            "'mainloop' is not a `latency` or `memory` line");
    pg_test_refused(SCHED(LINE("1", "3") LINE("1", "3")), "only one `colshare` line");
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(SCHED(LINE("1", "3")), "cs.sched", &s), 0);
    assert_int_not_equal(pg_schedule_set(s, "colshare.blocks=0.5", 0), 0);
    assert_int_not_equal(pg_schedule_set(s, "colshare.speed=1", 0), 0);
    assert_true(s->cs_blocks == 1); /* refused: unchanged */
    pg_schedule_free(s);
}

/* the fit's blocks: N over the tile's N, rounded up; none without a tile
 * width */
static void the_run_gives_the_blocks(void **st)
{
    (void)st;
    pg_run run;
    memset(&run, 0, sizeof run);
    run.problem.shape = (pg_shape){200704, 768, 768, 196};
    run.kernel.tile_n = 256;
    assert_float_equal(colshare_run_blocks(&run), 3, 0);
    run.problem.shape.N = 1000;
    assert_float_equal(colshare_run_blocks(&run), 4, 0);
    run.kernel.tile_n = 0;
    assert_float_equal(colshare_run_blocks(&run), 0, 0);
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(SCHED(LINE("1", "3")), "cs.sched", &s), 0);
    run.kernel.tile_n = 192;
    run.problem.shape.N = 384;
    assert_int_equal(colshare_fit(s, &run), 0);
    assert_true(s->cs_blocks == 2 && s->cs_cal_blocks == 2);
    pg_schedule_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_share_moves_the_load),
        cmocka_unit_test(the_line_is_written_back),
        cmocka_unit_test(bad_lines_are_refused),
        cmocka_unit_test(the_run_gives_the_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
