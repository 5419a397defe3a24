/* pgtrace_trace.c and the CSV writer/reader: the user's vocabulary is
 * checked, anchors become per-SM, bad events are refused before anything is
 * written, and a CSV trace reads back exactly as written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "pgtrace_csv.h"

static const char *const k_roles[] = {"producer", "consumer"};
static const char *const k_phases[] = {"producer_wait", "issue", "load_wait", "softmax", "store"};
static const unsigned char k_waits[] = {1, 0, 1, 0, 0};
static const pgtrace_vocab k_vocab = {2, k_roles, 5, k_phases, k_waits};

/* Two CTAs on SMs 0 and 2 of 3, a third CTA that never ran, four events. */
static void make_trace(pgtrace_trace *t)
{
    memset(t, 0, sizeof *t);
    t->n_anchors = 3;
    t->anchors = calloc(3, sizeof *t->anchors);
    t->n_events = 4;
    t->events = calloc(4, sizeof *t->events);
    assert_non_null(t->anchors);
    assert_non_null(t->events);
    t->anchors[0] = (pgtrace_anchor){1000, 5000, 3000, 6000, 0, 0};   /* 2000 cycles in 1000 ns */
    t->anchors[1] = (pgtrace_anchor){500, 7000, 2500, 8000, 2, 2};
    memset(&t->anchors[2], 0xFF, sizeof t->anchors[2]);
    t->events[0] = pgtrace_event_make(0, 0, 0, 0, 0, 1000, 1100);
    t->events[1] = pgtrace_event_make(0, 0, 0, 0, 1, 1100, 1300);
    t->events[2] = pgtrace_event_make(2, 1, 3, 1, 3, 600, 900);
    t->events[3] = pgtrace_event_make(2, 1, 3, 1, 4, 900, 900);
    t->count = 6;
    t->capacity = 4;
    t->dropped = 2;
    t->sm_count = 3;
    t->clock_hz = pgtrace_clock_from_anchors(t->anchors, t->n_anchors);
    t->clock_hz_nominal = 1.98e9;
}

static int count_calls(void *ctx, const pgtrace_view *v)
{
    (void)v;
    ++*(int *)ctx;
    return 0;
}

static void test_clock_and_sm_anchors(void **state)
{
    (void)state;
    pgtrace_trace t;
    make_trace(&t);
    assert_true(t.clock_hz > 1.999e9 && t.clock_hz < 2.001e9);
    int64_t clock[3], gt[3];
    assert_int_equal(pgtrace_sm_anchors(t.anchors, 3, 3, clock, gt), 0);
    assert_int_equal(clock[0], 1000);
    assert_int_equal(gt[0], 5000);
    assert_int_equal(clock[1], -1); /* no CTA ran there */
    assert_int_equal(clock[2], 500);
    /* two CTAs on one SM: the earlier start anchors it */
    t.anchors[2] = (pgtrace_anchor){400, 4000, 800, 4500, 2, 2};
    assert_int_equal(pgtrace_sm_anchors(t.anchors, 3, 3, clock, gt), 0);
    assert_int_equal(clock[2], 400);
    t.anchors[2].sm_end = 1;
    assert_int_equal(pgtrace_sm_anchors(t.anchors, 3, 3, clock, gt), -1);
    assert_non_null(strstr(pgtrace_last_error(), "began on SM 2 and ended on SM 1"));
    t.anchors[2].sm_begin = t.anchors[2].sm_end = 3;
    assert_int_equal(pgtrace_sm_anchors(t.anchors, 3, 3, clock, gt), -1);
    assert_non_null(strstr(pgtrace_last_error(), "SM 3, outside 0..2"));
    pgtrace_trace_free(&t);
}

