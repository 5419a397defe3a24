/* Trace checks: a possible trace passes; impossible phase orders and traces
 * of another kernel config are caught; the Chrome export parses and has the
 * expected event counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "chrome.h"
#include "timeline.h"
#include "pg_error.h"
#include "runfile.h"
#include "trace_check.h"
#include "wellformed.h"

#define NSM 4
#define TILES_PER_SM 8
#define CONSUMER_PHASES 5
#define PRODUCER_PHASES 2
#define RECORDS (NSM * TILES_PER_SM * (CONSUMER_PHASES + PRODUCER_PHASES))

static int64_t g_n;

static void put(pg_trace *t, int sm, pg_role r, int warp, int tile, pg_phase p, int64_t b, int64_t e)
{
    int64_t i = g_n++;
    t->sm[i] = sm;
    t->role[i] = (uint8_t)r;
    t->warp[i] = warp;
    t->tile[i] = tile;
    t->phase[i] = (uint8_t)p;
    t->begin[i] = b;
    t->end[i] = e;
}

/* A possible ping-pong trace: SM s takes tiles s, s+4, ...; warpgroups
 * alternate; each SM's clock starts at a different value. */
static void make_run(pg_run *run)
{
    memset(run, 0, sizeof *run);
    run->problem.shape = (pg_shape){.M = 64 * 16, .N = 512, .K = 768, .P = 196};
    snprintf(run->problem.family, sizeof run->problem.family, "normal");
    run->problem.seed = 1;
    pg_kernel_info *k = &run->kernel;
    k->present = 1;
    snprintf(k->name, sizeof k->name, "h100-pingpong");
    snprintf(k->device, sizeof k->device, "test device");
    k->sm_count = NSM;
    k->sm_clock_hz = 1.755e9;
    k->tile_m = 64, k->tile_n = 256, k->tile_k = 128, k->stages = 4, k->consumers = 2;
    k->trace_build = 1;
    pg_trace *t = &run->trace;
    assert_int_equal(pg_trace_alloc(t, RECORDS, NSM), 0);
    pg_vocab_pegemm(&t->vocab);
    g_n = 0;
    for (int s = 0; s < NSM; s++) {
        int64_t clock0 = 1000000 * (s + 1);
        t->anchor_clock[s] = clock0;
        t->anchor_globaltimer_ns[s] = 5000000000LL + 1000 * s;
        int64_t wg_free[2] = {clock0 + 100, clock0 + 100};
        int64_t prod = clock0 + 50;
        for (int k2 = 0; k2 < TILES_PER_SM; k2++) {
            int tile = s + NSM * k2, w = k2 % 2;
            put(t, s, PG_ROLE_PRODUCER, 0, tile, PG_PH_PRODUCER_WAIT, prod, prod + 30);
            put(t, s, PG_ROLE_PRODUCER, 0, tile, PG_PH_PRODUCER_ISSUE, prod + 30, prod + 80);
            prod += 600;
            int64_t a = wg_free[w];
            put(t, s, PG_ROLE_CONSUMER, w, tile, PG_PH_ORDER_WAIT, a, a + 40);
            put(t, s, PG_ROLE_CONSUMER, w, tile, PG_PH_LOAD_WAIT, a + 40, a + 90);
            put(t, s, PG_ROLE_CONSUMER, w, tile, PG_PH_MAINLOOP, a + 90, a + 690);
            put(t, s, PG_ROLE_CONSUMER, w, tile, PG_PH_EPILOGUE_REGS, a + 690, a + 900);
            put(t, s, PG_ROLE_CONSUMER, w, tile, PG_PH_EPILOGUE_STORE, a + 900, a + 1000);
            wg_free[w] = a + 1000;
        }
    }
    assert_int_equal(g_n, RECORDS);
}

/* index of the record of (sm, role, warp, tile, phase) */
static int64_t find(const pg_trace *t, int sm, pg_role r, int tile, pg_phase p)
{
    for (int64_t i = 0; i < t->n; i++)
        if (t->sm[i] == sm && t->role[i] == r && t->tile[i] == tile && t->phase[i] == p)
            return i;
    fail_msg("record not found");
    return -1;
}

static void check(const pg_run *run, pg_trace_issues *is)
{
    pg_schedule *s = NULL;
    const char *name = pg_run_schedule_name(run);
    if (!name || pg_schedule_load(name, &s) != 0)
        fail_msg("schedule: %s", pg_last_error());
    int rc = pg_trace_check(run, s, is);
    pg_schedule_free(s);
    if (rc != 0)
        fail_msg("check: %s", pg_last_error());
}

static void test_possible_trace_passes(void **state)
{
    (void)state;
    pg_run run;
    pg_trace_issues is;
    make_run(&run);
    check(&run, &is);
    for (int i = 0; i < is.nnotes; i++)
        fprintf(stderr, "unexpected: %s\n", is.notes[i]);
    assert_int_equal(is.records, RECORDS);
    assert_int_equal(is.impossible, 0);
    assert_int_equal(is.config_mismatch, 0);
    pg_run_free(&run);
}

