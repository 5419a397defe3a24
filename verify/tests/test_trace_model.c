/* The measured-vs-model comparison flags exactly the figures outside the
 * stated tolerance (independent of what the model predicts), and the
 * tolerance option parses as documented. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "pg_error.h"
#include "trace_model.h"

static void stat_set(pg_stat *s, const char *name, double mean, double p50, double p95)
{
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->mean = mean, s->p50 = p50, s->p95 = p95;
}

static const pg_trace_cmp_row *row(const pg_trace_cmp *c, const char *name)
{
    for (int i = 0; i < c->nrows; i++)
        if (strcmp(c->rows[i].name, name) == 0)
            return &c->rows[i];
    fail_msg("no row %s", name);
    return NULL;
}

static void test_flags_outside_tolerance(void **state)
{
    (void)state;
    pg_prediction m, p;
    memset(&m, 0, sizeof m);
    memset(&p, 0, sizeof p);
    m.nphases = 1, p.nphases = 1;
    stat_set(&m.phases[0], "mainloop", 4000, 3900, 5000);
    stat_set(&p.phases[0], "mainloop", 4500, 3900, 5800); /* +500 < 600 allowed; p95 +800 > 750 */
    m.nwaits = 2, p.nwaits = 1;
    stat_set(&m.waits[0], "order_wait", 100, 50, 400);
    stat_set(&p.waits[0], "order_wait", 240, 200, 560); /* floor 150 applies: +140 ok, +150 ok, +160 flagged */
    stat_set(&m.waits[1], "load_wait", 10, 10, 10);     /* the model has no load_wait: flagged */
    m.tile_period = 5000, p.tile_period = 5800;         /* +800 > 750 */
    m.wall_ms = 1.0, p.wall_ms = 1.149;                 /* within 15%, no cycle floor */
    pg_trace_cmp c;
    pg_trace_compare_stats(&m, &p, pg_tolerance_default(), &c);
    assert_int_equal(c.nrows, 3 * 3 + 2);
    assert_false(row(&c, "mainloop.mean")->flagged);
    assert_false(row(&c, "mainloop.p50")->flagged);
    assert_true(row(&c, "mainloop.p95")->flagged);
    assert_false(row(&c, "order_wait.mean")->flagged);
    assert_false(row(&c, "order_wait.p50")->flagged);
    assert_true(row(&c, "order_wait.p95")->flagged);
    assert_true(fabs(row(&c, "order_wait.mean")->allowed - 150) < 1e-9);
    assert_true(row(&c, "load_wait.mean")->flagged);
    assert_true(row(&c, "tile_period")->flagged);
    assert_false(row(&c, "wall_ms")->flagged);
    assert_int_equal(c.flagged, 1 + 1 + 3 + 1);

    /* a looser tolerance clears the phase and period figures */
    pg_tolerance loose = {.rel = 0.2, .abs_cycles = 200};
    pg_trace_compare_stats(&m, &p, loose, &c);
    assert_false(row(&c, "mainloop.p95")->flagged);
    assert_false(row(&c, "tile_period")->flagged);
    assert_false(row(&c, "order_wait.p95")->flagged);
    assert_int_equal(c.flagged, 3); /* load_wait is missing from the model whatever the tolerance */

    /* a non-finite prediction is a disagreement */
    p.wall_ms = NAN;
    pg_trace_compare_stats(&m, &p, loose, &c);
    assert_true(row(&c, "wall_ms")->flagged);
}

static void test_tolerance_parse(void **state)
{
    (void)state;
    pg_tolerance t;
    assert_int_equal(pg_tolerance_parse("0.1", &t), 0);
    assert_true(fabs(t.rel - 0.1) < 1e-12 && fabs(t.abs_cycles - 150) < 1e-12);
    assert_int_equal(pg_tolerance_parse("20%,300", &t), 0);
    assert_true(fabs(t.rel - 0.2) < 1e-12 && fabs(t.abs_cycles - 300) < 1e-12);
    assert_int_equal(pg_tolerance_parse("0.05,0", &t), 0);
    assert_true(t.abs_cycles == 0);
    static const char *const bad[] = {"", "abc", "0.1,", "0.1,x", "-0.1", "0.1,-5", "nan", "0.1;5", "10%%"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(pg_tolerance_parse(bad[i], &t), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flags_outside_tolerance),
        cmocka_unit_test(test_tolerance_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
