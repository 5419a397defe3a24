/* Design contests (model/contest.h): ranking by the larger of the model's
 * wall clock and the DRAM floor, measured results and ranking checks, and
 * the file errors. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "contest.h"
#include "pg_error.h"

static char g_path[64];

static const char *write_file(const char *text)
{
    snprintf(g_path, sizeof g_path, "contest_%d.txt", (int)getpid());
    FILE *f = fopen(g_path, "w");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
    return g_path;
}

/* Two designs of h100-dual-inter that differ only in cycles per k-block,
 * on a shape whose DRAM floor binds only the slow machine. */
static const char k_contest[] = "contest t\n"
                                "machine fast bytes_per_s=1e15\n"
                                "machine slow bytes_per_s=1e9\n"
                                "shape s flops=2.4052e11 bytes=5e8   # 500 ms at 1 GB/s\n"
                                "entry fast a s h100-dual-inter tiles=132 kb_compute=1000\n"
                                "entry fast b s h100-dual-inter tiles=132 kb_compute=1500\n"
                                "entry slow a s h100-dual-inter tiles=132 kb_compute=1000\n";

static const pg_model_opts k_opts = {2000, 1, 0};

static void test_rank_and_floor(void **state)
{
    (void)state;
    pg_contest c;
    assert_int_equal(pg_contest_load(write_file(k_contest), &c), 0);
    assert_int_equal(c.n, 3);
    assert_int_equal(pg_contest_predict(&c, &k_opts), 0);
    /* b computes 1.5x the cycles per k-block: slower, ranked second */
    assert_int_equal(c.e[0].rank, 1);
    assert_int_equal(c.e[1].rank, 2);
    assert_true(c.e[1].pr.tile_period > 1.3 * c.e[0].pr.tile_period);
    /* one tile per SM: the wall clock is about one tile period */
    assert_false(c.e[0].dram_bound);
    assert_true(c.e[0].predicted_us == c.e[0].model_us);
    /* the slow machine is DRAM-bound: 5e8 B at 1e9 B/s = 500,000 us */
    assert_true(c.e[2].dram_bound);
    assert_true(fabs(c.e[2].predicted_us - 5e5) < 1e-6);
    assert_int_equal(c.e[2].rank, 1); /* alone in its group */
    int checked;
    assert_int_equal(pg_contest_rank_misses(&c, &checked), -1); /* nothing measured */
    pg_contest_free(&c);
    unlink(g_path);
}

static void test_measured(void **state)
{
    (void)state;
    pg_contest c;
    assert_int_equal(pg_contest_load(write_file(k_contest), &c), 0);
    /* measured: b faster than a, against the prediction */
    assert_int_equal(pg_contest_load_measured(write_file("measured fast a s wall_us=50 period=70000 producer_wait=0\n"
                                                         "measured fast b s wall_us=40\n"),
                                              &c),
                     0);
    assert_int_equal(pg_contest_predict(&c, &k_opts), 0);
    assert_int_equal(c.e[0].measured_rank, 2);
    assert_int_equal(c.e[1].measured_rank, 1);
    assert_true(c.e[0].m_period == 70000);
    assert_int_equal(c.e[0].m_nwaits, 1);
    assert_true(isnan(c.e[1].m_period));
    int checked;
    assert_int_equal(pg_contest_rank_misses(&c, &checked), 1);
    assert_int_equal(checked, 1); /* the slow group has no measurement */
    pg_contest_free(&c);
    /* measured as predicted: no miss */
    assert_int_equal(pg_contest_load(write_file(k_contest), &c), 0);
    assert_int_equal(
        pg_contest_load_measured(write_file("measured fast a s wall_us=40\nmeasured fast b s wall_us=50\n"), &c), 0);
    assert_int_equal(pg_contest_predict(&c, &k_opts), 0);
    assert_int_equal(pg_contest_rank_misses(&c, &checked), 0);
    pg_contest_free(&c);
    unlink(g_path);
}

static void expect_load_error(const char *text, const char *needle)
{
    pg_contest c;
    assert_int_equal(pg_contest_load(write_file(text), &c), -1);
    if (!strstr(pg_last_error(), needle))
        fail_msg("error '%s' lacks '%s'", pg_last_error(), needle);
    unlink(g_path);
}

static void test_errors(void **state)
{
    (void)state;
    expect_load_error("contest t\nentry m d s h100-dual-inter\n", ":2: unknown machine");
    expect_load_error("contest t\nmachine m bytes_per_s=0\n", "positive number");
    expect_load_error("contest t\nmachine m bytes_per_s=1e9\nshape s flops=1 bytes=x\n", "positive number");
    expect_load_error("contest t\nmachine m bytes_per_s=1e9\nmachine m bytes_per_s=2e9\n", "defined twice");
    expect_load_error("contest t\nmachine m bytes_per_s=1e9\nshape s flops=1 bytes=1\nentry m d s x\nentry m d s x\n",
                      "second entry");
    expect_load_error("contest t\nbogus\n", "unknown directive");
    expect_load_error("contest t\n", "at least one entry");
    expect_load_error("contest t\nmachine m/x bytes_per_s=1\n", "names are");
    /* an entry whose schedule does not exist fails at prediction, naming the entry */
    pg_contest c;
    assert_int_equal(
        pg_contest_load(write_file("contest t\nmachine m bytes_per_s=1e9\nshape s flops=1 bytes=1\n"
                                   "entry m d s no-such-schedule\n"),
                        &c),
        0);
    assert_int_equal(pg_contest_predict(&c, &k_opts), -1);
    assert_non_null(strstr(pg_last_error(), "entry m d s (line 4)"));
    /* measured lines must name entries */
    assert_int_equal(pg_contest_load_measured(write_file("measured m x s wall_us=1\n"), &c), -1);
    assert_non_null(strstr(pg_last_error(), "no such entry"));
    assert_int_equal(pg_contest_load_measured(write_file("measured m d s period=1\n"), &c), -1);
    assert_non_null(strstr(pg_last_error(), "wall_us"));
    pg_contest_free(&c);
    unlink(g_path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rank_and_floor),
        cmocka_unit_test(test_measured),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
