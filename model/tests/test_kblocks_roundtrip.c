/* kblocks roundtrip= (docs/experiments.md M29): ws_mainloop issues k-block
 * j's wgmma group only once wait_group 1 returned for j - 2's, so j's
 * compute starts no earlier than `roundtrip` after j - 2's ended.  A loop
 * whose loads land at once is then 2c + ((count - 2) / 2) (c + roundtrip)
 * for even counts where roundtrip > c, and count x c where roundtrip <= c:
 * halving the k-block and doubling the count costs (count - 2) / 2 x
 * (roundtrip - c) more, not nothing. */
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

/* one consumer whose loop's loads land at once (zero latency, zero
 * release): the loop is its compute and the round trip alone */
static const char k_loop[] = "schedule rt\n"
                             "machine units=1 tiles=100 clock_hz=1e9 flops=1e12\n"
                             "period consumer.mainloop\n"
                             "phase producer_issue family=const mean=1\n"
                             "phase mainloop family=const mean=2304\n"
                             "latency L family=const mean=0\n"
                             "latency H family=const mean=0\n"
                             "role producer instances=1\n"
                             "  wait producer_wait\n"
                             "  work producer_issue\n"
                             "role consumer instances=1\n"
                             "  wait load_wait until producer.producer_issue\n"
                             "  work mainloop\n"
                             "buffer stages count=2 acquire=producer.producer_wait release=consumer.mainloop\n";

/* the model's mean mainloop of k_loop with a kblocks line of COUNT
 * k-blocks splitting 2,304 cycles, STAGES stages, and the given
 * roundtrip (as written on the line when `on_line`, else by override) */
static double loop_mean(int count, int stages, double roundtrip, int on_line)
{
    char text[sizeof k_loop + 512], kb[320];
    snprintf(kb, sizeof kb,
             "kblocks mainloop count=%d stages=%d compute=2304/%d issue=producer.producer_issue load=L release=H "
             "calibrated_mean=2304%s\n",
             count, stages, count, on_line ? " roundtrip=320" : "");
    snprintf(text, sizeof text, "%s%s", k_loop, kb);
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(text, "rt.sched", &s), 0);
    if (!on_line) {
        char opt[64];
        snprintf(opt, sizeof opt, "kblocks.roundtrip=%g", roundtrip);
        assert_int_equal(pg_schedule_set(s, opt, 0), 0);
    }
    const double m = pg_test_phase_mean(s, 200, "mainloop");
    pg_schedule_free(s);
    return m;
}

/* the closed form: the loop of count k-blocks of c with the round trip */
static double closed_form(int count, double c, double rt)
{
    double b[64] = {0};
    for (int j = 1; j < count; j++) {
        b[j] = b[j - 1] + c;
        if (j >= 2 && b[j - 2] + c + rt > b[j])
            b[j] = b[j - 2] + c + rt;
    }
    return b[count - 1] + c;
}

/* k_loop with this kblocks line is refused, the error naming `want`
 * (sched_text.c's pg_test_refused) */
static void assert_line_refused(const char *kb_line, const char *want)
{
    char text[sizeof k_loop + 320];
    snprintf(text, sizeof text, "%s%s", k_loop, kb_line);
    pg_test_refused(text, want);
}

static void test_count_doubling_costs_the_round_trip(void **state)
{
    (void)state;
    /* bres: 6 k-blocks of 384 -- a round trip under 384 never binds */
    assert_true(fabs(loop_mean(6, 4, 0, 0) - 2304) < 1e-6);
    assert_true(fabs(loop_mean(6, 4, 320, 0) - 2304) < 1e-6);
    assert_true(fabs(loop_mean(6, 4, 384, 0) - 2304) < 1e-6);
    /* bres64: 12 of 192 -- without the round trip the same 2,304; with
     * 320 cycles 2 x 192 + 5 x 512 = 2,944 */
    assert_true(fabs(loop_mean(12, 8, 0, 0) - 2304) < 1e-6);
    const double with = loop_mean(12, 8, 320, 0);
    assert_true(fabs(with - 2944) < 1e-6);
    assert_true(fabs(with - closed_form(12, 192, 320)) < 1e-6);
    /* the same from the line as from the override */
    assert_true(fabs(loop_mean(12, 8, 0, 1) - with) < 1e-6);
    /* 24 of 96: the pace is the round trip's, (96 + 320) / 2 a k-block */
    assert_true(fabs(loop_mean(24, 8, 320, 0) - closed_form(24, 96, 320)) < 1e-6);
    assert_true(fabs(closed_form(24, 96, 320) - (2 * 96 + 11 * 416)) < 1e-9);
}