static void test_vocab_check(void **state)
{
    (void)state;
    assert_int_equal(pgtrace_vocab_check(&k_vocab), 0);
    const char *const dup[] = {"a", "b", "a"};
    const char *const spaced[] = {"load wait"};
    const unsigned char w[3] = {0};
    pgtrace_vocab v = {2, k_roles, 3, dup, w};
    assert_int_equal(pgtrace_vocab_check(&v), -1);
    assert_non_null(strstr(pgtrace_last_error(), "'a' appears twice"));
    v = (pgtrace_vocab){1, spaced, 1, k_phases, w};
    assert_int_equal(pgtrace_vocab_check(&v), -1);
    assert_non_null(strstr(pgtrace_last_error(), "not an identifier"));
    v = (pgtrace_vocab){0, k_roles, 1, k_phases, w};
    assert_int_equal(pgtrace_vocab_check(&v), -1);
    v = (pgtrace_vocab){1, k_roles, 1, k_phases, NULL};
    assert_int_equal(pgtrace_vocab_check(&v), -1);
}

static void expect_refused(pgtrace_trace *t, const char *msg)
{
    int calls = 0;
    assert_int_equal(pgtrace_emit(t, &k_vocab, "k", count_calls, &calls), -1);
    assert_int_equal(calls, 0);
    assert_non_null(strstr(pgtrace_last_error(), msg));
}

static void test_emit_refuses_bad_events(void **state)
{
    (void)state;
    pgtrace_trace t;
    make_trace(&t);
    int calls = 0;
    assert_int_equal(pgtrace_emit(&t, &k_vocab, "k", count_calls, &calls), 0);
    assert_int_equal(calls, 1);
    t.events[1].phase = 5;
    expect_refused(&t, "phase code 5, but the vocabulary has 5 phases");
    t.events[1].phase = 1;
    t.events[2].role = 2;
    expect_refused(&t, "role code 2");
    t.events[2].role = 1;
    t.events[3].sm = 1;
    expect_refused(&t, "SM 1 has no anchor");
    t.events[3].sm = 2;
    t.events[3].end = 899;
    expect_refused(&t, "consumer.store, tile 1): ends at 899 before it begins at 900");
    pgtrace_trace_free(&t);
}

