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
            "'speed=1': expected blocks=, cal_blocks=, ratio=, whole= or on=");
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

/* h100-pingpong's mean mainloop (its k-block loop) with these settings */
static double pingpong_loop(const char *const *sets, int n)
{
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load("h100-pingpong", &s), 0);
    for (int i = 0; i < n; i++)
        if (pg_schedule_set(s, sets[i], 0))
            fail_msg("%s: %s", sets[i], pg_last_error());
    const double mean = pg_test_phase_mean(s, 4000, "mainloop");
    pg_schedule_free(s);
    return mean;
}

/* whole=0 (M110): on the k-block loop's load the factor moves only the part
 * queue= does not queue -- with queue=0 that is all of it (the same loop as
 * whole=1, to the cycle); with queue=0.6 one column block (a slower A read)
 * makes the loop's loads slower under whole=1 than under whole=0 (3,686
 * against 3,545 cycles when written); at the calibration's blocks whole=
 * changes nothing */
static void whole_moves_the_unqueued_part(void **st)
{
    (void)st;
#define LOOP(...) pingpong_loop((const char *const[]){__VA_ARGS__}, sizeof((const char *const[]){__VA_ARGS__}) / sizeof(char *))
    const double q0_whole = LOOP("kblocks.queue=0", "colshare.blocks=1", "colshare.whole=1");
    const double q0_part = LOOP("kblocks.queue=0", "colshare.blocks=1", "colshare.whole=0");
    assert_float_equal(q0_part, q0_whole, 1e-9);
    const double cal = LOOP("kblocks.queue=0.6", "colshare.blocks=3");
    const double whole = LOOP("kblocks.queue=0.6", "colshare.blocks=1", "colshare.whole=1");
    const double part = LOOP("kblocks.queue=0.6", "colshare.blocks=1", "colshare.whole=0");
    /* (the slower first load lets more of the ring land before the loop,
     * so the loop itself is shorter than the calibration's either way) */
    assert_true(part + 50 < whole);
    assert_float_equal(LOOP("kblocks.queue=0.6", "colshare.blocks=3", "colshare.whole=1"), cal, 1e-9);
    /* whole=2 (M130): whole=1's at fewer column blocks than the
     * calibration's, whole=0's at more (8 blocks: L2 hits, the loop's own
     * queue unmoved, so the loop is slower than whole=1 has it) */
    assert_float_equal(LOOP("kblocks.queue=0.6", "colshare.blocks=1", "colshare.whole=2"), whole, 1e-9);
    const double more_part = LOOP("kblocks.queue=0.6", "colshare.blocks=8", "colshare.whole=0");
    const double more_whole = LOOP("kblocks.queue=0.6", "colshare.blocks=8", "colshare.whole=1");
    assert_float_equal(LOOP("kblocks.queue=0.6", "colshare.blocks=8", "colshare.whole=2"), more_part, 1e-9);
    assert_true(more_whole + 20 < more_part);
#undef LOOP
    pg_test_refused(SCHED("colshare first_load blocks=1 cal_blocks=3 ratio=0.71 whole=3\n"), "whole 0|1|2");
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
        cmocka_unit_test(whole_moves_the_unqueued_part),
        cmocka_unit_test(bad_lines_are_refused),
        cmocka_unit_test(the_run_gives_the_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
