/* The `l2reuse` line (model/l2reuse.c, docs/experiments.md M60).  On the
 * closed-form schedule of sched_text.h (T = 1,000 + the load's latency,
 * 1,000 cycles at the calibration; 1e6 compulsory bytes per tile, so the
 * working set is 1e6 x tiles): a working set the L2 keeps whole (h = 1)
 * makes the load ratio x as long, half kept (h = 0.5) (1 + ratio) / 2 x,
 * a calibration-sized one nothing.  Write-back keeps the line's `$option`
 * and its cal_bytes; bad lines and settings are refused naming file:line.
 * On committed data: bres at 5 tiles per SM (probe set 17, H100) predicted
 * from a committed zero-delay calibration within 3% and every wait within
 * target with the line (its start-up rows included, M62), more than 15%
 * over without it. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "model_ext.h"
#include "pg_error.h"
#include "sched.h"
#include "runfile.h"
#include "sched_text.h"
#include "validate.h"

/* C = 100 MB, kept whole up to 50 MB; the calibration's 20,000 tiles: 20 GB */
#define L2LINE "l2reuse first_load bytes=1e8 ratio=0.5 full=0.5 cal_bytes=2e10 on=$l2\n"
#define SCHED(TILES, LINES) "option l2 1 0|1\n" PG_TEST_LOAD_SCHED(TILES, LINES)

static const char *g_cal, *g_small;

static double period_at(const char *tiles_set, const char *extra, double *kept)
{
    pg_schedule *s = NULL;
    if (pg_schedule_load_text(SCHED("20000", L2LINE), "l2.sched", &s))
        fail_msg("%s", pg_last_error());
    assert_int_equal(pg_schedule_set(s, "dramq=0", 0), 0);
    if (tiles_set)
        assert_int_equal(pg_schedule_set(s, tiles_set, 0), 0);
    if (extra)
        assert_int_equal(pg_schedule_set(s, extra, 0), 0);
    pg_model_opts o = {.tiles = 4000, .seed = 1};
    pg_prediction p;
    assert_int_equal(pg_model_predict(s, &o, &p), 0);
    pg_schedule_free(s);
    if (kept)
        *kept = p.l2_kept;
    return p.tile_period;
}

static void the_load_moves_with_the_share_kept(void **st)
{
    (void)st;
    assert_float_equal(period_at(NULL, NULL, NULL), 2000, 2);          /* the calibration */
    assert_float_equal(period_at("tiles=200", NULL, NULL), 2000, 2);   /* 200 MB: streams */
    assert_float_equal(period_at("tiles=40", NULL, NULL), 1500, 2);    /* 40 MB: kept whole */
    assert_float_equal(period_at("tiles=75", NULL, NULL), 1750, 2);    /* 75 MB: half kept */
    assert_float_equal(period_at("tiles=40", "l2=0", NULL), 2000, 2);  /* the option off */
    assert_float_equal(period_at("tiles=40", "l2reuse.on=0", NULL), 2000, 2);
    assert_float_equal(period_at("tiles=40", "l2reuse.bytes=3e7", NULL), 2000, 2); /* a smaller L2 */
    /* a calibration kept half: the run kept whole moves by 0.5 / 0.75 */
    assert_float_equal(period_at("tiles=40", "l2reuse.cal_bytes=7.5e7", NULL), 1000 + 1000 * 0.5 / 0.75, 2);
    /* the prediction reports the share kept: 0.5 at 75 MB, none when off */
    double kept = 0;
    period_at("tiles=75", NULL, &kept);
    assert_float_equal(kept, 0.5, 1e-9);
    period_at("tiles=75", "l2=0", &kept);
    assert_true(isnan(kept));
}

static void write_back_keeps_the_option(void **st)
{
    (void)st;
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(SCHED("20000", L2LINE), "l2.sched", &s), 0);
    assert_int_equal(pg_schedule_set(s, "l2reuse.cal_bytes=1234", 0), 0);
    assert_int_equal(pg_schedule_set(s, "l2reuse.bytes=62914560", 0), 0); /* as the fit sets an H200's */
    char *text = pg_test_schedule_text(s, NULL);
    assert_non_null(strstr(text, "l2reuse first_load bytes=62914560 ratio=0.5 full=0.5 cal_bytes=1234 on=$l2\n"));
    pg_schedule *back = NULL;
    assert_int_equal(pg_schedule_load_text(text, "back.sched", &back), 0);
    assert_float_equal(back->l2_cal_bytes, 1234, 0);
    assert_float_equal(back->l2_bytes, 62914560, 0);
    free(text);
    pg_schedule_free(back);
    pg_schedule_free(s);
}

