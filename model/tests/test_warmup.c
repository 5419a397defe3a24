/* The `warmup` line (model/warmup.c, docs/experiments.md M53) on a schedule
 * whose period is known in closed form: one warp computes 1,000 cycles a
 * tile, so the period is 1,000 + E(T'-1)/(T'-1) - E(T-1)/(T-1) for a run of
 * T' tiles per unit against the line's T, with E piecewise linear between
 * its keys.  Its fit on a trace whose first gaps are known; bad lines and
 * settings rejected naming the problem. */
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

#define SCHED(WU)                                                                                                     \
    "schedule wu\n"                                                                                                   \
    "machine units=4 tiles=160 clock_hz=1e9 flops=1e12\n"                                                             \
    "period consumer.mainloop\n"                                                                                      \
    "phase mainloop family=const mean=1000\n"                                                                         \
    "role consumer instances=1\n"                                                                                     \
    "  work mainloop\n" WU

/* T = 40 tiles per unit (39 gaps): E(4) = 800, E(8) = 1,600, E(16) = 2,000, E(39) = 2,000 */
static const char k_ok[] = SCHED("warmup tiles=40 total=2000 e4=800 e8=1600 e16=2000\n");

static double period_of(pg_schedule *s)
{
    pg_model_opts o = {.tiles = 2000, .seed = 1};
    pg_prediction p;
    if (pg_model_predict(s, &o, &p) != 0)
        fail_msg("predict: %s", pg_last_error());
    return p.tile_period;
}

/* the period of schedule text with one setting made */
static double period_with(const char *text, const char *set)
{
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(text, "wu.sched", &s), 0);
    assert_int_equal(pg_schedule_set(s, set, 0), 0);
    const double p = period_of(s);
    pg_schedule_free(s);
    return p;
}

static double period_at_tiles(const char *text, double tiles)
{
    char set[64];
    snprintf(set, sizeof set, "tiles=%.17g", tiles);
    return period_with(text, set);
}

static void test_closed_form(void **state)
{
    (void)state;
    const double cal = 2000.0 / 39;
    /* the calibration's own count: nothing moves */
    assert_float_equal(period_at_tiles(k_ok, 160), 1000, 1e-6);
    /* 5 tiles per unit: E(4) / 4 */
    assert_float_equal(period_at_tiles(k_ok, 20), 1000 + 800.0 / 4 - cal, 1e-6);
    /* 7 tiles: E(6) between the keys 4 and 8 */
    assert_float_equal(period_at_tiles(k_ok, 28), 1000 + 1200.0 / 6 - cal, 1e-6);
    /* 3 tiles: E(2) between 0 and the first key */
    assert_float_equal(period_at_tiles(k_ok, 12), 1000 + 400.0 / 2 - cal, 1e-6);
    /* past the calibration's gaps E stays at its total */
    assert_float_equal(period_at_tiles(k_ok, 400), 1000 + 2000.0 / 99 - cal, 1e-6);
    /* the prediction says how much of its period the line moved */
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(k_ok, "wu.sched", &s), 0);
    assert_int_equal(pg_schedule_set(s, "tiles=20", 0), 0);
    pg_model_opts o = {.tiles = 2000, .seed = 1};
    pg_prediction p;
    assert_int_equal(pg_model_predict(s, &o, &p), 0);
    assert_float_equal(p.startup_shift, 800.0 / 4 - cal, 1e-6);
    pg_schedule_free(s);
    /* tiles=0: no line in effect */
    assert_float_equal(period_at_tiles(SCHED("warmup tiles=0 total=0\n"), 20), 1000, 1e-6);
}

/* written back and read again, and a `warmup.KEY=` setting */
static void test_roundtrip_and_set(void **state)
{
    (void)state;
    pg_schedule *s = NULL, *r = NULL;
    assert_int_equal(pg_schedule_load_text(k_ok, "wu.sched", &s), 0);
    assert_int_equal(pg_schedule_set(s, "warmup.e4=1200", 0), 0);
    assert_int_equal(pg_schedule_set(s, "tiles=20", 0), 0);
    const double p = period_of(s);
    assert_float_equal(p, 1000 + 1200.0 / 4 - 2000.0 / 39, 1e-6);
    char *text = pg_test_schedule_text(s, NULL);
    assert_non_null(strstr(text, "e4=1200"));
    assert_int_equal(pg_schedule_load_text(text, "again.sched", &r), 0);
    assert_float_equal(period_of(r), p, 1e-6);
    free(text);
    pg_schedule_free(r);
    /* a recompile (an option set) keeps the setting */
    assert_int_equal(pg_schedule_set(s, "warmup.total=0", 0), 0);
    assert_float_equal(period_of(s), 1000 + 1200.0 / 4, 1e-6);
    assert_int_not_equal(pg_schedule_set(s, "warmup.e5=1", 0), 0);
    assert_non_null(strstr(pg_last_error(), "warmup takes"));
    assert_int_not_equal(pg_schedule_set(s, "warmup.tiles=-3", 0), 0);
    assert_non_null(strstr(pg_last_error(), "out of range"));
    pg_schedule_free(s);
}