static void test_end_before_begin(void **state)
{
    (void)state;
    pg_run run;
    pg_trace_issues is;
    make_run(&run);
    int64_t i = find(&run.trace, 2, PG_ROLE_CONSUMER, 6, PG_PH_MAINLOOP);
    int64_t b = run.trace.begin[i];
    run.trace.begin[i] = run.trace.end[i];
    run.trace.end[i] = b;
    check(&run, &is);
    assert_true(is.impossible > 0);
    assert_non_null(strstr(is.notes[0], "ends before it begins"));
    pg_run_free(&run);
}

static void test_phase_order_violated(void **state)
{
    (void)state;
    pg_run run;
    pg_trace_issues is;
    make_run(&run);
    /* the epilogue of tile 5 is recorded before its mainloop: swap the two
     * intervals' times (each interval stays well formed) */
    pg_trace *t = &run.trace;
    int64_t ml = find(t, 1, PG_ROLE_CONSUMER, 5, PG_PH_MAINLOOP);
    int64_t er = find(t, 1, PG_ROLE_CONSUMER, 5, PG_PH_EPILOGUE_REGS);
    t->phase[ml] = PG_PH_EPILOGUE_REGS;
    t->phase[er] = PG_PH_MAINLOOP;
    check(&run, &is);
    assert_true(is.impossible > 0);
    assert_int_equal(is.config_mismatch, 0);
    int found = 0;
    for (int i = 0; i < is.nnotes; i++)
        found |= strstr(is.notes[i], "mainloop") != NULL && strstr(is.notes[i], "tile 5") != NULL;
    assert_true(found);
    pg_run_free(&run);
}

static void test_overlap_in_one_warp(void **state)
{
    (void)state;
    pg_run run;
    pg_trace_issues is;
    make_run(&run);
    /* the producer's wait of one tile stretches into its issue */
    int64_t i = find(&run.trace, 3, PG_ROLE_PRODUCER, 7, PG_PH_PRODUCER_WAIT);
    run.trace.end[i] += 20;
    check(&run, &is);
    assert_true(is.impossible > 0);
    assert_non_null(strstr(is.notes[0], "overlaps"));
    pg_run_free(&run);
}

static void test_tile_interleaved(void **state)
{
    (void)state;
    pg_run run;
    pg_trace_issues is;
    make_run(&run);
    /* warpgroup 0 of SM 0 runs tiles 0, 8, 16, 24: relabel the store of tile 8 as tile 0 */
    int64_t i = find(&run.trace, 0, PG_ROLE_CONSUMER, 8, PG_PH_EPILOGUE_STORE);
    run.trace.tile[i] = 0;
    check(&run, &is);
    assert_true(is.impossible > 0);
    pg_run_free(&run);
}

static void test_other_kernel_config(void **state)
{
    (void)state;
    pg_run run;
    pg_trace_issues is;

    make_run(&run);
    run.kernel.consumers = 1; /* the trace has two warpgroups */
    check(&run, &is);
    assert_true(is.config_mismatch > 0);
    assert_int_equal(is.impossible, 0);
    pg_run_free(&run);

    make_run(&run);
    run.kernel.tile_n = 512; /* 16 tiles, but the trace has tiles up to 31 */
    check(&run, &is);
    assert_true(is.config_mismatch > 0);
    pg_run_free(&run);

    make_run(&run);
    run.kernel.sm_count = 2; /* SMs 2 and 3 cannot exist */
    check(&run, &is);
    assert_true(is.config_mismatch > 0);
    pg_run_free(&run);

    make_run(&run);
    snprintf(run.kernel.name, sizeof run.kernel.name, "b200-seed"); /* roles of another schedule */
    check(&run, &is);
    assert_true(is.config_mismatch > 0);
    pg_run_free(&run);

    make_run(&run);
    run.kernel.trace_build = 0;
    check(&run, &is);
    assert_true(is.config_mismatch > 0);
    pg_run_free(&run);
}

