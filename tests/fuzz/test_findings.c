/* Regression tests for what fuzzing found in the parsers this suite may
 * fix (docs/reliability.md, findings table).  Each test states the
 * input class the fuzzer produced and the behaviour now required. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "expr.h"
#include "model_ext.h"
#include "pg_error.h"

/* `n` copies of `unit` followed by `tail`, as a malloc'd string. */
static char *repeat(const char *unit, size_t n, const char *tail)
{
    size_t u = strlen(unit), t = strlen(tail);
    char *s = malloc(u * n + t + 1);
    assert_non_null(s);
    for (size_t i = 0; i < n; i++)
        memcpy(s + i * u, unit, u);
    memcpy(s + u * n, tail, t + 1);
    return s;
}

/* F1 (fuzz_expr): "((((...", "----...1" and mixes recursed once per
 * character and ran off the stack (ASan stack-overflow in parse_atom).
 * Now: a clean error that says what is wrong, at any length. */
static void test_expr_deep_nesting_is_an_error(void **state)
{
    (void)state;
    static const char *const units[] = {"(", "-", "-(", "1*(", "max(", "min(1,"};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        char *s = repeat(units[i], 1000000, "1");
        double v = 0;
        pg_clear_error();
        assert_int_equal(expr_eval(s, 0, &v), -1);
        assert_non_null(strstr(pg_last_error(), "deep"));
        free(s);
    }
}

/* Nesting a schedule could use still evaluates, up to the limit. */
static void test_expr_nesting_within_limit(void **state)
{
    (void)state;
    char *open = repeat("(", 60, "2"), *close = repeat(")", 60, "");
    char *s = malloc(strlen(open) + strlen(close) + 1);
    assert_non_null(s);
    strcpy(s, open);
    strcat(s, close);
    double v = 0;
    assert_int_equal(expr_eval(s, 0, &v), 0);
    assert_true(v == 2.0);
    char *neg = repeat("-", 64, "3"); /* an even count of minus signs */
    assert_int_equal(expr_eval(neg, 0, &v), 0);
    assert_true(v == 3.0);
    assert_int_equal(expr_eval("-(-(warp))*2", 1.5, &v), 0);
    assert_true(v == 3.0);
    free(neg);
    free(s);
    free(close);
    free(open);
}

/* max(A,B) / min(A,B) (a schedule's fraction held in range, M42) and
 * ceil(A) (M71): their values, and a call without its arguments or its ')'
 * is an error. */
static void test_expr_max_min(void **state)
{
    (void)state;
    double v = -1;
    assert_int_equal(expr_eval("max(0,(3-4)/3)", 0, &v), 0);
    assert_true(v == 0.0);
    assert_int_equal(expr_eval("max(0,(6-4)/6)*3", 0, &v), 0);
    assert_true(v == 1.0);
    assert_int_equal(expr_eval("2+min(warp,5)", 7, &v), 0);
    assert_true(v == 7.0);
    /* ceil(A) (M71: the tile offset of the slot the ring's last stage reuses) */
    assert_int_equal(expr_eval("ceil((4+1-4)/4)", 0, &v), 0);
    assert_true(v == 1.0);
    assert_int_equal(expr_eval("max(0,ceil((4+1-6)/6))", 0, &v), 0);
    assert_true(v == 0.0);
    assert_int_equal(expr_eval("ceil(2)+ceil(-0.5)", 0, &v), 0);
    assert_true(v == 2.0);
    static const char *const bad[] = {"max(1)", "max(1,2", "min(,2)", "max1,2)", "max(1,2)3", "ceil(1,2)", "ceil(1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pg_clear_error();
        assert_int_equal(expr_eval(bad[i], 0, &v), -1);
        assert_non_null(strstr(pg_last_error(), "not a number or arithmetic expression"));
    }
}

/* The h100-pingpong schedule with one more line (and the rest as is). */
static char *pingpong_plus(const char *extra)
{
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load("h100-pingpong", &s), 0);
    const char *text = pg_schedule_text(s);
    char *out = malloc(strlen(text) + strlen(extra) + 2);
    assert_non_null(out);
    sprintf(out, "%s\n%s", text, extra);
    pg_schedule_free(s);
    return out;
}

/* F2 (fuzz_sched): an option declared twice parsed, and the writer then
 * wrote every declaration of the name once per line, so the written
 * schedule grew past 16 options and no longer parsed.  Now the second
 * declaration is an error naming both lines. */
static void test_sched_duplicate_option_is_an_error(void **state)
{
    (void)state;
    char *text = pingpong_plus("option epi_delay 5");
    pg_schedule *s = NULL;
    pg_clear_error();
    assert_int_equal(pg_schedule_load_text(text, "dup", &s), -1);
    assert_null(s);
    assert_non_null(strstr(pg_last_error(), "'epi_delay' is declared twice"));
    free(text);
}

/* ... and a name longer than the schedule keeps (it would be cut, and the
 * writer would no longer match it to its line) is refused, not truncated. */
static void test_sched_long_option_name_is_an_error(void **state)
{
    (void)state;
    char line[300] = "option ";
    memset(line + 7, 'x', 200);
    strcpy(line + 207, " 1");
    char *text = pingpong_plus(line);
    pg_schedule *s = NULL;
    assert_int_equal(pg_schedule_load_text(text, "long", &s), -1);
    assert_non_null(strstr(pg_last_error(), "longer than"));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_expr_deep_nesting_is_an_error),
        cmocka_unit_test(test_expr_nesting_within_limit),
        cmocka_unit_test(test_expr_max_min),
        cmocka_unit_test(test_sched_duplicate_option_is_an_error),
        cmocka_unit_test(test_sched_long_option_name_is_an_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
