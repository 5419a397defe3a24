/* The `streamwall` line (model/streamwall.c, docs/experiments.md M76) on a
 * schedule whose period is known in closed form: one warp computes 1,000
 * cycles, then waits for a 1,000-cycle load issued when its compute ended,
 * so T = 1000 + 1000 m with m the factor on the load.  The wall is
 * bytes_per_tile x units x clock / B = 1e6 x 1e9 / B cycles: at B = 4e11
 * it is 2,500, so m = 1.5; at B = 1e12 (wall 1,000) the line changes
 * nothing.  With the copy floor and the tile's written bytes the floor
 * follows the write share: the copy floor up to 1/2, the stream floor from
 * 2/3, linear between.  Bad lines are refused with "file:line: problem";
 * the fit takes the floors of a GPU pegemm measured (floor=device). */
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

#define SCHED(SW) PG_TEST_LOAD_SCHED("20000", SW)

static pg_prediction predict_text(const char *text, const char *set)
{
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(text, "sw.sched", &s), 0);
    if (set)
        assert_int_equal(pg_schedule_set(s, set, 0), 0);
    pg_model_opts o = {.tiles = 4000, .seed = 1};
    pg_prediction p;
    assert_int_equal(pg_model_predict(s, &o, &p), 0);
    pg_schedule_free(s);
    return p;
}

static void below_the_wall_the_loads_wait(void **st)
{
    (void)st;
    const char *text = SCHED("streamwall first_load bytes_per_s=4e11\n");
    pg_prediction p = predict_text(text, NULL);
    assert_float_equal(p.tile_period, 2500, 0.005 * 2500);
    assert_float_equal(pg_prediction_find(&p, "load_wait")->mean, 1500, 0.01 * 1500);
    /* off, or a floor the period is above: the closed form's 2,000 */
    assert_float_equal(predict_text(text, "streamwall.on=0").tile_period, 2000, 2);
    assert_float_equal(predict_text(text, "streamwall.bytes_per_s=1e12").tile_period, 2000, 2);
    /* a faster clock: the same bytes take more cycles (wall 3,000) */
    assert_float_equal(predict_text(text, "clock_hz=1.2e9").tile_period, 3000, 0.005 * 3000);
}

/* stream 3e11, copy 6e11: half written 6e11 (wall 1,667: the closed
 * form's 2,000 stays), 7/12 written 4.5e11 (2,222), all written 3e11
 * (3,333) */
static void the_floor_follows_the_write_share(void **st)
{
    (void)st;
    const char *text = SCHED("streamwall first_load bytes_per_s=3e11 copy_bytes_per_s=6e11 write_bytes=5e5\n");
    assert_float_equal(predict_text(text, NULL).tile_period, 2000, 2);
    const double mid = 1e9 * 1e6 / 4.5e11;
    assert_float_equal(predict_text(text, "streamwall.write_bytes=583333.333").tile_period, mid, 0.005 * mid);
    assert_float_equal(predict_text(text, "streamwall.write_bytes=1e6").tile_period, 1e15 / 3e11, 0.005 * 3333);
    assert_float_equal(predict_text(text, "streamwall.write_bytes=0").tile_period, 2000, 2);
}

static void the_line_is_written_back(void **st)
{
    (void)st;
    pg_schedule *s = NULL, *t = NULL;
    assert_int_equal(pg_schedule_load_text(SCHED("streamwall first_load bytes_per_s=4e11 floor=device on=$dramq\n"),
                                           "sw.sched", &s),
                     0);
    assert_int_equal(pg_schedule_set(s, "streamwall.bytes_per_s=5e11", 0), 0);
    char *buf = pg_test_schedule_text(s, NULL);
    assert_non_null(strstr(buf, "streamwall first_load bytes_per_s=5e+11 floor=device on=$dramq\n"));
    assert_int_equal(pg_schedule_set(s, "streamwall.copy_bytes_per_s=1e12", 0), 0);
    free(buf);
    buf = pg_test_schedule_text(s, NULL);
    assert_non_null(strstr(buf, "bytes_per_s=5e+11 copy_bytes_per_s=1e+12 write_bytes=0 floor=device"));
    assert_int_equal(pg_schedule_load_text(buf, "again.sched", &t), 0);
    assert_true(t->sw_bytes_per_s == 5e11 && t->sw_floor_device && t->sw_on == 1);
    free(buf);
    pg_schedule_free(t);
    pg_schedule_free(s);
}