/* through the run file: the checks see the same trace after a round trip */
static void test_file_round_trip(void **state)
{
    (void)state;
    char dir[] = "/tmp/pg_test_trace_XXXXXX", path[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/run.h5", dir);
    pg_run run, back;
    pg_trace_issues is;
    make_run(&run);
    run.kernel.consumers = 1;
    if (pg_run_write(path, &run, 0) != 0)
        fail_msg("write: %s", pg_last_error());
    memset(&back, 0, sizeof back);
    if (pg_run_read(path, &back, PG_READ_TRACE) != 0)
        fail_msg("read: %s", pg_last_error());
    assert_int_equal(back.trace.n, RECORDS);
    check(&back, &is);
    assert_true(is.config_mismatch > 0);
    pg_run_free(&back);
    pg_run_free(&run);
    unlink(path);
    rmdir(dir);
}

static long count_pairs(const char *text, size_t len, const char *key, const char *value)
{
    json_stats st = {.count_key = key, .count_value = value};
    char err[200];
    int rc = json_validate(text, len, &st, err, sizeof err);
    if (rc != 0)
        fail_msg("chrome JSON invalid: %s", err);
    return st.key_value_hits;
}

static void test_chrome_export(void **state)
{
    (void)state;
    pg_run run;
    pg_chrome_counts c;
    make_run(&run);
    char *buf = NULL;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(pg_chrome_write(f, &run, "test.h5", &c), 0);
    fclose(f);
    assert_int_equal(c.phase_events, RECORDS);
    assert_int_equal(c.process_names, NSM);
    assert_int_equal(c.thread_names, NSM * 3); /* producer 0, consumer 0 and 1 per SM */
    assert_true(c.aligned);
    assert_int_equal(count_pairs(buf, len, "ph", "X"), RECORDS);
    assert_int_equal(count_pairs(buf, len, "ph", "M"), NSM * 4);
    assert_int_equal(count_pairs(buf, len, "name", "process_name"), NSM);
    assert_int_equal(count_pairs(buf, len, "name", "mainloop"), NSM * TILES_PER_SM);
    assert_int_equal(count_pairs(buf, len, "cat", "wait"), NSM * TILES_PER_SM * 3);
    free(buf);

    /* without a clock there is no time axis */
    run.kernel.sm_clock_hz = 0;
    buf = NULL;
    f = open_memstream(&buf, &len);
    assert_int_equal(pg_chrome_write(f, &run, "test.h5", &c), -1);
    fclose(f);
    free(buf);
    pg_run_free(&run);
}

static void test_chrome_alignment(void **state)
{
    (void)state;
    /* two SMs, one record each, same cycle offset from their anchors: the
     * event times differ by exactly the globaltimer difference */
    pg_run run;
    memset(&run, 0, sizeof run);
    run.kernel.present = 1;
    run.kernel.sm_clock_hz = 1e9; /* 1 cycle = 1 ns */
    assert_int_equal(pg_trace_alloc(&run.trace, 2, 2), 0);
    pg_vocab_pegemm(&run.trace.vocab);
    pg_trace *t = &run.trace;
    t->anchor_clock[0] = 1000, t->anchor_globaltimer_ns[0] = 7000000;
    t->anchor_clock[1] = 999999, t->anchor_globaltimer_ns[1] = 7000000 + 2500;
    for (int s = 0; s < 2; s++) {
        t->sm[s] = s;
        t->role[s] = PG_ROLE_CONSUMER;
        t->phase[s] = PG_PH_MAINLOOP;
        t->begin[s] = t->anchor_clock[s] + 500;
        t->end[s] = t->begin[s] + 1000;
    }
    char *buf = NULL;
    size_t len;
    pg_chrome_counts c;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(pg_chrome_write(f, &run, "a.h5", &c), 0);
    fclose(f);
    /* SM 0 at its anchor + 0.5 us, SM 1 at its anchor (2.5 us later) + 0.5 us;
     * the axis starts at the earliest event; durations 1 us */
    assert_non_null(strstr(buf, "\"pid\":0,\"tid\":1000,\"ts\":0,\"dur\":1"));
    assert_non_null(strstr(buf, "\"pid\":1,\"tid\":1000,\"ts\":2.5,\"dur\":1"));
    free(buf);
    pg_run_free(&run);
}

/* The timeline picture: well-formed SVG with measured and model lanes,
 * and waits drawn hatched. */
static void test_timeline_svg(void **state)
{
    (void)state;
    pg_run run;
    make_run(&run);
    char dir[] = "/tmp/pg_test_timeline_XXXXXX", path[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/t.svg", dir);
    if (pg_timeline_svg(path, "t & <model>", &run.trace, &run.trace, 2, 3) != 0)
        fail_msg("timeline: %s", pg_last_error());
    size_t len;
    char *text = read_whole_file(path, &len);
    assert_non_null(text);
    xml_stats st;
    char err[200];
    if (xml_validate(text, len, &st, err, sizeof err) != 0)
        fail_msg("timeline SVG: %s", err);
    assert_non_null(strstr(text, "measured SM0 consumer 1"));
    assert_non_null(strstr(text, "measured SM1 producer 0"));
    assert_non_null(strstr(text, "model SM0 consumer 0"));
    assert_null(strstr(text, "measured SM2")); /* 2 SMs asked for */
    assert_non_null(strstr(text, "url(#hatch)"));
    free(text);
    /* an empty trace is an error, and leaves no file */
    unlink(path);
    pg_trace empty;
    memset(&empty, 0, sizeof empty);
    assert_int_equal(pg_timeline_svg(path, "x", &empty, NULL, 2, 3), -1);
    assert_int_equal(access(path, F_OK), -1);
    rmdir(dir);
    pg_run_free(&run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_possible_trace_passes),
        cmocka_unit_test(test_end_before_begin),
        cmocka_unit_test(test_phase_order_violated),
        cmocka_unit_test(test_overlap_in_one_warp),
        cmocka_unit_test(test_tile_interleaved),
        cmocka_unit_test(test_other_kernel_config),
        cmocka_unit_test(test_file_round_trip),
        cmocka_unit_test(test_chrome_export),
        cmocka_unit_test(test_chrome_alignment),
        cmocka_unit_test(test_timeline_svg),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