/* out-of-range values are refused with the key named; the written
 * schedule carries an overridden round trip, so its prediction is the same */
static void test_roundtrip_parse_and_write(void **state)
{
    (void)state;
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load("h100-bres", &s), 0);
    assert_true(fabs(s->kb_roundtrip - 344) < 1e-12); /* bres's loop states its own (M29, M36) */
    pg_schedule_free(s);
    assert_int_equal(pg_schedule_load("h100-pingpong", &s), 0);
    assert_int_equal(s->kb_roundtrip, 0); /* default: no floor */
    assert_int_not_equal(pg_schedule_set(s, "kblocks.roundtrip=-1", 0), 0);
    assert_non_null(strstr(pg_last_error(), "kblocks.roundtrip"));
    assert_int_equal(pg_schedule_set(s, "kblocks.roundtrip=320", 0), 0);
    assert_int_equal(pg_schedule_set(s, "stages=3", 0), 0); /* survives a recompile */
    assert_true(fabs(s->kb_roundtrip - 320) < 1e-12);
    char *buf = pg_test_schedule_text(s, NULL);
    assert_non_null(strstr(buf, " roundtrip=320"));
    pg_schedule *t = NULL;
    assert_int_equal(pg_schedule_load_text(buf, "written.sched", &t), 0);
    assert_true(fabs(t->kb_roundtrip - 320) < 1e-12);
    pg_schedule_free(t);
    free(buf);
    pg_schedule_free(s);

    assert_line_refused("kblocks mainloop count=4 stages=2 compute=2 issue=producer.producer_issue load=L release=H "
                        "calibrated_mean=2304 roundtrip=-3\n",
                        "roundtrip= must be in [0, 1e6]");
    assert_non_null(strstr(pg_last_error(), "bad.sched:15"));
}

/* fixed= (M36): once per loop, after its last k-block; as a line key and
 * as an override (surviving a recompile, written back); refused below 0 */
static void test_fixed(void **state)
{
    (void)state;
    char text[sizeof k_loop + 320];
    snprintf(text, sizeof text, "%s%s", k_loop,
             "kblocks mainloop count=12 stages=8 compute=2304/12 issue=producer.producer_issue load=L release=H "
             "calibrated_mean=2304 roundtrip=320 fixed=100\n");
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(text, "fixed.sched", &s), 0);
    assert_true(s->kb_fixed_named);
    pg_model_opts o = {.tiles = 200, .seed = 1, .deterministic = 1};
    pg_prediction p;
    assert_int_equal(pg_model_predict(s, &o, &p), 0);
    assert_true(fabs(pg_prediction_find(&p, "mainloop")->mean - (closed_form(12, 192, 320) + 100)) < 1e-6);
    assert_int_equal(pg_schedule_set(s, "kblocks.fixed=40", 0), 0);
    assert_int_equal(pg_schedule_set(s, "kblocks.roundtrip=0", 0), 0);
    assert_int_equal(pg_model_predict(s, &o, &p), 0);
    assert_true(fabs(pg_prediction_find(&p, "mainloop")->mean - (2304 + 40)) < 1e-6);
    /* fixed_mode= (M95): a flag the fit reads, written back once set */
    assert_int_equal(pg_schedule_set(s, "kblocks.fixed_mode=1", 0), 0);
    char *buf = pg_test_schedule_text(s, NULL);
    assert_non_null(strstr(buf, " fixed=40"));
    assert_non_null(strstr(buf, " fixed_mode=1"));
    free(buf);
    assert_int_not_equal(pg_schedule_set(s, "kblocks.fixed=-5", 0), 0);
    assert_non_null(strstr(pg_last_error(), "kblocks.fixed"));
    assert_int_not_equal(pg_schedule_set(s, "kblocks.fixed_mode=2", 0), 0);
    assert_non_null(strstr(pg_last_error(), "0 or 1"));
    pg_schedule_free(s);
    snprintf(text, sizeof text, "%s%s", k_loop,
             "kblocks mainloop count=12 stages=8 compute=2304/12 issue=producer.producer_issue load=L release=H "
             "calibrated_mean=2304 fixed=100 fixed_mode=3\n");
    assert_int_not_equal(pg_schedule_load_text(text, "fixed.sched", &s), 0);
    assert_non_null(strstr(pg_last_error(), "fixed_mode"));
    /* a line without the key: none, and the fit leaves it so (pingpong's
     * names it since M90; the dual GEMM's lines do not) */
    assert_int_equal(pg_schedule_load("h100-dual-pp", &s), 0);
    assert_int_equal(s->kb_fixed_named, 0);
    assert_true(s->kb_fixed == 0);
    pg_schedule_free(s);
}

