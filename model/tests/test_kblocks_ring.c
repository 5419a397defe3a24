/* kblocks ring= (docs/experiments.md M126, M127): a share F of a k-block
 * load's latency scales with the ring's capacity (stages x one k-block's
 * compute) against ring_cal=, the ring it was measured at.  The loop with
 * ring=F and latency L is the loop with ring=0 and latency
 * L (1 - F + F x ring / ring_cal), exactly; a ring of twice the stages of
 * half the k-block holds the same bytes and moves nothing. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model_ext.h"
#include "pg_error.h"
#include "sched.h"
#include "sched_text.h"

/* one consumer whose k-block loads take L cycles each (its loop then
 * waits on them: 2,304 cycles of compute against 3,000-cycle loads) */
static const char k_loop[] = "schedule ring\n"
                             "machine units=1 tiles=100 clock_hz=1e9 flops=1e12\n"
                             "period consumer.mainloop\n"
                             "phase producer_issue family=const mean=1\n"
                             "phase mainloop family=const mean=2304\n"
                             "latency H family=const mean=0\n"
                             "role producer instances=1\n"
                             "  wait producer_wait\n"
                             "  work producer_issue\n"
                             "role consumer instances=1\n"
                             "  wait load_wait until producer.producer_issue\n"
                             "  work mainloop\n"
                             "buffer stages count=2 acquire=producer.producer_wait release=consumer.mainloop\n";

/* the model's mean mainloop: COUNT k-blocks of 2,304 / COUNT cycles on
 * STAGES stages, loads of `lat` cycles, and `ring` (a kblocks tail) */
static double loop_mean(int count, int stages, double lat, const char *ring)
{
    char text[sizeof k_loop + 512];
    snprintf(text, sizeof text,
             "%slatency L family=const mean=%.9g\n"
             "kblocks mainloop count=%d stages=%d compute=2304/%d issue=producer.producer_issue load=L release=H "
             "calibrated_mean=2304 %s\n",
             k_loop, lat, count, stages, count, ring);
    pg_schedule *s = NULL;
    if (pg_schedule_load_text(text, "ring.sched", &s))
        fail_msg("%s", pg_last_error());
    const double m = pg_test_phase_mean(s, 200, "mainloop");
    pg_schedule_free(s);
    return m;
}

static void test_ring_scales_the_latency(void **state)
{
    (void)state;
    const char *cal4 = "ring=0.6 ring_cal=4*384"; /* measured on 4 stages of 384 cycles */
    /* the loads bind: the loop follows their latency */
    assert_true(loop_mean(6, 2, 3000, "") > loop_mean(6, 2, 2100, "") + 100);
    /* 2 stages of 4: 1 - 0.6 + 0.6 x 2/4 = 0.7 of the latency */
    assert_true(fabs(loop_mean(6, 2, 3000, cal4) - loop_mean(6, 2, 2100, "")) < 1e-6);
    /* the calibration's own ring: nothing moves */
    assert_true(fabs(loop_mean(6, 4, 3000, cal4) - loop_mean(6, 4, 3000, "")) < 1e-6);
    /* 8 stages of 192 hold what 4 of 384 did: nothing moves */
    assert_true(fabs(loop_mean(12, 8, 3000, cal4) - loop_mean(12, 8, 3000, "")) < 1e-6);
    /* 3 stages at ring=1: Little's law, 3/4 of the latency */
    assert_true(fabs(loop_mean(6, 3, 3000, "ring=1 ring_cal=1536") - loop_mean(6, 3, 2250, "")) < 1e-6);
}

/* k_loop with this kblocks tail is refused, the error naming `want` */
static void refused(const char *ring, const char *want)
{
    char text[sizeof k_loop + 512];
    snprintf(text, sizeof text,
             "%slatency L family=const mean=3000\n"
             "kblocks mainloop count=6 stages=2 compute=384 issue=producer.producer_issue load=L release=H "
             "calibrated_mean=2304 %s\n",
             k_loop, ring);
    pg_test_refused(text, want);
}

/* bad values are refused with the key named; an overridden ring_cal (as
 * `pegemm model fit` sets it) survives a recompile and the written text */
static void test_ring_parse_and_write(void **state)
{
    (void)state;
    refused("ring=1.5 ring_cal=1536", "kblocks ring= must be in [0, 1]");
    refused("ring=0.6", "kblocks ring= needs ring_cal=");
    refused("ring=0.6 ring_cal=-1", "kblocks ring_cal= must be in [0, 1e9]");
    pg_schedule *s = NULL, *t = NULL;
    assert_int_equal(pg_schedule_load("h100-pingpong", &s), 0);
    assert_true(fabs(s->kb_ring - 0.6) < 1e-12 && fabs(s->kb_ring_cal - 2048) < 1e-9); /* M127 */
    assert_int_not_equal(pg_schedule_set(s, "kblocks.ring=2", 0), 0);
    assert_non_null(strstr(pg_last_error(), "kblocks.ring"));
    assert_int_equal(pg_schedule_set(s, "kblocks.ring_cal=1000", 0), 0);
    assert_int_equal(pg_schedule_set(s, "stages=3", 0), 0);
    assert_true(fabs(s->kb_ring_cal - 1000) < 1e-12);
    char *buf = pg_test_schedule_text(s, NULL);
    assert_non_null(strstr(buf, " ring=0.6 ring_cal=1000"));
    assert_int_equal(pg_schedule_load_text(buf, "written.sched", &t), 0);
    assert_true(fabs(t->kb_ring_cal - 1000) < 1e-12 && t->kb_stages == 3);
    pg_schedule_free(t);
    free(buf);
    pg_schedule_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ring_scales_the_latency),
        cmocka_unit_test(test_ring_parse_and_write),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
