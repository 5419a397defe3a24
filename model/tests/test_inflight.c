/* The `inflight` line (docs/experiments.md M115, model/inflight.c): refused
 * lines name the problem; the fit sets its calibration count on the run's
 * own replay and writes it back; with the line on, a short-K what-if under
 * a delay (the loop's loads landed long before the next first load) moves,
 * and at another ring depth (bres64's) nothing does.
 *   test_model_inflight H200_BRES_ZERO_DELAY.h5 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model.h"
#include "model_ext.h"
#include "pg_error.h"
#include "sched.h"
#include "sched_text.h"

static const char *g_trace;

#define IF_SCHED(LINE)                                                                                                \
    "schedule t\n"                                                                                                    \
    "machine units=1 tiles=100 clock_hz=1e9 flops=1e12\n"                                                             \
    "period consumer.mainloop\n"                                                                                      \
    "phase producer_issue family=const mean=100\n"                                                                    \
    "phase mainloop family=const mean=800\n"                                                                          \
    "memory first_load dram_latency=500 bytes=0 bytes_per_cycle=64\n"                                                 \
    "latency kblock_load family=const mean=400\n"                                                                     \
    "latency handover family=const mean=50\n"                                                                         \
    "role producer instances=1\n"                                                                                     \
    "  wait producer_wait\n"                                                                                          \
    "  work producer_issue\n"                                                                                         \
    "role consumer instances=1\n"                                                                                     \
    "  wait load_wait until producer.producer_issue@0 + first_load\n"                                                 \
    "  work mainloop\n"                                                                                               \
    "buffer stages count=1 acquire=producer.producer_wait release=consumer.mainloop\n"                                \
    "kblocks mainloop count=4 stages=4 compute=200 issue=producer.producer_issue load=kblock_load "                    \
    "release=handover calibrated_mean=800\n" LINE

static void test_refused(void **state)
{
    (void)state;
    pg_test_refused(IF_SCHED("inflight first_load share=1.5 stages=4\n"), "out of range");
    pg_test_refused(IF_SCHED("inflight first_load stages=4\n"), "usage: inflight LATENCY share=F stages=S");
    pg_test_refused(IF_SCHED("inflight first_load share=0.5 stages=4 depth=2\n"), "expected share=, stages=, cal= or on=");
    pg_test_refused(IF_SCHED("inflight nosuch share=0.5 stages=4\n"), "'nosuch' is not a `latency` or `memory` line");
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(IF_SCHED("inflight first_load share=0.5 stages=4\n"), "ok.sched", &s), 0);
    assert_int_not_equal(pg_schedule_set(s, "inflight.share=2", 0), 0);
    assert_non_null(strstr(pg_last_error(), "out of range"));
    assert_int_not_equal(pg_schedule_set(s, "inflight.depth=2", 0), 0);
    assert_non_null(strstr(pg_last_error(), "inflight takes share, stages, cal, on"));
    pg_schedule_free(s);
}

/* the period of s with `sets` applied, then with the line off */
static void periods(pg_schedule *s, const char *const *sets, int n, double *on, double *off)
{
    const pg_model_opts o = {.tiles = 20000, .seed = 1, .deterministic = 0};
    pg_prediction p;
    for (int i = 0; i < n; i++)
        if (pg_schedule_set(s, sets[i], 0))
            fail_msg("%s: %s", sets[i], pg_last_error());
    assert_int_equal(pg_model_predict(s, &o, &p), 0);
    *on = p.tile_period;
    assert_int_equal(pg_schedule_set(s, "inflight.on=0", 0), 0);
    assert_int_equal(pg_model_predict(s, &o, &p), 0);
    *off = p.tile_period;
    assert_int_equal(pg_schedule_set(s, "inflight.on=1", 0), 0);
}

static void test_fit_and_whatifs(void **state)
{
    (void)state;
    pg_run run;
    if (pg_run_read(g_trace, &run, PG_READ_TRACE))
        fail_msg("%s", pg_last_error());
    const char *on[] = {"inflight=1"};
    pg_schedule *s = NULL;
    if (pg_schedule_fit_variant(&run, "h100-bres", on, 1, &s))
        fail_msg("%s", pg_last_error());
    /* the calibration's mean count: the first load and ~1.4 of the loop's (M113's clocks: 1.55) */
    assert_true(s->if_cal > 1.5 && s->if_cal < 4);
    char *text = pg_test_schedule_text(s, NULL);
    assert_non_null(strstr(text, "inflight first_load share=0.8 stages=4 cal="));
    free(text);
    /* K = 512 under a 1,400-cycle delay: the first load leaves with the
     * loop's loads landed, and the period moves */
    const char *k512[] = {"kblocks=4", "kblocks.tile_compute=1536", "bandwidth.bytes_per_tile=32768", "epi_delay=1400"};
    double p_on, p_off;
    periods(s, k512, 4, &p_on, &p_off);
    assert_true(fabs(p_on / p_off - 1) > 0.005);
    /* another ring depth: nothing moves */
    const char *b64[] = {"kblocks=12", "stages=8", "epi_delay=0"};
    periods(s, b64, 3, &p_on, &p_off);
    assert_true(p_on == p_off);
    pg_schedule_free(s);
    pg_run_free(&run);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s H200_BRES_ZERO_DELAY.h5\n", argv[0]);
        return 2;
    }
    g_trace = argv[1];
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_refused), cmocka_unit_test(test_fit_and_whatifs)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
