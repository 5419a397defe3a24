/* traces/phases.c: names and codes of warp roles and phases round-trip,
 * unknown names are refused with a message, and the names are the ones the
 * format documents (docs/format.md) -- they are part of the file format. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pg_error.h"
#include "phases.h"

static void test_role_round_trip(void **state)
{
    (void)state;
    for (int i = 0; i < PG_ROLE_COUNT; i++) {
        pg_role r = PG_ROLE_COUNT;
        const char *name = pg_role_name((pg_role)i);
        assert_int_equal(pg_role_parse(name, &r), 0);
        assert_int_equal(r, i);
        for (int j = 0; j < i; j++)
            assert_string_not_equal(name, pg_role_name((pg_role)j));
    }
}

static void test_phase_round_trip(void **state)
{
    (void)state;
    for (int i = 0; i < PG_PH_COUNT; i++) {
        pg_phase p = PG_PH_COUNT;
        const char *name = pg_phase_name((pg_phase)i);
        assert_int_equal(pg_phase_parse(name, &p), 0);
        assert_int_equal(p, i);
        for (int j = 0; j < i; j++)
            assert_string_not_equal(name, pg_phase_name((pg_phase)j));
    }
}

/* Written out independently of phases.c: renaming or reordering a phase
 * changes the file format and must be a deliberate schema change. */
static void test_names_are_the_documented_ones(void **state)
{
    (void)state;
    static const char *const roles[] = {"producer", "consumer", "mma", "epilogue"};
    static const char *const phases[] = {"order_wait",    "load_wait", "mainloop", "epilogue_regs", "epilogue_store",
                                         "producer_wait", "producer_issue", "epi_wait", "tma0_wait", "kloop",
                                         "ml_wait",       "phase1",    "phase2"};
    assert_int_equal(sizeof roles / sizeof roles[0], PG_ROLE_COUNT);
    assert_int_equal(sizeof phases / sizeof phases[0], PG_PH_COUNT);
    for (int i = 0; i < PG_ROLE_COUNT; i++)
        assert_string_equal(pg_role_name((pg_role)i), roles[i]);
    for (int i = 0; i < PG_PH_COUNT; i++)
        assert_string_equal(pg_phase_name((pg_phase)i), phases[i]);
}

static void test_unknown_names(void **state)
{
    (void)state;
    pg_role r = PG_ROLE_MMA;
    pg_phase p = PG_PH_KLOOP;
    pg_clear_error();
    assert_int_equal(pg_role_parse("warpgroup", &r), -1);
    assert_non_null(strstr(pg_last_error(), "warpgroup"));
    assert_int_equal(r, PG_ROLE_MMA); /* untouched on failure */
    assert_int_equal(pg_phase_parse("Mainloop", &p), -1); /* case matters */
    assert_non_null(strstr(pg_last_error(), "Mainloop"));
    assert_int_equal(pg_phase_parse("", &p), -1);
    assert_int_equal(p, PG_PH_KLOOP);
}

static void test_out_of_range_codes(void **state)
{
    (void)state;
    assert_string_equal(pg_role_name(PG_ROLE_COUNT), "?");
    assert_string_equal(pg_role_name((pg_role)-1), "?");
    assert_string_equal(pg_phase_name(PG_PH_COUNT), "?");
    assert_string_equal(pg_phase_name((pg_phase)200), "?");
}

static void test_waits(void **state)
{
    (void)state;
    int waits = 0;
    for (int i = 0; i < PG_PH_COUNT; i++) {
        int w = pg_phase_is_wait((pg_phase)i);
        const char *name = pg_phase_name((pg_phase)i);
        /* every phase named *_wait is a wait, and nothing else is */
        size_t n = strlen(name);
        int named_wait = n > 5 && strcmp(name + n - 5, "_wait") == 0;
        assert_int_equal(w, named_wait);
        waits += w;
    }
    assert_int_equal(waits, 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_role_round_trip),
        cmocka_unit_test(test_phase_round_trip),
        cmocka_unit_test(test_names_are_the_documented_ones),
        cmocka_unit_test(test_unknown_names),
        cmocka_unit_test(test_out_of_range_codes),
        cmocka_unit_test(test_waits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