/* kblocks.KEY=VALUE on the built-in h100-pingpong, where the key is 0
 * (the double at `field` in the schedule): it survives a recompile, is
 * written back as " KEY=VALUE", and -1 is refused naming the key; a line
 * with BAD_VALUE is refused with `why` */
static void assert_key_overridden(const char *key, double value, size_t field, const char *bad_value, const char *why)
{
    pg_schedule *s = NULL;
    char opt[64], want[64], line[320];
    assert_int_equal(pg_schedule_load("h100-pingpong", &s), 0);
    assert_true(*(const double *)((const char *)s + field) == 0); /* off unless a line or a variant says */
    snprintf(opt, sizeof opt, "kblocks.%s=%g", key, value);
    assert_int_equal(pg_schedule_set(s, opt, 0), 0);
    assert_int_equal(pg_schedule_set(s, "stages=3", 0), 0); /* survives a recompile */
    assert_true(fabs(*(const double *)((const char *)s + field) - value) < 1e-12);
    char *buf = pg_test_schedule_text(s, NULL);
    snprintf(want, sizeof want, " %s=%g", key, value);
    assert_non_null(strstr(buf, want));
    free(buf);
    snprintf(opt, sizeof opt, "kblocks.%s=-1", key);
    assert_int_not_equal(pg_schedule_set(s, opt, 0), 0);
    snprintf(want, sizeof want, "kblocks.%s", key);
    assert_non_null(strstr(pg_last_error(), want));
    pg_schedule_free(s);
    snprintf(line, sizeof line,
             "kblocks mainloop count=6 stages=8 compute=384 issue=producer.producer_issue load=L release=H "
             "calibrated_mean=2304 %s=%s\n",
             key, bad_value);
    assert_line_refused(line, why);
}

/* the deterministic tile period of k_loop with a load latency of LATENCY
 * cycles, 6 k-blocks of 384 on STAGES stages, and the kblocks line's ring
 * keys (or any: "fifo=450") */
/* k_loop with its load latency L and a kblocks line of 6 k-blocks of 384
 * on STAGES stages, ending in TAIL (keys, a comment) */
static void loop_text(char *text, size_t n, double latency, int stages, const char *tail)
{
    const char *lat = "latency L family=const mean=0\n";
    const char *at = strstr(k_loop, lat);
    assert_non_null(at);
    snprintf(text, n,
             "%.*slatency L family=const mean=%g\n%skblocks mainloop count=6 stages=%d compute=2304/6 "
             "issue=producer.producer_issue load=L release=H calibrated_mean=2304 %s\n",
             (int)(at - k_loop), k_loop, latency, at + strlen(lat), stages, tail);
}

static double ring_period_at(double latency, int stages, const char *ring_keys)
{
    char text[sizeof k_loop + 400];
    loop_text(text, sizeof text, latency, stages, ring_keys);
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(text, "ring.sched", &s), 0);
    pg_model_opts o = {.tiles = 400, .seed = 1, .deterministic = 1};
    pg_prediction p;
    assert_int_equal(pg_model_predict(s, &o, &p), 0);
    pg_schedule_free(s);
    return p.tile_period;
}