static void temp_name(char *buf, size_t size, const char *stem)
{
    snprintf(buf, size, "%s/pgtrace_%s_%ld.csv", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", stem, (long)getpid());
}

static void test_csv_round_trip(void **state)
{
    (void)state;
    pgtrace_trace t;
    make_trace(&t);
    char path[512];
    temp_name(path, sizeof path, "rt");
    assert_int_equal(pgtrace_emit(&t, &k_vocab, "ws_ring", pgtrace_write_csv, path), 0);
    pgtrace_csv f;
    assert_int_equal(pgtrace_read_csv(path, &f), 0);
    assert_string_equal(f.kernel, "ws_ring");
    assert_int_equal(f.n_roles, 2);
    assert_int_equal(f.n_phases, 5);
    for (int p = 0; p < 5; p++) {
        assert_string_equal(f.phase_names[p], k_phases[p]);
        assert_int_equal(f.phase_is_wait[p], k_waits[p]);
    }
    assert_string_equal(f.role_names[1], "consumer");
    assert_int_equal(pgtrace_vocab_check(&f.vocab), 0);
    assert_int_equal(f.n_sm, 3);
    assert_int_equal(f.anchor_clock[0], 1000);
    assert_int_equal(f.anchor_clock[1], -1);
    assert_int_equal(f.anchor_globaltimer_ns[2], 7000);
    assert_true(f.clock_hz == t.clock_hz);
    assert_true(f.clock_hz_nominal == 1.98e9);
    assert_int_equal(f.count, 6);
    assert_int_equal(f.dropped, 2);
    assert_int_equal(f.n_events, 4);
    assert_memory_equal(f.events, t.events, 4 * sizeof *t.events);
    pgtrace_csv_free(&f);
    unlink(path);
    pgtrace_trace_free(&t);
}

/* A refused trace leaves a file already at the path untouched; a directory is not replaced. */
static void test_csv_write_keeps_existing(void **state)
{
    (void)state;
    pgtrace_trace t;
    make_trace(&t);
    char path[512];
    temp_name(path, sizeof path, "keep");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("precious\n", f);
    fclose(f);
    t.events[0].end = 0;
    assert_int_equal(pgtrace_emit(&t, &k_vocab, "k", pgtrace_write_csv, path), -1);
    char buf[32] = {0};
    f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(buf, sizeof buf, f));
    fclose(f);
    assert_string_equal(buf, "precious\n");
    unlink(path);
    temp_name(path, sizeof path, "dir");
    assert_int_equal(mkdir(path, 0700), 0);
    t.events[0].end = 1100;
    assert_int_equal(pgtrace_emit(&t, &k_vocab, "k", pgtrace_write_csv, path), -1);
    assert_non_null(strstr(pgtrace_last_error(), "not a regular file"));
    rmdir(path);
    pgtrace_trace_free(&t);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

#define HEAD                                                                                                       \
    "# pgtrace-csv 1\n# kernel k\n# clock_hz 1e9\n# clock_hz_nominal 2e9\n# count 1\n# dropped 0\n"            \
    "# roles producer consumer\n# phases wait work\n# waits wait\n# sms 2\n# anchor 1 10 20\n"

static void expect_read_error(const char *text, const char *msg)
{
    char path[512];
    temp_name(path, sizeof path, "bad");
    write_text(path, text);
    pgtrace_csv f;
    assert_int_equal(pgtrace_read_csv(path, &f), -1);
    if (!strstr(pgtrace_last_error(), msg))
        fail_msg("expected '%s' in '%s'", msg, pgtrace_last_error());
    assert_null(f.events);
    unlink(path);
}

static void test_csv_reader_refuses(void **state)
{
    (void)state;
    char path[512];
    temp_name(path, sizeof path, "good");
    write_text(path, HEAD "sm,role,warp,tile,phase,begin,end\n1,consumer,0,7,work,10,30\n");
    pgtrace_csv f;
    assert_int_equal(pgtrace_read_csv(path, &f), 0);
    assert_int_equal(f.n_events, 1);
    assert_int_equal(f.phase_is_wait[0], 1);
    assert_int_equal(f.phase_is_wait[1], 0);
    pgtrace_csv_free(&f);
    unlink(path);
    expect_read_error("hello\n", ":1: not a pgtrace CSV trace");
    expect_read_error(HEAD "sm,role,warp,tile,phase,begin,end\n1,consumer,0,7,softmax,10,30\n",
                      ":13: unknown phase 'softmax'");
    expect_read_error(HEAD "sm,role,warp,tile,phase,begin,end\n0,consumer,0,7,work,10,30\n",
                      ":13: the row's SM has no anchor");
    expect_read_error(HEAD "sm,role,warp,tile,phase,begin,end\n1,consumer,0,7,work,40,30\n", "ends before it begins");
    expect_read_error(HEAD "sm,role,warp,tile,phase,begin,end\n", "count 1 != 0 rows + 0 dropped");
    expect_read_error(HEAD, "no column line: truncated?");
    expect_read_error("# pgtrace-csv 1\n# kernel k\nsm,role,warp,tile,phase,begin,end\n", "lacks '# clock_hz'");
    expect_read_error(HEAD "# waits work\n", "waits given twice");
    expect_read_error(HEAD "# colour blue\n", "unknown header key 'colour'");
    expect_read_error(HEAD "sm,role,warp,tile,phase,begin,end\n1,consumer,0,7,work,10\n", "a row has 7 fields");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clock_and_sm_anchors), cmocka_unit_test(test_vocab_check),
        cmocka_unit_test(test_emit_refuses_bad_events), cmocka_unit_test(test_csv_round_trip),
        cmocka_unit_test(test_csv_write_keeps_existing), cmocka_unit_test(test_csv_reader_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