static void bad_lines_are_refused(void **st)
{
    (void)st;
    pg_test_refused(SCHED("streamwall bytes_per_s=4e11\n"), "usage: streamwall LATENCY...");
    pg_test_refused(SCHED("streamwall first_load\n"), "usage: streamwall LATENCY...");
    pg_test_refused(SCHED("streamwall first_load bytes_per_s=0\n"), "bytes_per_s must be positive");
    pg_test_refused(SCHED("streamwall first_load bytes_per_s=4e11 floor=gpu\n"),
                    "floor must be device or written (got 'gpu')");
    pg_test_refused(SCHED("streamwall first_load bytes_per_s=4e11 on=2\n"), "on must be 0 or 1");
    pg_test_refused(SCHED("streamwall first_load bytes_per_s=4e11 copy_bytes_per_s=8e11\n"),
            "copy_bytes_per_s and write_bytes go together");
    pg_test_refused(SCHED("streamwall first_load bytes_per_s=4e11 copy_bytes_per_s=8e11 write_bytes=-1\n"),
            "write_bytes >= 0");
    pg_test_refused(SCHED("streamwall first_load bytes_per_s=4e11 speed=1\n"), "'speed=1': expected KEY=VALUE");
    pg_test_refused(SCHED("streamwall mainloop bytes_per_s=4e11\n"), "'mainloop' is not a `latency` or `memory` line");
    pg_test_refused(SCHED("streamwall first_load bytes_per_s=4e11\nstreamwall first_load bytes_per_s=4e11\n"),
            "only one `streamwall` line");
    pg_test_refused("schedule x\nmachine units=1 tiles=100 clock_hz=1e9 flops=1e12\nperiod consumer.mainloop\n"
            "phase mainloop family=const mean=1000\nlatency first_load family=const mean=10\n"
            "role consumer instances=1\n  wait load_wait until consumer.mainloop[1] + first_load\n  work mainloop\n"
            "streamwall first_load bytes_per_s=4e11\n",
            "streamwall needs a `bandwidth` line");
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(SCHED("streamwall first_load bytes_per_s=4e11\n"), "sw.sched", &s), 0);
    assert_int_not_equal(pg_schedule_set(s, "streamwall.bytes_per_s=-1", 0), 0);
    assert_int_not_equal(pg_schedule_set(s, "streamwall.speed=1", 0), 0);
    assert_int_not_equal(pg_schedule_set(s, "streamwall.on=3", 0), 0);
    assert_true(s->sw_bytes_per_s == 4e11 && s->sw_on == 1); /* refused: unchanged */
    pg_schedule_free(s);
}

/* floor=device: h100-bres fitted on an H100 trace keeps the H100's floors
 * (its line's own figures); the same trace named an H200's takes the
 * H200's, so they come from the device's name; the known GPUs' stream
 * floors are below their copy floors */
static void the_fit_takes_the_device_floor(void **st)
{
    const char *run_path = *(const char **)*st;
    pg_schedule *fit = NULL;
    pg_run run;
    if (pg_run_read(run_path, &run, PG_READ_TRACE))
        fail_msg("%s", pg_last_error());
    if (pg_schedule_fit_as(&run, "h100-bres", &fit))
        fail_msg("%s", pg_last_error());
    assert_true(fit->sw_line && fit->sw_floor_device && fit->sw_on);
    assert_true(fit->sw_bytes_per_s == 2.72e12 && fit->sw_copy_bytes_per_s == 3.0e12 && fit->sw_write_bytes == 24576);
    pg_schedule_free(fit);
    /* an H200 run's fit takes the H200's (the device name is all it reads) */
    snprintf(run.kernel.device, sizeof run.kernel.device, "NVIDIA H200");
    if (pg_schedule_fit_as(&run, "h100-bres", &fit))
        fail_msg("%s", pg_last_error());
    assert_true(fit->sw_bytes_per_s == 3.76e12 && fit->sw_copy_bytes_per_s == 4.23e12);
    pg_schedule_free(fit);
    assert_true(fit_gpu_stream_floor("NVIDIA H200") == 3.76e12 && fit_gpu_stream_floor("test") == 0);
    assert_true(fit_gpu_stream_floor("NVIDIA H200") < fit_gpu_copy_floor("NVIDIA H200"));
    pg_run_free(&run);
}

int main(int argc, char **argv)
{
    static const char *run_path;
    if (argc != 2) {
        fprintf(stderr, "usage: %s H100_BRES_RUN.h5\n", argv[0]);
        return 2;
    }
    run_path = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(below_the_wall_the_loads_wait),
        cmocka_unit_test(the_floor_follows_the_write_share),
        cmocka_unit_test(the_line_is_written_back),
        cmocka_unit_test(bad_lines_are_refused),
        cmocka_unit_test_prestate(the_fit_takes_the_device_floor, &run_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