/* the deterministic tile period of k_loop with 6 k-blocks of 384 on a ring
 * deeper than the tile (every stage issued with the tile, landing at once
 * without fifo=) and the given fifo= (on the line) */
static double fifo_period(double fifo)
{
    char keys[32];
    snprintf(keys, sizeof keys, "fifo=%g", fifo);
    return ring_period_at(0, 8, keys);
}

/* fifo= (M119): the SM serves its loads in order, one landing at least
 * fifo after the one issued before it.  Five loads a tile run here (the
 * first k-block's is the first-load term), chained across tiles, so a gap
 * longer than a k-block's compute sets the period at 5 x fifo; one shorter
 * than the compute (384) never binds.  Parsed, overridden, written back,
 * refused below 0. */
static void test_fifo(void **state)
{
    (void)state;
    const double none = fifo_period(0);
    assert_true(fabs(none - 2304) < 2);
    assert_true(fabs(fifo_period(300) - none) < 1e-6);
    assert_true(fabs(fifo_period(1000) - 5000) < 2);
    assert_true(fabs(fifo_period(700) - 3500) < 2);
    assert_key_overridden("fifo", 450, offsetof(pg_schedule, kb_fifo), "-2", "fifo= must be in [0, 1e6]");
}

static double ring_period(int stages, const char *ring_keys) { return ring_period_at(2000, stages, ring_keys); }

/* ring= (M165): at another depth than ring_stages a share of each in-loop
 * load's latency follows the depth, L (1 - r + r S / S_cal): on 2 stages
 * with r = 0.5 and S_cal = 4 the loop runs as with a latency of 1,500; at
 * S_cal itself, or without ring_stages (no fit has measured the depth),
 * nothing moves.  Parsed, overridden, written back, refused out of range. */
