/* pgtrace_common.h: the record layout is a run file's trace row, and the
 * buffer's slot logic (the same functions the device runs) never writes
 * past the capacity while counting every event. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pgtrace_common.h"
#include "pgtrace_trace.h"

static void test_event_layout(void **state)
{
    (void)state;
    assert_int_equal(sizeof(pgtrace_event), 32);
    assert_int_equal(_Alignof(pgtrace_event), 16);
    assert_int_equal(offsetof(pgtrace_event, begin), 0);
    assert_int_equal(offsetof(pgtrace_event, end), 8);
    assert_int_equal(offsetof(pgtrace_event, sm), 16);
    assert_int_equal(offsetof(pgtrace_event, warp), 20);
    assert_int_equal(offsetof(pgtrace_event, tile), 24);
    assert_int_equal(offsetof(pgtrace_event, role), 28);
    assert_int_equal(offsetof(pgtrace_event, phase), 29);
    /* the run file's column types (docs/format.md): sm/warp/tile int32, role/phase uint8, begin/end int64 */
    pgtrace_event e;
    assert_int_equal(sizeof e.sm, 4);
    assert_int_equal(sizeof e.warp, 4);
    assert_int_equal(sizeof e.tile, 4);
    assert_int_equal(sizeof e.role, 1);
    assert_int_equal(sizeof e.phase, 1);
    assert_int_equal(sizeof e.begin, 8);
    assert_int_equal(sizeof e.end, 8);
}

static void test_anchor_layout(void **state)
{
    (void)state;
    assert_int_equal(sizeof(pgtrace_anchor), 40);
    assert_int_equal(offsetof(pgtrace_anchor, clock_begin), 0);
    assert_int_equal(offsetof(pgtrace_anchor, globaltimer_begin_ns), 8);
    assert_int_equal(offsetof(pgtrace_anchor, clock_end), 16);
    assert_int_equal(offsetof(pgtrace_anchor, globaltimer_end_ns), 24);
    assert_int_equal(offsetof(pgtrace_anchor, sm_begin), 32);
    assert_int_equal(offsetof(pgtrace_anchor, sm_end), 36);
    /* the host clears anchors with bytes 0xFF: every field must read -1 */
    pgtrace_anchor a;
    memset(&a, 0xFF, sizeof a);
    assert_int_equal(a.clock_begin, -1);
    assert_int_equal(a.globaltimer_end_ns, -1);
    assert_int_equal(a.sm_begin, -1);
    assert_int_equal(a.sm_end, -1);
}

static void test_event_make(void **state)
{
    (void)state;
    const pgtrace_event e = pgtrace_event_make(131, 1, 3, 40000, 254, 1000, 2500);
    assert_int_equal(e.sm, 131);
    assert_int_equal(e.role, 1);
    assert_int_equal(e.warp, 3);
    assert_int_equal(e.tile, 40000);
    assert_int_equal(e.phase, 254);
    assert_int_equal(e.begin, 1000);
    assert_int_equal(e.end, 2500);
    assert_int_equal(e.reserved[0] | e.reserved[1], 0);
}

static void test_slots_fit_edges(void **state)
{
    (void)state;
    assert_int_equal(pgtrace_slots_fit(0, 3, 10), 3);
    assert_int_equal(pgtrace_slots_fit(7, 3, 10), 3);  /* exactly fills */
    assert_int_equal(pgtrace_slots_fit(8, 3, 10), 2);  /* straddles the end */
    assert_int_equal(pgtrace_slots_fit(10, 3, 10), 0); /* starts at the end */
    assert_int_equal(pgtrace_slots_fit(1000, 1, 10), 0);
    assert_int_equal(pgtrace_slots_fit(0, 1, 0), 0);   /* no buffer */
    assert_int_equal(pgtrace_slots_fit(~0ull - 1, 4, 10), 0);
    assert_int_equal(pgtrace_recorded(5, 10), 5);
    assert_int_equal(pgtrace_recorded(15, 10), 10);
    assert_int_equal(pgtrace_dropped(5, 10), 0);
    assert_int_equal(pgtrace_dropped(10, 10), 0);
    assert_int_equal(pgtrace_dropped(15, 10), 5);
    assert_int_equal(pgtrace_dropped(3, 0), 3);
}