static void test_bad_lines(void **state)
{
    (void)state;
    static const char *const bad[][3] = {
        {SCHED("warmup tiles=40 e5=3\n"), "e5=3", "bad.sched:7"},
        {SCHED("warmup tiles=-1\n"), "out of range", "bad.sched:7"},
        {SCHED("warmup tiles=40 total=x\n"), "out of range", "bad.sched:7"},
        {SCHED("warmup tiles=40 oops\n"), "oops", "bad.sched:7"},
        {SCHED("warmup tiles=40\nwarmup tiles=40\n"), "only one", "bad.sched:8"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pg_schedule *s = NULL;
        assert_int_not_equal(pg_schedule_load_text(bad[i][0], "bad.sched", &s), 0);
        if (!strstr(pg_last_error(), bad[i][1]) || !strstr(pg_last_error(), bad[i][2]))
            fail_msg("case %zu: '%s'", i, pg_last_error());
    }
}

/* A trace of 4 units x 40 tiles whose first 10 gaps are 1,200 cycles and
 * the rest 1,000 (each tile's start recorded by two warps, the later 50
 * cycles on: the earliest counts): steady 1,000, E(k) = 200 min(k, 10). */
static void test_fit(void **state)
{
    (void)state;
    enum { UNITS = 4, TILES = 40, ROWS = UNITS * TILES * 2 };
    pg_trace t;
    memset(&t, 0, sizeof t);
    pg_vocab_pegemm(&t.vocab);
    const int ph = pg_vocab_phase(&t.vocab, "mainloop");
    assert_true(ph >= 0);
    t.n = ROWS;
    t.sm = calloc(ROWS, sizeof *t.sm);
    t.tile = calloc(ROWS, sizeof *t.tile);
    t.phase = calloc(ROWS, sizeof *t.phase);
    t.begin = calloc(ROWS, sizeof *t.begin);
    t.end = calloc(ROWS, sizeof *t.end);
    assert_true(t.sm && t.tile && t.phase && t.begin && t.end);
    int64_t r = 0;
    for (int u = 0; u < UNITS; u++) {
        int64_t at = 5000 * u;
        for (int k = 0; k < TILES; k++) {
            if (k > 0)
                at += k <= 10 ? 1200 : 1000;
            for (int w = 0; w < 2; w++, r++) {
                t.sm[r] = u;
                t.tile[r] = u * TILES + k;
                t.phase[r] = (uint8_t)ph;
                t.begin[r] = at + 50 * w;
                t.end[r] = t.begin[r] + 900;
            }
        }
    }
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(SCHED("warmup tiles=0 total=0\n"), "wu.sched", &s), 0);
    if (warmup_fit(s, &t) != 0)
        fail_msg("fit: %s", pg_last_error());
    assert_float_equal(s->wu_tiles, 40, 1e-9);
    assert_float_equal(s->wu_total, 2000, 1e-6);
    const double want[SCH_WU_NKEYS] = {200, 400, 800, 1600, 2000, 2000, 2000, 2000, NAN, NAN};
    for (int i = 0; i < SCH_WU_NKEYS; i++)
        if (isnan(want[i]) ? !isnan(s->wu_e[i]) : fabs(s->wu_e[i] - want[i]) > 1e-6)
            fail_msg("E(%d) = %g, want %g", sch_wu_k[i], s->wu_e[i], want[i]);
    /* a recompile keeps the fitted keys (they are settings) */
    assert_int_equal(pg_schedule_set(s, "tiles=20", 0), 0);
    assert_float_equal(period_of(s), 1000 + 200.0 - 2000.0 / 39, 1e-6);
    pg_schedule_free(s);
    /* too few tiles per unit: the line is switched off */
    t.n = 2 * 6; /* unit 0's first 6 tiles */
    assert_int_equal(pg_schedule_load_text(k_ok, "wu.sched", &s), 0);
    assert_int_equal(warmup_fit(s, &t), 0);
    assert_float_equal(s->wu_tiles, 0, 0);
    pg_schedule_free(s);
    free(t.sm), free(t.tile), free(t.phase), free(t.begin), free(t.end);
}

/* Across GPUs (`dramq` on, M54) the move is scaled by the DRAM queue's wait
 * at the prediction's share against the calibration's, g(rho) / g(rho_cal),
 * g(r) = r / (1 - r): the closed form of test_dramq.c (one warp computes
 * 1,000 cycles, then waits for a 1,000-cycle load; rho_cal = 0.5). */
#define DQ_SCHED(WU)                                                                                                  \
    PG_TEST_LOAD_SCHED("40", "dramq first_load qscale=0.15 bytes_per_s=2e12 cal_bytes_per_s=1e12 clock_cal=1e9 "     \
                             "on=$dramq\n" WU)

static void test_queue_scaling(void **state)
{
    (void)state;
    static const char with[] = DQ_SCHED("warmup tiles=40 total=2000 e4=800 e8=1600 e16=2000\n");
    static const char without[] = DQ_SCHED("");
    /* 5 tiles per unit on a machine with twice the calibration's floor */
    const double p0 = period_with(without, "tiles=5"), p1 = period_with(with, "tiles=5");
    const double rho = fmin(0.95, 1e6 * 1e9 / (2e12 * p0)), g = rho / (1 - rho); /* g(rho_cal) = 1 */
    assert_true(g < 0.9);
    assert_float_equal(p1 - p0, g * (800.0 / 4 - 2000.0 / 39), 1e-3);
    /* at the calibration's count nothing moves, on any machine */
    assert_float_equal(period_with(with, "tiles=40"), period_with(without, "tiles=40"), 1e-6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_closed_form),
        cmocka_unit_test(test_roundtrip_and_set),
        cmocka_unit_test(test_bad_lines),
        cmocka_unit_test(test_fit),
        cmocka_unit_test(test_queue_scaling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