static void test_ring(void **state)
{
    (void)state;
    const double two = ring_period(2, "");
    assert_true(two > 2304 + 100); /* the latency binds on 2 stages */
    assert_true(fabs(ring_period(2, "ring=0.5") - two) < 1e-6);
    assert_true(fabs(ring_period(2, "ring=0.5 ring_stages=2") - two) < 1e-6);
    assert_true(fabs(ring_period(4, "ring=0.5 ring_stages=4") - ring_period(4, "")) < 1e-6);
    const double scaled = ring_period(2, "ring=0.5 ring_stages=4");
    assert_true(scaled < two - 100);
    assert_true(fabs(scaled - ring_period_at(1500, 2, "")) < 1e-6);
    /* beside queue=, the share still acts (queue= follows the count in flight, not the depth) */
    assert_true(ring_period(2, "queue=0.5 ring=0.5 ring_stages=4") < ring_period(2, "queue=0.5") - 100);

    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load("h100-pingpong", &s), 0);
    /* the built-in's share: 0 for a build that prefetches A (the option's default), 0.2 for one that does not */
    assert_true(s->kb_ring == 0 && s->kb_ring_stages == 0);
    assert_int_equal(pg_schedule_set(s, "rowfirst_prefetch=0", 0), 0);
    assert_true(fabs(s->kb_ring - 0.2) < 1e-12);
    assert_int_equal(pg_schedule_set(s, "kblocks.ring=0.3", 0), 0);
    assert_int_equal(pg_schedule_set(s, "kblocks.ring_stages=4", 0), 0);
    assert_int_equal(pg_schedule_set(s, "stages=3", 0), 0); /* survives a recompile */
    assert_true(fabs(s->kb_ring - 0.3) < 1e-12 && s->kb_ring_stages == 4 && s->kb_stages == 3);
    /* an expression an override set is written as the number (the override
     * kept), one no override set as it is (it follows its option) */
    char *buf = pg_test_schedule_text(s, NULL);
    assert_non_null(strstr(buf, " ring=0.3 "));
    assert_non_null(strstr(buf, " ring_stages=4"));
    assert_non_null(strstr(buf, " queue=0.6*$rowfirst_prefetch "));
    free(buf);
    pg_schedule *t = NULL;
    assert_int_equal(pg_schedule_load("h100-pingpong", &t), 0);
    buf = pg_test_schedule_text(t, NULL);
    assert_non_null(strstr(buf, " ring=0.2*(1-$rowfirst_prefetch)"));
    free(buf);
    pg_schedule_free(t);
    /* a queue= override where the line has none is written (h100-bres's);
     * a trailing comment stays at the end, its words not the line's keys */
    char text[sizeof k_loop + 400];
    loop_text(text, sizeof text, 0, 8, "# was ring=0.5");
    assert_int_equal(pg_schedule_load_text(text, "cm.sched", &t), 0);
    assert_int_equal(pg_schedule_set(t, "kblocks.queue=0.3", 0), 0);
    assert_int_equal(pg_schedule_set(t, "kblocks.ring=0.1", 0), 0);
    buf = pg_test_schedule_text(t, NULL);
    assert_non_null(strstr(buf, " ring=0.1 queue=0.3 # was ring=0.5\n"));
    pg_schedule_free(t);
    assert_int_equal(pg_schedule_load_text(buf, "back.sched", &t), 0);
    assert_true(fabs(t->kb_queue - 0.3) < 1e-12 && fabs(t->kb_ring - 0.1) < 1e-12);
    free(buf);
    pg_schedule_free(t);
    assert_int_not_equal(pg_schedule_set(s, "kblocks.ring=1.5", 0), 0);
    assert_non_null(strstr(pg_last_error(), "kblocks.ring"));
    pg_schedule_free(s);
    assert_line_refused("kblocks mainloop count=6 stages=8 compute=384 issue=producer.producer_issue load=L release=H "
                        "calibrated_mean=2304 ring=-0.1\n",
                        "ring= must be in [0, 1]");
    assert_line_refused("kblocks mainloop count=6 stages=8 compute=384 issue=producer.producer_issue load=L release=H "
                        "calibrated_mean=2304 ring=0.5 ring_stages=0.5\n",
                        "ring_stages= must be 0 or a whole number");
    assert_int_equal(pg_schedule_load("h100-pingpong", &s), 0);
    assert_int_not_equal(pg_schedule_set(s, "kblocks.ring_stages=1", 0), 0);
    assert_non_null(strstr(pg_last_error(), "whole number of stages"));
    assert_int_not_equal(pg_schedule_set(s, "kblocks.ring_stages=3.5", 0), 0);
    pg_schedule_free(s);
}

/* wake= (M166): at another depth than ring_stages a k-block that waited for
 * its stage frees the slot before it `wake` cycles after the landing.  On a
 * 2-stage ring every k-block waits, so each load goes out that much later
 * and the loop grows; at ring_stages itself, or with none, nothing moves.
 * Parsed, overridden, written back, refused below 0. */
static void test_wake(void **state)
{
    (void)state;
    const double two = ring_period(2, "");
    assert_true(fabs(ring_period(2, "wake=300") - two) < 1e-6);                  /* no depth measured */
    assert_true(fabs(ring_period(2, "wake=300 ring_stages=2") - two) < 1e-6);    /* the calibration's */
    assert_true(fabs(ring_period(4, "wake=300 ring_stages=4") - ring_period(4, "")) < 1e-6);
    assert_true(fabs(ring_period(4, "wake=300 ring_stages=2") - ring_period(4, "")) < 1e-6); /* a deeper ring */
    const double woke = ring_period(2, "wake=300 ring_stages=4");
    assert_true(woke > two + 300); /* several k-blocks a tile wait, each freeing its slot 300 later */
    assert_key_overridden("wake", 390, offsetof(pg_schedule, kb_wake), "-5", "wake= must be in [0, 1e6]");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_count_doubling_costs_the_round_trip),
        cmocka_unit_test(test_roundtrip_parse_and_write),
        cmocka_unit_test(test_fixed),
        cmocka_unit_test(test_fifo),
        cmocka_unit_test(test_ring),
        cmocka_unit_test(test_wake),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
