/* Compact fixed-slot mode on the host (pgtrace_slots.c): downloaded 16-byte
 * slots become full event records through the user's slot layout, with the
 * SM from the writing CTA's anchor; empty slots are skipped, drops are
 * counted, and a slot that cannot be named is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pgtrace_slots.h"

/* A toy schedule: 2 tiles per CTA, each tile 3 slots (consumer wait, consumer
 * math by warp tile % 2, producer issue); CTA c's local tile i is global tile
 * 2 * i + c; local tile 1 of CTA 2 does not exist (padding). */
enum { ROLE_P, ROLE_C };
enum { PH_WAIT, PH_MATH, PH_ISSUE };
#define SLOTS_PER_TILE 3
#define TILES_PER_CTA 2
#define N_CTAS 3
#define N_SLOTS (N_CTAS * TILES_PER_CTA * SLOTS_PER_TILE)

typedef struct {
    int calls;
    int fail_at;    /* slot index (in CTA) whose description fails, -1: none */
    int bad_phase;  /* 1: report phase 300 */
} toy_ctx;

static int toy_describe(void *ctx, int32_t cta, int64_t slot, pgtrace_slot_info *out)
{
    toy_ctx *c = ctx;
    c->calls++;
    if (slot == c->fail_at)
        return pgtrace_fail("toy layout: cannot name slot %lld", (long long)slot);
    const int32_t local = (int32_t)(slot / SLOTS_PER_TILE), ph = (int32_t)(slot % SLOTS_PER_TILE);
    if (cta == 2 && local == 1)
        return 0;
    out->role = ph == PH_ISSUE ? ROLE_P : ROLE_C;
    out->warp = ph == PH_ISSUE ? 0 : local % 2;
    out->tile = 2 * local + cta;
    out->phase = c->bad_phase ? 300u : (uint32_t)ph;
    return 1;
}

static pgtrace_span g_spans[N_SLOTS];

/* Every slot empty, CTAs 0..2 anchored on SMs 4, 9 and 4. */
static void make_trace(pgtrace_trace *t)
{
    memset(t, 0, sizeof *t);
    memset(g_spans, 0xFF, sizeof g_spans);
    t->n_anchors = N_CTAS;
    t->anchors = calloc(N_CTAS, sizeof *t->anchors);
    assert_non_null(t->anchors);
    const int32_t sms[N_CTAS] = {4, 9, 4};
    for (int c = 0; c < N_CTAS; c++)
        t->anchors[c] = (pgtrace_anchor){100 * c, 1000, 100 * c + 50, 1025, sms[c], sms[c]};
}

static void put(int cta, int local, int ph, int64_t begin, int64_t end)
{
    g_spans[(cta * TILES_PER_CTA + local) * SLOTS_PER_TILE + ph] = (pgtrace_span){begin, end};
}

static void assert_event(const pgtrace_event *e, int sm, int role, int warp, int tile, int phase, int64_t b, int64_t en)
{
    assert_int_equal(e->sm, sm);
    assert_int_equal(e->role, role);
    assert_int_equal(e->warp, warp);
    assert_int_equal(e->tile, tile);
    assert_int_equal(e->phase, phase);
    assert_int_equal(e->begin, b);
    assert_int_equal(e->end, en);
}

static void test_expand_in_slot_order(void **state)
{
    (void)state;
    pgtrace_trace t;
    make_trace(&t);
    put(0, 0, PH_WAIT, 10, 20);
    put(0, 0, PH_MATH, 20, 70);
    put(0, 1, PH_ISSUE, 30, 35);
    put(1, 1, PH_MATH, 0, 0);       /* a zero-length interval is written, not empty */
    put(2, 0, PH_WAIT, 500, 800);
    t.dropped = 3;
    toy_ctx ctx = {0, -1, 0};
    const pgtrace_slot_layout layout = {TILES_PER_CTA * SLOTS_PER_TILE, toy_describe, &ctx};
    assert_int_equal(pgtrace_expand_slots(&t, g_spans, &layout), 0);
    assert_int_equal(t.n_events, 5);
    assert_int_equal(ctx.calls, 5); /* the layout is asked about written slots only */
    assert_int_equal(t.capacity, N_SLOTS);
    assert_int_equal(t.dropped, 3);
    assert_int_equal(t.count, 8);
    assert_event(&t.events[0], 4, ROLE_C, 0, 0, PH_WAIT, 10, 20);
    assert_event(&t.events[1], 4, ROLE_C, 0, 0, PH_MATH, 20, 70);
    assert_event(&t.events[2], 4, ROLE_P, 0, 2, PH_ISSUE, 30, 35);
    assert_event(&t.events[3], 9, ROLE_C, 1, 3, PH_MATH, 0, 0);
    assert_event(&t.events[4], 4, ROLE_C, 0, 2, PH_WAIT, 500, 800);
    pgtrace_trace_free(&t);
}