static void bad_lines_are_refused(void **st)
{
    (void)st;
    static const char *const bad[][2] = {
        {SCHED("100", "l2reuse mainloop bytes=1 ratio=0.5 full=0.5\n"), "not a `latency`"},
        {SCHED("100", "l2reuse first_load bytes=1 ratio=0.5\n"), "usage: l2reuse"},
        {SCHED("100", "l2reuse first_load bytes=1 ratio=0 full=0.5\n"), "out of range"},
        {SCHED("100", "l2reuse first_load bytes=1 ratio=0.5 full=1\n"), "out of range"},
        {SCHED("100", "l2reuse first_load size=1 ratio=0.5 full=0.5\n"), "expected bytes"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pg_schedule *s = NULL;
        assert_int_not_equal(pg_schedule_load_text(bad[i][0], "bad.sched", &s), 0);
        if (!strstr(pg_last_error(), bad[i][1]) || !strstr(pg_last_error(), "bad.sched:12"))
            fail_msg("case %zu: %s", i, pg_last_error());
    }
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(SCHED("100", L2LINE), "l2.sched", &s), 0);
    assert_int_not_equal(pg_schedule_set(s, "l2reuse.ratio=-1", 0), 0);
    assert_non_null(strstr(pg_last_error(), "out of range"));
    assert_int_not_equal(pg_schedule_set(s, "l2reuse.size=1", 0), 0);
    pg_schedule_free(s);
}

/* committed data: a run whose 24 MB working set stays in the 50 MiB L2;
 * *whatif: the row's what-ifs, "; "-joined */
static double run_error(const char *path, const char *variant, char *whatif, size_t cap, int *waits_ok)
{
    const pg_model_opts o = {20000, 1, 0};
    const char *const var[] = {variant};
    const pg_validate_opts v = {NULL, {0, 0}, variant ? var : NULL, variant ? 1 : 0, NULL, 0, NULL, 0, 0};
    pg_validate_report r;
    if (pg_model_validate_runs(g_cal, &path, 1, &v, &o, &r))
        fail_msg("%s", pg_last_error());
    assert_string_equal(r.rows[1].whatif.kind, "M");
    const double err = r.rows[1].period_predicted / r.rows[1].period_measured - 1;
    if (waits_ok)
        *waits_ok = r.rows[1].waits_ok;
    whatif[0] = '\0';
    for (int i = 0; i < r.rows[1].whatif.n; i++)
        snprintf(whatif + strlen(whatif), cap - strlen(whatif), "%s; ", r.rows[1].whatif.set[i]);
    pg_validate_report_free(&r);
    return err;
}

static double small_run_error(const char *variant, int *waits_ok)
{
    char whatif[1024];
    const double err = run_error(g_small, variant, whatif, sizeof whatif, waits_ok);
    assert_null(strstr(whatif, "l2reuse")); /* a run that records no L2: the schedule's */
    return err;
}

static void a_small_bres_run(void **st)
{
    (void)st;
    int waits_on = 0, waits_off = 1;
    const double on = small_run_error(NULL, &waits_on), off = small_run_error("l2reuse=0", &waits_off);
    if (!(fabs(on) <= 0.03 && off > 0.15))
        fail_msg("with the line %+.1f%%, without %+.1f%%", 100 * on, 100 * off);
    /* its waits too: the replayed start-up rows lose the calibration's DRAM
     * swing (M62; without that, load_wait +192 and tensor_idle +210 cycles) */
    assert_true(waits_on);
    assert_false(waits_off);
}

/* The same run as if its file said its GPU had a 30 MiB L2: the what-if
 * takes the run's size, and less of its working set is kept. */
static void the_runs_own_l2(void **st)
{
    (void)st;
    char dir[] = "/tmp/pg_l2reuse_XXXXXX", path[64], whatif[1024];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/small.h5", dir);
    pg_run run;
    if (pg_run_read(g_small, &run, PG_READ_ALL))
        fail_msg("%s", pg_last_error());
    run.kernel.l2_bytes = 30 << 20;
    assert_int_equal(pg_run_write(path, &run, 0), 0);
    pg_run_free(&run);
    const double err30 = run_error(path, NULL, whatif, sizeof whatif, NULL), err50 = small_run_error(NULL, NULL);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(rmdir(dir), 0);
    assert_non_null(strstr(whatif, "l2reuse.bytes=31457280; "));
    if (!(err30 > err50 + 0.02))
        fail_msg("30 MiB %+.1f%%, 50 MiB %+.1f%%", 100 * err30, 100 * err50);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s CAL.h5 SMALL_RUN.h5\n", argv[0]);
        return 2;
    }
    g_cal = argv[1];
    g_small = argv[2];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_load_moves_with_the_share_kept),
        cmocka_unit_test(write_back_keeps_the_option),
        cmocka_unit_test(bad_lines_are_refused),
        cmocka_unit_test(a_small_bres_run),
        cmocka_unit_test(the_runs_own_l2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