/* The device's pgtrace_put_n on the host: one claim of n on the counter,
 * then the slots that fit.  Claims from many "warps" interleave. */
enum { GUARD = 64 };

static void emulate(int64_t capacity, int claims, unsigned seed)
{
    pgtrace_event *buf = malloc((size_t)(capacity + GUARD) * sizeof *buf);
    int *hits = calloc((size_t)(capacity + GUARD), sizeof *hits);
    assert_non_null(buf);
    assert_non_null(hits);
    memset(buf, 0xA5, (size_t)(capacity + GUARD) * sizeof *buf);
    unsigned long long counter = 0;
    int64_t total = 0, written = 0;
    srand(seed);
    for (int c = 0; c < claims; c++) {
        const uint32_t n = 1 + (uint32_t)(rand() % 6);
        const unsigned long long base = counter; /* atomicAdd returns the old value */
        counter += n;
        total += n;
        const uint32_t fit = pgtrace_slots_fit(base, n, capacity);
        assert_true(fit <= n);
        for (uint32_t j = 0; j < fit; j++) {
            assert_true((int64_t)(base + j) < capacity);
            buf[base + j] = pgtrace_event_make(c % 132, 0, 0, c, j, (int64_t)(base + j), (int64_t)(base + j));
            hits[base + j]++;
            written++;
        }
    }
    assert_int_equal((int64_t)counter, total);
    assert_int_equal(pgtrace_recorded(counter, capacity), written);
    assert_int_equal(pgtrace_dropped(counter, capacity), total - written);
    assert_int_equal(written, total < capacity ? total : capacity);
    for (int64_t i = 0; i < written; i++) {
        assert_int_equal(hits[i], 1);
        assert_int_equal(buf[i].begin, i);
    }
    const unsigned char *guard = (const unsigned char *)(buf + capacity);
    for (size_t i = 0; i < GUARD * sizeof *buf; i++)
        assert_int_equal(guard[i], 0xA5);
    free(buf);
    free(hits);
}

static void test_counter_under_capacity(void **state)
{
    (void)state;
    emulate(100000, 1000, 1);
}

static void test_counter_overflow(void **state)
{
    (void)state;
    emulate(1000, 5000, 2);
    emulate(1, 50, 3);
    emulate(7, 7, 4);
}

/* The host's compaction keeps the written slots in slot order and drops
 * the ones the reset left empty (0xFF bytes). */
static void test_compact_fixed(void **state)
{
    (void)state;
    pgtrace_event ev[6];
    memset(ev, 0xFF, sizeof ev);
    ev[1] = pgtrace_event_make(3, 1, 0, 7, 2, 100, 200);
    ev[4] = pgtrace_event_make(4, 0, 1, 8, 5, 300, 400);
    ev[5] = pgtrace_event_make(5, 254, 0, 9, 0, 500, 600);
    assert_int_equal(pgtrace_compact_fixed(ev, 6), 3);
    assert_int_equal(ev[0].sm, 3);
    assert_int_equal(ev[0].tile, 7);
    assert_int_equal(ev[1].sm, 4);
    assert_int_equal(ev[1].phase, 5);
    assert_int_equal(ev[2].role, 254);
    assert_int_equal(ev[2].begin, 500);
    memset(ev, 0xFF, sizeof ev);
    assert_int_equal(pgtrace_compact_fixed(ev, 6), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_event_layout),       cmocka_unit_test(test_anchor_layout),
        cmocka_unit_test(test_event_make),         cmocka_unit_test(test_slots_fit_edges),
        cmocka_unit_test(test_counter_under_capacity), cmocka_unit_test(test_counter_overflow),
        cmocka_unit_test(test_compact_fixed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