static void test_all_empty_counts_drops(void **state)
{
    (void)state;
    pgtrace_trace t;
    make_trace(&t);
    t.dropped = 7;
    toy_ctx ctx = {0, -1, 0};
    const pgtrace_slot_layout layout = {TILES_PER_CTA * SLOTS_PER_TILE, toy_describe, &ctx};
    assert_int_equal(pgtrace_expand_slots(&t, g_spans, &layout), 0);
    assert_int_equal(t.n_events, 0);
    assert_int_equal(t.count, 7);
    assert_int_equal(ctx.calls, 0);
    pgtrace_trace_free(&t);
}

/* One failing case: spans as given, expansion must fail with `msg` in the
 * error and leave no events. */
static void expect_refused(pgtrace_trace *t, const pgtrace_slot_layout *layout, const char *msg)
{
    assert_int_equal(pgtrace_expand_slots(t, g_spans, layout), -1);
    assert_null(t->events);
    assert_int_equal(t->n_events, 0);
    if (!strstr(pgtrace_last_error(), msg))
        fail_msg("error '%s' lacks '%s'", pgtrace_last_error(), msg);
    pgtrace_trace_free(t);
}

static void test_unanchored_cta_refused(void **state)
{
    (void)state;
    pgtrace_trace t;
    make_trace(&t);
    memset(&t.anchors[1], 0xFF, sizeof t.anchors[1]);
    put(1, 0, PH_MATH, 5, 6);
    toy_ctx ctx = {0, -1, 0};
    const pgtrace_slot_layout layout = {TILES_PER_CTA * SLOTS_PER_TILE, toy_describe, &ctx};
    expect_refused(&t, &layout, "slot 7 (CTA 1, slot 1) was written but CTA 1 has no start anchor");
}

static void test_padding_slot_written_refused(void **state)
{
    (void)state;
    pgtrace_trace t;
    make_trace(&t);
    put(2, 1, PH_ISSUE, 5, 6);
    toy_ctx ctx = {0, -1, 0};
    const pgtrace_slot_layout layout = {TILES_PER_CTA * SLOTS_PER_TILE, toy_describe, &ctx};
    expect_refused(&t, &layout, "slot 17 (CTA 2, slot 5) was written but the layout records nothing there");
}

static void test_layout_errors_pass_through(void **state)
{
    (void)state;
    pgtrace_trace t;
    make_trace(&t);
    put(0, 1, PH_WAIT, 5, 6);
    toy_ctx ctx = {0, 3, 0};
    const pgtrace_slot_layout layout = {TILES_PER_CTA * SLOTS_PER_TILE, toy_describe, &ctx};
    expect_refused(&t, &layout, "toy layout: cannot name slot 3");

    make_trace(&t);
    put(0, 0, PH_WAIT, 5, 6);
    toy_ctx bad = {0, -1, 1};
    const pgtrace_slot_layout bad_layout = {TILES_PER_CTA * SLOTS_PER_TILE, toy_describe, &bad};
    expect_refused(&t, &bad_layout, "role 1 and phase 300");
}

static void test_bad_layout_refused(void **state)
{
    (void)state;
    pgtrace_trace t;
    make_trace(&t);
    toy_ctx ctx = {0, -1, 0};
    const pgtrace_slot_layout no_slots = {0, toy_describe, &ctx};
    expect_refused(&t, &no_slots, "slots_per_cta >= 1");
    make_trace(&t);
    const pgtrace_slot_layout no_fn = {6, NULL, &ctx};
    expect_refused(&t, &no_fn, "describe callback");
}

/* The expanded trace goes through pgtrace_emit like a counted one. */
static const char *const k_roles[] = {"producer", "consumer"};
static const char *const k_phases[] = {"wait", "math", "issue"};
static const unsigned char k_waits[] = {1, 0, 0};
static const pgtrace_vocab k_vocab = {2, k_roles, 3, k_phases, k_waits};

static int capture(void *ctx, const pgtrace_view *v)
{
    *(int64_t *)ctx = v->n_events * 1000 + v->dropped;
    return 0;
}

static void test_expanded_trace_emits(void **state)
{
    (void)state;
    pgtrace_trace t;
    make_trace(&t);
    put(1, 0, PH_WAIT, 1, 2);
    put(1, 0, PH_MATH, 2, 9);
    t.dropped = 1;
    t.sm_count = 16;
    toy_ctx ctx = {0, -1, 0};
    const pgtrace_slot_layout layout = {TILES_PER_CTA * SLOTS_PER_TILE, toy_describe, &ctx};
    assert_int_equal(pgtrace_expand_slots(&t, g_spans, &layout), 0);
    int64_t seen = -1;
    assert_int_equal(pgtrace_emit(&t, &k_vocab, "toy", capture, &seen), 0);
    assert_int_equal(seen, 2 * 1000 + 1);
    pgtrace_trace_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_expand_in_slot_order),     cmocka_unit_test(test_all_empty_counts_drops),
        cmocka_unit_test(test_unanchored_cta_refused),   cmocka_unit_test(test_padding_slot_written_refused),
        cmocka_unit_test(test_layout_errors_pass_through), cmocka_unit_test(test_bad_layout_refused),
        cmocka_unit_test(test_expanded_trace_emits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
